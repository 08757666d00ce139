"""A product's own prohibition for a condition the user's profile lists, as its leaflet's cautions state it
("녹내장, 전립선비대 … 환자는 이 약을 복용하지 마십시오"): a rule of the user's like a DUR row, so a sleep aid whose
leaflet forbids it with 전립선비대 is not offered to a user whose profile says 전립선비대증. DUR has no rule for a
disease at all.

A condition is found as the user wrote it or without its last 증 or 병 (전립선비대증 → 전립선비대, 당뇨병 → 당뇨),
spaces aside, named before a forbidding clause with no consulting clause (상의하십시오) between them — as for the
pregnant and nursing groups (programs/leaflet_group_limit.py), whose verdict form it shares: the leaflet section cut
to the sentence, labelled ``설명서`` with the condition it forbids.

Example:
    >>> forbids("녹내장, 전립선 비대 환자는 이 약을 복용하지 마십시오.", ("전립선비대증",))
    '전립선비대증'
    >>> forbids("투석요법을 받고 있는 환자는 이 약을 복용하지 마십시오.", ("만성신부전", "혈액투석"))
    '혈액투석'
    >>> forbids("고혈압 환자는 의사 또는 약사와 상의하십시오.", ("고혈압",))
    ''
    >>> forbids("고혈압 환자는 이 약을 복용하기 전에 상의하고, 녹내장 환자는 복용하지 마십시오.", ("고혈압",))
    ''
"""

from __future__ import annotations

import functools
import re

from programs.leaflet_age_limit import CAUTION_SECTIONS
from programs.leaflet_group_limit import CONSULT, FORBIDS, first_rule
from retrievers.documents import Document

SUFFIXES = ("증", "병")  # 전립선비대증 is written 전립선비대 in the leaflets, 당뇨병 often 당뇨
# words before a disease that say its kind or course, which the leaflets leave off (domain knowledge, reviewed)
QUALIFIERS = ("혈액", "복막", "만성", "급성", "중증", "본태성", "제1형", "제2형", "1형", "2형")
MIN_CHARS = 2  # a condition shorter than this, once its suffix is off, is too short to find safely
# a disease of an organ is an impairment of that organ as the leaflets write it (domain knowledge, reviewed): a user
# with 만성신부전 is one of the leaflet's 신장애 환자, one with 갑상선기능항진증 has a 갑상선질환. A disease maps up
# to its organ's general words (and its own other spellings), never across to another disease of the organ.
ORGAN_GENERAL = {
    "kidney": ("신장애", "신장장애", "신장질환", "신질환", "신기능장애", "신장기능장애", "콩팥장애"),
    "liver": ("간장애", "간장질환", "간질환", "간기능장애"),
    "heart": ("심장질환", "심질환", "심장애"),
    "thyroid": ("갑상선질환", "갑상선기능이상", "갑상샘질환"),
    # a stomach or duodenal ulcer is a peptic ulcer (소화성궤양), as most leaflets write it
    "ulcer": (
        *("소화성궤양", "위장관궤양", "위십이지장궤양", "위·십이지장궤양"),
        *("위ㆍ십이지장궤양", "소화관궤양", "소화궤양"),
    ),
}
ORGAN_DISEASES = {
    "kidney": ("신부전", "신장병", "콩팥병", "신증후군", "사구체신염", "신장염", "투석", "신기능저하"),
    "liver": ("간경변", "간경화", "간염", "간부전", "간암"),
    "heart": ("심부전", "심기능부전", "심장기능부전", "협심증", "심근경색", "부정맥"),
    "thyroid": (
        *("갑상선기능항진", "갑상선기능저하", "갑상샘기능항진", "갑상샘기능저하"),
        *("갑상선염", "하시모토", "그레이브스"),
    ),
    "ulcer": ("위궤양", "십이지장궤양", "위장궤양"),
}
SAME_DISEASE = {  # one disease, as the leaflets also write it
    "심부전": ("심기능부전", "심장기능부전"),
    # 뇌전증 is the newer name of 간질, which the leaflets write as a word of its own (간질 환자, 간질 및 발작,
    # 간질, 편두통): never as the start of 간질환 (a liver disease) or 간질신장염, which hold it
    "뇌전증": ("간질환자", "간질및", "간질,", "(간질)", "항간질"),
    "간질": ("뇌전증",),
}


