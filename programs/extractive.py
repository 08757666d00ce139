"""The no-LM answer, sentence by sentence: the user's DUR rules first, then the sentences that answer the question —
chosen by the asked section, the question's slot words (술, 임신, 아이 …) and their overlap with the question —
leading with the best one; a sentence the same across sibling products is quoted once, citing all its sources
(``[문서 1, 2]``); a "which medicine for X" question lists the products with their efficacy. Every quoted sentence
is verbatim from its document; the opening names the target chosen and why; the safety line and a no-LM notice
close it.

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_name": "게보린정", "section": "se", "section_label": "이상반응(부작용)"}
    >>> doc = Document("easydrug:1:se", "게보린정\\n[이상반응] 구역, 구토가 나타날 수 있습니다.", meta)
    >>> print(extractive_answer("게보린 구토", [doc], sections=["se"], notice="※ LM 없이 만든 답변입니다."))
    게보린정 · 이상반응(부작용)에서 찾은 내용입니다(질문한 부작용).
    <BLANKLINE>
    [이상반응] 구역, 구토가 나타날 수 있습니다. [문서 1]
    <BLANKLINE>
    전문가와 꼭 상담하세요.
    <BLANKLINE>
    ※ LM 없이 만든 답변입니다.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from programs import asker_condition, citations, comparison, condition_lines, group_lines, offer_guard, taken_medicines
from programs.answer_requirements import SECTION_WORDS
from programs.aspect_check import SECTION_LABEL, TOGETHER_TEXT, section_of
from programs.aspect_cover import cover_asked, said_situations
from programs.child_dose import (
    ADULT_DOSE_ONLY_NOTICE,
    OLDER_DOSE_NOTICE,
    adult_maximum,
    child_dose_sentences,
    doses_older_only,
    older_dose_sentences,
    oldest_age,
    states_dose,
)
from programs.citations import short_product
from programs.class_aspect import SAME_INGREDIENT
from programs.dur_rule import is_user_rule
from programs.forbidden import Product
from programs.leaflet_age_limit import AGE_LABEL
from programs.leaflet_condition_limit import forbids
from programs.leaflet_condition_limit import forms as condition_words
from programs.leaflet_group_limit import CONSULT, LEAFLET_LABEL
from programs.name_mentions import naming
from programs.notices import LOW_RELEVANCE_NOTICE, NO_CONTEXT_ANSWER, NO_LM_NOTICE, NONE_ALLOWED, SAFETY_LINE
from programs.refinement import KnowledgeRefiner
from programs.sentences import SentenceRanker, leaflet_tokenizer, sentence_tokens
from programs.shared_ingredient import shared_ingredient, shared_note
from programs.text import same, split_sentences
from programs.two_medicines import pair_medicines
from programs.user_rules import binds_one_of
from retrievers.age_doses import child_ages, doses_child
from retrievers.aspects import PERIOD, load_vocabulary
from retrievers.documents import Document
from retrievers.form_kinds import of_kinds, said_kinds
from retrievers.lexicon import Lexicon
from retrievers.name_keys import ingredient_key, squash
from retrievers.names import NameIndex
from retrievers.not_covered import kind_leaflet_words
from retrievers.population import CHILD_AGE, stated_ages
from retrievers.question_frame import FRAME_VOCAB, GENERIC, MAY_I, read_frame
from retrievers.section_model import load_section_model

POOL = 5  # documents considered (retrieval's top 5)
# a product's own leaflet rule for the asker (its age limit, its 임부 / 수유부 prohibition): quoted for a product the
# question names ("may I") and when every product found is withheld
LEAFLET_RULES = frozenset({AGE_LABEL, LEAFLET_LABEL})
TARGET_CHARS = 280  # further sentences are added only while the quotes stay this short
RANK_STEP = 0.005  # a sentence loses this much per place its document is down the list (retrieval order first)
SECTION_PRIOR = 0.15  # sentences of a section retrieval found the question asks about
FRAME_PRIOR = 0.5  # sentences of a section that answers an aspect the question's frame asks
# the leaflet sections that answer each aspect of the question frame (retrievers/question_frame.py)
ASPECT_SECTIONS = {
    "side_effects": ("se",),
    "interactions": ("intrc", "dur:ac", "dur:gc"),
    "dosage": ("useMethod", "dur:dc"),
    "how_to_take": ("useMethod",),
    "timing_food": ("useMethod",),
    "missed_dose": ("useMethod",),
    "storage": ("depositMethod",),
    "contraindication": ("atpn", "atpnWarn"),
    "overdose": ("atpnWarn",),
    "duration": ("atpn", "dur:ec"),
    "pregnancy": ("dur:cc",),
    "child_use": ("dur:bc",),
    "elderly": ("dur:fc",),
}  # efficacy is left to retrieval's sections (a frame with nothing asked reads as efficacy by default); a group's
# leaflet sentences are found by the ranker's group words (소아, 수유부), and its DUR rows here; a pregnant or nursing
# asker's leaflet caution may lead too, one that names them (`leads_as_framed`), with no prior for the section's others
# (the frame's aspect is also the vocabulary's aspect of its leaflet words)
GROUP_LEADS = {"pregnancy": ("atpn", "atpnWarn"), "breastfeeding": ("atpn", "atpnWarn")}
LEAD_FRAMED = True  # the best sentence of a section the frame asks is quoted first
# ... or, for one of these situations no section holds, the best sentence speaking of it (not food, whose seeds
# are in 음식물 알레르기, nor expiry, whose 개봉 후 4주 is no single-use vial's: real-dev)
SITUATION_LEADS = frozenset({"alcohol", "driving", "smoking", "washing"})
CLASS_SITUATIONS = True  # a class answer covers a situation asked beside its first aspect (aspect_cover.cover_asked)
CONDITION_LEADS = True  # a named product's warning of a condition the asker writes leads a "may I" answer
EFFICACY_PENALTY = 0.6  # efficacy sentences, when the question asks an aspect or a section they do not answer
SECTION_MODEL_WEIGHT = 0.1  # times the learned probability that the sentence's section answers the question
# (`retrievers/section_model.py`; real-dev, 8,539 pairs: 0 / 0.1 / 0.3 gave 0.743 / 0.751 / 0.754 gold phrases; at
# 0.2 and above a "may I" read as the cautions outweighs the interaction line the frame asks: 파킨슨약 드시는데)
NAMED_BONUS = 0.2  # sentences of a product whose first two letters the question writes (none named in full)
SECTION_NAMES = ("부작용", "이상반응", "용법", "용량", "복용법", "상호작용", "보관", "주의", "조심", "경고")  # not efcy
TOGETHER_SECTIONS = frozenset({"atpn", "atpnWarn", "useMethod", "intrc"})  # leaflet sections saying what goes with it
STORED = frozenset({"storage", "expiry"})  # the aspects the 보관법 section answers (사용기한, 개봉 후 4주)
ADULT_AGE = 19  # a stated age below it is a minor's: the leaflet's dose for that age answers "may they take it"
# asked beside a minor's age, these leave the dose and the limits for that age what answers (not 토했어요, 운전)
AGE_LINES_ASKED = frozenset({"dosage", "how_to_take", "contraindication", "cautions"})
# a line of what not to take with it (… 설핀피라존을 함께 복용하지 마십시오, … 와 병용하지 마십시오)
NOT_TOGETHER = re.compile(r"함께\s*(?:복용|사용|투여)하지|병용하지")
MIN_SCORE = 0.1  # a sentence after the first is quoted only from this score on (below it, it is filler)
WHICH_MEDICINE = re.compile(r"무슨\s*약|어떤\s*약|[뭐머]\s*먹|약\s*추천|먹을\s*약|약\s*있|약이\s*뭐|뭘\s*먹")
# who a product list answers with each product's caution naming them (programs/group_lines.py); a child asks about
# its age limits and doses, not for a list
LISTED_GROUPS = ("pregnant", "breastfeeding", "elderly")
PRODUCT_LIST = "효능·효과가 질문과 맞는 제품입니다"  # opens the answer to a "which medicine for X" question
# a "which medicine" question asking a form (귀에 넣는 약, 붙이는 멀미약) none of the products listed has
FORM_NOT_FOUND = "※ 찾은 설명서에는 질문한 형태(쓰는 방법)의 제품이 없어, 효능이 맞는 다른 형태의 제품을 적었습니다."


@dataclass
class Quote:
    """One quoted sentence and every document (1-based) it is quoted from."""

    text: str
    score: float
    sources: list[int] = field(default_factory=list)
    product: str = ""  # said before the sentence in an answer about several products (a class question)

    def line(self) -> str:
        head = f"{self.product}: " if self.product else ""
        return f"{head}{self.text} {citations.cite(sorted(self.sources))}"


def _source(q: Quote, docs: list[Document], named=None) -> Document:
    """The document a quote is said to be from: its first source whose product is not forbidden to the user (a
    sentence it shares with an allowed product is that product's), else its first; of those, first one the question
    names (`named`: doc -> bool): 써스펜 좌약's "실온에서 보관하십시오" is the suppository's, not its tablet's. Of
    the sources, those whose leaflet writes the quote as it is come first."""
    sources = [n for n in q.sources if not offer_guard.is_forbidden(docs[n - 1])] or q.sources
    # a near-duplicate merged in (`same`: one leaflet's list adds 알코올) is the product whose leaflet writes it
    body = squash(SECTION_LABEL.sub("", q.text))
    sources = [n for n in sources if body in squash(docs[n - 1].text)] or sources
    if named is not None:
        sources = [n for n in sources if named(docs[n - 1])] or sources
    return docs[sources[0] - 1]


def _dur_section(doc: Document) -> str:
    """A DUR row's section as the question analysis names it (``dur:ac`` …); "" for a leaflet."""
    return "dur:" + doc.id.split(":")[1] if doc.id.startswith("dur:") else ""


def says_something(sentence: str) -> bool:
    """False for a sentence that is only a parenthetical note or a citation mark ("(1회용에 한함)"): quoted alone it
    answers nothing.

    Example:
        >>> says_something("(1회용에 한함)"), says_something("1회 1~2방울 점안합니다. (1회용에 한함)")
        (False, True)
    """
    return bool(re.sub(r"\([^()]*\)|\[[^\[\]]*\]|[\s.·,]", "", sentence))


def _about_named_ingredient(doc: Document, names=()) -> bool:
    """A DUR row about an ingredient retrieval recognised in the question: it speaks for that ingredient as the
    section the question asks speaks for a product (its sentences get the same prior)."""
    return doc.id.startswith("dur:") and named_in_rule(doc, names, ("ingredient",)) > 0


def named_in_rule(doc: Document, names=(), fields=("ingredient", "partner")) -> int:
    """How many of a DUR row's ingredients (its own and, for a 병용금기 pair, its partner; `fields`) the question
    names (`names`: what retrieval recognised), both read as ingredient keys (센나(생약) is 센나, 슈도에페드린염산염 is
    슈도에페드린).

    >>> row = Document("dur:ac:1", "x", {"ingredient": "알프라졸람", "partner": "이트라코나졸"})
    >>> named_in_rule(row, ["이트라코나졸"]), named_in_rule(row, ["알프라졸람", "이트라코나졸"])
    (1, 2)
    >>> named_in_rule(Document("dur:cc:2", "x", {"ingredient": "슈도에페드린염산염"}), ["슈도에페드린"])
    1
    """
    asked = {key for n in names if (key := ingredient_key(str(n)))}
    rule = (ingredient_key(str(doc.metadata.get(k) or "")) for k in fields)
    return sum(1 for key in rule if key and key in asked)


def _merge(quotes: list[Quote], text: str, score: float, n: int) -> bool:
    """Add source `n` to a quote of the same sentence; False when there is none."""
    for q in quotes:
        if same(q.text, text):
            if n not in q.sources:
                q.sources.append(n)
            q.score = max(q.score, score)
            return True
    return False


def _merge_source(quotes: list[Quote], text: str, n: int) -> None:
    """Cite source `n` on a quote of the same sentence, if there is one."""
    for q in quotes:
        if same(q.text, text) and n not in q.sources:
            q.sources.append(n)
            q.sources.sort()
            return


def choose(
    question: str, docs: list[Document], terms=(), sections=(), max_sentences: int = 3, names=(), frame=None
) -> list[Quote]:
    """The user's rules (each once), then the sentences of every leaflet document that answer the question best
    (`programs/sentences.py`: the question's words, the aspect it asks, a small prior for the asked section),
    duplicates merged, while the quotes stay short. When the question names a product whose leaflet was found,
    other products' leaflets are not quoted on their own (their dosing or warnings would read as the named
    product's); a sentence they share with a quoted one still cites them. `names`: the names retrieval recognised
    in the question (`naming`); `frame`: the question's frame as the program read it with the index's names (else
    read here without them)."""
    refiner = KnowledgeRefiner(threshold=0.0)
    is_named = naming(question, docs, names)
    named_found = any(is_named(d) for d in docs)
    frame = frame or _frame(question, named_found or bool(names))
    # beside the medicines the question names, the prescription kinds it names as the leaflets write them (파킨슨약 →
    # "레보도파와 함께 복용하지 마십시오")
    medicines = (*pair_medicines(frame, docs, names, is_named), *kind_leaflet_words(question))
    ranker = SentenceRanker(question, names, frame.vocabulary_aspects, medicines)
    rules: list[Quote] = []
    named_rules: dict[int, int] = {}  # per rule, how many ingredients the question names it is about: most lead
    candidates: list[Quote] = []
    floor: dict[int, float] = {}
    shared: list[Quote] = []
    framed_quotes: set[int] = set()
    condition_quotes: set[int] = set()
    limits: list[Quote] = []  # the age limits of products withheld from the asker (`leaflet_age_limit`)
    own_rules: set[int] = set()  # a named product's own leaflet rule that withholds it from the asker
    strips = refiner.strips(question, docs, terms, sections)
    framed = asked_sections(question, named=named_found or bool(names), frame=frame)
    # 질정 넣고 관계해도 되나여: "may I" with a class and nothing else read asks whether, not what it is for, when a
    # sentence of another section carries a word of the question (감기약 먹고 헬스해도: none does, 효능 stays)
    may_i_default = "efcy" in framed and tuple(frame.aspects) == ("efficacy",) and bool(MAY_I.search(question))
    efficacy_quotes: set[int] = set()
    leading = first_aspect_sections(question, named=named_found or bool(names), frame=frame)
    child_age = oldest_age(question, names)  # None unless the question is about a child
    aged = stated_ages(question) is not None  # its age stated: a children's table older than it is none of its doses
    adults_only = adult_products(docs, question, names)  # their amounts (4,000 mg a day) are no child's
    asks_other = asks_beyond_efficacy(question, ranker)
    asks_together = "interactions" in frame.aspects
    two_named = len({d.metadata.get("item_seq") for d in docs if d.id.startswith("easydrug:") and is_named(d)}) > 1
    answering = load_section_model().probabilities(question) if SECTION_MODEL_WEIGHT else {}
    # 여드름 난데도 발라도 돼요: a noun the named product's 효능 does not say, which its warnings do, is the asker's
    # condition (programs/asker_condition.py)
    own_efficacy = [d for d in docs if is_named(d) and d.metadata.get("section") == "efcy"]
    may_i = CONDITION_LEADS and bool(own_efficacy) and bool(MAY_I.search(question))
    named_here = (*names, *medicines, *frame.targets.classes)
    nouns = asker_condition.asker_nouns(question) if may_i else ()
    asked_conditions = asker_condition.conditions(nouns, own_efficacy, named_here) if may_i else ()
    asked_conditions += asker_condition.drank(question) if may_i else ()  # 소주 두병 마셨는데 먹어도 돼요
    asked_conditions += asker_condition.kind_conditions(question) if may_i else ()  # 혈압약 먹는중인데: 고혈압
    # a disease the question says the one taking it has (녹내장이 있는데 멀미약, 고혈압 있으신 아버지 코감기약): of a
    # class's products too, a caution naming it answers first
    stated = asker_condition.stated_conditions(question) if CONDITION_LEADS else ()
    asked_conditions += tuple(c for c in stated if c not in asked_conditions)
    # 습진 있는데 발라도 돼요, of a cream for 습진, asking nothing else: the 효능 line saying so answers first (beside
    # who it is for, another medicine or an aspect, the condition is only why it is taken: 생리통 심한데 중학생 딸)
    condition_forms = tuple(dict.fromkeys(f for c in asked_conditions for f in condition_words(c)))
    only_may_i = set(frame.aspects) <= GENERIC and not frame.population.group and not frame.other_drugs
    treated = asker_condition.treated(nouns, own_efficacy, named_here) if may_i and only_may_i else ()
    for n, (doc, doc_strips) in enumerate(zip(docs, strips, strict=True), 1):
        if is_user_rule(doc):
            if doc_strips and not _merge(rules, doc_strips[0].text, 1.0, n):
                rules.append(Quote(doc_strips[0].text, 1.0, [n]))
            if doc_strips:  # a rule merged into another keeps the most names either was about
                key = next(id(q) for q in rules if same(q.text, doc_strips[0].text))
                named_rules[key] = max(named_rules.get(key, 0), named_in_rule(doc, names))
            continue
        # a section of another product made of the ingredient the question names alone, added for an asked situation
        # the named one's leaflet is silent on (`class_aspect.ingredient_documents`), speaks for the ingredient
        sibling = bool(doc.metadata.get(SAME_INGREDIENT)) and not offer_guard.is_forbidden(doc)
        other = not (is_named(doc) or sibling) and (named_found or offer_guard.is_forbidden(doc))
        if other and not doc.id.startswith("dur:"):
            shared += [Quote(s.text, 0.0, [n]) for s in doc_strips]  # cited only where it says the same
            if doc.metadata.get("dur_type") in LEAFLET_RULES:  # a withheld product's own limit: quoted when
                # nothing else may be, a long list cut to the items that say whom or what it forbids
                said = limit_words(doc)
                limits += [Quote(ranker.excerpt(s.text, also=said), 0.0, [n]) for s in doc_strips[:1]]
            continue
        if doc.metadata.get(offer_guard.VERDICT_ONLY) and not (
            doc.metadata.get("dur_type") in LEAFLET_RULES and is_named(doc)
        ):
            continue  # a rule added to cite a verdict; a named product's own age limit answers "may my child"
        section = doc.metadata.get("section")
        if section == "depositMethod" and not STORED & set(frame.aspects):
            continue  # 어린이의 손이 닿지 않는 곳에 보관: no answer to a question that asks nothing of keeping it
        prior = SECTION_PRIOR if section in sections or _about_named_ingredient(doc, names) else 0.0
        prior += FRAME_PRIOR if (section or _dur_section(doc)) in framed else 0.0
        together = asks_together and section in TOGETHER_SECTIONS  # 다른 제품과 함께 복용하지 마십시오, any section
        # a short brand (펜잘, 텐텐) the name matcher does not take as named: its leaflet first
        short_brand = NAMED_BONUS if not named_found and short_product(doc)[:2] in question else 0.0
        if section == "efcy" and asks_other:
            prior -= EFFICACY_PENALTY
        prior += SECTION_MODEL_WEIGHT * answering.get(section, 0.0)
        older: set[int] | tuple = ()
        if section == "useMethod":
            texts = [s.text for s in doc_strips]
            older = older_dose_sentences(texts, child_age, aged)
            if child_age is None and not aged:  # no child asked about: a child's dose line is none of theirs
                older = older | child_dose_sentences(texts)
        for i, s in enumerate(doc_strips):
            if not says_something(s.text) or i in older:  # an adult's dose, for a child's question: never quoted
                continue
            if doc.metadata.get("item_seq") in adults_only and states_dose(s.text):
                continue
            if child_age is not None and adult_maximum(s.text):  # 일일 최대 용량(4,000 mg): an adult's limit
                if doc.id.startswith("dur:"):
                    break  # a DUR row's 사유 lines go with its statement
                continue
            relevance = ranker.score(s.text) + prior
            if together and (section or _dur_section(doc)) not in framed and TOGETHER_TEXT.search(s.text):
                relevance += FRAME_PRIOR  # a line on another medicine used with it answers as the 상호작용 section
            condition = (
                section in asker_condition.CAUTION_SECTIONS
                and (is_named(doc) or (bool(stated) and not named_found))
                and asker_condition.warns_of(asked_conditions, s.text)
            )
            if condition and (section or _dur_section(doc)) not in framed:
                relevance += FRAME_PRIOR  # the warning answers as the asked section would
            # two products named, asked together: a long list of what not to take with one is cut to its head, so the
            # other's line still has room (스트렙실 … 이지엔6이브도 같이: "COX-2 저해제를 포함하여 다른 비스테로이드성
            # 소염진통제, … 설핀피라존을 함께 복용하지 마십시오")
            head = asks_together and two_named and bool(NOT_TOGETHER.search(s.text))
            # the asker's condition as the leaflets write it keeps its item of a long list (위궤양 → "위장관궤양")
            text = ranker.excerpt(s.text, also=condition_forms if condition else (), head=head)
            q = Quote(text, round(relevance + short_brand - RANK_STEP * n, 4), [n])
            floor[id(q)] = relevance  # what MIN_SCORE is held against: the brand bonus is not relevance
            if section == "efcy":
                efficacy_quotes.add(id(q))
            candidates.append(q)
            if LEAD_FRAMED and (section or _dur_section(doc)) in leading and leads_as_framed(frame, s.text):
                framed_quotes.add(id(q))
            if condition or (section == "efcy" and is_named(doc) and any(c in s.text for c in treated)):
                condition_quotes.add(id(q))
            if doc.metadata.get(offer_guard.VERDICT_ONLY) and doc.metadata.get("dur_type") in LEAFLET_RULES:
                own_rules.add(id(q))
    chosen: list[Quote] = []
    if may_i_default and _another_section_speaks(candidates, efficacy_quotes, ranker):
        for q in candidates:
            if id(q) in efficacy_quotes:
                q.score, floor[id(q)] = round(q.score - FRAME_PRIOR, 4), floor[id(q)] - FRAME_PRIOR
    ranked = sorted(candidates, key=lambda q: -q.score)
    # the section the question's aspect asks leads, when one of its sentences speaks to the question at all
    lead = next((q for q in ranked if id(q) in framed_quotes and floor[id(q)] - FRAME_PRIOR >= MIN_SCORE), None)
    # a situation no section holds asked first of a named product (판콜에이 … 소주 몇잔 괜찮겠죠): the best line
    # speaking of it leads; of a class, retrieval's pool may hold other kinds' lines on it (숙취에 두통약 → a motion
    # sickness syrup's 알코올 line), so the ranking stays
    situation = situation_words(frame) if named_found else None
    if lead is None and situation:
        speaking = [q for q in ranked if floor[id(q)] >= MIN_SCORE and situation(q.text)]
        # of those, one saying not to (복용 중에 음주하지 마십시오) before one sending to a pharmacist (알코올을 투여한
        # 환자 … 상의하십시오): the safety point the question needs
        # (drinking and driving: of smoking, the leaflets' lists forbid it to 비흡연자 and 일시적 흡연자)
        saying_no = [q for q in speaking if frame.aspects[0] in NOT_TO_FIRST and forbids_situation(q.text, situation)]
        lead = next(iter(saying_no), speaking[0] if speaking else None)
    # two medicines asked together (종합감기약 먹는중인데 타이레놀 더 먹어도): a line saying not to take it with the
    # other one, its kind or an ingredient they share (아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오)
    # leads over the asked section's line or the best-ranked one naming none of them (바르비탈계 약물 … 상의하십시오)
    pair_words = [squash(m) for m in medicines if len(m) >= 2]
    # (asked first: 빈속에 이부프로펜 … 이지엔6 애니 asks about an empty stomach, two names of one medicine)
    first = lead or (ranked[0] if ranked else None)
    together_first = frame.aspects[:1] == ("interactions",)
    if together_first and pair_words and first is not None and not any(w in squash(first.text) for w in pair_words):
        lead = next(
            (
                q
                for q in ranked
                if floor[id(q)] >= MIN_SCORE
                and NOT_TOGETHER.search(q.text)
                and any(w in squash(q.text) for w in pair_words)
            ),
            lead,
        )
    # a warning of the asker's condition answers "may I" before anything the frame asks (여드름 난데도 발라도)
    lead = next((q for q in ranked if id(q) in condition_quotes), lead)
    # of those, one forbidding it (소화성궤양 … 복용하지 마십시오) before one sending to a pharmacist (… 경험자 … 상의)
    lead = next((q for q in ranked if id(q) in condition_quotes and forbids(q.text, asked_conditions)), lead)
    # a "may I" of a named product in a situation its cautions speak of (전기장판 켜고, 햇빛 걱정돼요, 렌즈 끼고): the
    # line speaking of it leads, before any other caution or the efficacy naming what the asker has (허리 → 요통)
    circumstance = caution_situation(frame) if named_found or frame.targets.classes else None
    if circumstance and (lead is None or id(lead) not in condition_quotes or id(lead) in efficacy_quotes):
        lead = next((q for q in ranked if floor[id(q)] >= MIN_SCORE and circumstance(q.text)), lead)
    # 임신 중인데 마이녹실 발라도: the named product's own rule that withholds it from the asker answers first
    lead = next((q for q in ranked if id(q) in own_rules), lead)
    if lead is not None:
        ranked = [lead] + [q for q in ranked if q is not lead]
    for q in ranked:
        if _merge(chosen, q.text, q.score, q.sources[0]) or _merge(rules, q.text, q.score, q.sources[0]):
            continue
        if len(chosen) >= max_sentences or (chosen and floor.get(id(q), q.score) < MIN_SCORE):
            continue
        length = sum(len(c.text) for c in chosen)
        if chosen and length + len(q.text) > TARGET_CHARS:
            continue
        if chosen and any(q.sources[0] in c.sources for c in chosen) and len(chosen) + 1 >= max_sentences:
            continue  # the last place goes to another document
        chosen.append(q)
    # no other document's line was good enough for the last place: the same document's next best that says a word of
    # the question the quoted lines do not takes it (마이녹실 … 드라이기로 말린 다음: the 헤어드라이어 line after the
    # 용법 and 취침 lines of one leaflet; not "정해진 용법과 용량을 잘 지키십시오", which a dose question's aspect
    # scores, nor "너무 넓게 바르지 마십시오" for its 바르)
    spare = len(chosen) == max_sentences - 1 and max_sentences > 1
    for q in ranked if spare else ():
        if any(same(q.text, c.text) for c in chosen + rules) or floor.get(id(q), q.score) < MIN_SCORE:
            continue
        if not ranker.new_words(q.text, [c.text for c in chosen]):
            continue
        if sum(len(c.text) for c in chosen) + len(q.text) <= TARGET_CHARS:
            chosen.append(q)
            break
    if chosen and named_found:  # 로피딘 먹고 운전해도? 하루 몇 알?: the driving line as well as the dose, from the
        # named product's own leaflet
        own = [q for q in ranked if is_named(docs[q.sources[0] - 1]) and floor.get(id(q), q.score) >= MIN_SCORE]
        section = lambda q: section_of(docs[q.sources[0] - 1])  # noqa: E731
        # two medicines (단자민정 사왔는데 판콜에스 마셨어요): the line naming the other one or its kind (감기약,
        # 항히스타민제) answers whether they go together
        pair = [squash(m) for m in medicines if len(m) >= 2]
        together = {"interactions"} if pair else set()
        names_pair = lambda aspect, q: aspect != "interactions" or any(m in squash(q.text) for m in pair)  # noqa: E731
        only = said_situations(frame, ranker.morphemes) | together  # 술약속: 술 is one of its morphemes
        chosen = cover_asked(frame, chosen, own, max_sentences, section, lambda q: q.text, only, names_pair)
    elif chosen and CLASS_SITUATIONS:  # 감기약 먹고 운전해도? 하루 몇번?: a situation the class's lines leave out,
        # from the best-ranked line speaking of it of a product they quote (not another kind's the pool also holds)
        quoted = {_seq(docs, n) for q in chosen for n in q.sources} - {""}  # a DUR row is no product quoted
        # not food: its seed 음식 is as often an allergy's (음식물 알레르기), which answers no 커피 or 녹차
        only = said_situations(frame, ranker.morphemes) - {"food_drink"}
        speaks = {a: seed_test(a) for a in only}
        pool = [
            q
            for q in ranked
            if floor.get(id(q), q.score) >= MIN_SCORE
            and any(_seq(docs, n) in quoted for n in q.sources)
            and any(test(q.text) for test in speaks.values())  # in a seed word, not a mined one (음식물 알레르기)
        ]
        section = lambda q: section_of(docs[q.sources[0] - 1])  # noqa: E731
        before = {id(q) for q in chosen}
        chosen = cover_asked(frame, chosen, pool, max_sentences, section, lambda q: q.text, only)
        first = speaks.get(frame.aspects[0]) if frame.aspects else None
        # the line put in for the situation asked first (운전해도? 하루 몇번?) leads
        lead = next((q for q in chosen if id(q) not in before and first and first(q.text)), None)
        if lead is not None:
            chosen = [lead, *(q for q in chosen if q is not lead)]
    # 13살 아들 이지엔6이브 먹여도 돼요 (a child's age, nothing asked but whether or how much): the dose for that age
    minor = ranker.ages is not None and ranker.ages[1] <= ADULT_AGE
    if chosen and named_found and minor and (set(frame.situations) <= AGE_LINES_ASKED or "dose" in ranker.aspects):
        of_named = lambda q: is_named(docs[q.sources[0] - 1])  # noqa: E731
        caution = lambda q: docs[q.sources[0] - 1].metadata.get("section") in asker_condition.CAUTION_SECTIONS  # noqa: E731
        chosen = with_age_dose(chosen, ranked, ranker, of_named, max_sentences)
        chosen = with_age_caution(chosen, ranked, ranker, lambda q: of_named(q) and caution(q), max_sentences)
    for q in shared:
        _merge_source(chosen, q.text, q.sources[0])
    if not chosen and max_sentences:  # 7살 애 어른 소화제 먹여도: every product found is below its age limit
        for q in limits:
            if len(chosen) < max_sentences and not _merge(chosen, q.text, q.score, q.sources[0]):
                chosen.append(q)
    # 모유수유 중인데 수면유도제 먹어도: the line of a withheld product's leaflet forbidding it to the asker (임부,
    # 수유부) answers "may I" first (an age limit only when nothing else may be quoted, above)
    # (a class question's, or a named brand's sibling's: beside a product the question names, another product's
    # line is no answer to it, 임신 중 맥시롱 → a whitening gel's)
    group = next(
        (
            q
            for q in limits
            if docs[q.sources[0] - 1].metadata.get("dur_type") == LEAFLET_LABEL
            and (not named_found or _of_a_name(docs[q.sources[0] - 1], names))
        ),
        None,
    )
    if group is not None and max_sentences and not any(same(group.text, c.text) for c in chosen):
        chosen = [group, *chosen[: max_sentences - 1]]
    if not named_found:  # a class or symptom question: say which product each sentence is from
        for q in chosen:
            q.product = short_product(_source(q, docs))
            if offer_guard.is_forbidden(_source(q, docs)):  # its own age limit: marked as not for this user
                q.product += f"({offer_guard.MARK})"
    elif len({short_product(d) for q in chosen if (d := _source(q, docs, is_named)).source == "easydrug"}) > 1:
        # two products named (조아구강청액 … 탁센도 먹고있어요): each line says whose it is, or a capsule's dose reads
        # as the gargle's under the first one's heading
        for q in chosen:
            if (d := _source(q, docs, is_named)).source == "easydrug":
                q.product = short_product(d)
    # 임산부는 센나 들어간 변비약: the rule on 센나 answers it; those on the other laxatives' ingredients follow
    rules.sort(key=lambda q: -named_rules.get(id(q), 0))
    leading, after = about_the_answer(rules, chosen, docs, is_named, named_rules)
    return leading + chosen + after


def with_age_dose(chosen: list[Quote], ranked: list[Quote], ranker, own, max_sentences: int) -> list[Quote]:
    """`chosen` with the best-ranked sentence of the named product's leaflet (`own`) that gives the question's stated
    age a dose (만 8세 이상~만 15세 미만은 1회 1캡슐씩, for a 13-year-old) quoted first when it was left out (a long
    caution took the room), the last quote making way; one quoted already is moved first; unchanged when none does."""
    quoted = next((q for q in chosen if ranker.age_fit(q.text) and states_dose(q.text)), None)
    if quoted is not None:
        return [quoted, *(q for q in chosen if q is not quoted)]
    dose = next((q for q in ranked if own(q) and ranker.age_fit(q.text) and states_dose(q.text)), None)
    if dose is None:
        return chosen
    return [dose, *chosen[: max_sentences - 1]]


def with_age_caution(chosen: list[Quote], ranked: list[Quote], ranker, own_caution, max_sentences: int) -> list[Quote]:
    """`chosen` with the best-ranked caution of the named product's leaflet (`own_caution`) whose ages take in the
    question's stated age and that forbids or sends to a pharmacist (만 2세 미만의 소아 … 상의하십시오, for a
    20-month-old) added last when no quote speaks of that age but as a dose; the last quote makes way when full."""
    if any(ranker.age_fit(q.text) and not states_dose(q.text) for q in chosen):
        return chosen
    line = next(
        (
            q
            for q in ranked
            if own_caution(q)
            and ranker.age_fit(q.text)
            and not states_dose(q.text)
            and asker_condition.WARNING.search(q.text)
        ),
        None,
    )
    if line is None or not max_sentences:
        return chosen
    return [*chosen[: max_sentences - 1], line]


def about_the_answer(rules: list[Quote], chosen: list[Quote], docs: list[Document], is_named, named_rules: dict):
    """(the user's rules that lead, those that follow the quotes): a rule leads when it is about an ingredient the
    question names or binds a product the answer quotes or the question names; one that binds only products the
    answer leaves out (a 서방정's 12세미만 rule beside a child's syrup) says why they are left out, after the answer,
    instead of opening it as if it were about what is offered. With no sentence quoted every rule leads."""
    if not chosen:
        return rules, []
    shown = [docs[n - 1] for q in chosen for n in q.sources] + [d for d in docs if is_named(d)]
    products = [Product.of(d) for d in shown if d.source == "easydrug"]

    def leads(q: Quote) -> bool:
        return named_rules.get(id(q), 0) > 0 or any(binds_one_of(docs[n - 1], products) for n in q.sources)

    return [q for q in rules if leads(q)], [q for q in rules if not leads(q)]


def adult_products(docs: list[Document], question: str, names=()) -> set[str]:
    """For a question about a child under 12, the products among `docs` whose 용법·용량 (when it is among them) doses
    no child at all (`retrievers.age_doses`): an amount any of their sentences states is an adult's.

    >>> use = Document("easydrug:1:useMethod", "세토펜정\\n[용법·용량] 성인은 1회 1~2정 복용합니다.",
    ...                {"item_seq": "1", "section": "useMethod"})
    >>> adult_products([use], "애기 해열제 두 번 먹였어요"), adult_products([use], "해열제 두 번 먹었어요")
    ({'1'}, set())
    """
    ages = child_ages(question, names)
    if ages is None or ages[1] > CHILD_AGE:
        return set()
    children = (0.0, float(CHILD_AGE))  # a children's product keeps its table, even when the child is below it
    return {
        str(d.metadata.get("item_seq"))
        for d in docs
        if d.metadata.get("section") == "useMethod" and not doses_child(d.text, children)
    }


def which_medicine(question: str, docs: list[Document], sections=(), frame=None) -> bool:
    """A "which medicine for X" question: it asks for a medicine (or efficacy) without naming a product, and asks
    no aspect (a class word with 운전, 우유, 아이 … asks about that, not for a product)."""
    named = any(short_product(d) and short_product(d)[:2] in question for d in docs if not d.id.startswith("dur:"))
    if named or asks_beyond_efficacy(question, SentenceRanker(question)) or asks_an_aspect(question, frame):
        return False  # 해열제 부작용, 감기약 먹고 운전: a class word with what is asked about it
    if WHICH_MEDICINE.search(question):
        return True
    # 질정 생리 중에도 넣어도 되나요, 파스 붙이고 자도 되나요: "may I" asks whether, not which one
    return list(sections)[:1] == ["efcy"] and not MAY_I.search(question)


def asked_sections(question: str, named: bool = False, frame=None) -> set[str]:
    """The sections (and DUR rule types) that answer the aspects the question's frame asks (졸리죠 → se, 같이 →
    intrc and 병용금기 …). What a medicine is for (efcy) only when it names no medicine: a symptom or class question
    asks which one helps, while 게보린 구토 asks about 게보린's effects.

    >>> sorted(asked_sections("감기약 먹으면 왜케 졸리죠?")), sorted(asked_sections("콧물이 줄줄 나요"))
    (['se'], ['efcy'])
    """
    frame = frame or _frame(question, named)
    out = {section for a in frame.aspects for section in ASPECT_SECTIONS.get(a, ())}
    return out | ({"efcy"} if "efficacy" in frame.aspects and not named else set())


def leads_as_framed(frame, sentence: str) -> bool:
    """A sentence of the section the frame's first aspect asks may lead as that section's answer; for a duration,
    whose 사용상 주의사항 section holds every warning, only one that speaks of a period or of going on (5일 이상,
    장기간, 계속): 며칠 발라요 is not answered by the section's first list of conditions.

    >>> from retrievers.question_frame import QuestionFrame
    >>> frame = QuestionFrame("며칠 바르면 되나요", aspects=("duration",))
    >>> leads_as_framed(frame, "5일 이상 사용하지 마십시오."), leads_as_framed(frame, "임부는 의사와 상의하십시오.")
    (True, False)

    A pregnant or nursing asker's caution, only one that names them:

    >>> pregnant = QuestionFrame("임신 중인데 붙여도 되나요", aspects=("pregnancy",))
    >>> leads_as_framed(pregnant, "임부는 의사와 상의하십시오."), leads_as_framed(pregnant, "고령자는 상의하십시오.")
    (True, False)
    """
    if frame.aspects and frame.aspects[0] in GROUP_LEADS:  # 임신 중인데 붙여도: the caution naming 임부 leads
        return load_vocabulary().match(frame.aspects[0], sentence) >= 1.0
    if not frame.aspects or frame.aspects[0] != "duration":
        return True
    return bool(PERIOD.search(sentence)) or load_vocabulary().match("duration", sentence) >= 1.0


NOT_TO_FIRST = frozenset({"alcohol", "driving"})  # situations whose line saying not to leads over a consulting one
_DO_NOT = re.compile(r"지\s*마(?:십시오|세요)|삼가(?:십시오|세요)|피하십시오")


def forbids_situation(sentence: str, speaks: Callable[[str], bool]) -> bool:
    """The sentence says not to (…지 마십시오, 삼가, 피하십시오) with a word of the situation (`speaks`, a
    `situation_words` test) before it and no consulting clause between.

    >>> from retrievers.question_frame import QuestionFrame
    >>> drink = situation_words(QuestionFrame("타이레놀 먹고 술 마셔도", aspects=("alcohol",)))
    >>> forbids_situation("복용 중에 음주하지 마십시오.", drink)
    True
    >>> forbids_situation("알코올을 투여한 환자는 의사 또는 약사와 상의하십시오.", drink)
    False
    """
    verb = _DO_NOT.search(sentence)
    return bool(verb) and speaks(sentence[: verb.end()]) and not CONSULT.search(sentence, 0, verb.start())


def situation_words(frame) -> Callable[[str], bool] | None:
    """When the frame's first aspect is a situation no section holds (술, 운전, 흡연, 씻기: `SITUATION_LEADS`), the
    test of a sentence speaking of it with a seed word of its vocabulary aspects (음주하지 마십시오, 운전 및 기계조작);
    None otherwise.

    >>> from retrievers.question_frame import QuestionFrame
    >>> drink = situation_words(QuestionFrame("판콜 먹고 소주 마셔도", aspects=("alcohol", "dosage")))
    >>> drink("복용 중에는 음주하지 마십시오."), drink("성인 1회 1병씩 복용합니다.")
    (True, False)
    >>> situation_words(QuestionFrame("몇 알 먹어요", aspects=("dosage",))) is None
    True
    """
    first = frame.aspects[0] if frame.aspects else None
    if first not in SITUATION_LEADS:
        return None
    aspects = [v for v in FRAME_VOCAB.get(first, ()) if v in load_vocabulary().seeds]
    return _seeded(aspects) if aspects else None


def seed_test(aspect: str) -> Callable[[str], bool]:
    """The test of a sentence speaking of the frame's `aspect` with a seed word of its vocabulary aspects (운전 및
    기계조작 for driving); never true of an aspect with none.

    >>> driving = seed_test("driving")
    >>> driving("졸음이 올 수 있으므로 운전 및 기계조작을 하지 마십시오."), driving("1회 1정 복용합니다.")
    (True, False)
    """
    return _seeded([v for v in FRAME_VOCAB.get(aspect, ()) if v in load_vocabulary().seeds])


def _seeded(vocab_aspects) -> Callable[[str], bool]:
    """The test of a sentence carrying a seed word of one of `vocab_aspects` (the aspect vocabulary's)."""
    vocab = load_vocabulary()
    return lambda text: any(vocab.match(v, text) >= 1.0 for v in vocab_aspects)


def caution_situation(frame) -> Callable[[str], bool] | None:
    """When the frame's first aspect is the cautions and the question speaks of a situation the cautions hold (렌즈,
    햇빛, 찜질: the vocabulary aspects read as the cautions), the test of a sentence speaking of it with a seed word;
    None otherwise.

    >>> from retrievers.question_frame import QuestionFrame
    >>> sun = caution_situation(QuestionFrame("도미나크림 낮에 발라도 돼요? 햇빛 걱정돼요", aspects=("cautions",)))
    >>> sun("자외선 차단제를 사용하거나 햇빛에 대한 노출을 차단하십시오."), sun("기미의 표백에 사용합니다.")
    (True, False)
    >>> caution_situation(QuestionFrame("도미나크림 발라도 돼요?", aspects=("cautions",))) is None
    True
    """
    if not frame.aspects or frame.aspects[0] != "cautions":
        return None
    vocab = load_vocabulary()
    aspects = [v for v in vocab.asked(frame.question) if v in FRAME_VOCAB["cautions"] and v in vocab.seeds]
    return _seeded(aspects) if aspects else None


def first_aspect_sections(question: str, named: bool = False, frame=None) -> tuple[str, ...]:
    """The sections that answer the first aspect the question's frame asks (게보린 먹고 속이 쓰려요 → se); none when
    that aspect is a situation no section holds (운전, 술).

    >>> first_aspect_sections("게보린 먹고 속이 쓰려요", named=True), first_aspect_sections("감기약 먹고 운전해도 돼요")
    (('se',), ())
    """
    aspects = (frame or _frame(question, named)).aspects
    return (*ASPECT_SECTIONS.get(aspects[0], ()), *GROUP_LEADS.get(aspects[0], ())) if aspects else ()


@functools.lru_cache(maxsize=256)
def _frame(question: str, named: bool = False):
    """The question's frame read without the index's names (`named` says it names one), for a caller that has no
    frame to give (the program gives the one it read with them)."""
    plain = leaflet_tokenizer().reading(question)[0]
    return read_frame(question, _no_names(), Lexicon.load(), sentence_tokens(question), named=named, plain=plain)


@functools.lru_cache(maxsize=1)
def _no_names() -> NameIndex:
    return NameIndex()  # the question's names were read by retrieval; here only the aspects and group matter


def asks_an_aspect(question: str, frame=None) -> bool:
    """The question's frame (retrievers/question_frame.py) asks something beyond what a medicine is for and "may I":
    a situation or section (졸리죠 → side effects, 매일 → duration, 당뇨 있는 사람도 → contraindication) or a child
    it is for (고3, 애기). A pregnant, nursing or elderly asker (임신 중인데 두통약 뭐 먹어요) is answered with the
    products for it, what the user's rules forbid withheld and each listed one's line on the group added
    (programs/group_lines.py).

    >>> asks_an_aspect("감기약 먹으면 왜케 졸리죠?"), asks_an_aspect("콧물이 줄줄 나는데 무슨 약 먹어요?")
    (True, False)
    """
    frame = frame or _frame(question)
    return bool(frame.situations) or frame.population.group not in (None, *LISTED_GROUPS)


def asks_beyond_efficacy(question: str, ranker: SentenceRanker) -> bool:
    """The question asks something what a medicine is for cannot answer: a situation (food, driving, a dose …) or
    a section by its name (부작용, 용법 …). Who it is for (a child, pregnancy) and "may I take it" it can answer.

    >>> asks_beyond_efficacy("해열제 부작용 뭐 있어요", SentenceRanker("해열제 부작용 뭐 있어요"))
    True
    >>> asks_beyond_efficacy("애기 기저귀발진에 발라도 되요?", SentenceRanker("애기 기저귀발진에 발라도 되요?"))
    False
    """
    compact = "".join(question.split())
    return bool(ranker.situations) or any(w in compact for w in SECTION_NAMES)


def product_list(question: str, docs: list[Document], terms=(), sections=(), limit: int = 3) -> list[Quote]:
    """One efficacy sentence per product (the best-matching) of the first `POOL` leaflet documents, for up to `limit`
    products, same sentences merged; a product the user's rules forbid is not offered."""
    refiner = KnowledgeRefiner(threshold=0.0)
    quotes: list[Quote] = []
    seen: set[str] = set()
    strips = refiner.strips(question, docs, terms, sections)
    for n in _efficacy_first(docs, sorted(pool_positions(docs))):
        doc, doc_strips = docs[n - 1], strips[n - 1]
        if not doc_strips or offer_guard.is_forbidden(doc):
            continue
        best = max(doc_strips, key=lambda s: (s.score, -s.position))
        if _merge(quotes, best.text, best.score, n):
            continue
        product = short_product(doc)
        if product in seen or len(quotes) >= limit:
            continue
        seen.add(product)
        quotes.append(Quote(best.text, best.score, [n]))
    return quotes


def _efficacy_first(docs: list[Document], positions: list[int]) -> list[int]:
    """`positions` with each leaflet section found for a product's cautions (수유중인데 두통약 뭐 먹어요 finds the
    cautions naming 수유부) replaced by that product's efficacy section when it is among `docs`: a list of products
    for X says what each is for."""
    efficacy = {}
    for n, d in enumerate(docs, 1):
        if d.source == "easydrug" and d.metadata.get("section") == "efcy":
            efficacy.setdefault(str(d.metadata.get("item_seq", "")), n)
    efficacy.pop("", None)  # a document with no product number stands for itself
    out = [efficacy.get(str(docs[n - 1].metadata.get("item_seq", "")), n) for n in positions]
    return list(dict.fromkeys(out))


def pool_positions(docs: list[Document]) -> set[int]:
    """The 1-based positions of the first `POOL` leaflet documents (the rules before them not counted)."""
    return set([n for n, d in enumerate(docs, 1) if not d.id.startswith("dur:")][:POOL])


def extractive_answer(
    question: str,
    docs: list[Document],
    mode: str = "generate",
    terms=(),
    sections=(),
    max_quotes: int = 3,
    notice: str = NO_LM_NOTICE,
    names=(),
    frame=None,
    taking=(),
    groups=(),
    conditions=(),
) -> str:
    """Quote the sentences that answer the question, citing each as ``[문서 N]`` (N = its position).

    Args:
        mode: ``generate``, ``generate_low_relevance`` (adds the low-relevance notice) or ``generate_no_context``.
        max_quotes: how many of the answering sentences to quote at most (the user's DUR rules come on top).
        notice: the closing line saying how the answer was made.
        names: the product and ingredient names retrieval recognised in the question (`naming`).
        frame: the question's `QuestionFrame` as the program read it (with the index's names); read here when None.
        taking: the medicines the user's profile lists: the answered products' leaflet sentence naming one is added
            (programs/taken_medicines.py).
        groups: who the asker is (``pregnant``, ``nursing``, ``elderly``; the profile or the question): a list of
            products adds each one's caution naming the group (programs/group_lines.py).
        conditions: the diseases the user's profile lists: the answered products' caution naming one is added
            (programs/condition_lines.py).
    """
    if mode == "generate_no_context" or not docs:
        return f"{NO_CONTEXT_ANSWER}\n\n{SAFETY_LINE}\n\n{notice}"
    pool = pool_positions(docs)
    # the forbidden products found; when the question names products, those and the ones a rule the answer quotes
    # forbids (임산부 타이레놀: the 슈도에페드린 rule is 타이레놀콜드's): the others are not offered anyway, and 어린이
    # 부루펜 시럽 용량 is not told that an antihistamine syrup retrieval also found is not for a child
    is_named = naming(question, docs, names)
    found = [docs[n - 1] for n in pool]
    if any(is_named(d) for d in found):
        found = [d for d in found if is_named(d) or offer_guard.forbidden_by_a_found_rule(d, docs)]
    withheld = offer_guard.marking(docs, {short_product(d) for d in found})
    side = side_by_side(question, docs, names, frame)
    if side:
        rules = user_rules(question, docs, terms, sections, names, frame)
        labels = (comparison.SECTION_LABELS.get(docs[c.n - 1].id.rsplit(":", 1)[-1], "효능·효과") for c in side)
        opening = comparison.OPENING.format(
            section=" / ".join(dict.fromkeys(labels)), names=", ".join(short_product(docs[c.n - 1]) for c in side)
        )
        body = [q.line() for q in rules] + [f"{c.label}: {c.sentence} {citations.cite([c.n])}" for c in side]
        body += [q.line() for q in beside_comparison(question, docs, terms, sections, names, frame, side)]
    elif which_medicine(question, docs, sections, frame):
        products = product_list(question, docs, terms, sections, limit=max_quotes)
        rules = user_rules(question, docs, terms, sections, names, frame)
        names = ", ".join(dict.fromkeys(short_product(docs[q.sources[0] - 1]) for q in products))
        opening = f"{PRODUCT_LIST}: {names}." if names else (NONE_ALLOWED if withheld else "")
        if names and not in_said_form(question, [docs[q.sources[0] - 1] for q in products]):
            opening = f"{FORM_NOT_FOUND}\n{opening}"  # 귀에 넣는 약 있나요: none of the products is ear drops
        body = [q.line() for q in rules] + [f"{short_product(docs[q.sources[0] - 1])}: {q.line()}" for q in products]
        if not products:  # every product withheld: their own leaflets' lines say why (다른 해열진통제와 함께 …)
            body += _leaflet_rule_lines(docs, max_quotes)
        listed = [str(docs[q.sources[0] - 1].metadata.get("item_seq", "")) for q in products]
        body += group_lines.lines(groups, docs, listed, "\n".join(body), question)
    else:
        quotes = choose(question, docs, terms, sections, max_quotes, names, frame)
        kept = [q for q in quotes if not _forbidden_dose(q, docs)]
        dose_left_out = len(kept) < len(quotes)
        quotes = kept
        lead = next((q for q in quotes if not is_user_rule(docs[q.sources[0] - 1])), quotes[0] if quotes else None)
        first_rule = docs[quotes[0].sources[0] - 1] if quotes else None
        heading = rules_heading(first_rule) if first_rule is not None and is_user_rule(first_rule) else ""
        lead_doc = _source(lead, docs, is_named) if lead else None
        opening = _opening(lead_doc, sections, heading) if lead_doc else ""
        if lead_doc is not None and offer_guard.is_forbidden(lead_doc) and is_named(lead_doc):  # one named
            withheld = offer_guard.marking(docs, {short_product(lead_doc)})
        if lead_doc is not None and offer_guard.is_forbidden(lead_doc):  # a withheld product's own limit leads
            target = f"{short_product(lead_doc)}({offer_guard.MARK})"
            opening = _opening(lead_doc, sections, heading, target=target)
        elif quoted := {short_product(d) for q in quotes if offer_guard.is_forbidden(d := _source(q, docs, is_named))}:
            # a withheld product whose own line is quoted (its 임부 prohibition) is named in the marking too; not one
            # a line every leaflet writes also cites (어린이의 손이 닿지 않는 곳에 보관하십시오, a plaster's too)
            withheld = offer_guard.marking(docs, {short_product(d) for d in found} | quoted)
        if shared := _allowed(shared_ingredient(question, docs[:POOL]), docs):
            opening = f"{opening}\n{shared_note(shared, {n for q in quotes for n in q.sources})}".strip()
        if dose_left_out:
            opening = f"{offer_guard.DOSE_LEFT_OUT}\n{opening}".strip()
        elif older_dose_left_out(question, docs, quotes, names, frame):
            opening = f"{OLDER_DOSE_NOTICE}\n{opening}".strip()
        elif withheld_dose_left_out(question, docs, quotes, names, frame):
            opening = f"{offer_guard.DOSE_LEFT_OUT}\n{opening}".strip()
        elif adult := adult_dose_only(question, docs, quotes, is_named, names):
            opening = f"{ADULT_DOSE_ONLY_NOTICE.format(product=adult)}\n{opening}".strip()
        body = [q.line() for q in quotes] or (_leaflet_rule_lines(docs, max_quotes) if dose_left_out else [])
        if not any(is_named(d) for d in found):  # a class or symptom question: the answered products' line on the asker
            answered = [str(d.metadata.get("item_seq", "")) for q in quotes for d in _sources(q, docs)]
            answered = [seq for seq in answered if seq and not _withheld(seq, docs)]
            body += group_lines.lines(groups, docs, answered, "\n".join(body), question)
    if taking:
        body += taken_medicines.lines(taking, docs, answered_products(body, docs), "\n".join(body))
    if conditions:
        ranker = SentenceRanker(question)
        cut = lambda sentence, words: ranker.excerpt(sentence, also=words)  # noqa: E731
        said = "\n".join(body)
        # the offered products' cautions first; else a named product's withheld from the user (one more reason)
        body += condition_lines.lines(conditions, docs, answered_products(body, docs), said, cut) or (
            condition_lines.lines(conditions, docs, named_withheld(body, docs, is_named), said, cut)
        )
    opening = "\n".join(p for p in (withheld, opening) if p)
    if mode == "generate_low_relevance":
        opening = f"{LOW_RELEVANCE_NOTICE}\n\n{opening}".strip()
    return "\n\n".join(p for p in [opening, "\n".join(body), SAFETY_LINE, notice] if p)


def answered_products(body: list[str], docs: list[Document]) -> set[str]:
    """The item_seqs of the leaflets the answer's lines cite, less those forbidden to the user; when the lines name
    products (a class answer: "명랑에스산: …"), only those named — a product that only shares a quoted sentence
    (cited beside it) is not one the answer offers."""
    allowed = [d for d in _cited_docs(body, docs) if d.source == "easydrug" and not offer_guard.is_forbidden(d)]
    text = "\n".join(body)
    named = [d for d in allowed if short_product(d) and short_product(d) + ":" in text]
    return {str(d.metadata.get("item_seq", "")) for d in named or allowed}


def user_rules(question: str, docs: list[Document], terms, sections, names, frame) -> list[Quote]:
    """The user's DUR rules among `docs`, each once, as `choose` quotes them (no other sentence)."""
    return [q for q in choose(question, docs, terms, sections, 0, names, frame) if is_user_rule(docs[q.sources[0] - 1])]


def side_by_side(question: str, docs: list[Document], names=(), frame=None) -> list:
    """For a question comparing two or more products it names whose efficacy sections were found, each one's name
    with ingredients and best efficacy sentence (`programs/comparison.py`); products the user's rules forbid are
    left out (the marking line names them). [] for any other question."""
    frame = frame or _frame(question, bool(names))
    if not frame.comparison:
        return []
    is_named = naming(question, docs, names)
    allowed = [d for d in docs if not offer_guard.is_forbidden(d)]
    ranker = SentenceRanker(question, names)
    seqs = comparison.named_products(allowed, is_named, question)
    return comparison.compared(seqs, docs, ranker.score, comparison.compared_section(frame.aspects))


def beside_comparison(question: str, docs: list[Document], terms, sections, names, frame, side) -> list[Quote]:
    """The best two sentences of what a comparison question asks beside it (`comparison.asked_beside`: 번갈아 먹여도
    → interactions), each said with its product, none repeating a sentence set side by side; [] when it asks
    nothing beside."""
    frame = frame or _frame(question, bool(names))
    beside = comparison.asked_beside(frame.aspects)
    if not beside:
        return []
    asked = dataclasses.replace(frame, aspects=beside)
    quotes = [
        q for q in choose(question, docs, terms, sections, 2, names, asked) if not is_user_rule(docs[q.sources[0] - 1])
    ]
    quotes = [q for q in quotes if not any(same(q.text, c.sentence) for c in side)]
    # a product the user's rules forbid is never quoted under its own name as one of the choices
    quotes = [q for q in quotes if not all(offer_guard.is_forbidden(docs[n - 1]) for n in q.sources)]
    for q in quotes:
        q.product = short_product(_source(q, docs))
    return quotes


def adult_dose_only(question: str, docs: list[Document], quotes: list[Quote], is_named, names=()) -> str:
    """The named product, for a question about a child (10살 아들 … 판피린큐 먹여도 되나요), whose 용법·용량 among
    `docs` doses only people older than the child, when the answer quotes no dose: its short name, for a notice
    saying the leaflet gives no dose for the child ("" for none; a withheld product has its own mark)."""
    oldest = oldest_age(question, names)
    if oldest is None or any(_is_dose_quote(q, docs) for q in quotes):
        return ""
    for doc in docs:
        if doc.source == "easydrug" and doc.metadata.get("section") == "useMethod" and is_named(doc):
            sentences = split_sentences(doc.text.partition("\n")[2])
            aged = stated_ages(question) is not None
            if not offer_guard.is_forbidden(doc) and doses_older_only(sentences, oldest, aged):
                return short_product(doc)
    return ""


def _of_a_name(doc: Document, names) -> bool:
    """The product's name holds a name retrieval read in the question (부스코판당의정 for 부스코판)."""
    product = squash(short_product(doc))
    return any(len(key) >= 2 and key in product for key in (squash(str(n)) for n in names))


def _forbidden_dose(quote: Quote, docs: list[Document]) -> bool:
    """A 용법·용량 line of products the user's rules all forbid: how to take what is not for this user is no line
    of its answer (아시클로버크림 for an 8-year-old its leaflet forbids to children: 1일 5회 바릅니다); the limit the
    용법·용량 itself writes (만 2세 미만에게 투여하지 않습니다, read as the product's rule) is why, and stays."""
    first = docs[quote.sources[0] - 1].metadata
    return (
        first.get("section") == "useMethod"
        and not first.get("dur_type")
        and all(offer_guard.is_forbidden(docs[n - 1]) for n in quote.sources)
    )


def _is_dose_quote(quote: Quote, docs: list[Document]) -> bool:
    return docs[quote.sources[0] - 1].metadata.get("section") == "useMethod" and states_dose(quote.text)


def _dose_asked_unquoted(question: str, docs: list[Document], quotes: list[Quote], names=(), frame=None) -> bool:
    """The question asks the 용법·용량 and no quote states an amount from one."""
    if any(docs[q.sources[0] - 1].metadata.get("section") == "useMethod" and states_dose(q.text) for q in quotes):
        return False
    return "useMethod" in asked_sections(question, named=bool(names), frame=frame)


def withheld_dose_left_out(question: str, docs: list[Document], quotes: list[Quote], names=(), frame=None) -> bool:
    """A dose question whose answer quotes no dose, while every 용법·용량 found is a withheld product's (an age limit
    forbids it to the asker): its dose was left out because of the limit, not for being an older person's."""
    if not _dose_asked_unquoted(question, docs, quotes, names, frame):
        return False
    dosing = [d for d in docs if d.metadata.get("section") == "useMethod"]
    return bool(dosing) and all(offer_guard.is_forbidden(d) for d in dosing)


def older_dose_left_out(question: str, docs: list[Document], quotes: list[Quote], names=(), frame=None) -> bool:
    """A child's dose question whose answer quotes no dose (an amount from a 용법·용량 sentence), while the leaflets
    found (those of the product it names, when it names one found) dose only older people (`programs.child_dose`):
    the answer says it left their dose out."""
    if not _dose_asked_unquoted(question, docs, quotes, names, frame):
        return False
    oldest = oldest_age(question, names)
    dosing = [d for d in docs if d.metadata.get("section") == "useMethod" and not offer_guard.is_forbidden(d)]
    # a product the question names speaks for itself: a sibling's older dose (챔프콜드시럽's age table beside
    # 챔프시럽, asked of a 19-month-old) was no dose of the one asked about
    is_named = naming(question, docs, names)
    dosing = [d for d in dosing if is_named(d)] or dosing
    aged = stated_ages(question) is not None
    return any(older_dose_sentences(split_sentences(d.text.partition("\n")[2]), oldest, aged) for d in dosing)


def _allowed(shared, docs: list[Document]):
    """The shared-ingredient note's products without those the user's rules forbid (None when none is left)."""
    if shared is None:
        return None
    pairs = [(p, n) for p, n in zip(shared.products, shared.sources, strict=True)]
    pairs = [(p, n) for p, n in pairs if not offer_guard.is_forbidden(docs[n - 1])]
    shared.products, shared.sources = [p for p, _ in pairs], [n for _, n in pairs]
    return shared if pairs else None


def rules_heading(rule: Document) -> str:
    """What opens an answer led by DUR rules: a 병용금기 row is about the medicines used together (the question's
    pair or the user's medicine), the others about who takes it (the profile or the population the question states).

    >>> rules_heading(Document("dur:1", "", {"dur_type": "병용금기"}))
    '함께 쓰면 안 되는 성분의 DUR 규칙을 먼저 적었습니다. '
    >>> rules_heading(Document("dur:2", "", {"dur_type": "임부금기"}))
    '사용자에게 해당하는 DUR 규칙을 먼저 적었습니다. '
    """
    if rule.metadata.get("dur_type") == "병용금기":
        return "함께 쓰면 안 되는 성분의 DUR 규칙을 먼저 적었습니다. "
    return "사용자에게 해당하는 DUR 규칙을 먼저 적었습니다. "


def _leaflet_rule_lines(docs: list[Document], most: int) -> list[str]:
    """The lines of the withheld products' own leaflets that forbid them to this asker (`LEAFLET_RULES`), each
    marked as not for the user, one per text, at most `most`."""
    out: dict[str, str] = {}
    for n, doc in enumerate(docs, 1):
        if doc.metadata.get(offer_guard.VERDICT_ONLY) and doc.metadata.get("dur_type") in LEAFLET_RULES:
            text = doc.text.partition("\n")[2] or doc.text
            out.setdefault(text, f"{short_product(doc)}({offer_guard.MARK}): {text} {citations.cite([n])}")
    return list(out.values())[:most]


def _another_section_speaks(candidates: list[Quote], efficacy: set[int], ranker: SentenceRanker, top: int = 5) -> bool:
    """Whether one of the best `top` candidates outside the 효능 section (`efficacy`: their ids) carries a content
    word of the question (its overlap, not only an aspect or a bigram)."""
    others = sorted((q for q in candidates if id(q) not in efficacy), key=lambda q: -q.score)[:top]
    return any(ranker.parts(q.text)["overlap"] > 0 for q in others)


def limit_words(rule: Document) -> tuple[str, ...]:
    """What a product's own leaflet rule forbids, as its label says it (수유부 금지 → 수유부, 해열진통제 병용 금지 →
    해열진통제, 만 6세 미만): the items of its line a long list is cut to.

    >>> limit_words(Document("x#pair", "", {"ingredient": "해열진통제 병용 금지"}))
    ('해열진통제',)
    """
    label = str(rule.metadata.get("ingredient", "")).replace(" 병용 금지", "").replace(" 금지", "").strip()
    return (label,) if label else ()


def named_withheld(body: list[str], docs: list[Document], is_named) -> set[str]:
    """The item_seqs of the named products the answer's lines cite though withheld from the user: their caution on
    the user's condition says one more reason (콘택골드 for an older user with 녹내장 → its 녹내장 line), offering
    nothing."""
    return {
        str(d.metadata.get("item_seq", ""))
        for d in _cited_docs(body, docs)
        if d.source == "easydrug" and is_named(d) and offer_guard.is_forbidden(d)
    }


def _cited_docs(body: list[str], docs: list[Document]) -> list[Document]:
    """The documents the answer's lines cite, each once."""
    cited = dict.fromkeys(n for line in body for n in citations.cite_numbers(line) if 0 < n <= len(docs))
    return [docs[n - 1] for n in cited]


def _withheld(seq: str, docs: list[Document]) -> bool:
    """Whether the product `seq`'s leaflet documents among `docs` carry a verdict against the asker."""
    own = [d for d in docs if d.source == "easydrug" and str(d.metadata.get("item_seq", "")) == seq]
    return any(offer_guard.is_forbidden(d) for d in own)


def in_said_form(question: str, docs: list[Document]) -> bool:
    """The question says no form (`form_kinds.said_kinds`: 귀에 넣는, 붙이는, 가루), or a product of `docs` is of it.

    >>> from retrievers.documents import Document
    >>> tablet = Document("easydrug:1:efcy", "x", {"item_name": "페릭신정"})
    >>> in_said_form("귀에 넣는 약 있나요", [tablet]), in_said_form("귀 아플때 먹는 약", [tablet])
    (False, True)
    """
    kinds = said_kinds(question)
    return not kinds or any(of_kinds(kinds, str(d.metadata.get("item_name", ""))) for d in docs)


def _seq(docs: list[Document], n: int) -> str:
    """The item_seq of document `n` (1-based) of `docs`."""
    return str(docs[n - 1].metadata.get("item_seq", "")) if 0 < n <= len(docs) else ""


def _sources(quote: Quote, docs: list[Document]) -> list[Document]:
    return [docs[n - 1] for n in quote.sources if 0 < n <= len(docs)]


def _opening(doc: Document, sections, heading: str, target: str = "") -> str:
    """The target chosen and why: the leading sentence's product (or `target`: the product marked as not for the
    user) and section, and the section asked (if any)."""
    label = doc.metadata.get("section_label") or doc.metadata.get("dur_type", "")
    target = " · ".join(p for p in (target or short_product(doc), label) if p)
    asked = [SECTION_WORDS[s] for s in sections if s in SECTION_WORDS][:2]
    why = f"(질문한 {'·'.join(asked)})" if asked and doc.metadata.get("section") in sections else ""
    return f"{heading}{target}에서 찾은 내용입니다{why}."
