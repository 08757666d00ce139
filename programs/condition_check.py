"""A disease the question says the one taking it has, which the named product's leaflet never speaks of: 고혈압 있으면
슬리펠 먹으면 안되나요 — 슬리펠정's leaflet names no 고혈압, so whatever it quotes must not read as leave to take it.
The answer then says so (`NOTICE`), as it does of an asked aspect the leaflets are silent on.

The diseases are the reviewed ones `programs.asker_condition.stated_conditions` reads; a leaflet speaks of one when any
section writes it as the leaflets do (`programs.leaflet_condition_limit.forms`: 전립선비대증 → 전립선비대, 위궤양 →
위장관궤양, 신부전 → 신장애).

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_seq": "1", "item_name": "슬리펠정"}
    >>> docs = [Document("easydrug:1:atpn", "슬리펠정\\n녹내장, 전립선비대 환자는 복용하지 마십시오.", meta)]
    >>> named = lambda doc: True
    >>> unspoken_conditions("고혈압 있으면 슬리펠 먹으면 안되나요", docs, named)
    ['고혈압']
    >>> unspoken_conditions("전립선 비대증 있는데 슬리펠 먹어도", docs, named)
    []
    >>> unspoken_conditions("파킨슨약 드시는 아버지 슬리펠 드려도", docs, named)
    []
    >>> signs = [Document("easydrug:2:atpn", "코감기약\\n배뇨(소변을 눔)곤란 등이 있는 사람은 상의하십시오.", meta)]
    >>> unspoken_conditions("전립선비대증인데 코감기약 계속 먹어도", signs, named)
    []
    >>> notice(["고혈압"], ["슬리펠정"])
    '※ 슬리펠정의 설명서에는 고혈압에 대한 내용이 없습니다. 써도 되는지는 의사나 약사와 상의하세요.'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from programs.asker_condition import stated_conditions
from programs.citations import short_product
from programs.leaflet_condition_limit import forms
from retrievers.documents import Document
from retrievers.not_covered import kinds_said

NOTICE = "※ {products}의 설명서에는 {conditions}에 대한 내용이 없습니다. 써도 되는지는 의사나 약사와 상의하세요."
NOT_SITES = ("눈 주위",)  # where it is put on, not a disease: the leaflets' own site cautions speak of it
MEDICINE_KIND = re.compile(r"[가-힣]+약")  # 파킨슨약, 고혈압약: a kind of medicine by what it is for
# a disease a leaflet speaks of by the trouble it brings (domain knowledge, reviewed): an enlarged prostate is the
# cautions' 배뇨곤란, 배뇨(소변을 눔)곤란, 요폐
SIGNS = {"전립선비대증": ("배뇨", "요폐")}


def unspoken_conditions(question: str, docs: list[Document], named: Callable[[Document], bool]) -> list[str]:
    """The stated diseases that no section of the named products' leaflets among `docs` writes ([] when the question
    states none or names no product whose leaflet is among them)."""
    # a disease said only by the kind of medicine taken for it (파킨슨약, 혈압약) is no condition to look up: the
    # leaflet speaks of the medicine (레보도파와 함께 복용하지 마십시오, 혈압강하제)
    without_kinds = MEDICINE_KIND.sub(" ", question)
    stated = [c for c in stated_conditions(without_kinds) if c not in NOT_SITES]
    text = _named_text(docs, named) if stated else ""
    if not text:
        return []
    return [c for c in stated if not any(f in text for f in (*forms(c), *SIGNS.get(c, ())))]


def _named_text(docs: list[Document], named: Callable[[Document], bool]) -> str:
    """The named products' leaflet sections among `docs`, spaces removed ("" for none)."""
    return "".join("".join(d.text.split()) for d in docs if d.id.startswith("easydrug:") and named(d))


def unspoken_kinds(question: str, docs: list[Document], named: Callable[[Document], bool]) -> list[str]:
    """The prescription kinds the question says are taken (혈압약 먹는 사람은 타이레놀 먹어도), as written, that no
    section of the named products' leaflets among `docs` speaks of by the leaflets' words for the kind (혈압강하제,
    고혈압) or one of its ingredients ([] when it names none, or names no product whose leaflet is among them).

    >>> from retrievers.documents import Document
    >>> meta = {"item_seq": "1", "item_name": "타이레놀정"}
    >>> docs = [Document("easydrug:1:intrc", "타이레놀정\\n와파린과 함께 복용 시 상의하십시오.", meta)]
    >>> unspoken_kinds("혈압약 먹는 사람은 타이레놀 먹어도 되나요", docs, lambda doc: True)
    ['혈압약']
    >>> unspoken_kinds("와파린 먹는데 타이레놀", docs, lambda doc: True), unspoken_kinds("타이레놀 먹어도", docs, bool)
    ([], [])
    """
    kinds = kinds_said(question)
    text = _named_text(docs, named) if kinds else ""
    if not text:
        return []
    return [k for k, words in kinds.items() if not any("".join(w.split()) in text for w in words)]


def product_names(docs: list[Document], named: Callable[[Document], bool]) -> list[str]:
    """The named products' names, as answers write them, in document order."""
    return list(dict.fromkeys(short_product(d) for d in docs if d.id.startswith("easydrug:") and named(d)))


def notice(conditions: list[str], products: list[str]) -> str:
    return NOTICE.format(products=", ".join(products), conditions=", ".join(conditions))