def forms(condition: str) -> tuple[str, ...]:
    """The condition as written and without its last 증 or 병, spaces removed, each also without a leading word
    saying its kind or course (`QUALIFIERS`: 혈액투석 is written 투석요법 in the leaflets, 만성신부전 신부전), then
    its organ's general words when it is a disease of that organ (`organ_words`).

    >>> forms("전립선 비대증"), forms("녹내장"), forms("2형 당뇨병")
    (('전립선비대증', '전립선비대'), ('녹내장',), ('2형당뇨병', '2형당뇨', '당뇨병', '당뇨'))
    >>> forms("혈액투석")[:2], "신장애" in forms("만성신부전"), "간장애" in forms("신부전")
    (('혈액투석', '투석'), True, False)
    """
    word = "".join(condition.split())
    words = [word]
    for qualifier in QUALIFIERS:
        if word.startswith(qualifier) and len(word) - len(qualifier) >= MIN_CHARS:
            words.append(word[len(qualifier) :])
            break
    out = []
    for w in words:
        out.append(w)
        if w.endswith(SUFFIXES) and len(w) - 1 >= MIN_CHARS:
            out.append(w[:-1])
    return tuple(dict.fromkeys([*(w for w in out if len(w) >= MIN_CHARS), *organ_words(word)]))


@functools.lru_cache(maxsize=256)  # read for every sentence a "may I" answer weighs
def organ_words(condition: str) -> tuple[str, ...]:
    """The leaflets' general words for the organ `condition` (spaces removed) is a disease or an impairment of, with
    the disease's other spellings (`SAME_DISEASE`); () for a condition of no organ listed.

    >>> organ_words("갑상선기능항진증")
    ('갑상선질환', '갑상선기능이상', '갑상샘질환')
    >>> organ_words("신장질환")[:2], organ_words("심부전")[-2:], organ_words("전립선비대증")
    (('신장애', '신장장애'), ('심기능부전', '심장기능부전'), ())
    >>> organ_words("위궤양")[:2], organ_words("위염")
    (('소화성궤양', '위장관궤양'), ())
    """
    out: list[str] = []
    for organ, general in ORGAN_GENERAL.items():
        if any(w in condition for w in (*ORGAN_DISEASES[organ], *general)):
            out += general
    out += [w for disease, same in SAME_DISEASE.items() if disease in condition for w in same]
    return tuple(dict.fromkeys(out))


def _pattern(word: str) -> re.Pattern:
    return re.compile(r"\s*".join(map(re.escape, word)))


def forbids(sentence: str, conditions) -> str:
    """The first of `conditions` (as the user wrote it) the sentence forbids the product with: one of its `forms`
    named before a forbidding clause, no consulting clause between; "" for none."""
    verb = FORBIDS.search(sentence)
    if not verb:
        return ""
    for condition in conditions:
        for word in forms(condition):
            m = _pattern(word).search(sentence, 0, verb.start())
            if m and not CONSULT.search(sentence, m.end(), verb.start()):
                return condition
    return ""


def condition_rule(section: Document, conditions) -> Document | None:
    """The leaflet section's sentence that forbids the product with one of the user's `conditions`, as a rule
    document citing it (`programs.leaflet_group_limit.first_rule`: id ``…#condition``, "<condition> 금지" as its
    label); None when none does."""
    if section.metadata.get("section") not in CAUTION_SECTIONS or not conditions:
        return None

    def reads(sentence: str):
        condition = forbids(sentence, conditions)
        return ("condition", f"{condition} 금지") if condition else None

    return first_rule(section, reads)


def product_rule(seq: str, conditions, leaflet) -> list[Document]:
    """The product's own caution that forbids it with one of the user's `conditions`, as a rule (`condition_rule`;
    at most one, [] for none); `leaflet`: a document id -> the document (the backend's ``get``)."""
    for section in CAUTION_SECTIONS if conditions else ():
        doc = leaflet(f"easydrug:{seq}:{section}")
        if doc is not None and (rule := condition_rule(doc, conditions)) is not None:
            return [rule]
    return []
