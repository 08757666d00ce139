"""Which ages a leaflet's dose sentences are for, read from the ages they state.

A question about a child (아기, 5살, 20개월, 중학생: `retrievers.population`) has an oldest possible age: the age the
question states, or the top of its group (an infant is under 2, a child under 12, an adolescent under 19). A dose
sentence is **for older people only** when it doses 성인 (adults) and every age it gives a dose from ("만 12세 이상 소아
및 성인", "15세 이상") is above that age. A leaflet **doses the child** when one of its dose sentences names an age
band the child can be in ("만 3세 이상~만 7세 미만은 1회 6.5 mL"). Retrieval reads this to prefer a brand's
children's product (어린이타이레놀현탁액 over 타이레놀정500 for a 5-year-old); the answer to leave adults' doses out.

Example:
    >>> for_older_only("만 12세 이상 소아 및 성인은 1회 1~2정씩 복용합니다.", oldest_age("5살 아이 타이레놀"))
    True
    >>> doses_child("만 3세 이상~만 7세 미만은 1회 6.5 mL 복용합니다.", child_ages("5살 아이"))
    True
    >>> doses_child("성인 및 12세 이상의 소아는 1회 1~2정씩 복용합니다.", child_ages("5살 아이"))
    False
"""

from __future__ import annotations

import functools
import re

from retrievers.population import ADULT_AGE, CHILD_AGE, INFANT_MONTHS, read_population, stated_ages

GROUP_TOP = {"infant": INFANT_MONTHS / 12, "child": CHILD_AGE, "adolescent": ADULT_AGE}  # oldest age of each group
_FROM_YEARS = re.compile(r"(\d+)\s*세\s*(?:이상|초과|부터)")
_FROM_MONTHS = re.compile(r"(\d+)\s*개월\s*(?:이상|초과|부터)")
_TO = "[~\\-～〜∼－–]"  # a range's mark as the leaflets write it: ASCII, full-width (～, 48 dose sections) or a dash
_BAND = re.compile(rf"(\d+)\s*(세|개월)?\s*{_TO}\s*(?:만\s*)?(\d+)\s*(세|개월)")  # 만 7~12세, 3-6세
# 만 5세 이상~만 8세 미만, 3개월 이상 ~ 2세 이하: a band written as two bounds
_PAIR = re.compile(rf"(\d+)\s*(세|개월)\s*(?:이상|부터)\s*{_TO}?\s*(?:만\s*)?(\d+)\s*(세|개월)\s*(미만|이하|까지)")
_BOUND = re.compile(r"(\d+)\s*(세|개월)\s*(이상|초과|부터|이하|미만|까지)")  # 만 12세 이하, 6개월 이상
CHILD_WORDS = ("소아", "어린이", "영아", "유아")  # the leaflets' words for children
_PER_DOSE = ("1회", "권장용량")  # "1회 권장용량을 4-6시간마다": a dose, its amount in a table
_NOT_FOR = re.compile(r"투여하지|복용하지|사용하지|먹이지")  # "2세 미만은 복용하지 마십시오": an age it is not for
_ADULT = "성인"
# a sentence ends at a period or a line break, or after 니다 (합니다, 됩니다) when its period is missing; not after
# every 다 (4시간마다 10 mL씩: the band's age and its amount are one sentence)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|(?<=니다)\s+|\n+")
# a daily maximum as an amount of the ingredient (일일 최대 용량(4,000 mg), 1일 최대 투여량은 1,500밀리그램)
_MAX_AMOUNT = re.compile(r"최대[^.]{0,40}?\d[\d,. ]*\s*(?:mg|밀리그램|밀리그람|g|그램)")
# an amount: tablets, capsules, sachets, volumes, weights, drops, and suppositories or patches counted (1회 1개, 1매)
_DOSE = re.compile(
    r"\d[\d,.~～]*\s*(?:정|캡슐|포|mL|ml|mg|g|알|병|방울|개(?!월)|매(?!일))"
    # a spray's pushes (1회 1번씩, 1~2회씩 뿌립니다, 4-8번 분무); not how often a day (1일 3번, 1일 3회)
    r"|1회\s*\d[\d~～-]*\s*번|\d[\d~～-]*\s*번씩|\d[\d~～-]*\s*(?:번|회)씩?\s*(?:분무|뿌)"
)

AGE_BOUND = re.compile(r"\d\s*(?:세|개월)\s*(?:미만|이하|이상|초과)")  # 만 3세 미만, 18세 미만 환자: an age limit


