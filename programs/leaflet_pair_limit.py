"""A product whose own leaflet forbids taking it with a kind of medicine the user takes ("다른 해열진통제, 다른
소염(항염)진통제 … 와 함께 복용하지 마십시오"): a rule of the user's like a DUR 병용금기 row, so a user on aspirin is
not offered 게보린 for period pain. DUR pairs ingredients by name and has no row for two over-the-counter
painkillers; the leaflets pair them by kind, and these two kinds are nearly all the kinds their "함께 … 하지
마십시오" lines name, beside the diuretics a blood-pressure patient takes (… 아스피린, 이뇨제, 리튬 …; 감초 products'
티아지드계 이뇨제).

Which kind a medicine the user takes is comes from its ingredients (`KINDS`, genuine domain knowledge: aspirin is a
해열진통제 and a 소염진통제; checked against the leaflets' 효능 in a test), read from the medicine as the profile writes
it — an ingredient (아스피린), or a product the name index knows (타이레놀 → its ingredients).

Example:
    >>> forbids("다른 소염(항염)진통제, 다른 해열진통제와 함께 이 약을 복용하지 마십시오.", ("소염진통제",))
    '소염진통제'
    >>> forbids("다른 해열진통제와 함께 복용 시 의사 또는 약사와 상의하십시오.", ("해열진통제",))
    ''
"""

from __future__ import annotations

import re

from programs.leaflet_group_limit import CONSULT, first_rule  # one rule form and one reading of "consult"
from retrievers.documents import Document
from retrievers.name_keys import ingredient_key
from retrievers.not_covered import kind_ingredients

SECTIONS = ("intrc", "atpnWarn", "atpn")
# the kinds each ingredient belongs to, by its canonical key (retrievers/name_keys.ingredient_key)
KINDS = {
    "아세트아미노펜": ("해열진통제",),
    "이소프로필안티피린": ("해열진통제",),
    "아스피린": ("해열진통제", "소염진통제"),
    "아세틸살리실산": ("해열진통제", "소염진통제"),
    "이부프로펜": ("해열진통제", "소염진통제"),
    "덱시부프로펜": ("해열진통제", "소염진통제"),
    "나프록센": ("해열진통제", "소염진통제"),
    "케토프로펜": ("소염진통제",),
    "록소프로펜": ("소염진통제",),
    "디클로페낙": ("소염진통제",),
    "케토롤락": ("소염진통제",),
    "멜록시캄": ("소염진통제",),
    "세레콕시브": ("소염진통제",),
    # diuretics (blood-pressure medicines): the leaflets forbid painkillers, licorice and calcium with 이뇨제, and
    # some with 티아지드계 이뇨제 alone
    "히드로클로로티아지드": ("이뇨제", "티아지드계 이뇨제", "혈압강하제"),
    "하이드로클로로티아지드": ("이뇨제", "티아지드계 이뇨제", "혈압강하제"),
    "클로르탈리돈": ("이뇨제", "티아지드계 이뇨제", "혈압강하제"),
    "인다파미드": ("이뇨제", "티아지드계 이뇨제", "혈압강하제"),
    "푸로세미드": ("이뇨제", "루프계 이뇨제", "푸로세미드"),
    "후로세미드": ("이뇨제", "루프계 이뇨제", "푸로세미드"),
    "토르세미드": ("이뇨제", "루프계 이뇨제"),
    "토라세미드": ("이뇨제", "루프계 이뇨제"),
    "스피로노락톤": ("이뇨제", "칼륨보전 이뇨제"),
    "스피로놀락톤": ("이뇨제", "칼륨보전 이뇨제"),
    # blood-pressure medicines (혈압약): the decongestants' leaflets forbid 혈압강하제 beside them
    **dict.fromkeys(
        ("암로디핀", "니페디핀", "로사르탄", "발사르탄", "텔미사르탄", "올메사르탄", "이르베사르탄", "칸데사르탄"),
        ("혈압강하제",),
    ),
    **dict.fromkeys(("아테놀롤", "비소프롤롤", "카르베딜롤", "에날라프릴", "라미프릴", "페린도프릴"), ("혈압강하제",)),
}
# how the leaflets write each kind in a line saying what not to take it with
WRITTEN = {
    "해열진통제": re.compile(r"해열\s*진통제"),
    "소염진통제": re.compile(r"소염\s*(?:\(항염\)\s*)?진통제"),
    # any diuretic: the word alone in a list (…, 아스피린, 이뇨제, 리튬 …), not one kind of them (티아지드계 이뇨제,
    # 칼륨보전이뇨제, 푸로세미드 이뇨제), which binds only its own
    "이뇨제": re.compile(r"(?<![가-힣])(?<!계 )(?<!세미드 )이뇨제"),
    "티아지드계 이뇨제": re.compile(r"[티치타]아(?:지드|짓)\s*계\s*이뇨제"),  # 치아짓계 이뇨제, as some write it
    "루프계 이뇨제": re.compile(r"루프\s*계\s*이뇨제"),
    "칼륨보전 이뇨제": re.compile(r"칼륨\s*보전\s*이뇨제"),
    "푸로세미드": re.compile(r"푸로세미드"),  # named itself: 푸로세미드 이뇨제
    "혈압강하제": re.compile(r"혈압\s*강하제|항\s*고혈압제"),
}
_FORBIDS = re.compile(r"(?:복용|사용|투여|병용)(?:하)?지\s*마(?:십시오|세요)")
_TOGETHER = re.compile(r"함께|병용|같이|동시")


