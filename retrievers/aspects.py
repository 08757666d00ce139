"""The aspect vocabulary: which aspect (food, driving, crushing, a child …) a question asks, and which words of a
leaflet sentence speak to it.

The seeds and the question words people write are a reviewed list (`data/aspect_seeds.json`); the other leaflet
words of each aspect and the sentence IDF are mined from the leaflets (`data/aspect_words.json`, built by
`python -m retrievers.mine_aspects`).

Example:
    >>> vocab = load_vocabulary()
    >>> vocab.asked("안약 넣고 렌즈 바로 껴도 돼요", ["안약", "넣", "렌즈", "바로", "끼"])
    ['lens']
    >>> vocab.match("lens", "콘택트렌즈를 착용한 채 점안하지 마십시오.")
    1.0
    >>> vocab.match("duration", "6개월을 초과하지 않도록"), vocab.match("duration", "평균치료기간은 3~6개월입니다.")
    (1.0, 1.0)
    >>> vocab.match("dose", "24시간 동안 6정을 초과하지 마십시오."), vocab.match("dose", "식후에 복용합니다.")
    (1.0, 0.0)
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from retrievers.age_doses import states_dose
from retrievers.memo import remembered
from retrievers.mine_aspects import SEEDS_PATH, WORDS_PATH
from retrievers.population import without_places

# an amount of the medicine: a number, written in digits or in words, and a counter (두 알, 한알로, 4정, 2번, 10미리)
_COUNTER = r"(?:알|정|포|번|회|미리|ml|mL|방울|캡슐|봉|스푼|병|장)(?:[로을씩에만은도이째]|까지|정도)?(?![가-힣])"
AMOUNT = re.compile(
    rf"(?:\d+|두|세|네|다섯|반)\s*{_COUNTER}|한\s*{_COUNTER.replace('번|', '')}"
)  # 한번: "once, to try"
# a period of days, weeks or months a medicine is taken for (7일 이상 복용하여도, 1개월 정도, 5~6회 복용하여도 is no
# period): a sentence saying one speaks to how long to take it. An age is none (만 3개월 이상, 생후 6개월 이상,
# 3개월 이상의 영아 say who may take it), nor how long a symptom has lasted (1주 이상 지속되는 기침), nor the weeks
# since another medicine was stopped (MAO억제제 … 복용을 중단한 후 2주 이내의 사람)
# how long an opened pack may be used (개봉 후 4주가 지나면, 용기 개봉 후 3개월 이내에): a use-by date of its own
OPENED_FOR = re.compile(r"개봉\s*(?:한\s*)?후(?:에는|에)?\s*\d+\s*(?:주|개월|일|년)")
PERIOD = re.compile(
    r"(?<![\d.])(?<!만)(?<!만 )(?<!생후)(?<!생후 )(?<!중단한 후 )(?<!중단 후 )"
    r"\d+\s*(?:일|주|주일|개월)\s*(?:간|동안|정도|째|이상|이내|까지)"
    r"(?!\s*(?:의\s*)?(?:영|유아|소아|어린이|젖먹이|신생아|아기|아이|지속|재발|계속되))"
    # a limit or a course written as the leaflets also do: 6개월을 초과하지 않도록, 10일을 넘지 않습니다, 평균치료기간은
    # 3~6개월입니다
    r"|(?<![\d.])\d+(?:\s*~\s*\d+)?\s*(?:일|주|주일|개월)\s*(?:을|를)\s*(?:초과|넘)"
    r"|기간은\s*(?:약\s*)?\d+(?:\s*~\s*\d+)?\s*(?:일|주|주일|개월)"
    # a course written as a range and the use (… 칸디다성 귀두염인 경우 1~2주 사용합니다)
    r"|(?<![\d.])\d+\s*[~～]\s*\d+\s*(?:일|주|주일|개월)\s*(?:간|동안)?\s*(?:사용|복용|투여|바르|붙이|바릅)"
)
POPULATION = frozenset({"children", "pregnancy", "breastfeeding", "elderly"})  # who it is for, not what is asked
ASKED_MEMO = 2048  # question texts whose asked aspects `AspectVocabulary.asked` remembers
MINED_SHARE = 0.5  # a sentence with only mined words of an aspect speaks to it half as surely as one with a seed


@dataclass(frozen=True)
class AspectVocabulary:
    """Per aspect: seeds (leaflet morphemes that mark it), asks (question words), mined (co-occurring morphemes)."""

    seeds: dict[str, tuple[str, ...]]
    asks: dict[str, tuple[str, ...]]
    mined: dict[str, tuple[str, ...]]
    idf: dict[str, float]
    idf_unseen: float
    not_inside: dict[str, tuple[str, ...]] = field(default_factory=dict)  # an ask, the longer words it is none in
    # a seed, the longer words it is none inside (장기 in 심장기능 is no long period)
    seed_not_inside: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # an aspect asked only when one of these words is said as well (토했는데 + 다시 먹어요: a vomited dose)
    with_words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _asked_memo: dict = field(default_factory=dict, compare=False, repr=False)  # see asked

    def asked(self, question: str, morphemes=(), spaced: str | None = None) -> list[str]:
        """The aspects a question asks: one of its question words in the question (spaces ignored; a one-syllable
        word only as one of the question's Kiwi morphemes; a word written ``^물이랑`` only at a word's start, so
        콧물이랑 and 약물과 함께 are no water, read in `spaced`, the question with its spaces, when `question` is
        squashed)."""
        found = frozenset(morphemes)
        key = (question, found, spaced)
        return list(remembered(self._asked_memo, key, lambda: self._asked(question, found, spaced), ASKED_MEMO))

    def forget(self) -> None:
        """Drop the remembered questions (`asked`)."""
        self._asked_memo.clear()

    def _asked(self, question: str, found: frozenset[str], spaced: str | None) -> tuple[str, ...]:
        compact = "".join(without_places(question).split())  # 할머니댁 가는데: a place, no elderly asker

        def says(word: str) -> bool:
            if word.startswith(WORD_START):
                return bool(word_start(word[1:]).search(question if spaced is None else spaced))
            if len(word) == 1:
                return word in found
            flat = "".join(word.split())  # 효과 언제 as written; not where it starts a longer word (갈아 붙여)
            if flat not in compact:
                return False
            if flat.startswith(AGAIN) and all(OTHER in compact[max(0, i - OTHER_SPAN) : i] for i in _at(compact, flat)):
                return False  # 다른 연고 또 발라도: another one, not the same one again
            longer = self.not_inside.get(flat)
            if not longer:
                return True
            at = [i for i in range(len(compact)) if compact.startswith(flat, i)]
            return any(not any(compact.startswith(x, i) for x in longer) for i in at)

        said = {a: ["".join(w.lstrip(WORD_START).split()) for w in self.asks[a] if says(w)] for a in self.seeds}
        for a, also in self.with_words.items():
            if said.get(a) and not any(says(w) for w in also):
                said[a] = []  # 먹고 토했어요 alone reports a side effect; 토했는데 다시 먹어요 asks about the dose
        # an aspect whose every word said is part of a longer word another aspect said is that one's (언제 in 언제쯤
        # 효과 asks when it works, not when to take it)
        inside = {
            a
            for a, words in said.items()
            if words and all(any(w in x and w != x for b, xs in said.items() if b != a for x in xs) for w in words)
        }
        return tuple(
            a
            for a in self.seeds
            if (said[a] and a not in inside)
            or (a == "dose" and medicine_amount(question, self.drinks))
            or (a == "duration" and bool(LONG_USE.search(question)))
        )

    @functools.cached_property
    def drinks(self) -> tuple[str, ...]:
        """The drinks people name (the alcohol and food aspects' question words): an amount after one (소주 두병,
        우유 한 잔) is what was drunk, not a dose."""
        return tuple(w for a in DRINK_ASPECTS if a in self.asks for w in self.asks[a] if not w.startswith(WORD_START))

    def _seed_in(self, seed: str, text: str) -> bool:
        """`seed` occurs in `text` other than inside one of the longer words `seed_not_inside` lists for it."""
        at = text.find(seed)
        while at >= 0:
            if not any(
                text.startswith(longer, at - longer.find(seed)) and at - longer.find(seed) >= 0
                for longer in self.seed_not_inside.get(seed, ())
            ):
                return True
            at = text.find(seed, at + 1)
        return False

    def match(self, aspect: str, sentence: str) -> float:
        """1.0 when the sentence carries a seed of the aspect, `MINED_SHARE` when only a mined word, else 0.0."""
        spaced = " " + sentence  # a seed written with a leading space (" 물과 함께") also starts a sentence
        if any(self._seed_in(w, spaced) for w in self.seeds[aspect]):
            return 1.0
        if aspect == "duration" and PERIOD.search(sentence):
            return 1.0
        if aspect == "expiry" and OPENED_FOR.search(sentence):  # 개봉 후 4주가 지나면 사용하지 마십시오
            return 1.0
        if aspect == "dose" and states_dose(sentence):  # 매 8시간마다 2정씩, 24시간 동안 6정을 초과하지 마십시오
            return 1.0
        return MINED_SHARE if any(w in sentence for w in self.mined[aspect]) else 0.0


WORD_START = "^"  # an ask written ^물이랑 matches only where a word starts
AGAIN, OTHER, OTHER_SPAN = "또", "다른", 8  # 또 발라도 after 다른 연고 (within 8 letters) is another one, not again


def _at(text: str, part: str) -> list[int]:
    """Where `part` starts in `text`."""
    return [i for i in range(len(text)) if text.startswith(part, i)]


DRINK_ASPECTS = ("alcohol", "food")
# whether it may be taken beyond a period (2주 넘게 먹어도, 열흘 이상 붙여도 돼요, 한달 내내 발라도) or go on being
# taken: how long it may be taken; not how long it has been (일주일째 쓰는데 이가 누래졌어요 tells, and asks of what
# was noticed)
LONG_USE = re.compile(
    r"(?:\d+\s*(?:일|주|주일|개월|달|년)|이틀|사흘|나흘|닷새|일주일|열흘|보름|한\s*달|두\s*달|석\s*달|몇\s*(?:주|달|개월))"
    r"\s*(?:넘게|넘어서|넘도록|이상|내내|씩이나|동안)\s*(?:계속\s*)?(?:먹|드|발라|바르|붙|써|쓰|사용|복용|넣|뿌리|마시)"
    r"[가-힣]{0,3}(?:도|면)"
    # going on with it, however the ending is typed (계속 발라두 돼요, 계속 먹으면 안되나)
    r"|계속\s*(?:먹|드|발라|바르|붙|써|쓰|사용|복용|넣|뿌리|마시)[가-힣]{0,2}?(?:도|두|면)\s*(?:안\s*)?(?:돼|되|괜찮|됨)"
)


def medicine_amount(question: str, drinks=()) -> bool:
    """The question states an amount of medicine (두 알, 4정, 10미리): `AMOUNT`, not right after a drink it names
    (소주 두병, 맥주 3병 마셨는데: what was drunk).

    >>> medicine_amount("판피린 한병 더 마셔도 돼요"), medicine_amount("소주 두병 마셨는데 타이레놀", ("소주",))
    (True, False)
    >>> medicine_amount("맥주 3병 마시고 게보린 두 알 먹어도", ("맥주",))
    True
    """
    for m in AMOUNT.finditer(question):
        before = question[: m.start()].rstrip()
        if not any(before.endswith(d) for d in drinks):
            return True
    return False


@functools.lru_cache(maxsize=256)
def word_start(word: str) -> re.Pattern:
    """`word` (its spaces optional) where no Hangul syllable comes right before it.

    >>> bool(word_start("물이랑").search("용각산은 물이랑 같이")), bool(word_start("물이랑").search("콧물이랑 기침"))
    (True, False)
    """
    letters = [re.escape(c) for c in word if not c.isspace()]
    return re.compile(r"(?<![가-힣])" + r"\s*".join(letters))


@functools.lru_cache(maxsize=1)
def load_vocabulary() -> AspectVocabulary:
    data = json.loads(Path(SEEDS_PATH).read_text(encoding="utf-8"))
    seeds = data["aspects"]
    words = json.loads(Path(WORDS_PATH).read_text(encoding="utf-8"))
    return AspectVocabulary(
        seeds={a: tuple(s["seeds"]) for a, s in seeds.items()},
        asks={a: tuple(s["asks"]) for a, s in seeds.items()},
        mined={a: tuple(words["aspects"].get(a, {})) for a in seeds},
        idf=words["idf"],
        idf_unseen=words["idf_unseen"],
        not_inside={w: tuple(v) for w, v in data.get("not_inside", {}).items()},
        seed_not_inside={w: tuple(v) for w, v in data.get("seed_not_inside", {}).items()},
        with_words={a: tuple(s["with"]) for a, s in seeds.items() if s.get("with")},
    )
