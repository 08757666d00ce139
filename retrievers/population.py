"""Who a question is about, as people write it: 임신 12주, 수유 중, 7살 아들, 애기한테 먹여도, 중학생, 80대 아버지.

An age written as a number decides first (months, years, a decade); then the group words of
`data/population_words.json` in its order; then a verb of feeding someone (먹여도, 먹이는) says a child, unless the
question names a grown-up it is for (남편한테 먹여도).

Example:
    >>> read_population("7살 아들 해열제 몇 번 먹여요")
    Population(group='child', detail='7살')
    >>> read_population("모유 먹이는데 타이레놀 괜찮나요").group
    'breastfeeding'
    >>> read_population("80대 아버지 변비약").group, read_population("게보린 부작용").group
    ('elderly', None)
    >>> read_population("애기한테 먹여도 돼요").group, read_population("남편한테 감기약 먹여도 되나요").group
    ('infant', None)
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

WORDS_PATH = Path(__file__).parent / "data" / "population_words.json"
INFANT_MONTHS = 24  # under two years a child is an infant (영아) in the leaflets' sense
CHILD_AGE = 12  # 만 12세 미만: the leaflets' and DUR's children
ADULT_AGE = 19
ELDERLY_AGE = 65
GROUP_ASPECT = {
    "pregnant": "pregnancy",
    "breastfeeding": "breastfeeding",
    "infant": "child_use",
    "child": "child_use",
    "adolescent": "child_use",
    "elderly": "elderly",
}

# months of age (18개월 아기), not of a pregnancy (임신 7개월, 7개월 임산부) nor a time spent (3개월째, 2개월 동안)
_MONTHS = re.compile(
    r"(?<!임신)(?<!임신\s)(?<!임신한지\s)(?<!임신한\s지\s)(?<![\d.])(\d{1,2})\s*개월"
    r"(?!\s*(?:째|동안|간|전|차|정도\s*(?:먹|복용|썼|발랐)|임산부|임부|임신))"
)
# "…한 지" right before a number of months: the time since something was done (개봉한지, 먹은 지); since birth (태어난
# 지 8개월) is an age
_SINCE = re.compile(r"([가-힣]+)\s?지\s*$")
_YEARS = re.compile(r"(?<![\d.])(\d{1,3})\s*(?:살|세)(?!\s*(?:이상|미만|이하|초과))")
_DECADE = re.compile(r"(?<!\d)([1-9])0\s*대")
_NATIVE = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_NATIVE_AGE = re.compile(r"(열)?(한|두|세|네|다섯|여섯|일곱|여덟|아홉)?\s?살")
# the first birthday (돌) and the hundredth day (백일), as parents count a baby's age: 돌 지난 아기 is one, 돌 전
# under one
_BEFORE_FIRST_BIRTHDAY = re.compile(r"(?<![가-힣])돌\s*(?:전|도\s*안|안\s*(?:된|됐|지난))")
_FIRST_BIRTHDAY = re.compile(r"(?<![가-힣])돌(?:쟁이|\s*(?:지난|지나|넘은|넘었|된|됐|막|무렵|아기))")
_HUNDREDTH_DAY = re.compile(r"백일")
# a later birthday counted the same way (세 돌 아기 is three, 두돌 지난 two): the native number before 돌
_BIRTHDAY = re.compile(r"(?<![가-힣])(첫|두|세|네|다섯)\s?돌(?!아|멩|맹|잔치\s*떡)")
_BIRTHDAY_YEARS = {"첫": 1, "두": 2, "세": 3, "네": 4, "다섯": 5}
# a school year (초3, 중1, 고딩 2학년): the ages its pupils are over the school year, from the year of 초1 (6 to 8)
_SCHOOL_YEAR = re.compile(
    r"(?<![가-힣])(초|중|고)(?:등학생|등학교|학생|학교|등|딩)?\s?([1-6])\s?학년"
    r"|(?<![가-힣])(초|중|고)([1-6])(?!\d|\s?(?:주|개월|시|일|회|번|알|정|포|병|년|분|mg|ml|mL))"
)
_SCHOOL_START = {"초": 5, "중": 11, "고": 14}  # 초n is n+5 to n+7, 중n n+11 to n+13, 고n n+14 to n+16
_SCHOOL_YEARS = {"초": 6, "중": 3, "고": 3}


@dataclass(frozen=True)
class Population:
    """The group a question is about (None: the asker, an adult) and the words that said so."""

    group: str | None = None
    detail: str | None = None

    @property
    def stated(self) -> bool:
        """The group is named (7살, 수유 중), not only implied by a verb of feeding someone (먹여도)."""
        return bool(self.group) and self.detail not in _vocabulary()["feeding"]

    @property
    def aspect(self) -> str | None:
        """The aspect asking about this group (임신 → pregnancy, a child → child_use)."""
        return GROUP_ASPECT.get(self.group or "")


@functools.lru_cache(maxsize=1)
def _vocabulary() -> dict:
    data = json.loads(WORDS_PATH.read_text(encoding="utf-8"))
    return {
        "groups": {g: tuple(spec["words"]) for g, spec in data["groups"].items()},
        "leaflet": {g: tuple(spec["leaflet"]) for g, spec in data["groups"].items()},
        "feeding": tuple(data["feeding"]),
        "grown": tuple(data["grown"]),
        "women": tuple(data["women"]),
        "not_inside": {w: tuple(v) for w, v in data["not_inside"].items()},
    }


def people_words() -> frozenset[str]:
    """Every word of ``data/population_words.json`` that says who a question is about (고딩, 임산부, 돌쟁이 …): a
    word people write of someone, never a medicine's name.

    >>> {"고딩", "임산부"} <= people_words(), "게보린" in people_words()
    (True, False)
    """
    return frozenset(w for words in _vocabulary()["groups"].values() for w in words)


PLACE_AFTER = r"(?:\s*댁|집)"  # 할머니댁, 할머니 댁, 부모님집: where someone lives, not who takes the medicine


@functools.cache
def _places() -> re.Pattern:
    words = sorted({*people_words(), *_vocabulary()["grown"]}, key=len, reverse=True)
    return re.compile("(?:" + "|".join(map(re.escape, words)) + ")" + PLACE_AFTER)


def without_places(question: str) -> str:
    """`question` with each person's word followed by a place word cut out (시골 할머니댁 가는데: a trip, no elderly
    asker); 집 only written on (부모님 집에 상비약 may be theirs), and a word listed as it is written stays (어린이집).

    >>> without_places("시골 할머니댁 가는데"), without_places("할머니 댁에"), without_places("부모님 집에 상비약")
    ('시골 | 가는데', '|에', '부모님 집에 상비약')
    >>> without_places("어린이집 다니는 애")
    '어린이집 다니는 애'
    """
    listed = people_words()
    return _places().sub(lambda m: m.group(0) if m.group(0) in listed else "|", question)


def leaflet_words(group: str | None) -> tuple[str, ...]:
    """The leaflet words that speak of `group` (수유부, 소아 …); () for None.

    >>> leaflet_words("breastfeeding")
    ('수유부', '수유', '모유')
    """
    return _vocabulary()["leaflet"].get(group or "", ())


def group_of_age(years: float) -> str | None:
    """The leaflets' group of an age in years (None: an adult under 65).

    >>> [group_of_age(a) for a in (0.5, 7, 15, 40, 80)]
    ['infant', 'child', 'adolescent', None, 'elderly']
    """
    if years * 12 < INFANT_MONTHS:
        return "infant"
    if years < CHILD_AGE:
        return "child"
    if years < ADULT_AGE:
        return "adolescent"
    return "elderly" if years >= ELDERLY_AGE else None


# an age not yet reached (두돌 안된 아기, 24개월도 안 된; 안됀, 안됬 as people often type them): the child is younger
_NOT_YET = re.compile(r"\s*(?:도\s*)?안\s*(?:된|됀|됐|됬|되|지난|지났)")


def _age(question: str) -> tuple[float, float, str] | None:
    """The ages [low, high) in years a question states and the words that stated them; an age written as not yet
    reached (두돌 안된, 24개월 안 된) is every age under it."""
    age = _written_age(question)
    if age is None:
        return None
    low, _, words = age
    start = question.find(words)
    not_yet = _NOT_YET.match(question, start + len(words)) if low > 0 else None
    return (0.0, low, question[start : not_yet.end()]) if not_yet else age


def _written_age(question: str) -> tuple[float, float, str] | None:
    """The ages [low, high) in years a question states and the words that stated them (18개월, 7살, 80대, 다섯 살,
    세 돌, 초3)."""
    for m in _MONTHS.finditer(question):
        since = _SINCE.search(question[: m.start()])  # 뜯은지 8개월, 먹은 지 3개월: how long since, no age
        if not since or since.group(1).endswith("태어난"):
            return int(m.group(1)) / 12, (int(m.group(1)) + 1) / 12, m.group(0)
    if m := _YEARS.search(question):
        return int(m.group(1)), int(m.group(1)) + 1, m.group(0)
    if m := _DECADE.search(question):
        return int(m.group(1)) * 10, int(m.group(1)) * 10 + 10, m.group(0)
    for m in _NATIVE_AGE.finditer(question):
        if m.group(1) or m.group(2):
            years = (10 if m.group(1) else 0) + _NATIVE.get(m.group(2) or "", 0)
            return years, years + 1, m.group(0)
    for m in _SCHOOL_YEAR.finditer(question):
        school, year = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if int(year) <= _SCHOOL_YEARS[school]:
            low = int(year) + _SCHOOL_START[school]
            return low, low + 2, m.group(0)
    if m := _BIRTHDAY.search(question):
        years = _BIRTHDAY_YEARS[m.group(1)]
        return years, years + 1, m.group(0)
    if m := _BEFORE_FIRST_BIRTHDAY.search(question):
        return 0.0, 1.0, m.group(0)
    if m := _FIRST_BIRTHDAY.search(question):
        return 1.0, 2.0, m.group(0)
    if m := _HUNDREDTH_DAY.search(question):
        return 100 / 365, 100 / 365 + 1 / 12, m.group(0)
    return None


def stated_ages(question: str) -> tuple[float, float] | None:
    """The ages [low, high) in years the question states: 7살 is 7 to 8, 18개월 1.5 to 1.58, 80대 80 to 90, 돌 지난
    아기 1 to 2 (세 돌 3 to 4), 돌 전 0 to 1, 두돌 안된 0 to 2, 백일 about three months, 초3 8 to 10 (a school year
    spans two ages).

    >>> stated_ages("7살 아들 해열제"), stated_ages("80대 아버지 변비약"), stated_ages("게보린 부작용")
    ((7, 8), (80, 90), None)
    >>> stated_ages("돌 지난 아기 감기약"), stated_ages("돌도 안 된 아기 열나요"), stated_ages("돌아가신 할머니 약")
    ((1.0, 2.0), (0.0, 1.0), None)
    >>> stated_ages("세 돌 아기"), stated_ages("중학교 2학년 딸"), stated_ages("고1 아들"), stated_ages("먹고 2시간")
    ((3, 4), (13, 15), (15, 17), None)
    >>> stated_ages("임신 7개월인데 파스"), stated_ages("3개월째 먹는 중"), stated_ages("18개월 아기")
    (None, None, (1.5, 1.5833333333333333))
    >>> stated_ages("연고 뜯은지 8개월 됐는데"), stated_ages("태어난 지 6개월 된 아기"), stated_ages("먹은 지 2개월")
    (None, (0.5, 0.5833333333333334), None)
    >>> stated_ages("두돌 안된 아기"), stated_ages("24개월도 안 된 애기"), stated_ages("3살 안 됐는데")
    ((0.0, 2), (0.0, 2.0), (0.0, 3))
    """
    age = _age(question)
    return None if age is None else (age[0], age[1])


def _occurs(word: str, squashed: str, not_inside: dict[str, tuple[str, ...]], spaced: str = "") -> bool:
    """`word` in the question's `squashed` text, not as the start of a longer word `not_inside` lists; a school year
    (고2, 중1) only as a word of its own in the `spaced` text: 먹고 2시간 is no 고2, 고20 no year.

    >>> _occurs("고2", "고2아들", {}, "고2 아들"), _occurs("고2", "먹고2시간", {}, "먹고 2시간")
    (True, False)
    """
    if word not in squashed:
        return False
    if any(c.isdigit() for c in word) and not re.search(rf"(?<![가-힣]){re.escape(word)}(?!\d)", spaced):
        return False
    start = squashed.find(word)
    while start >= 0:
        if not any(squashed.startswith(longer, start) for longer in not_inside.get(word, ())):
            return True
        start = squashed.find(word, start + 1)
    return False


def read_population(question: str, names=()) -> Population:
    """The group a question is about. `names` are recognised product names to cut out first (아이엔점안액 is no child);
    remembered for recent questions (retrieval, the frame and the answer each ask).

    >>> read_population("임신 12주인데 감기약 먹어도 돼요")
    Population(group='pregnant', detail='임신')
    >>> read_population("아이엔 점안액 렌즈 끼고 넣어도 돼요", names=["아이엔"]).group is None
    True
    >>> read_population("애기한테 멀미약 먹여도 되나").group
    'infant'
    >>> read_population("완모중인 2개월 아기 비타민D 드롭 몇 방울 먹여야돼요?").group
    'infant'
    >>> read_population("완모중인데 두통약 먹어도 돼요?").group, read_population("모유 먹이는 중인데 아기 감기약").group
    ('breastfeeding', 'breastfeeding')
    """
    return _read_population(question, tuple(names))


def grown_words() -> tuple[str, ...]:
    """The words for a grown-up a question may be about (남편, 엄마, 언니), from ``data/population_words.json``.

    >>> "남편" in grown_words(), "아들" in grown_words()
    (True, False)
    """
    return tuple(_vocabulary()["grown"])


def names_a_grown_up(question: str) -> bool:
    """The question names a grown-up (남편, 엄마, 할머니) it may be about.

    >>> names_a_grown_up("우리 엄마가 코미시럽 먹어도"), names_a_grown_up("코미시럽 얼마나 먹어요")
    (True, False)
    """
    return any(w in "".join(question.split()) for w in grown_words())


def names_a_woman(question: str) -> bool:
    """The question names a woman it may be about (30대 여자인데, 와이프가, 엄마): a leaflet's prohibition to women
    (여성 환자 … 사용하지 마십시오) is one of her rules. 딸기 is no daughter.

    >>> names_a_woman("30대 여자인데 정수리가 휑해요"), names_a_woman("와이프가 탈모라"), names_a_woman("딸기 먹고")
    (True, True, False)
    >>> names_a_woman("남편이 탈모약 발라도")
    False
    """
    vocab, squashed = _vocabulary(), "".join(without_places(question).split())
    return any(_occurs(w, squashed, vocab["not_inside"]) for w in vocab["women"])


def says_word(word: str, squashed: str) -> bool:
    """`word` in `squashed` (a question with its spaces removed) other than as the start of a longer word the
    population words list under not_inside (아이 in 아이스크림, 딸 in 딸기).

    >>> says_word("아이", "아이스크림먹어도돼요"), says_word("아이", "아이가열나요")
    (False, True)
    """
    return _occurs(word, squashed, _vocabulary()["not_inside"])


_NURSING_FEED = re.compile(r"(?:모유|젖|분유)(?:를|을)?(?:먹이|먹여|먹일)")  # 모유 먹이는 중: nursing, no medicine fed


def a_nursed_baby(question: str) -> bool:
    """The question is a nursing mother's about her own medicine (백일 아기 모유 먹이는 중인데 프리나정 먹어도): a
    baby it names, and the baby's age, are the baby nursed, not who takes the medicine, unless the medicine is fed
    to the baby (수유 중인데 6개월 아기한테 해열제 먹여도).

    >>> a_nursed_baby("백일 아기 모유 먹이는 중인데 생리통약 먹어도 될까요")
    True
    >>> a_nursed_baby("수유 중인데 6개월 아기한테 해열제 먹여도 되나요"), a_nursed_baby("6개월 아기 해열제")
    (False, False)
    """
    if read_population(question).group != "breastfeeding":
        return False
    squashed = _NURSING_FEED.sub("|", "".join(question.split()))
    return not any(w in squashed for w in _vocabulary()["feeding"])


def feeds_a_grown_up(question: str) -> bool:
    """The question feeds a medicine (먹여도, 발라줘도) to a grown-up it names (남편, 엄마), so the verb says no child.

    >>> feeds_a_grown_up("남편한테 감기약 먹여도 되나요"), feeds_a_grown_up("감기약 먹여도 되나요")
    (True, False)
    """
    vocab, squashed = _vocabulary(), "".join(question.split())
    return any(w in squashed for w in vocab["feeding"]) and names_a_grown_up(question)


def forget_readings() -> None:
    """Drop the questions `read_population` remembers (a benchmark times each question as a new one)."""
    _read_population.cache_clear()


@functools.lru_cache(maxsize=1024)
def _read_population(question: str, names: tuple[str, ...]) -> Population:
    vocab = _vocabulary()
    squashed = "".join(without_places(question).split()).lower()
    for name in sorted(names, key=len, reverse=True):
        if len(name) >= 2:
            squashed = squashed.replace("".join(name.split()).lower(), "|")
    spaced, not_inside = question.lower(), vocab["not_inside"]
    found = [(g, w) for g, words in vocab["groups"].items() for w in words if _occurs(w, squashed, not_inside, spaced)]
    pregnant_or_nursing = [(g, w) for g, w in found if g in ("pregnant", "breastfeeding")]
    if pregnant_or_nursing:  # 임신 중 아이 감기약: the one who takes it is the mother
        group, word = pregnant_or_nursing[0]
        if group == "pregnant" and any(g == "breastfeeding" for g, _ in found):
            group, word = next((g, w) for g, w in found if g == "breastfeeding")
        # 완모중인 2개월 아기 비타민D 먹여야: a medicine fed to the nursed baby is the baby's (its age, its word)
        fed = any(w in _NURSING_FEED.sub("|", squashed) for w in vocab["feeding"])
        babies = [(g, w) for g, w in found if g in ("infant", "child")]
        if not (group == "breastfeeding" and fed and (babies or _age(question) is not None)):
            return Population(group, word)
        found = babies
    if (age := _age(question)) is not None:
        group = group_of_age(age[0])
        if group is not None or not found:
            return Population(group, age[2]) if group else Population()
    if found:
        return Population(*found[0])
    if any(w in squashed for w in vocab["feeding"]) and not feeds_a_grown_up(question):
        return Population("child", next(w for w in vocab["feeding"] if w in squashed))
    return Population()
