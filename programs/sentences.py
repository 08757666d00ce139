"""Sentence-level answering without an LM: gather every section of the candidate products' leaflets, then rank each
sentence by the question — its content words (Kiwi morphemes, IDF-weighted over leaflet sentences), the aspects it
asks (food, driving, crushing, a child …; `retrievers/aspects.py`) and the section retrieval preferred.

Example:
    >>> ranker = SentenceRanker("안약 넣고 렌즈 바로 껴도 돼요")
    >>> ranker.aspects
    ['lens']
    >>> lens = ranker.score("콘택트렌즈를 착용한 채 점안하지 마십시오.")
    >>> lens > ranker.score("눈의 피로, 결막충혈에 사용합니다.")
    True
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path

from programs.text import bigrams, gram_share, target_words
from retrievers.age_doses import AGE_BOUND, dose_bands
from retrievers.aspects import POPULATION, WORD_START, load_vocabulary
from retrievers.class_products import class_terms
from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.names import PARTICLE
from retrievers.population import read_population, stated_ages
from retrievers.question_frame import AFTER_INTAKE, SINCE_INTAKE, kind_words
from retrievers.stem_nouns import nominal
from retrievers.unicode_text import INFANTS
from retrievers.unimproved import unimproved_after

# who a question is about (retrievers/population.py) -> the vocabulary aspect whose leaflet words speak of them
VOCAB_GROUP = {
    "pregnant": "pregnancy",
    "breastfeeding": "breastfeeding",
    "infant": "children",
    "child": "children",
    "adolescent": "children",
    "elderly": "elderly",
}
CARRIED = ("breastfeeding", "pregnancy")  # the baby a question about these speaks of is not who takes the medicine
# a period as people say it -> as the leaflets write it (일주일째 먹는데 → "1주 이상", "7일 이상")
PERIODS = {
    "하루": ("1일",),
    "이틀": ("2일",),
    "사흘": ("3일",),
    "나흘": ("4일",),
    "일주일": ("1주", "7일"),
    "보름": ("15일", "2주"),
    "한달": ("1개월", "한 달"),
}
LAY_WORDS_PATH = Path(__file__).resolve().parents[1] / "retrievers" / "data" / "lay_words.json"
MERGE_FRAMED = True  # a question telling it has not got better asks duration beside what its words ask
LEARNED_LINKS = True  # a question's everyday words also find the leaflet words learned to answer them
LINK_SHARE = 0.5  # of the IDF of the leaflet words it stands for (real-dev: 0.5 one question above 1.0)
LINK_MIN_IDF = 2.4  # a linked leaflet word this rare at least (환자, 복용, 미만 are in too many sentences)
LEAFLET_SECTIONS = ("efcy", "useMethod", "atpnWarn", "atpn", "intrc", "se", "depositMethod")
NEIGHBOUR_SHARE = 0.5  # a question word's symptom neighbours (속쓰림 → 구역, 소화불량) count this share of its weight
ASPECT_WEIGHT = 0.6  # a sentence that speaks to the asked aspect (a seed word; half for a mined word)
AGE_WEIGHT = 0.3  # a sentence whose written ages take in the age the question states (20개월 → 만 2세 미만)
# from what age it may be given, asked with no age stated (몇 살부터 먹여요, 몇 개월 이상, 나이 제한): a sentence
# bounding an age (만 3세 미만의 영·유아는 복용하지 마십시오) answers it, as a stated age's band would
AGE_LIMIT_ASKED = re.compile(
    r"몇\s*(?:살|세|개월|돌)\s*(?:부터|이상|이후|까지|미만|이하|넘어야|지나야|되어야|돼야|되야|되면|된\s*(?:아이|애|아기))"
    r"|(?:나이|연령)\s*제한|(?:애기|아기|아이|어린이)\s*(?:도|한테도|에게도)?\s*언제부터"
)
BIGRAM_WEIGHT = 0.3  # character-bigram overlap with the question: words Kiwi splits otherwise still count
MAX_PRODUCTS = 5  # products whose whole leaflet is read for a class or symptom question
BACKGROUND_SHARE = 0.5  # an aspect only a sentence that asks nothing names (비염 때문에 매일 먹어요) weighs this share
# a sentence speaking to an asked situation only by another of its seeds than the one the question writes (씹어먹어도:
# "물에 녹여" beside "씹지 말고"; 우유랑: 자몽 beside 우유) speaks to it this surely; not for who it is for, nor for the
# aspects whose seeds are the possible answers to one question (식전 or 식후, 실온 or 냉장, 4시간 간격 or 몇시간마다,
# 계속 or 5일 이상, 1회 or 최대), not distinct situations
SIBLING_SHARE = 0.8
NOT_SIBLINGS = frozenset({"duration", "dose", "meal", "timing", "storage"})
NEIGHBOURS = 1  # items quoted on each side of a matching item of a long sentence
# a part of the body said in one syllable (눈에 들어갈까봐, 코 안에, 입 안이 헐어): a word that adds to a sentence
# naming it, found only as a noun of its own ("눈 또는 눈꺼풀과 같은", not 눈꺼풀 alone; 입 is not in 입원).
# Reviewed domain words; 이 (a tooth) and 등 (the back) are left out, read as "this" and "and so on" as often as not
BODY_NOUNS = frozenset("눈 코 귀 입 목 배 손 발 팔 턱 혀 볼 젖".split())
LONG_SENTENCE = 160  # a longer sentence (a list of conditions or drugs) is quoted as an excerpt: its matching items
# a sentence of the question that asks: a question mark, or a Korean ending or word that asks
_ASKS = re.compile(
    r"[?？]|나요|까요|는지|는가|되나|될까|돼요|되요|되죠|어때|괜찮|뭐|몇|언제|얼마|어떻게|어떡|무슨|왜|맞아|맞나"
)
_SENTENCE_END = re.compile(r"(?<=[?？.!])\s+|\n+")
# where a list's last item ends and the clause closing the list starts: "체중 증가가 나타나는", "발진 등이 나타나는"
_LIST_CLOSE = re.compile(r"\s*등[이을의]?\s|(?<=[가-힣])[이가]\s+(?:나타나|나타날|생기|생길|발생)")
_NOT_UNITS = set("이가은는을를도만에의와과로요")  # particles after a bare number (20이요), not its unit
_LABEL = re.compile(r"^\[[^\]]*\]\s*")  # a section's label before its first sentence: "[용법·용량] "


@functools.lru_cache(maxsize=1)
def said_as_leaflets() -> dict[str, tuple[str, ...]]:
    """Words as people say them -> as leaflets write them: the periods (`PERIODS`) and the everyday words of
    ``retrievers/data/lay_words.json`` (노랗게 → 황색, 이 뽑 → 발치).

    >>> said_as_leaflets()["일주일"], said_as_leaflets()["이뽑"]
    (('1주', '7일'), ('발치', '치과'))
    """
    return {**PERIODS, **lay_words()}


@functools.lru_cache(maxsize=1)
def lay_words() -> dict[str, tuple[str, ...]]:
    """The everyday words of ``retrievers/data/lay_words.json`` -> the leaflet words for them (살쪄 → 체중 증가)."""
    lay = json.loads(LAY_WORDS_PATH.read_text(encoding="utf-8"))["words"]
    return {said: tuple(words) for said, words in lay.items()}


@functools.lru_cache(maxsize=1)
def after_taking_words() -> dict[str, tuple[str, ...]]:
    """The everyday words of ``lay_words.json`` read as the leaflets' only after a medicine was taken (잠이 안 와요 →
    불면, in 감기약 먹고 잠이 안 와요; not in 코막혀서 잠을 못 자는데, where it is why the medicine is taken)."""
    lay = json.loads(LAY_WORDS_PATH.read_text(encoding="utf-8")).get("after_taking", {})
    return {said: tuple(words) for said, words in lay.items()}


def said_after_taking(compact: str) -> dict[str, tuple[str, ...]]:
    """The `after_taking_words` the question (spacing removed) says after a verb of taking a medicine.

    >>> said_after_taking("감기약먹고잠이안와요"), said_after_taking("코막혀서잠을못자는데코스프레이써도")
    ({'잠이안와': ('불면',)}, {})
    """
    out = {}
    for said, words in after_taking_words().items():
        at = compact.find(said)
        if at > 0 and any(w in compact[:at] for w in AFTER_INTAKE):  # 먹고, 먹었, 바르고, 복용 … before it
            out[said] = words
    return out


@functools.lru_cache(maxsize=1)
def lay_links() -> dict[str, list[str]]:
    """Question morpheme -> the leaflet morphemes learned to answer it (`retrievers/mine_lay_links.py`); empty when
    `LEARNED_LINKS` is off or no links were fitted."""
    from retrievers.mine_lay_links import LINKS_PATH

    if not LEARNED_LINKS or not LINKS_PATH.exists():
        return {}
    return json.loads(LINKS_PATH.read_text(encoding="utf-8"))["links"]


@functools.lru_cache(maxsize=4096)
def _read_already(word: str) -> bool:
    """`word` is part of a question word of the aspect vocabulary (술 of 술, 밥 of 밥 먹고) or of an everyday word the
    reviewed list reads (`said_as_leaflets`): those say what it asks, a learned link would only blur it."""
    asks = (w for words in load_vocabulary().asks.values() for w in words)
    if any(word in "".join(w.lstrip(WORD_START).split()) for w in asks):
        return True
    return any(word in said for said in said_as_leaflets())


def _chooses(word: str, targets: tuple[str, ...]) -> bool:
    """`word` is part of a symptom or class word of the question (감기약, 두통): it chose the products."""
    return any(word in t or t in word for t in targets)


@functools.lru_cache(maxsize=1)
def leaflet_tokenizer():
    """The Kiwi tokenizer the leaflet IDF was mined with, one per process."""
    from retrievers.tokenizer import KiwiTokenizer

    return KiwiTokenizer()


@functools.lru_cache(maxsize=1)
def _neighbours() -> dict[str, list[str]]:
    import json

    from retrievers.mine_neighbours import NEIGHBOURS_PATH

    return json.loads(NEIGHBOURS_PATH.read_text(encoding="utf-8"))["neighbours"]


@functools.lru_cache(maxsize=512)
def symptom_neighbours(forms: tuple[str, ...]) -> tuple[str, ...]:
    """The mined neighbours (`retrievers/mine_neighbours.py`) of the listed symptoms that carry one of `forms`
    (쓰림 → 속쓰림's: 구역, 소화불량 …), without the forms' own symptoms.

    >>> "구역" in symptom_neighbours(("쓰림",))
    True
    """
    table = _neighbours()
    own = [item for item in table if any(f and f in item for f in forms)]
    return tuple(dict.fromkeys(n for item in own for n in table[item] if n not in own))


@functools.lru_cache(maxsize=256)
def sentence_tokens(text: str) -> tuple[str, ...]:
    """The Kiwi morphemes of `text` (the tokenizer the leaflet IDF was mined with)."""
    return tuple(leaflet_tokenizer()(text))


def question_tokens(question: str, known) -> tuple[str, ...]:
    """The question's `sentence_tokens`, a particle Kiwi left on a noun it did not split (아목시실린도, 나잘워시랑) cut
    off when the noun without it is a leaflet word (`known`, the IDF table).

    >>> question_tokens("아목시실린도 먹고 있어요", {"아목시실린": 7.9})[:2]
    ('아목시실린', '먹')
    """
    out = []
    for token in sentence_tokens(question):
        stem = PARTICLE.sub("", token) if token not in known else token
        out.append(stem if len(stem) > 1 and stem in known else token)
    return tuple(out)


class SentenceRanker:
    """Scores sentences against one question: IDF-weighted share of its content words the sentence contains, plus
    `ASPECT_WEIGHT` times how surely it speaks to an aspect the question asks, plus a little bigram overlap.
    `framed`: the vocabulary aspects of the question's frame, read when the question has none of their words;
    `medicines`: names and ingredients counted as content words (`extractive.pair_medicines`)."""

    def __init__(self, question: str, names=(), framed=(), medicines=()):
        vocab = load_vocabulary()
        morphemes = question_tokens(question, vocab.idf)
        self.morphemes = morphemes  # the question's morphemes: a one-syllable question word (술) is read among them
        self.vocab = vocab
        self.aspects = vocab.asked(question, morphemes)
        if not self.aspects:  # what the question's frame read by its section words (계속 먹어도 → duration)
            self.aspects = [a for a in framed if a in vocab.seeds]
        elif MERGE_FRAMED and "duration" not in self.aspects and unimproved_after(question):
            # 일주일 발랐는데 그대로예요: how long to go on (`retrievers/unimproved.py`), beside what its words ask
            # (하루에 세네번씩: the dose it was used at)
            self.aspects.append("duration")
        background = told_only(question, self.aspects, vocab)
        self.own_seeds = own_seeds(question, self.aspects, vocab)
        self.weights = {a: BACKGROUND_SHARE if a in background else 1.0 for a in self.aspects}
        group = VOCAB_GROUP.get(read_population(question, names).group or "")
        if group and group not in self.aspects:
            self.aspects.append(group)  # 7살 아들, 수유 중, 고2: who it is for, as the question says it
        if group in CARRIED:
            self.aspects = [a for a in self.aspects if a != "children"]  # 모유 먹이는데 애기한테: the baby nursed
        # content words: two characters or more (one-syllable stems match inside too many words), known to the
        # leaflets (a product name or slang word cannot be in a sentence's body)
        # and not part of a symptom or class word (감기약, 두통): those chose the products, they are not asked about
        targets = chosen_by(question)
        compact_q = "".join(question.split())
        if names and any(w in compact_q for w in SINCE_INTAKE):
            # a product named chose the products: a symptom written after taking it is what the asker noticed since
            # (래피콜 먹었더니 … 변비 생겼어요), a word its sentences answer by
            kinds = kind_words(question)
            targets = tuple(t for t in targets if any(t in k or k in t for k in kinds))
        # nor a part of a name retrieval read (타이레놀 8시간 → 타이레놀8시간: its 시간 is no question of timing)
        parts = ["".join(str(n).split()) for n in names]
        words = {
            w
            for w in morphemes
            if (len(w) > 1 or w in BODY_NOUNS)
            and w in vocab.idf
            and not any(w in t or t in w for t in targets)
            and not any(w in p and w != p for p in parts)
        }
        self.words = {w: vocab.idf[w] for w in words}
        # two medicines asked together: each one's names and ingredients are what a sentence about the pair says
        # (타이레놀 beside 종합감기약 → "아세트아미노펜을 포함하는 다른 제품")
        for m in medicines:
            if len(m) > 1 and m not in self.words:
                self.words[m] = vocab.idf.get(m, vocab.idf_unseen)
        # a verb or adjective stem is also found as its noun (쓰리 → 속쓰림, 가렵 → 가려움)
        # a period as people say it, read in the question's text (Kiwi splits 한달 and knows no 사흘), and an
        # everyday word for what leaflets say in their own words (노랗게 → 황색, 이 뽑아요 → 발치)
        compact = "".join(question.split())
        said_as = {**said_as_leaflets(), **said_after_taking(compact)}
        for said in said_as:
            if said in compact and said not in self.words:
                self.words[said] = vocab.idf.get(said, vocab.idf_unseen)
        # the leaflet words learned to answer a question word (마르 → 건조, 눕 → 비스듬히): `lay_links`; only when
        # the question names a medicine or a class (입안이 헐어 따가워 asks which one helps: 따갑 → 자극 would
        # read the complaint as an effect noticed), and not for a name or a word read already (술, 밥 먹고: the
        # aspect vocabulary or the reviewed everyday-word list says what it asks)
        linked = (
            {
                q: found
                for q in morphemes
                if (found := [s for s in lay_links().get(q, ()) if self._may_link(s, vocab)])
                and not _chooses(q, targets)
                and not any(q in "".join(str(n).split()) for n in (*names, *medicines))  # 타이레놀 is a name
                and not _read_already(q)
            }
            if names or medicines or kind_words(question)
            else {}
        )
        for q, found in linked.items():
            if q not in self.words:  # weighed as the leaflet words it stands for (빠지 → 탈모), not as unseen
                self.words[q] = LINK_SHARE * max(vocab.idf[s] for s in found)
        self.forms = {w: self._forms(w, said_as.get(w, ()), linked.get(w, ())) for w in self.words}
        # a verb or adjective stem of the question (드시 of 드시는데) is found as a word of a sentence, not inside
        # another one (반드시): Kiwi confirms a substring match
        tagged = leaflet_tokenizer().tagged(question)
        self.stems = frozenset(t.form for t in tagged if t.tag.startswith(("VV", "VA")) and t.form in self.words)
        for w in self.words:
            if w.isdigit():  # 임신 20주: the number with its unit, not the 20 of "20 mL"
                self.forms[w] = number_forms(compact, w)
        # the symptoms leaflets list beside it (속이 쓰려요 → 구역, 소화불량): a sentence naming those speaks to it too
        self.near = {w: symptom_neighbours(self.forms[w]) for w in self.words}
        # a part of the body adds to a sentence naming it, and takes nothing from one that does not (무좀 있는 발에:
        # where the 무좀 is, and the 무좀 line answers)
        self.total = sum(v for w, v in self.words.items() if w not in BODY_NOUNS)
        self.grams = bigrams(question)
        self.ages = stated_ages(question)  # 7살 → 7 to 8; None when no age is written
        self.asks_age_limit = bool(AGE_LIMIT_ASKED.search(question))
        self.question = question
        self._short: tuple[str, ...] | None = None  # one-syllable nouns, read when a long list is cut

    def has(self, word: str, form: str, text: str) -> bool:
        """`text` carries `form` of the question's `word`; the stem of a verb or adjective itself only as one of the
        text's morphemes (드시 is not in 반드시).

        >>> ranker = SentenceRanker("할머니가 매일 드시는데 괜찮을까요")
        >>> ranker.has("드시", "드시", "반드시 의사와 상의하십시오."), ranker.has("드시", "드시", "식후에 드시십시오.")
        (False, True)

        A stem conjugated into another spelling (밀리 in 밀려나올) is found as the morpheme it is:

        >>> SentenceRanker("좌약이 자꾸 밀려 나와요").has("밀리", "밀리", "밀려나올 경우에는 1분간 안아줍니다.")
        True
        """
        if word in BODY_NOUNS:  # 눈: a noun of its own, never inside another word
            return form == word and word in sentence_tokens(text)
        stem = form == word and word in self.stems
        if form not in text:
            spelt = stem and (joined := contracted(word)) != word and joined in text
            return bool(spelt) and word in sentence_tokens(text)
        return not stem or word in sentence_tokens(text)

    def new_words(self, text: str, quoted: list[str]) -> list[str]:
        """The question's content words `text` carries that none of the `quoted` texts does, a verb or adjective
        stem aside (바르, 붙이: how any line of a cream or a plaster speaks).

        >>> ranker = SentenceRanker("마이녹실 바르고 드라이기로 말린 다음 자도 되나요")
        >>> ranker.new_words("헤어드라이어를 사용하지 마십시오.", ["취침 2∼4시간 전에 바르십시오."])
        ['드라이기']
        >>> ranker.new_words("너무 넓게 바르지 마십시오.", [])
        []
        """
        return [
            w
            for w in self.words
            if w not in self.stems
            and any(self.has(w, f, text) for f in self.forms[w])
            and not any(self.has(w, f, t) for t in quoted for f in self.forms[w])
        ]

    def _may_link(self, word: str, vocab) -> bool:
        """A learned link to the leaflet word `word` is read: the word is rare enough (`LINK_MIN_IDF`), and a word
        for who the medicine is for (소아, 고령자, 수유부) only when the question is about that group — who it is
        for is the population reader's (70대 어머니께 드려도 taught 드리 → 고령자)."""
        if vocab.idf.get(word, 0.0) < LINK_MIN_IDF:
            return False
        groups = [a for a in POPULATION if word in vocab.seeds.get(a, ())]
        return not groups or any(a in self.aspects for a in groups)

    @staticmethod
    def _forms(word: str, said: tuple[str, ...], linked) -> tuple[str, ...]:
        """How a leaflet may write `word`: itself (not one syllable: 입 is in 입원), its noun, the reviewed everyday
        readings and the learned links."""
        own = word if len(word) > 1 or word in BODY_NOUNS else ""
        return tuple(f for f in (own, nominal(word), noun_without_ri(word), *said, *linked) if f)

    @property
    def situations(self) -> list[str]:
        """The asked aspects that are not who the medicine is for (food, driving, a dose …): efficacy never answers
        them."""
        return [a for a in self.aspects if a not in POPULATION]

    def speaks_to(self, text: str) -> bool:
        """The text carries a content word of the question or a word of an aspect it asks."""
        if any(self.has(w, f, text) for w, forms in self.forms.items() for f in forms):
            return True
        return any(self.vocab.match(a, text) for a in self.aspects)

    def excerpt(self, sentence: str, also: tuple[str, ...] = (), head: bool = False) -> str:
        """A long sentence cut to its first item, the items that speak to the question (or carry a word of `also`:
        the asker's condition), and its closing clause, the gaps marked "…" (every piece verbatim); a short one, or
        one with no such item, as it is — unless `head`, when it is cut to its first item and closing clause (a
        long list of other drugs not to take with it, quoted beside another product's line).

        >>> ranker = SentenceRanker("수유 중인데 먹어도 돼요")
        >>> ranker.excerpt("이 약을 복용하기 전에 영아, " + "고열, " * 40 + "수유부, 고령자는 의사와 상의하십시오.")
        '이 약을 복용하기 전에 영아, … 고열, 수유부, 고령자는 의사와 상의하십시오.'
        """
        if len(sentence) <= LONG_SENTENCE:
            return sentence
        items = _items(sentence)
        inner = range(1, len(items) - 1)
        keep = [
            i
            for i in inner
            if self.speaks_to(items[i]) or self.names_short_noun(items[i]) or any(w in items[i] for w in also)
        ]
        # the list's last item, before the clause closing it (…, 체중 증가가 나타나는 경우 복용을 중지): the items
        # before it say nothing of what was asked
        last = len(items) - 1
        close = _LIST_CLOSE.search(items[last]) if not keep and last > 1 else None
        if close and self.speaks_to(items[last][: close.start()]):
            keep = [last]
        # no item names what was asked: those naming the symptoms listed beside it, which scored the sentence
        keep = keep or [i for i in inner if self.names_neighbour(items[i])]
        if not keep and head and len(items) > 2:
            return f"{items[0]}, … {items[-1]}"
        if not keep:
            return sentence
        # each matching item with its neighbours (a list is often read as a run: 당뇨병, 고혈압, 위궤양)
        near = {j for i in keep for j in range(i - NEIGHBOURS, i + NEIGHBOURS + 1) if 0 < j < len(items) - 1}
        kept = [0, *sorted(near), len(items) - 1]
        out = items[0]
        for before, i in zip(kept, kept[1:], strict=False):
            out += ", " + items[i] if i == before + 1 else ", … " + items[i]
        return out

    def names_neighbour(self, item: str) -> bool:
        """A list item naming a symptom the leaflets list beside one the question writes (속이 쓰려요 → 구역,
        소화불량): what scored the sentence, so what its excerpt keeps.

        >>> ranker = SentenceRanker("게보린 먹고 속이 쓰려요")
        >>> ranker.names_neighbour("구역"), ranker.names_neighbour("발진")
        (True, False)
        """
        return any(n in item for near in self.near.values() for n in near)

    def names_short_noun(self, item: str) -> bool:
        """A list item holding, as a word of its own, a one-syllable noun the question writes (꿈을 꿔요 → "비정상적
        꿈"): too short to score a sentence by, enough to keep the item when a long list is cut.

        >>> ranker = SentenceRanker("패치 붙이고 자면 꿈을 이상하게 꿔요")
        >>> ranker.names_short_noun("비정상적 꿈"), ranker.names_short_noun("꿈틀거림")
        (True, False)
        """
        if self._short is None:
            tokens = leaflet_tokenizer().tagged(self.question)
            self._short = tuple(dict.fromkeys(t.form for t in tokens if t.tag == "NNG" and len(t.form) == 1))
        words = re.split(r"[\s,]+", re.sub(r"\([^()]*\)", " ", item))  # a no-break space after a comma too
        return any(w == n for w in words for n in self._short)

    def score(self, sentence: str) -> float:
        parts = self.parts(sentence)
        return (
            parts["overlap"]
            + ASPECT_WEIGHT * parts["aspect"]
            + AGE_WEIGHT * parts["age"]
            + BIGRAM_WEIGHT * parts["bigram"]
        )

    def parts(self, sentence: str) -> dict[str, float]:
        """What `score` adds up: the IDF share of the question's content words found (`overlap`), how surely the
        sentence speaks to an asked aspect (`aspect`), whether its ages take in the stated age, or, asked from what
        age with none stated, whether it bounds an age (`age`), and its character-bigram overlap with the question
        (`bigram`).

        >>> ranker = SentenceRanker("소보민시럽 몇살부터 먹일 수 있어요")
        >>> ranker.parts("만 3세 미만의 영·유아는 이 약을 복용하지 마십시오.")["age"]
        1.0
        >>> ranker.parts("어린이에게 투여할 경우 보호자의 지도 감독하에 투여하십시오.")["age"]
        0.0"""
        sentence = _LABEL.sub("", sentence)  # "[용법·용량] …": the section's label is no word of the sentence
        found = 0.0
        for w, idf in self.words.items():
            if any(self.has(w, f, sentence) for f in self.forms[w]):
                found += idf
            elif any(n in sentence for n in self.near[w]):
                found += NEIGHBOUR_SHARE * idf
        fit = self.age_fit(sentence) if self.ages else float(self.asks_age_limit and bool(AGE_BOUND.search(sentence)))
        # a sentence whose written ages all miss the stated one (만 3개월 미만의 영아, for a 3-year-old) speaks of
        # another child: its child words do not answer who the question is about
        bands = dose_bands(sentence, children=False) if self.ages and not fit else []
        other_age = bool(bands) and not any_child(sentence)
        return {
            "overlap": found / self.total if self.total else 0.0,
            "aspect": max(
                (
                    self.vocab.match(a, sentence) * self.weights.get(a, 1.0) * self._own_share(a, sentence)
                    for a in self.aspects
                    if not (other_age and a == "children")
                ),
                default=0,
            ),
            "age": fit,
            "bigram": gram_share(self.grams, sentence),
        }

    def _own_share(self, aspect: str, sentence: str) -> float:
        """`SIBLING_SHARE` when the question writes seeds of `aspect` and the sentence carries none of them, else 1."""
        own = self.own_seeds.get(aspect)
        return SIBLING_SHARE if own and not any(w in sentence for w in own) else 1.0

    def age_fit(self, sentence: str) -> float:
        """1 when an age band the sentence writes out takes in the question's stated age (만 3세 이상~만 7세
        미만 for 6살), else 0.

        >>> ranker = SentenceRanker("20개월 아기 먹여도 돼요")
        >>> ranker.age_fit("만 2세 미만의 소아는 복용하지 마십시오."), ranker.age_fit("만 15세 이상은 1회 1정")
        (1.0, 0.0)
        """
        low, high = self.ages or (0.0, 0.0)
        return float(any(a < high and low < b for a, b in dose_bands(sentence, children=False)))


_JOINED_VOWELS = {20: 6, 8: 9, 13: 14, 18: 4}  # ㅣ+어 → ㅕ, ㅗ+아 → ㅘ, ㅜ+어 → ㅝ, ㅡ+어 → ㅓ


def contracted(stem: str) -> str:
    """How a verb stem ending in a vowel is spelt with 아/어 joined onto it (밀리 → 밀려, 나오 → 나와, 쓰 → 써); the
    stem itself when it ends in a consonant or a vowel that joins nothing.

    >>> contracted("밀리"), contracted("나오"), contracted("드시"), contracted("먹")
    ('밀려', '나와', '드셔', '먹')
    """
    last = ord(stem[-1]) - 0xAC00 if stem else -1
    if not 0 <= last < 11172 or last % 28:
        return stem
    initial, vowel = divmod(last // 28, 21)
    if vowel not in _JOINED_VOWELS:
        return stem
    return stem[:-1] + chr(0xAC00 + (initial * 21 + _JOINED_VOWELS[vowel]) * 28)


def own_seeds(question: str, aspects, vocab) -> dict[str, tuple[str, ...]]:
    """Per asked situation aspect, the seeds of it the question itself writes (씹어먹어도 → 씹): a sentence carrying one
    answers before one carrying only its siblings (물에 녹여). Who it is for, durations and doses have none.

    >>> own_seeds("소화제 알약 씹어먹어도 되나요", ["crushing"], load_vocabulary())
    {'crushing': ('씹',)}
    >>> vocab = load_vocabulary()
    >>> own_seeds("약 부숴서 먹어도", ["crushing"], vocab), own_seeds("계속 먹어도", ["duration"], vocab)
    ({}, {})
    """
    compact = "".join(question.split())
    out = {}
    for a in aspects:
        if a in POPULATION or a in NOT_SIBLINGS or a not in vocab.seeds:
            continue
        said = tuple(w for w in vocab.seeds[a] if w.strip() and "".join(w.split()) in compact)
        if said:
            out[a] = said
    return out


def number_forms(compact: str, number: str) -> tuple[str, ...]:
    """How a sentence must write a number of the question (spacing removed) to speak of the same thing: with the
    Hangul unit the question writes after it (임신 20주 is no "20 mL"; 12시간 is "12시간"), as it is when none
    follows or the unit is Latin (500mg: "500 mg").

    >>> number_forms("임신20주인데", "20"), number_forms("타이레놀500mg", "500"), number_forms("20이요", "20")
    (('20주', '20 주'), ('500',), ('20',))
    """
    unit = re.search(rf"(?<!\d){number}([가-힣])", compact)
    if not unit or unit.group(1) in _NOT_UNITS:
        return (number,)
    return (number + unit.group(1), f"{number} {unit.group(1)}")


# an age bound with the child it binds (만 3개월 미만의 영아, 2세 미만 영유아): a child of that age only
_AGED_CHILD = re.compile(
    r"(?:만\s*)?\d+\s*(?:세|개월)\s*(?:이상|미만|이하)?\s*(?:및|~)?\s*(?:(?:만\s*)?\d+\s*(?:세|개월)\s*(?:미만|이하))?"
    rf"\s*(?:의\s*)?(?:{INFANTS}|신생아|영아|유아|소아|어린이)"
)
_CHILD_WORDS = ("소아", "어린이", "유아", "영아", "신생아")


def any_child(sentence: str) -> bool:
    """The sentence speaks of children with no age bound on them too (유ㆍ소아(특히 2세 미만)), not only of a child of
    a given age (만 3개월 미만의 영아).

    >>> any_child("유ㆍ소아(특히 2세 미만), 고령자는 상의하십시오."), any_child("만 3개월 미만의 영아는 마십시오")
    (True, False)
    """
    return any(w in _AGED_CHILD.sub(" ", sentence) for w in _CHILD_WORDS)


def told_only(question: str, aspects: list[str], vocab) -> set[str]:
    """The `aspects` only a sentence of the question that asks nothing names: what the asker tells of themselves
    (비염 때문에 매일 먹어요), not what they ask (술 마셔도 되나요?). Empty when no sentence asks, or only one is
    written.

    >>> from retrievers.aspects import load_vocabulary
    >>> vocab, both = load_vocabulary(), ["alcohol", "duration"]
    >>> told_only("알레르기약 먹고 술 마셔도 되나요? 비염 때문에 매일 먹어요", both, vocab)
    {'duration'}
    >>> told_only("매일 먹는데 술 마셔도 되나요?", both, vocab)
    set()
    """
    parts = [p for p in _SENTENCE_END.split(question.strip()) if p.strip()]
    asking = [p for p in parts if _ASKS.search(p)]
    if len(parts) < 2 or not asking:
        return set()
    asked = {a for p in asking for a in vocab.asked(p, sentence_tokens(p))}
    return {a for a in aspects if a not in asked}


@functools.lru_cache(maxsize=512)
def chosen_by(question: str) -> tuple[str, ...]:
    """The question's symptom and class words that chose the products (`target_words`), less a symptom a class word
    beside it is not for: 무좀 in 무좀 있는 발에 파스 붙여도 is a condition the plaster is asked about, so a sentence
    saying 무좀 answers it (and 변비 in 철분제 먹으면 변비); 두통 beside 두통약 chose the products.

    >>> chosen_by("무좀 있는 발에 파스 붙여도 되나요"), chosen_by("두통약 먹었는데 두통이 계속돼요")
    (('파스',), ('두통',))
    """
    targets = target_words(question)
    kinds = kind_words(question)
    if not kinds:
        return targets
    lexicon = Lexicon.load()
    purpose = {t for k in kinds for t in (*class_terms(k, lexicon), *lexicon.expansion_terms(k))}
    return tuple(t for t in targets if any(t in k or k in t for k in kinds) or any(t in p or p in t for p in purpose))


def noun_without_ri(stem: str) -> str:
    """The noun of a ㄹ-리 stem made from its shorter verb: 졸리 (졸리다) → 졸음 (졸다), as leaflets write drowsiness;
    "" for other stems (쓰리 → 쓰림 is `nominal`'s).

    >>> noun_without_ri("졸리"), noun_without_ri("쓰리"), noun_without_ri("두통")
    ('졸음', '', '')
    """
    if len(stem) < 2 or not stem.endswith("리"):
        return ""
    before = ord(stem[-2]) - 0xAC00
    if not 0 <= before < 11172 or before % 28 != 8:  # the syllable before 리 ends in ㄹ
        return ""
    return stem[:-1] + "음"


def _items(sentence: str) -> list[str]:
    """The comma-separated items of a sentence, commas inside brackets left alone."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(sentence):
        depth += 1 if ch in "([" else -1 if ch in ")]" else 0
        if ch == "," and depth <= 0 and sentence[i + 1 : i + 2] == " ":
            items.append(sentence[start:i])
            start = i + 2
    return [*items, sentence[start:]]


def leaflet_documents(
    docs: list[Document], get: Callable[[str], Document | None], named: Callable[[Document], bool], pool: int = 5
) -> list[Document]:
    """`docs`, then every other section of the candidate products' leaflets that the index holds: the products the
    question names (`named`), or else the first `MAX_PRODUCTS` products of the first `pool` documents. Appended
    after `docs`, so their ``[문서 N]`` numbers stay."""
    leaflets = [d for d in docs if d.id.startswith("easydrug:")][:pool]
    chosen = [d for d in leaflets if named(d)] or leaflets
    products = list(dict.fromkeys(d.id.split(":")[1] for d in chosen))[:MAX_PRODUCTS]
    have = {d.id for d in docs}
    out = list(docs)
    for seq in products:
        for section in LEAFLET_SECTIONS:
            doc_id = f"easydrug:{seq}:{section}"
            if doc_id not in have and (doc := get(doc_id)) is not None:
                out.append(doc)
                have.add(doc_id)
    return out