def child_ages(question: str, names=()) -> tuple[float, float] | None:
    """The ages [low, high) in years the child the question is about can be (None: not about a child)."""
    oldest = oldest_age(question, names)
    if oldest is None:
        return None
    stated = stated_ages(question)
    return (stated[0] if stated else 0.0), oldest


def oldest_age(question: str, names=()) -> float | None:
    """The oldest age in years the child the question is about can be (None: not about a child)."""
    group = read_population(question, names).group
    if group not in GROUP_TOP:
        return None
    stated = stated_ages(question)
    return stated[1] if stated else GROUP_TOP[group]


def dose_ages(sentence: str) -> list[float]:
    """The ages in years a sentence gives a dose from (만 12세 이상 → 12; 6개월 이상 → 0.5)."""
    return [int(m) for m in _FROM_YEARS.findall(sentence)] + [int(m) / 12 for m in _FROM_MONTHS.findall(sentence)]


def states_dose(sentence: str) -> bool:
    """The sentence gives an amount (1회 1정, 5 mL, 1,200 mg).

    >>> states_dose("1회 6.5 mL 복용합니다."), states_dose("복용간격은 4시간 이상으로 합니다.")
    (True, False)
    >>> states_dose("1~2세는 1회 1~2개, 1일 2~3회 직장내 삽입합니다."), states_dose("3~12개월 영아")
    (True, False)
    >>> states_dose("만 2세 이상~만 12세 미만 어린이는 1일 1~3회, 1회 1번 각 코안에 뿌립니다."), states_dose("1일 3번")
    (True, False)
    """
    return bool(_DOSE.search(sentence))


def for_older_only(sentence: str, oldest: float | None, tables: bool = True) -> bool:
    """Whether `sentence` doses only people older than `oldest` (`oldest_age` of the question; False when None, the
    question not being about a child); a sentence dosing no adult, only when every age it doses from is older and
    `tables` (the question states the child's age: 애기 alone may be older than its group's top). A sentence dosing
    adults and children with no age ("성인 및 소아는 15 mL") doses the child too.

    >>> for_older_only("성인 및 소아는 15 mL(500 mg)을 1회 복용합니다.", 3.5), for_older_only("성인은 1회 1정", 3.5)
    (False, True)
    >>> for_older_only("성인은 1회 15 g, 6~11세는 1회 10 g, 1~5세는 1회 5 g을 주입합니다.", 6.0)
    False
    >>> for_older_only("3~6세는 1회 5~8 mL, 1~ 2세는 1회 3~5 mL를 복용합니다.", 0.5)  # a 5-month-old
    True
    >>> for_older_only("3~6세는 1회 5~8 mL, 1~ 2세는 1회 3~5 mL를 복용합니다.", 2.0)
    False
    """
    if oldest is None:
        return False
    # the ages it doses from: 만 12세 이상, and a table's bands (성인은 15 g, 6~11세는 10 g, 1~5세는 5 g)
    ages = dose_ages(sentence) + [low for low, _ in dose_bands(sentence, children=False)]
    if _ADULT not in sentence:  # a children's table whose youngest band is older (1~2세 … for a 5-month-old)
        return tables and bool(ages) and all(age >= oldest for age in ages)
    if not ages and any(w in sentence for w in CHILD_WORDS):
        return False
    return all(age >= oldest for age in ages)


def adult_maximum(sentence: str) -> bool:
    """Whether `sentence` states a daily maximum as an amount of the ingredient with no age, no child and no amount
    per kg: the label's limit for adults (a child's maximum is stated per kg of body weight or by age), which a
    child's answer must not quote as if it applied.

    >>> adult_maximum("아세트아미노펜으로 일일 최대 용량(4,000 mg)을 초과하여 복용하지 마십시오.")
    True
    >>> adult_maximum("체중이 30 kg 이하인 소아에게는 1일 최대 25 mL(300 mg)을 초과하지 않습니다.")
    False
    >>> adult_maximum("1일 최대 4회(28 mg/kg)를 넘지 않습니다."), adult_maximum("1일 최대 5회를 넘지 마십시오.")
    (False, False)
    """
    if not _MAX_AMOUNT.search(sentence) or "kg" in sentence.lower() or any(w in sentence for w in CHILD_WORDS):
        return False
    return not dose_ages(sentence) and not _BOUND.search(sentence)


