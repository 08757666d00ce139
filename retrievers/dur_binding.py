"""Which products a DUR row binds beyond its dosage forms (retrievers/form_kinds.py): the ingredient written two
ways, and a 복합 row's mix (its other ingredients, `combination` in the row's metadata) held by the product. Read by
the answer's safety decision (programs/forbidden.py) and by retrieval, which puts a named product's own rows first.

Example:
    >>> same_name("슈도에페드린염산염", "슈도에페드린"), same_name("아세트아미노펜", "이부프로펜")
    (True, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from retrievers import form_kinds

FORMS = re.compile(r"\s*대상 제형:\s*([^.]*)\.\s*$")  # the forms a rule binds, as retrievers/corpus.py writes it


def same_name(a: str, b: str) -> bool:
    """The same ingredient written two ways (슈도에페드린염산염 and 슈도에페드린): one holds the other, spaces and case
    ignored. Broad on purpose: a match too many forbids, never permits."""
    a, b = "".join(a.split()).lower(), "".join(b.split()).lower()
    return bool(a and b) and (a == b or (min(len(a), len(b)) >= 2 and (a in b or b in a)))


COMBINATION_SHARE = 0.5  # of a 복합 row's other ingredients a product holds at least this share to be that mix
_DI = re.compile(r"디(?=칼륨|나트륨|칼슘|마그네슘|수소)")  # di- of a salt, written 디 or 이 (글리시리진산디칼륨)


def holds_combination(rule, ingredients, same: Callable[[str, str], bool] = same_name) -> bool:
    """Whether a product of `ingredients` is the combination a DUR row binds: True for a row about its ingredient
    alone; for a 복합 row (`combination` in its metadata: the mix's other ingredients), when the product holds at
    least `COMBINATION_SHARE` of them (written a little differently: 리파제Ⅱ is 리파제, 디아스타제∙프로테아제 the
    same as 디아스타제·프로테아제, 글리시리진산디칼륨 as 글리시리진산이칼륨): half of the mix is doubt enough to bind,
    as a doubt forbids. A digestive of 탄산칼슘 holding none of the mix's 히드로탈시트, oils or enzymes is not bound
    by the mix's age limit.

    >>> from retrievers.documents import Document
    >>> mix = Document("dur:bc:1", "…", {"combination": "시나몬유, 히드로탈시트, 리파제Ⅱ, 프로자임"})
    >>> holds_combination(mix, ("탄산칼슘", "리파제", "프로자임", "히드로탈시트"))
    True
    >>> holds_combination(mix, ("리파제Ⅱ", "프로자임")), holds_combination(mix, ("탄산칼슘", "프로자임"))
    (True, False)
    >>> spray = Document("dur:bc:3", "…", {"combination": "글리시리진산이칼륨, 나파졸린"})
    >>> holds_combination(spray, ("나파졸린염산염", "클로르페니라민말레산염", "글리시리진산디칼륨"))
    True
    >>> holds_combination(Document("dur:bc:2", "…", {"ingredient": "탄산칼슘"}), ("탄산칼슘",))
    True
    """
    partners = [p for p in str(rule.metadata.get("combination") or "").split(", ") if p]
    if not partners:
        return True
    held = sum(any(same(_plain(p), _plain(i)) for i in ingredients) for p in partners)
    return held >= COMBINATION_SHARE * len(partners)


def _plain(name: str) -> str:
    """An ingredient's letters only, di- as 이 (리파제Ⅱ → 리파제, 디아스타제∙프로테아제 → 디아스타제프로테아제,
    글리시리진산디칼륨 → 글리시리진산이칼륨)."""
    return _DI.sub("이", "".join(c for c in name if c.isalpha()))


def rule_forms(text: str) -> tuple[str, ...]:
    """The dosage forms the rule binds, as the DUR file writes them ("연질캡슐제, 액상" is one form: a soft capsule
    with a liquid fill); () when it binds every form.

    >>> rule_forms("[임부금기] 가(A)은(는) … 대상 제형: 연질캡슐제, 액상/정제.")
    ('연질캡슐제, 액상', '정제')
    """
    m = FORMS.search(text)
    return tuple(f.strip() for f in m.group(1).split("/") if f.strip()) if m else ()


def binds_product(rule, item_name: str, ingredients, same: Callable[[str, str], bool] = same_name) -> bool:
    """Whether the rule binds a product of this name and these ingredients beyond holding its ingredient: the
    product's dosage form is one the rule lists (`form_kinds.binds`) and it is the rule's mix (`holds_combination`).

    >>> from retrievers.documents import Document
    >>> rule = Document("dur:bc:1", "[특정연령대금기] … 대상 제형: 서방정.", {"ingredient": "아세트아미노펜"})
    >>> binds_product(rule, "타이레놀8시간이알서방정", ("아세트아미노펜",)), binds_product(rule, "세토펜현탁액", ())
    (True, False)
    """
    return form_kinds.binds(rule_forms(rule.text), item_name) and holds_combination(rule, ingredients, same)
