"""A product's own age limit, as its leaflet's cautions state it ("만 6세 미만의 소아는 이 약을 사용하지 마십시오"): a
rule of the user's like a DUR 특정연령대금기 row, so a product whose leaflet forbids it below the asker's age is not
offered to a child the profile or the question names (a 5-year-old asking about a nasal spray for 만 12세 이상).

Only a sentence that forbids (…하지 마십시오), allows the product only from an age (만 12세 이상의 어린이 및
성인만 사용하십시오) or leaves the dose to a doctor (용법·용량: 만 6세 미만 소아는 의사의 지시에 따릅니다, labelled
``의사 지시``) and states the age bound of a child (만 6세 미만의 소아, 30개월 이하의
유아, 2세 미만 영아) counts; a sentence that asks to consult (상의하십시오) or binds a child only in a condition (수두
또는 인플루엔자에 감염된 15세 미만) does not. The verdict cites the sentence as a rule of its own (`age_rule`): its
document is the leaflet section, cut to the sentence, labelled ``연령금기`` with the bound.

Example:
    >>> limit("이 약에 과민증 환자, 만 6세 미만의 소아는 이 약을 사용하지 마십시오.")
    (6.0, '만 6세 미만')
    >>> limit("30개월 이하의 유아, 눈 주위에는 사용하지 마십시오.")
    (2.5833, '30개월 이하')
    >>> limit("만 15세 미만의 어린이는 의사 또는 약사와 상의하십시오.") is None
    True
    >>> limit("만 6세 미만 소아는 의사의 지시에 따릅니다.")
    (6.0, '만 6세 미만')
    >>> limit("만 12세 이상의 어린이 및 성인만 사용하십시오.")  # only from 12: forbidden below it
    (12.0, '만 12세 이상만')
    >>> limit("피부감염증(수두, 옴), 주사 환자, 2세 미만의 유아는 이 약을 사용하지 마십시오.")  # another item's illness
    (2.0, '2세 미만')
    >>> limit("수두 또는 인플루엔자에 감염되었거나 감염이 의심되는 15세 미만의 어린이는 복용하지 마십시오.") is None
    True
    >>> forbids_asker((6.0, "만 6세 미만"), ((5.0, 6.0),)), forbids_asker((6.0, "만 6세 미만"), ((7.0, 8.0),))
    (True, False)
"""

from __future__ import annotations

import re

from programs.offer_guard import NOT_FOR_USER
from programs.text import split_sentences
from retrievers.aspects import PERIOD
from retrievers.documents import Document
from retrievers.unicode_text import INFANTS, MIDDLE_DOTS

CAUTION_SECTIONS = ("atpn", "atpnWarn")
AGE_LABEL = "연령금기"  # the verdict's label (offer_guard's rule line reads it as an age rule)
# "만 6세 미만의 소아", "30개월 이하의 유아", "2세 미만 영아", "12세 미만은": a child's age bound
_BOUND = re.compile(
    r"(?P<text>(?:만\s*)?(?P<n>\d+)\s*(?P<unit>세|개월)\s*(?P<kind>미만|이하))"
    rf"(?=\s*(?:의\s*)?(?:소아|영아|유아|어린이|{INFANTS}|신생아|아이|청소년|환자|은|는|에게|에는))"
)
# a child's group named with no age, as an item of the list a sentence forbids (이 약에 과민증 환자, 수유부,
# 소아는 이 약을 사용하지 마십시오), and the age it is read as below: 소아 and 어린이 as the leaflets' adult doses
# begin (성인(만 15세 이상)), 유아 before school, 영아 in the first year, 신생아 and 미숙아 in the first month
_GROUP = re.compile(
    rf"(?:^|,\s*|및\s+|또는\s+)(?P<word>소아|어린이|{INFANTS}|유아|영아|젖먹이|신생아|미숙아)"
    r"(?P<note>\([^)]*\))?(?=\s*(?:는|은|에게|에는|,|및|또는|과|와))"
)
GROUP_AGE = {"소아": 15.0, "어린이": 15.0, "영유아": 6.0, "유아": 6.0, "영아": 1.0, "젖먹이": 1.0, "신생아": 1 / 12}
GROUP_AGE["미숙아"] = GROUP_AGE["신생아"]
CONSULT = re.compile(r"(?<!증)상의\s*(?:하|할|한|후)")  # 상의하십시오, 상의하고 (not 증상의)
# …지 마십시오, or the dose's own "is not given" (만 2세 미만에게 투여하지 않습니다, a children's syrup's 용법)
_FORBIDS = re.compile(
    r"(?:복용|사용|투여|투약|먹이|바르|붙이|뿌리|점안)(?:하)?지\s*마(?:십시오|세요)"
    r"|(?:복용|사용|투여|투약)(?:하)?지\s*않(?:습니다|는다|음)"
)
# a child bound only in an illness (수두 또는 인플루엔자에 감염된 15세 미만: aspirin's Reye's), read in the bound's own
# item of the sentence's list: 피부감염증(… 수두 …), 2세 미만의 유아 forbids every child under 2
_CONDITION = re.compile(r"수두|인플루엔자|감염|의심되는")
# a dose left to a doctor below an age (만 6세 미만 소아는 의사의 지시에 따릅니다): no over-the-counter use at that age
_DOCTOR = re.compile(r"의사의?\s*지시에\s*따르|의사의?\s*지시에\s*따라|의사의?\s*지시에\s*따릅")
# use allowed only from an age (만 12세 이상의 어린이 및 성인만 사용하십시오): forbidden below it
_ONLY_FROM = re.compile(
    r"(?P<text>(?:만\s*)?(?P<n>\d+)\s*(?P<unit>세|개월)\s*이상)(?:의)?[^.,]{0,24}?만\s*(?:사용|복용|투여)(?:하)?(?:십시오|합니다)"
)
DOSE_SECTION = "useMethod"  # where a dose left to a doctor is written
DOCTOR_LABEL = "의사 지시"  # such a bound's label in the marking: 스노콜정(의사 지시 만 6세 미만 [문서 2])