def kinds_of(ingredients) -> tuple[str, ...]:
    """The kinds of medicine the ingredients make (`KINDS`).

    >>> kinds_of(["아스피린"]), kinds_of(["아세트아미노펜", "카페인무수물"]), kinds_of(["와파린나트륨"])
    (('해열진통제', '소염진통제'), ('해열진통제',), ())
    """
    keys = [ingredient_key(i) for i in ingredients]
    # written with its strength or beside another (히드로클로로티아지드 12.5mg, 로사르탄/히드로클로로티아지드)
    held = [k for key in keys for k in KINDS if key not in KINDS and len(k) >= 4 and k in key]
    return tuple(dict.fromkeys(k for key in [*keys, *held] for k in KINDS.get(key, ())))


def kinds_taken(medicines, names=None, leaflet=None) -> tuple[str, ...]:
    """The kinds of the medicines the user takes: each one's ingredients as written, or, for a product `names` (the
    backend's `NameIndex`) knows, its ingredients as its leaflet lists them (`leaflet`: a document id -> document)."""
    ingredients = []
    for medicine in medicines:
        ingredients.append(medicine)
        ingredients += kind_ingredients(medicine)  # 혈압약: the ingredients that make the kind
        if names is None or leaflet is None:
            continue
        for seq in sorted(names.match(medicine).products)[:5]:
            doc = leaflet(f"easydrug:{seq}:efcy")
            if doc is not None:
                ingredients += [i for i in str(doc.metadata.get("main_ingr", "")).split(",") if i.strip()]
    return kinds_of(ingredients)


def forbids(sentence: str, kinds) -> str:
    """The first of `kinds` the sentence forbids taking the product with (named before a forbidding verb, with
    함께 / 병용 / 같이, and no consulting clause between); "" for none."""
    verb = _FORBIDS.search(sentence)
    if not verb or not _TOGETHER.search(sentence):
        return ""
    for kind in kinds:
        m = WRITTEN[kind].search(sentence, 0, verb.start()) if kind in WRITTEN else None
        if m and not CONSULT.search(sentence, m.end(), verb.start()):
            return kind
    return ""


def product_rule(seq: str, kinds, leaflet) -> list[Document]:
    """The product's own line that forbids taking it with one of the user's `kinds`, as a rule document citing it
    (`programs.leaflet_group_limit.first_rule`: id ``…#pair``, "<kind> 병용 금지" as its label); [] for none;
    `leaflet`: a document id -> the document (the backend's ``get``)."""

    def reads(sentence: str):
        kind = forbids(sentence, kinds)
        return ("pair", f"{kind} 병용 금지") if kind else None

    for section in SECTIONS if kinds else ():
        doc = leaflet(f"easydrug:{seq}:{section}")
        if doc is not None and (rule := first_rule(doc, reads)) is not None:
            return [rule]
    return []
