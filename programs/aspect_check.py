"""Which of the aspects a question asks (its `QuestionFrame`) an answer speaks to — the no-LM self-check.

A quoted sentence speaks to an asked aspect by where it was quoted from or by what it says, with the corpus-derived
vocabularies only:

* a section aspect by the section of its document (side effects: ``se``; interactions: ``intrc`` or a DUR 병용금기
  rule; storage: ``depositMethod``; dosage and how to take: ``useMethod``; a condition: ``atpn``/``atpnWarn``);
* a situation (food, driving, a missed dose …) by a seed word of its vocabulary aspect (`retrievers/aspects.py`,
  `FRAME_VOCAB`; a meal is food, and a period of days or weeks is a duration); an aspect the question asked by a
  situation's words (씹어도 → how_to_take) only by those words, not by its section;
* who it is for by the group's leaflet words (`retrievers/population.leaflet_words`: 수유부, 소아 …; for a child
  also an age limit, 18세 미만) outside the storage section (어린이의 손이 닿지 않는 곳) or a DUR rule of the group's
  type (임부금기 …).

Generic aspects ("may I", "what for") and comparison are never checked: every answer speaks to them.

Example:
    >>> from retrievers.question_frame import QuestionFrame
    >>> frame = QuestionFrame("감기약 먹고 운전해도 돼요?", aspects=("driving",))
    >>> check = aspect_check(frame, [Quoted("졸음이 올 수 있으므로 운전을 하지 마십시오.", "atpn")])
    >>> check.spoken, check.missed_all
    (('driving',), False)
    >>> aspect_check(frame, [Quoted("두통, 발열에 사용합니다.", "efcy")]).missed
    ('driving',)
    >>> not_covered_notice(("driving",))
    '※ 찾은 설명서에는 운전에 대한 내용이 없습니다.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from programs import leaflet_group_limit
from programs.citations import CITE, cite_numbers, product
from programs.offer_guard import DOSE_LEFT_OUT
from retrievers.age_doses import AGE_BOUND, dose_bands, states_dose  # an age limit speaks to a child
from retrievers.aspects import PERIOD, load_vocabulary
from retrievers.documents import Document
from retrievers.population import ADULT_AGE, GROUP_ASPECT, leaflet_words
from retrievers.question_frame import (
    FRAME_VOCAB,
    GENERIC,
    POPULATION_ASPECTS,
    SECTION_ASPECT,
    VOCAB_ASPECT,
    QuestionFrame,
)

UNCHECKED = GENERIC | {"comparison"}
TIMES = re.compile(r"\d+\s*(?:~\s*\d+\s*)?회")  # how many times (주 1~2회, 1일 3회)
DOSE_ASPECTS = frozenset({"dosage", "how_to_take", "timing_food", "duration"})  # what a 용법·용량 line answers
LEAFLET_GROUP = {"pregnancy": "pregnant", "breastfeeding": "nursing"}  # the aspect -> leaflet_group_limit's group
# the sections (and DUR rule types) whose sentences answer an aspect: the frame's own map read backwards, plus the
# sections a question about a dose or a condition is answered from
SECTIONS: dict[str, set[str]] = {}
for _section, _aspect in SECTION_ASPECT.items():
    SECTIONS.setdefault(_aspect, set()).add(_section)
SECTIONS["dosage"].add("useMethod")
SECTIONS["contraindication"] = {"atpn", "atpnWarn"}
# vocabulary aspects that also speak to a frame aspect beyond its own (바로 밥 먹어도 → 음식을 먹지 마십시오)
RELATED_VOCAB = {"timing_food": ("food",)}
# situations narrower than their frame aspect: said, the aspect is checked by their words alone (매일 먹는데 내성
# 생겨요 asks about dependence, which a period of days does not answer)
NARROWER = frozenset({"dependence", "vomited", "reuse", "covering"})
# how a leaflet line speaks of another medicine used with it, in whatever section (다른 점안제와 동시에 사용할 경우,
# 다른 약과 함께 복용, 병용)
TOGETHER_TEXT = re.compile(r"다른\s*\S*(?:약|제|제품)(?:와|과|을|를)?\s*(?:함께|동시에|같이|병용)|병용")
# a caution saying an effect may come (이 약 복용 후 졸음이 나타날 수 있으므로 …): a side effect outside 이상반응
MAY_OCCUR = re.compile(r"(?:이|가)\s*(?:나타날|생길|일어날)\s*수\s*있")
NOT_ABOUT_PEOPLE = frozenset({"depositMethod"})  # 어린이의 손이 닿지 않는 곳에 보관: where it is kept, not for whom
# each aspect as the notice says it: "찾은 설명서에는 {words}에 대한 내용이 없습니다"
WORDS = {
    "dosage": "용량",
    "how_to_take": "복용 방법",
    "timing_food": "복용 시간(식전·식후)",
    "missed_dose": "복용을 잊은 경우",
    "duration": "복용 기간",
    "onset": "효과가 나타나는 시간",
    "side_effects": "부작용",
    "contraindication": "질환이 있을 때의 복용",
    "interactions": "함께 쓰는 약",  # 먹는 or 넣는, 바르는: eye drops and creams are used together too
    "alcohol": "음주",
    "food_drink": "음식·음료",
    "driving": "운전",
    "pregnancy": "임신 중 복용",
    "breastfeeding": "수유 중 복용",
    "child_use": "어린이 복용",
    "elderly": "고령자 복용",
    "storage": "보관",
    "expiry": "사용기한",
    "overdose": "과량 복용",
    "smoking": "흡연",
    "washing": "씻기·목욕",
    "lens": "콘택트렌즈",
    "sunlight": "햇빛(자외선)",
    "reuse": "개봉하거나 쓰고 남은 약을 다시 쓰는 것",
    "covering": "바른 곳을 붕대나 밴드로 덮는 것",
    "heat": "찜질·열",
    "surgery": "수술·시술 전 복용",
    "drug_test": "약물(도핑) 검사",
    # situations said in their own words where their frame aspect's would be wrong (see `said_as`)
    "dependence": "내성이나 의존성(습관성)",
    "vomited": "먹은 약을 토했을 때 다시 먹는 것",
}
SECTION_LABEL = re.compile(r"^\[[^\]]*\]\s*")  # [용법·용량], [상호작용(함께 먹으면 안 되는 약·음식)]
NOT_COVERED_NOTICE = "※ 찾은 설명서에는 {words}에 대한 내용이 없습니다."
NOT_QUOTED_NOTICE = "※ 아래 인용한 문장에는 {words}에 대한 내용이 없습니다."


def _child_band(text: str) -> bool:
    """The sentence doses an age band under adulthood (2세~5세는 1~4회, 1개월~12개월은): a child's dose table.

    >>> _child_band("영아는 1회, 1개월~12개월은 1~2회, 2세~5세는 1~4회 분무합니다."), _child_band("성인은 1회 1정")
    (True, False)
    """
    return any(low < ADULT_AGE for low, _ in dose_bands(text, children=False))


@dataclass(frozen=True)
class Quoted:
    """One quoted sentence and the section it comes from (a leaflet section, or ``dur:cc`` … for a DUR rule)."""

    text: str
    section: str = ""

    @property
    def rule(self) -> bool:
        return self.section.startswith("dur:")


@dataclass(frozen=True)
class AspectCheck:
    """The asked aspects that are checked, and those the quotes speak to."""

    asked: tuple[str, ...] = ()
    spoken: tuple[str, ...] = ()

    @property
    def missed(self) -> tuple[str, ...]:
        return tuple(a for a in self.asked if a not in self.spoken)

    @property
    def missed_all(self) -> bool:
        """Something particular was asked and the answer speaks to none of it."""
        return bool(self.asked) and not self.spoken

    @property
    def missed_first(self) -> bool:
        """The aspect asked first (the frame's most particular) is not spoken to: the answer says so. Who it is for
        comes first in the frame but is not what is asked when a situation follows it (해열제 먹이고 얼마나 있어야 열이
        떨어져요: a child's dose answers who, not how soon), so the first aspect other than a population's is checked
        too.

        >>> AspectCheck(("child_use", "onset"), ("child_use",)).missed_first
        True
        >>> AspectCheck(("child_use", "dosage"), ("child_use", "dosage")).missed_first
        False
        >>> AspectCheck(("pregnancy",), ()).missed_first, AspectCheck(("pregnancy",), ("pregnancy",)).missed_first
        (True, False)
        """
        if not self.asked:
            return False
        first = next((a for a in self.asked if a not in POPULATION_ASPECTS), self.asked[0])
        return first not in self.spoken or self.asked[0] not in self.spoken

    def to_dict(self) -> dict:
        return {"asked": list(self.asked), "spoken": list(self.spoken), "missed": list(self.missed)}


def speaks_to(aspect: str, quote: Quoted, group: str | None = None, by_words: tuple[str, ...] = ()) -> bool:
    """Whether one quote speaks to one aspect (see the module docstring); `group` is the frame's population group;
    `by_words`: the question asked it by a situation's words, so only those words answer it (the vocabulary aspects
    asked, when given: 쪼개서 asks crushing, which 물과 함께 does not answer).

    >>> speaks_to("breastfeeding", Quoted("수유부는 의사와 상의하십시오.", "atpn"))
    True
    >>> speaks_to("child_use", Quoted("어린이의 손이 닿지 않는 곳에 보관하십시오.", "depositMethod"))
    False
    >>> speaks_to("dosage", Quoted("6~12세 소아는 4시간마다 5 mL씩 복용하되", "useMethod"), by_words=("dose",))
    True
    >>> speaks_to("dosage", Quoted("손발톱에 주 1~2회바르고 건조시킵니다.", "useMethod"), by_words=("dose",))
    True
    >>> speaks_to("interactions", Quoted("다른 점안제와 동시에 사용할 경우 15분 간격을 둡니다.", "useMethod"))
    True
    >>> speaks_to("side_effects", Quoted("이 약 복용 후 졸음이 나타날 수 있으므로 운전 시 주의하십시오.", "atpn"))
    True
    """
    if quote.section in SECTIONS.get(aspect, ()) and (quote.rule or not by_words):
        return True  # a DUR rule of the aspect's type always answers it
    if LEAFLET_GROUP.get(aspect) in leaflet_group_limit.forbids(quote.text):
        return True  # 여성 환자 … 사용하지 마십시오 answers "임신 중인데 발라도" (programs/leaflet_group_limit.py)
    if aspect in POPULATION_ASPECTS:
        groups = (
            [group] if GROUP_ASPECT.get(group or "") == aspect else [g for g, a in GROUP_ASPECT.items() if a == aspect]
        )
        if quote.rule or quote.section in NOT_ABOUT_PEOPLE:
            return False
        if aspect == "child_use" and (AGE_BOUND.search(quote.text) or _child_band(quote.text)):
            return True
        return any(w in quote.text for g in groups for w in leaflet_words(g))
    if aspect == "duration" and (not by_words or "duration" in by_words) and PERIOD.search(quote.text):
        return True  # a period answers how long (not 내성, asked by its own words)
    if (
        aspect == "dosage"
        and quote.section in SECTIONS["dosage"]
        and (states_dose(quote.text) or TIMES.search(quote.text))
    ):
        return True  # 4시간마다 5 mL씩, 주 1~2회 바르고: an amount or how often answers how much, with no 1회 written
    if aspect == "side_effects" and quote.section in SECTIONS["contraindication"] and MAY_OCCUR.search(quote.text):
        return True  # 졸음이 나타날 수 있으므로 운전 … 주의: what taking it may bring, written in 주의사항
    if aspect == "interactions" and TOGETHER_TEXT.search(quote.text):
        return True  # 다른 점안제와 동시에 사용할 경우 …: a 용법 line on another medicine used with it
    vocab = load_vocabulary()
    if aspect in vocab.seeds and aspect not in FRAME_VOCAB:  # a situation checked as itself (lens, sunlight)
        return vocab.match(aspect, quote.text) >= 1.0
    words = by_words or FRAME_VOCAB.get(aspect, ())
    return any(vocab.match(v, quote.text) >= 1.0 for v in (*words, *RELATED_VOCAB.get(aspect, ())))


def aspect_check(frame: QuestionFrame, quotes: list[Quoted], morphemes=()) -> AspectCheck:
    """Which of the frame's particular aspects (generic ones and comparison left out) the quotes speak to;
    `morphemes`: the question's Kiwi morphemes, for the vocabulary's one-syllable question words (씹, 술)."""
    said = load_vocabulary().asked(frame.question, morphemes)
    worded = set(said)
    # a situation whose frame aspect is a generic one (렌즈 낀 채로, 햇빛 쬐도: cautions) is checked as itself, first
    situations = tuple(v for v in said if VOCAB_ASPECT.get(v) in UNCHECKED)
    asked = (*situations, *(a for a in frame.aspects if a not in UNCHECKED))
    group = frame.population.group
    by_words = {a: tuple(v for v in FRAME_VOCAB.get(a, ()) if v in worded) for a in asked}
    by_words = {a: tuple(v for v in vs if v in NARROWER) or vs for a, vs in by_words.items()}
    spoken = tuple(a for a in asked if any(speaks_to(a, q, group, by_words[a]) for q in quotes))
    return AspectCheck(asked, spoken)


def section_of(doc: Document) -> str:
    """A leaflet document's section, or ``dur:<code>`` for a DUR rule (the keys of `SECTION_ASPECT`)."""
    if doc.id.startswith("dur:"):
        return "dur:" + doc.id.split(":")[1]
    return str(doc.metadata.get("section", ""))


def answer_quotes(answer: str, docs: list[Document], keep: Callable[[Document], bool] | None = None) -> list[Quoted]:
    """The answer's cited lines, each with the section of the first document it cites (``[문서 N]``, N 1-based
    into `docs`) and without the product said before it (어린이타이레놀: … speaks of no child); lines without a
    citation (the opening, notices) are not quotes; with `keep` (`programs/answer_target.on_target`), a line none of
    whose cited documents it keeps is none either.

    >>> doc = Document("easydrug:1:se", "x", {"section": "se", "item_name": "어린이부루펜시럽(이부프로펜)"})
    >>> answer_quotes("어린이부루펜시럽 · 부작용\\n어린이부루펜시럽: 구역이 나타날 수 있습니다. [문서 1]", [doc])
    [Quoted(text='구역이 나타날 수 있습니다.', section='se')]
    """
    out = []
    for line in answer.splitlines():
        numbers = cite_numbers(line)
        cited = [n for n in numbers if 0 < n <= len(docs)]
        if keep is not None:
            cited = [n for n in cited if keep(docs[n - 1])]
        if cited:
            doc = docs[cited[0] - 1]
            text = CITE.sub("", line).strip()
            name = re.sub(r"\(.*", "", product(doc)).strip()
            if name and text.startswith(name + ":"):
                text = text[len(name) + 1 :].strip()
            # the label the answer puts first ([상호작용(함께 먹으면 안 되는 약·음식)]) is no word of the quote
            out.append(Quoted(SECTION_LABEL.sub("", text), section_of(doc)))
    return out


def document_quotes(docs: list[Document], keep: Callable[[Document], bool] | None = None) -> list[Quoted]:
    """Every line of the documents (those `keep` keeps) as a quote of its section (a leaflet's first line, its
    product's name, left out): what the found documents could have said."""
    return [
        Quoted(SECTION_LABEL.sub("", line), section_of(d))
        for d in docs
        if keep is None or keep(d)
        for i, line in enumerate(d.text.splitlines())
        if line.strip() and not (i == 0 and d.id.startswith("easydrug:"))
    ]


def self_check(
    frame: QuestionFrame,
    answer: str,
    docs: list[Document],
    morphemes=(),
    keep: Callable[[Document], bool] | None = None,
) -> tuple[AspectCheck, str]:
    """The check of an answer written from `docs` and the notice it gets: when the aspect asked first is missed,
    the aspects missed, said not in the documents found — or, for those the documents do speak to somewhere, not in
    the sentences quoted. An answer quoting nothing gets no notice (it says what it found, or that it found none).
    With `keep` (`programs/answer_target.on_target`), only the documents about what the question asks about speak
    to an aspect: a plaster's line on infants does not answer whether a stomach medicine suits a baby.

    >>> from retrievers.question_frame import QuestionFrame
    >>> doc = Document("easydrug:1:efcy", "판콜\\n두통, 발열에 사용합니다.", {"section": "efcy"})
    >>> check, notice = self_check(QuestionFrame("판콜 먹고 운전", aspects=("driving",)), "두통 [문서 1]", [doc])
    >>> check.missed, notice
    (('driving',), '※ 찾은 설명서에는 운전에 대한 내용이 없습니다.')
    """
    quotes = answer_quotes(answer, docs)
    check = aspect_check(frame, quotes if keep is None else answer_quotes(answer, docs, keep), morphemes)
    if DOSE_LEFT_OUT in answer:  # a withheld product's dose, left out on purpose and said so, is not missing
        check = AspectCheck(tuple(a for a in check.asked if a not in DOSE_ASPECTS), check.spoken)
    if not quotes or not check.missed_first:
        return check, ""
    found = aspect_check(frame, document_quotes(docs, keep), morphemes).spoken
    worded = load_vocabulary().asked(frame.question, morphemes)
    lines = (
        not_covered_notice([said_as(a, worded) for a in check.missed if a not in found]),
        not_covered_notice([said_as(a, worded) for a in check.missed if a in found], in_documents=True),
    )
    return check, "\n".join(line for line in lines if line)


def said_as(aspect: str, worded) -> str:
    """The missed aspect as the notice names it: a `NARROWER` situation the question asked it by (`worded`), else
    the aspect itself (내성 asks the duration aspect; the notice says 내성, not 복용 기간).

    >>> said_as("duration", ["duration", "dependence"]), said_as("duration", ["duration"])
    ('dependence', 'duration')
    """
    narrower = [v for v in FRAME_VOCAB.get(aspect, ()) if v in worded and v in NARROWER]
    return narrower[0] if narrower else aspect


def not_covered_notice(missed, in_documents: bool = False) -> str:
    """The notice for aspects the answer does not speak to: the documents found do not say it, or (`in_documents`)
    they do somewhere but the quoted sentences do not. "" for none."""
    words = ", ".join(WORDS.get(a, a) for a in missed)
    if not words:
        return ""
    return (NOT_QUOTED_NOTICE if in_documents else NOT_COVERED_NOTICE).format(words=words)