def dose_bands(sentence: str, children: bool = True) -> list[tuple[float, float]]:
    """The age bands [low, high) in years a dose sentence doses: each "A~B세" of a table, else one band of its bounds
    (만 3세 이상~만 7세 미만 → 3 to 7; 만 12세 이하의 소아 → 0 to 13); a sentence dosing 소아 or 어린이 without an
    age doses 0 to 12; none when it names no age and no child.

    >>> dose_bands("7~10세는 1회 150~200 mg, 3~6세는 1회 100~150 mg")
    [(7.0, 11.0), (3.0, 7.0)]
    >>> dose_bands("만 3세 이상~만 7세 미만은 1회 6.5 mL")
    [(3.0, 7.0)]
    >>> dose_bands("만 15세 이상은 1병, 만 8세 이상~만 11세 미만은 1/2병, 만 5세 이상~만 8세 미만은 1/3병")
    [(8.0, 11.0), (5.0, 8.0)]
    >>> dose_bands("만 12세 이하의 소아는 1회 권장용량을"), dose_bands("성인은 1회 1정")
    ([(0.0, 13.0)], [])
    >>> dose_bands("만 7세 이상 ～ 만 11세 미만은 1회 2/3포, 만 3세 이상 ～ 만 7세 미만은 1회 1/2포")
    [(7.0, 11.0), (3.0, 7.0)]
    >>> dose_bands("1~6세 유아는 1일 5~10 mL, 12개월 미만의 영아는 1일 5 mL를 복용합니다.")
    [(1.0, 7.0), (0.0, 1.0)]

    `children=False`: only the ages the sentence writes out (no band for 소아 alone).
    """
    bands = []
    for m in _PAIR.finditer(sentence):  # "이하"/"까지" in whole years holds until the next birthday
        end = 1 if m.group(5) != "미만" and m.group(4) == "세" else 0
        bands.append((_years(m.group(1), m.group(2)), _years(m.group(3), m.group(4)) + end))
    sentence = _PAIR.sub(" ", sentence)
    for m in _BAND.finditer(sentence):  # 7~10세 runs to the 11th birthday
        unit = m.group(4)
        bands.append((_years(m.group(1), m.group(2) or unit), _years(m.group(3), unit) + (unit == "세")))
    if bands:
        # a table's youngest row written as one bound (1~6세 유아는 5~10 mL, 12개월 미만의 영아는 5 mL)
        rest = _BAND.sub(" ", sentence)
        young = [m for m in _BOUND.finditer(rest) if m.group(3) in ("미만", "이하", "까지")]
        return bands + [(0.0, _years(m.group(1), m.group(2)) + _through(m)) for m in young]
    low, high, found = 0.0, 200.0, False
    for m in _BOUND.finditer(sentence):
        age = _years(m.group(1), m.group(2))
        if m.group(3) in ("이상", "초과", "부터"):
            low = max(low, age)
        else:
            high = min(high, age + _through(m))
        found = True
    if found:
        return [(low, high)]
    return [(0.0, float(CHILD_AGE))] if children and any(w in sentence for w in CHILD_WORDS) else []


def _through(bound: re.Match) -> float:
    """What a `_BOUND` match adds to its age for the band's end: 이하/까지 hold until the next birthday (a month on,
    in months), 미만 ends at it."""
    if bound.group(3) not in ("이하", "까지"):
        return 0.0
    return 1.0 if bound.group(2) == "세" else 1 / 12


def _years(number: str, unit: str) -> float:
    return int(number) / 12 if unit == "개월" else float(int(number))


@functools.lru_cache(maxsize=4096)  # a product's 용법·용량 is read for each of its questions' searches
def doses_child(text: str, ages: tuple[float, float] | None) -> bool:
    """Whether a 용법·용량 text gives a dose for an age band the child (`child_ages` of the question) can be in, in a
    sentence that is not a "do not give it under N" warning.

    >>> doses_child("만 12세 이하의 소아는 1회 권장용량을 4-6시간마다 복용합니다.", child_ages("5살 아이"))
    True
    >>> doses_child("만 7~12세 소아는 1회 권장용량을 복용합니다.", child_ages("5살 아이"))
    False
    >>> doses_child("만 6세 이상~12세 미만 소아는 4시간마다 5 mL씩 복용합니다.", child_ages("8살 아들"))
    True
    """
    if ages is None:
        return False
    for sentence in _SENTENCE_BREAK.split(text):
        if not (states_dose(sentence) or any(w in sentence for w in _PER_DOSE)) or _NOT_FOR.search(sentence):
            continue
        if for_older_only(sentence, ages[1], tables=False):
            continue
        if any(low < ages[1] and ages[0] < high for low, high in dose_bands(sentence)):
            return True
    return False