def limit(sentence: str) -> tuple[float, str] | None:
    """(the age in years below which the sentence forbids the product, the bound as written), the oldest such bound
    when it states several (만 3개월 미만의 영아 및 만 2세 미만의 소아 → 2 years); None when it forbids no age."""
    if not (_FORBIDS.search(sentence) or _DOCTOR.search(sentence)):
        only = _ONLY_FROM.search(sentence)
        if only is None:
            return None
        years = int(only["n"]) / (12 if only["unit"] == "개월" else 1)
        return round(years, 4), re.sub(r"\s+", " ", only["text"]).strip() + "만"
    bounds = []
    for m in _BOUND.finditer(sentence):
        if _CONDITION.search(re.split(r",\s*", sentence[: m.start()])[-1]):
            continue  # 수두에 감염된 15세 미만: a child in an illness, not every child
        years = int(m["n"]) / (12 if m["unit"] == "개월" else 1)
        if m["kind"] == "이하":  # 6세 이하 takes in every 6-year-old, 30개월 이하 the 30th month
            years += 1 / 12 if m["unit"] == "개월" else 1
        bounds.append((round(years, 4), re.sub(r"\s+", " ", m["text"]).strip()))
    return max([*bounds, *_group_bounds(sentence)], default=None)


def _group_bounds(sentence: str) -> list[tuple[float, str]]:
    """The bounds of the children's groups the sentence forbids by name alone (소아는 이 약을 사용하지 마십시오), each
    an item of its list with no illness (수두에 감염된 소아), no note of its own (소아(만성설사인 경우)) and no asking
    to consult between it and the forbidding verb.

    >>> _group_bounds("이 약에 과민증 환자, 수유부, 소아는 이 약을 사용하지 마십시오.")
    [(15.0, '소아')]
    >>> _group_bounds("2세 미만의 영아, 소아(만성설사인 경우)는 복용하지 마십시오.")
    []
    >>> _group_bounds("소아는 상의하십시오."), _group_bounds("어린이에게 이 약을 3개월 이상 투여하지 마십시오.")
    ([], [])
    """
    verb = _FORBIDS.search(sentence)
    if not verb:
        return []
    out = []
    for m in _GROUP.finditer(sentence, 0, verb.start()):
        item = re.split(r",\s*", sentence[: m.start("word")])[-1]
        if m["note"] or _CONDITION.search(item) or CONSULT.search(sentence, m.end(), verb.start()):
            continue
        if PERIOD.search(sentence, m.end(), verb.start()):  # 어린이에게 3개월 이상 투여하지: how long, not who
            continue
        word = re.sub(f"[{MIDDLE_DOTS}.]", "", m["word"])
        out.append((round(GROUP_AGE[word], 4), m["word"]))
    return out


def forbids_asker(bound: tuple[float, str], ages: tuple[tuple[float, float], ...]) -> bool:
    """Whether someone the answer is for is below the bound at every age they may be (each age span [low, high) in
    years is one reading: a profile's age, the age the question states, its group's span). A parent's profile age
    beside a child's stated age does not hide the child's limit; a group's wide span (아이: under 12) is below a
    30-month limit at none of its ages.

    >>> bound = (2.5, "30개월 이하")
    >>> forbids_asker(bound, ((2.0, 3.0), (2.0, 2.0833))), forbids_asker(bound, ((2.0, 3.0),))
    (True, False)
    >>> forbids_asker(bound, ((0.0, 12.0),)), forbids_asker(bound, ((35.0, 36.0), (0.0, 2.0)))
    (False, True)
    """
    return any(high <= bound[0] for _, high in ages)


def age_rule(section: Document, ages: tuple[tuple[float, float], ...]) -> Document | None:
    """The leaflet section's sentence that forbids the product at the asker's ages, as a rule document citing it
    (id ``…#age``, the section's metadata with ``dur_type`` 연령금기, the bound as its ``ingredient`` label, and the
    verdict on its product citing itself); None when none does."""
    if section.metadata.get("section") not in (*CAUTION_SECTIONS, DOSE_SECTION):
        return None
    head, _, body = section.text.partition("\n")
    for sentence in split_sentences(body or head):
        bound = limit(sentence)
        if bound and forbids_asker(bound, ages):
            meta = {**section.metadata, "dur_type": AGE_LABEL, "ingredient": bound[1], "partner": ""}
            if _DOCTOR.search(sentence) and not _FORBIDS.search(sentence):  # left to a doctor: said as it is
                meta["rule_label"] = DOCTOR_LABEL
            meta[NOT_FOR_USER] = [f"{section.id}#age"]  # the product it is the limit of is not for this asker
            return Document(f"{section.id}#age", f"{head}\n{sentence}" if body else sentence, meta)
    return None


def product_rule(seq: str, ages: tuple[tuple[float, float], ...], leaflet) -> list[Document]:
    """The product's own caution that forbids it at the asker's `ages`, as a rule (`age_rule`; at most one, [] for
    none or no ages); `leaflet`: a document id -> the document (the backend's ``get``)."""
    for section in (*CAUTION_SECTIONS, DOSE_SECTION) if ages else ():
        doc = leaflet(f"easydrug:{seq}:{section}")
        if doc is not None and (rule := age_rule(doc, ages)) is not None:
            return [rule]
    return []
