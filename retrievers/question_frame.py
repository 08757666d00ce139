"""What a question asks, as one typed structure: its targets (products, ingredients, classes, symptoms), the aspects
asked (leaflet sections and situations that are no section: food, driving, a missed dose …), who it is for, the other
medicines taken, and whether it compares. The no-LM reader below and the query LM fill the same `QuestionFrame`;
retrieval, the answer and the self-check read it.

Words come from the corpus-derived vocabularies: names from the index's `NameIndex`, section words from
`data/section_intents.json`, situations from `data/aspect_seeds.json` (leaflet words mined by `mine_aspects`), groups
from `data/population_words.json`, classes and symptoms from the expansion rules (`data/query_expansion.json`).

Example:
    >>> frame = read_frame("감기약 먹고 운전해도 돼요?", NameIndex(), Lexicon.load())
    >>> frame.aspects, frame.targets.classes
    (('driving',), ('감기약',))
    >>> read_frame("임신 12주인데 타이레놀 먹어도 되나요", NameIndex(), Lexicon.load()).population.group
    'pregnant'
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, field

from retrievers.aspect_model import load_aspect_model
from retrievers.aspect_names import ASPECTS
from retrievers.aspects import WORD_START, load_vocabulary, medicine_amount
from retrievers.form_kinds import external_form
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex, NameMatch, squash
from retrievers.nursing_gap import asks_nursing_gap, gap_aspects
from retrievers.population import GROUP_ASPECT, Population, feeds_a_grown_up, read_population, without_places
from retrievers.sound_alike import sound_alike
from retrievers.unimproved import asks_to_go_on, unimproved_after
from retrievers.unknowing_use import exposure_aspects, used_unknowing

SWALLOWED = re.compile(r"삼켜|삼켰|삼킨|삼키")


def put_on(targets: Targets, names: NameIndex | None = None, found: NameMatch | None = None) -> bool:
    """Every product the question names (each of `found`'s products by any of the `names` keys it is read by, else
    the target as written), or else every class word, is one put on rather than swallowed (연고, 가글, 파스;
    `form_kinds.external_form`).

    >>> put_on(Targets(products=("오라메디연고",))), put_on(Targets(products=("타이레놀정",))), put_on(Targets())
    (True, False, False)
    """
    if names is not None and found is not None and found.products:
        keys: dict[str, list[str]] = {}
        for key, seqs in names.products.items():
            for seq in seqs & found.products:
                keys.setdefault(seq, []).append(key)
        return all(any(external_form(k) for k in keys.get(seq, ())) for seq in found.products)
    named = targets.products or targets.classes
    return bool(named) and all(external_form(n) for n in named)


# a time gone by since (1년 넘었는데, 3달 됐는데, 일주일 지났는데): with keeping asked, how long it keeps
ELAPSED = re.compile(
    r"(?:(?:\d+|한|두|세|몇)\s*(?:년|개월|달|주일?|일|해)|하루|이틀|사흘|며칠|일주일|보름|반년|일년)\s*"
    r"(?:이\s*|가\s*|정도\s*|좀\s*|이상\s*)?(?:넘|지났|지난|됐|되었|돼)"
)
UNIMPROVED = True  # a time spent without getting better asks how long to go on (retrievers/unimproved.py)

POPULATION_ASPECTS = frozenset(GROUP_ASPECT.values())
# a leaflet section (or DUR rule type) asked -> the aspect it answers
SECTION_ASPECT = {
    "se": "side_effects",
    "efcy": "efficacy",
    "useMethod": "how_to_take",
    "atpnWarn": "cautions",
    "atpn": "cautions",
    "intrc": "interactions",
    "depositMethod": "storage",
    "dur:ac": "interactions",
    "dur:gc": "interactions",
    "dur:cc": "pregnancy",
    "dur:fc": "elderly",
    "dur:bc": "child_use",
    "dur:dc": "dosage",
    "dur:ec": "duration",
    "dur:ic": "cautions",
}
# an aspect of the situation vocabulary (retrievers/aspects.py) -> the frame's aspect
VOCAB_ASPECT = {
    "meal": "timing_food",
    "food": "food_drink",
    "driving": "driving",
    "alcohol": "alcohol",
    "crushing": "how_to_take",
    "washing": "washing",
    "missed": "missed_dose",
    "storage": "storage",
    "reuse": "how_to_take",  # 일회용 인공눈물 뚜껑 닫아뒀다가 다음날: whether an opened one is used again
    "covering": "how_to_take",  # 연고 바르고 밴드로 덮어도: a dressing over it (밀봉붕대법)
    "lens": "cautions",
    "sunlight": "cautions",
    "heat": "cautions",
    "surgery": "cautions",  # 사랑니 뽑기 전에 아스피린: what to do before an operation
    "drug_test": "cautions",  # 소변검사 양성 나와요, 도핑 걸려요
    "breastfeeding": "breastfeeding",
    "pregnancy": "pregnancy",
    "children": "child_use",
    "elderly": "elderly",
    "duration": "duration",
    "timing": "timing_food",
    "dose": "dosage",
    "overdose": "overdose",
    "expiry": "expiry",
    "smoking": "smoking",
    "onset": "onset",
    "dependence": "duration",  # 계속 먹으면 내성 생겨요, 습관될까봐: what taking it for long does
    "vomited": "missed_dose",  # 먹고 토했는데 다시 먹어요: a dose lost, like one missed
    "sharing": "how_to_take",
    "water": "how_to_take",
}
# asked only in its own words (물이랑, 물 없이; 내성; 토했는데 다시), never read from its frame aspect
WORDS_ONLY = frozenset({"water", "dependence", "vomited", "reuse", "covering"})
FRAME_VOCAB = {}  # the frame's aspect -> the vocabulary aspects whose leaflet words speak to it
for _v, _f in VOCAB_ASPECT.items():
    FRAME_VOCAB.setdefault(_f, []).append(_v)
CARRYING = ("pregnant", "breastfeeding")  # a baby these questions speak of is carried or nursed, not the patient
GENERIC = frozenset({"cautions", "efficacy"})  # asked by "may I" and "what for": any more specific aspect comes first
# Words saying something was already taken or applied: with a side-effect word, the question is about that effect.
AFTER_INTAKE = (
    "먹고",
    "먹구",  # 먹고 as people type it
    "먹었",
    "먹은",
    "먹으니",
    "복용",
    "바르고",
    "발랐",
    "바른",
    "붙이고",
    "붙였",
    "넣고",
    "넣었",
    "뿌리고",
    "뿌렸",
)
# Words saying the medicine was taken or applied some time before (먹었더니, 먹고 나서, 먹고부터, 떼고 나서): a symptom
# written after one is what the asker noticed since, whatever else the question says of when or how long.
SINCE_INTAKE = tuple(
    squash(w)
    for w in (
        "먹었더니",
        "먹고 나서",
        "먹고부터",
        "먹고 몇",
        "먹였더니",
        "먹이고 나서",
        "드시고 나서",
        "넣었더니",
        "넣고 나서",
        "발랐더니",
        "바르고 나서",
        "붙였더니",
        "붙이고 나서",
        "떼고 나서",
        # the place it was put on (붙인 자리에 … 올라왔어요, 바른 부위가 가려워요) and the time after it
        "붙인 자리",
        "붙인 데",
        "바른 데",
        "붙인 곳",
        "붙인 부위",
        "바른 자리",
        "바른 곳",
        "바른 부위",
        "먹은 후",
        "먹은 뒤",
        "먹고 난 후",
        "먹고 난 뒤",
    )
)
# 또 먹어도, 두통이 심해서, 기침은 줄었는데: taken again for what it treats, or it helped; no side effect noticed
NOT_NOTICED = re.compile(r"또|다시|심해서|줄었|나아졌|좋아졌|괜찮아졌|덜해")
# 며칠 먹었는데 숨이 차요 … 계속 먹어도 되나요: a use told with 는데 is a time since only when the question asks
# whether to go on (먹었는데 … 또 먹어도 되나요 without a going-on word tells what was taken, then asks another)
TOLD_INTAKE = tuple(squash(w) for w in ("먹었는데", "먹였는데", "넣었는데", "발랐는데", "붙였는데", "뿌렸는데"))
CONTINUED = re.compile(r"계속\s*\S*?도\s*(?:돼|되|괜찮|될)")  # 계속 먹어도 되나요, 계속 넣어도 괜찮을까
CLASS_INTAKE = ("먹으면", "먹였", "먹이구", "먹이니")  # 철분제 먹으면 변비 생긴다던데, 해열제 먹였더니
# 콧물이 안 멈춰요: what it was taken for; 생리통 때문에: the reason for another medicine
NOT_HELPED = re.compile(r"안\s*(?:나|낫|떨어|멈|내려|듣|들)|않|그대로|여전|때문")
COMPARE_WORDS = tuple(
    dict.fromkeys(
        squash(w)
        for word in (
            "중에 뭐가",
            "중에 어떤",
            "중 뭐가",
            "중 어떤",
            "뭐가 나아",
            "뭐가 더",
            "어떤게 나아",
            "어떤 게 나아",
            "어떤게 더",
            "어떤 게 더",
            "뭐가 달라",
            "뭐가 다른",
            "뭐가다른",
            "차이",
            "다른 점",
            "다른점",
            "바꿔",
            "바꾸",
            "대신",
            "보다 나",
            "보다 더",
            "비교",
            "vs",
            "같은 성분",
            "같은성분",
            "같은 약",
            "똑같은",
            "나은가",
            "나을까",
        )
        for w in (word, word.replace("뭐가", "머가"))  # 머가 나아요: 뭐가 as people type it
    )
)
# A이랑 B 중에 덜 (더) …, 둘 중에 더 …: which of two is less or more; 먹는 중에 더, 임신 중에 더 are "while"
PAIR_RANKED = re.compile(r"(?:랑|하고|와|과)\s+\S+\s+중에?\s*(?:덜|더)\s|(?:둘|두\s*(?:개|가지))\s*중에?\s*(?:덜|더)\s")
# one medicine taken until now, another instead (화이투벤 먹다가 테라플루로 바꿔도): a switch, beside the comparison
SWITCH = re.compile(r"(?:먹|쓰|바르|붙이|뿌리|넣|마시|복용하)(?:다가|던거|던걸|던것|던).{0,24}(?:바꿔|바꾸|바꿨|대신)")
TIME_GAP = re.compile(r"(?:시간|분|간격)차이|차이(?:를)?두")  # 몇 시간 차이 두고: a gap in time, no comparison
CLASS_ENDINGS = ("약", "제", "눈물", "연고", "파스", "크림", "시럽", "물약", "영양제")
FORM_ENDINGS = ("연고", "시럽", "스프레이", "질정", "물약", "안약", "파스")  # a kind of medicine by its form
# 약 or 제 after two syllables or more (두통약, 지사제): after one it is mostly another word (예약, 숙제, 실제)
KIND_ENDINGS = ("약", "제", *FORM_ENDINGS)
# words, not kinds; 다른약, 딴약: another medicine, no kind said (a second drug, never a class choosing products)
NOT_KINDS = frozenset("무슨약 어떤약 먹는약 다른약 딴약".split())
_JOSA = re.compile(r"(?:이랑|랑|하고|을|를|은|는|이|가|도|만|에|에는|에도|과|와|으로|로|이나|나|부터|까지|처럼|같은)$")
_CLASS_AFTER = re.compile(r"^(?:약|제)")
# a symptom and what a medicine does to it, then 약 (설사 멎는 약, 기침 멈추는 약, 콧물 말리는 약): the symptom's
# medicine, as 설사약 would say it (read in the question without spaces)
_RELIEF_BEFORE = re.compile(
    r"^(?:을|를|이|가)?(?:멎|멈추|멈춰주|멈추게하|멎게하|낫|낫게하|내리|떨어뜨리|잡|줄이|없애|가라앉히|그치|말리|삭이|뚫|뚫어주)는약"
)


@dataclass(frozen=True)
class Targets:
    """What the question is about: products and ingredients by name, classes (감기약) and symptoms (두통)."""

    products: tuple[str, ...] = ()
    ingredients: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    symptoms: tuple[str, ...] = ()


@dataclass(frozen=True)
class QuestionFrame:
    """One question, understood: see the module docstring."""

    question: str
    targets: Targets = field(default_factory=Targets)
    aspects: tuple[str, ...] = ()
    population: Population = field(default_factory=Population)
    other_drugs: tuple[str, ...] = ()
    comparison: bool = False

    @property
    def situations(self) -> tuple[str, ...]:
        """The aspects that are neither who it is for nor generic (food, driving, a dose, side effects …)."""
        return tuple(a for a in self.aspects if a not in POPULATION_ASPECTS and a not in GENERIC)

    @property
    def vocabulary_aspects(self) -> list[str]:
        """The situation vocabulary's aspects (retrievers/aspects.py) that speak to the frame's aspects and group."""
        out = [v for a in self.aspects if a not in GENERIC for v in FRAME_VOCAB.get(a, ()) if v not in WORDS_ONLY]
        return list(dict.fromkeys(out))  # cautions is no lens; how a medicine is taken is not always with water

    def to_dict(self) -> dict:
        out = asdict(self)
        out["targets"] = {k: list(v) for k, v in out["targets"].items()}
        out["aspects"], out["other_drugs"] = list(self.aspects), list(self.other_drugs)
        return out


def read_targets(question: str, names: NameIndex, lexicon: Lexicon, found: NameMatch | None = None) -> Targets:
    """Products and ingredients the name index recognises (`found`: its match of the question, when already made),
    classes (a rule word or a kind of medicine written with 약/제: 감기약, 두통약, 해열제) and symptoms (the other rule
    words)."""
    found = found if found is not None else names.match(question)
    # a key the index holds, or a word read as the start of product names (마데카솔 → 마데카솔케어연고 …)
    products = [names.display.get(k, k) for k in found.keys if k in names.products or k not in names.ingredients]
    ingredients = [k for k in found.keys if k in names.ingredients and k not in names.products]
    classes, symptoms = classes_and_symptoms(question, lexicon)
    # a rule word that is a name read (타이레놀: its rule gives the ingredient) is a product, no symptom
    symptoms = [w for w in symptoms if not any(squash(w) in k or k in squash(w) for k in found.keys)]
    return Targets(*(tuple(dict.fromkeys(x)) for x in (products, ingredients, classes, symptoms)))


def classes_and_symptoms(question: str, lexicon: Lexicon) -> tuple[list[str], list[str]]:
    """The class words (a rule word or a kind of medicine written with 약/제: 감기약, 두통약, 해열제, 가래약) and the
    symptom words (the other rule words) of a question.

    >>> classes_and_symptoms("감기약 먹었는데 콧물이 안 멈춰요", Lexicon.load())
    (['감기약'], ['콧물'])
    >>> classes_and_symptoms("위장약 다른약이랑 간격 둬야돼요", Lexicon.load())[0]
    ['위장약']
    >>> classes_and_symptoms("피가 섞여 나오는데 설사 멎는 약 먹어도 되나요", Lexicon.load())[0]
    ['설사약']
    """
    q = squash(question)
    classes, symptoms = [], []
    for word in lexicon.target_words(question):
        at = q.find(word)
        if word.endswith(CLASS_ENDINGS):
            classes.append(word)
        elif at >= 0 and _CLASS_AFTER.match(q[at + len(word) :]):
            classes.append(word + q[at + len(word)])
        elif len(word) > 1 and any(_RELIEF_BEFORE.match(q[m.end() :]) for m in re.finditer(re.escape(word), q)):
            classes.append(word + "약")
        else:
            symptoms.append(word)
    classes += [
        w
        for w in lexicon.other_medicine_words
        if w in q and w not in NOT_KINDS and not any(w in c or c in w for c in classes)
    ]
    classes += [w for w in kind_words(question) if not any(w in c or c in w for c in classes)]
    classes = [c for c in classes if not any(c != o and c in o for o in classes)]
    return list(dict.fromkeys(classes)), list(dict.fromkeys(symptoms))


def read_aspects(
    question: str,
    names: NameIndex,
    lexicon: Lexicon,
    population: Population,
    morphemes=(),
    found=None,
    named: bool = False,
    plain: str = "",
) -> list[str]:
    """The aspects asked, the most particular first: situations the vocabulary names (food, driving …), then the
    sections the section words ask that those words do not already explain, then who it is for. `named`: the
    question names a medicine though `names` did not read it (retrieval's names, given without the index); `plain`:
    the question as the rules are written (`KiwiTokenizer.reading`), for symptom words an adverb splits."""
    found = found if found is not None else names.match(question)
    unnamed = squash(question)
    for key in sorted(found.keys, key=len, reverse=True):
        if len(key) >= 3:
            unnamed = unnamed.replace(key, "|")
    vocab = load_vocabulary()
    situations = [a for a in vocab.asked(unnamed, morphemes, spaced=question) if a in VOCAB_ASPECT]
    if population.group is None and feeds_a_grown_up(question):
        situations = [a for a in situations if a != "children"]  # 남편한테 먹여도: fed, and no child
    # 변비약 자기전에 먹고 있는데 … 제산제도 같이 먹으려고요 괜찮나요: how it is taken now is told, not asked
    told = {VOCAB_ASPECT[a] for a in told_before(unnamed, situations, vocab)}
    if "meal" in situations and len(situations) > 1 and meal_before_symptom(unnamed, vocab, lexicon):
        situations = [a for a in situations if a != "meal"]  # 밥만 먹으면 더부룩해요: when it hurts, not when to take
    if "dose" not in situations and medicine_amount(question, vocab.drinks):
        situations.append("dose")  # 반 병 먹이면: an amount is read with its spaces (반병먹이면 ends in no counter)
    explained = [squash(w) for a in situations for w in vocab.asks[a] if squash(w) in unnamed]
    if population.detail:
        explained.append(squash(population.detail))
    # a class or symptom word chose the products; it does not ask about them (감기약 in 감기약 먹고 운전)
    explained += [w for w in lexicon.other_medicine_words if w in unnamed] + lexicon.target_words(unnamed)
    if "overdose" in situations and SWALLOWED_BY_MISTAKE.search(question):
        # 애기가 뚜껑 열고 반병은 먹은 거 같아요: what was swallowed by mistake is asked first, before the dose or who
        # it is for (a dose given twice, 두 번 먹였어요, keeps the order its words give)
        situations = ["overdose", *(a for a in situations if a != "overdose")]
    if "vomited" in situations:
        # 토했는데 한 병 더 먹어요: the amount is the dose taken again, after the one lost
        situations = ["vomited", *(a for a in situations if a != "vomited")]
    aspects = [VOCAB_ASPECT[a] for a in situations]
    if UNIMPROVED and unimproved_after(question) and not {"duration", "onset"} & set(aspects):
        # 일주일 발랐는데 그대로예요 더 발라도 돼요: how long to go on, before the dose it was used at; told beside
        # another question (일주일째 붙이는데 그대로예요, 하루에 몇 번 붙여요?) it comes after what that asks
        aspects.insert(0 if asks_to_go_on(question) else len(aspects), "duration")
    pairs = len(found.keys) >= 2 or (len(found.keys) >= 1 and lexicon.names_a_kind_of_medicine(unnamed))
    strong, _ = lexicon.asked(unnamed, pairs=pairs)
    hits = lexicon.hits(unnamed, pairs=pairs)
    se_words = hits.get("se", ())
    if (only_when_taken(se_words) and not symptom_after_intake(unnamed, lexicon, plain)) or why_taken(
        se_words, unnamed
    ):
        # 바르고나서 입 헹궈야 돼요, 먹은 후 운동해도: when it is done, with nothing noticed after it, asks no effect
        strong = [s for s in strong if s != "se"]
        hits = {s: w for s, w in hits.items() if s != "se"}
    kept = []  # the sections the section words ask that nothing else explains
    for section in strong:
        words = hits.get(section, [])
        if words and all(any(w in e or e in w for e in explained) for w in words):
            continue  # 술 먹어도 (intrc) is the alcohol aspect already; 임신 (atpn) is who it is for
        kept.append(section)
        aspects.append(SECTION_ASPECT[section])
    if "how_to_take" in aspects and "how_to_take" not in (VOCAB_ASPECT[a] for a in situations):
        aspects = [a for a in aspects if a != "how_to_take"] + ["how_to_take"]  # 용법 words are broad (매일, 계속)
    # 13살 아들: a rule's word (아들 of an age rule) that only says who it is for asks no section
    asking = [s for s in strong if not (hits.get(s) and all(read_population(w).group for w in hits[s]))]
    if (
        # 속쓰려요 is a word of the 이상반응 section, but here the symptom that chose the products
        (not asking or (not kept and set(asking) == {"se"}))
        and (found.keys or named)
        and symptom_after_intake(unnamed, lexicon, plain)
    ):
        aspects.append("side_effects")  # 게보린 먹고 속이 쓰려요: a named medicine, then a symptom, is its side effect
    if "side_effects" not in aspects and not (found.keys or named) and new_symptom(question, unnamed, lexicon, plain):
        aspects.append("side_effects")  # 변비약 먹고 배가 아파요: a class, then a symptom it is not for
    if not strong:
        aspects += [SECTION_ASPECT[s] for s in hits if s in SECTION_ASPECT and not aspects]
    if any(w in unnamed for w in lexicon.condition_words) and any(s in strong for s in ("atpn", "atpnWarn")):
        aspects.append("contraindication")  # 위궤양 있는 사람도 먹어도 되나요: whether the disease forbids it
    if "sharing" in situations or ("water" in situations and not pairs):
        # 남편이랑 같이 써도: shared with a person; 물이랑 같이 먹어요: taken with water; neither is a second drug
        aspects = [a for a in aspects if a != "interactions"]
    if "overdose" in aspects and "missed_dose" in aspects:
        aspects.remove("missed_dose")  # 깜빡하고 두 번 먹였어요: taken twice, not missed
    if population.aspect and (population.stated or not any(a not in GENERIC for a in aspects)):
        aspects.append(population.aspect)  # a group only implied by 먹여도 is asked about when nothing else is
    compared = any(w in unnamed for w in COMPARE_WORDS if not (w == "차이" and TIME_GAP.search(unnamed)))
    compared = compared or bool(PAIR_RANKED.search(question))
    # 타이레놀이 게보린보다 순해요?: a medicine named, then 보다, beside another named one
    compared = compared or (len(found.keys) >= 2 and any(squash(k) + "보다" in squash(question) for k in found.keys))
    if compared and "intrc" not in lexicon.asked(unnamed, pairs=False)[0]:
        aspects = [a for a in aspects if a != "interactions"]  # 타이레놀이랑 게보린 차이: 이랑 joins two compared
    aspects = [a for a in dict.fromkeys(aspects) if a in ASPECTS]
    # 렌즈, 햇빛, 찜질: a situation the cautions hold, asked in its own words, is as particular as any other aspect
    situated = {"cautions"} if any(VOCAB_ASPECT[a] == "cautions" for a in situations) else set()
    if any(a not in GENERIC | situated for a in aspects):
        aspects = [a for a in aspects if a not in GENERIC - situated] + [
            a for a in aspects if a in GENERIC - situated and a != "cautions"
        ]
    if population.group in CARRYING:
        aspects = [a for a in aspects if a != "child_use"]  # 모유 먹이는데 애기한테 갈까봐: the baby is not the patient
    particular = [a for a in aspects if a not in POPULATION_ASPECTS]
    if population.aspect and (not particular or all(a in GENERIC for a in particular)):
        aspects = [population.aspect, *[a for a in aspects if a != population.aspect]]
    if noticed_since(question, lexicon):
        aspects = ["side_effects", *[a for a in aspects if a != "side_effects"]]
    if compared:
        aspects = ["comparison", *(aspects or ["efficacy"])]  # 뭐가 나아요, 차이가 뭐예요: which of two, for what
        if SWITCH.search(squash(question)) and "interactions" not in aspects:
            aspects.append("interactions")  # A 먹다가 B로 바꿔도: what the leaflets say of taking it after another
    if told and any(a not in told and a not in GENERIC - situated for a in aspects):
        aspects = [a for a in aspects if a not in told] + [a for a in aspects if a in told]
    return aspects or ["efficacy"]


# a word of the 이상반응 section that says only when the medicine was taken (먹고나서, 바른 뒤, 복용 후, 먹은 후부터),
# not that anything was noticed (먹었더니, 졸려)
_WHEN_TAKEN = re.compile(r"(?:나서|후|뒤|다음|이후)(?:로|부터)?$|고부터$")


def only_when_taken(words) -> bool:
    """Every one of `words` (the question's 이상반응 section words) says only when the medicine was taken.

    >>> only_when_taken(["바르고나서"]), only_when_taken(["먹은후", "졸려"]), only_when_taken([])
    (True, False, False)
    """
    return bool(words) and all(_WHEN_TAKEN.search(w) for w in words)


# buying or being given the medicine (받아왔는데, 사왔어요, 샀는데): what is said before it is why it was got
ACQUIRED = ("받아왔", "받아온", "사왔", "사온", "샀는데", "샀어요", "처방받", "구입했", "구매했")


def why_taken(se_words, unnamed: str) -> bool:
    """Every 이상반응 word of the question (빨갛고, 가려워) is written before the word saying the medicine was taken or
    got (귀두 쪽이 빨갛고 가렵대서 … 크림 받아왔는데 몇번 발라요): why it was taken, not what it did. 부작용 or
    이상반응 themselves always ask about effects.

    >>> why_taken(["빨갛고"], "귀두쪽이빨갛고가렵대서로마졸크림받아왔는데몇번발라요")
    True
    >>> why_taken(["빨개졌"], "연고발랐는데빨개졌어요"), why_taken(["부작용"], "부작용때문에샀는데")
    (False, False)
    """
    if not se_words or any(w in ("부작용", "이상반응") for w in se_words):
        return False
    marks = [i for w in (*AFTER_INTAKE, *ACQUIRED) if (i := unnamed.find(w)) >= 0]
    if not marks:
        return False
    last_said = max(unnamed.rfind(w) for w in se_words)
    return last_said < min(marks)


def symptom_after_intake(unnamed: str, lexicon: Lexicon, plain: str = "") -> bool:
    """A symptom word written after a word saying the medicine was taken or applied (게보린 먹고 속이 쓰려요): what it
    did. One written only before (입안 헌데다 발랐는데 입 헹궈야 돼요) is where or why it was applied. A symptom word
    read only in `plain` (`KiwiTokenizer.reading`: an adverb split it) counts wherever it is.

    >>> lexicon = Lexicon.load()
    >>> symptom_after_intake("|먹고속이쓰려요", lexicon), symptom_after_intake("입안헌데다발랐는데헹궈요", lexicon)
    (True, False)

    A meal eaten before any medicine is named (a name read is a "|" in `unnamed`) is no intake:

    >>> symptom_after_intake("삼겹살먹고더부룩할때|랑|중에뭐가나아요", lexicon)
    False
    >>> symptom_after_intake("게보린먹고속이쓰려요", lexicon)  # no name read: every intake word counts
    True
    """
    # what was eaten before any medicine is named is a meal (삼겹살 먹고 더부룩할때 훼스탈이랑 베아제 중에)
    first = first_medicine(unnamed, lexicon)
    ends = [at + len(w) for w in AFTER_INTAKE if (at := unnamed.find(w, first)) >= 0]
    if not ends:
        return False
    words = lexicon.target_words(unnamed)
    if any(unnamed.rfind(w) >= min(ends) for w in words):
        return True
    return bool(plain) and any(w not in unnamed for w in lexicon.target_words(plain))


def first_medicine(unnamed: str, lexicon: Lexicon) -> int:
    """Where the question first speaks of a medicine: a name read (a "|" in `unnamed`), 약, or a class word (소화제);
    0 when it speaks of none (every word then counts).

    >>> first_medicine("삼겹살먹고더부룩할때|랑|중에", Lexicon.load()), first_medicine("먹고속쓰려요", Lexicon.load())
    (10, 0)
    """
    marks = [at for w in ("|", "약", *classes_and_symptoms(unnamed, lexicon)[0]) if (at := unnamed.find(w)) >= 0]
    return min(marks) if marks else 0


def noticed_since(question: str, lexicon: Lexicon) -> bool:
    """A symptom written after a word saying the medicine was taken some time before (`SINCE_INTAKE`; a use told
    with 는데, `TOLD_INTAKE`, when the question asks whether to go on), with nothing saying it did not help: what
    the asker noticed since is the side effect asked first (겔포스 며칠 먹었더니 변비가 생겼어요 asks about the
    constipation, not how many days).

    >>> noticed_since("겔포스 며칠 먹었더니 변비가 생겼어요", Lexicon.load())
    True
    >>> noticed_since("플라스타 붙인 자리에 좁쌀같은게 올라오더니 고름이 잡혔어요 계속 붙여도 되나요", Lexicon.load())
    True
    >>> noticed_since("파스 붙인데가 가렵고 따가운데 계속 붙여도 돼요", Lexicon.load())
    True
    >>> lexicon = Lexicon.load()
    >>> noticed_since("두통약 먹고 나서 두통이 안 나아요", lexicon), noticed_since("겔포스 며칠 먹어도 돼요", lexicon)
    (False, False)
    >>> q = "이지엔6 애니 며칠 먹었는데 숨이 차고 얼굴이 부어요 {}"
    >>> noticed_since(q.format("계속 먹어도 되나요?"), lexicon), noticed_since(q.format("병원 가야 돼요?"), lexicon)
    (True, False)
    """
    flat = squash(question)
    since = SINCE_INTAKE + (TOLD_INTAKE if CONTINUED.search(question) else ())
    ends = [flat.find(w) + len(w) for w in since if w in flat]
    if not ends or NOT_HELPED.search(question) or NOT_NOTICED.search(question):
        return False
    return any(flat.find(w) >= min(ends) for w in lexicon.target_words(flat))


def new_symptom(question: str, unnamed: str, lexicon: Lexicon, plain: str = "") -> bool:
    """A class of medicine taken, then a symptom the class is not for (and, when something says it did not help, no
    symptom it is for): the symptom is what the medicine did (철분제 먹으면 변비, 두통약 먹었더니 메슥거려요), not
    what it was taken for (감기약 먹었는데 콧물이 안 멈춰요). "Not for": no term the lexicon adds for the class is
    one it adds for the symptom. `plain`: the question as the rules are written (`KiwiTokenizer.reading`: 배가 너무
    아파요 → 배가 아파), whose symptom words count too.

    >>> new_symptom("변비약 먹고 배가 아파요", "변비약먹고배가아파요", Lexicon.load())
    True
    >>> new_symptom("감기약 먹었는데 콧물이 안 멈춰요", "감기약먹었는데콧물이안멈춰요", Lexicon.load())
    False
    >>> new_symptom("변비약 먹었는데 설사가 멈추질 않아요", "변비약먹었는데설사가멈추질않아요", Lexicon.load())
    True
    """
    if not any(w in unnamed for w in (*AFTER_INTAKE, *CLASS_INTAKE)):
        return False
    classes, symptoms = classes_and_symptoms(question, lexicon)
    if plain:
        symptoms += [w for w in classes_and_symptoms(plain, lexicon)[1] if w not in symptoms]
    if not classes or not symptoms:
        return False
    treated = {a for c in classes for a in lexicon.expansion_terms(c)}
    new = [s for s in symptoms if not (treated & set(lexicon.expansion_terms(s)))]
    # "did not help" speaks of what it was taken for; a symptom it is not for that will not stop (변비약 먹었는데
    # 설사가 멈추질 않아요) is still what it did
    return bool(new) and not (NOT_HELPED.search(question) and len(new) < len(symptoms))


# a yes-or-no question about doing something (넣어도 되나요, 자도 돼요?, 먹으면 안 되나요): it asks whether, not which;
# a temperature is none (열이 38도 되는데)
MAY_I = re.compile(r"(?<![\d.])(?<![\d.]\s)도\s*(?:돼|되|괜찮|됨|될)|면\s*안\s*(?:돼|되|됨)")


def asks_if_allowed(question: str, population: Population, named: bool) -> bool:
    """A question asking whether a medicine it names may be given to the group it states (임신 중인데 베아제 먹어도
    돼요, 세살 애기한테 버물리 발라줘도 되나요): whether the leaflet forbids it for them, a contraindication."""
    return named and population.group is not None and bool(MAY_I.search(question))


def read_frame(
    question: str,
    names: NameIndex,
    lexicon: Lexicon,
    morphemes=(),
    found: NameMatch | None = None,
    named: bool = False,
    plain: str = "",
    learned: bool = True,
) -> QuestionFrame:
    """The no-LM reading of one question (pure: the index's names and the shipped vocabularies only); `found` is
    `names.match(question)` when the caller has made it already (retrieval's analysis); `plain`, the question as the
    rules are written (`KiwiTokenizer.reading`: 배가 너무 아파요 → 배가 아파), when the caller has a tokenizer."""
    found = found if found is not None else names.match(question)
    targets = read_targets(question, names, lexicon, found)
    population = read_population(question, names=found.keys)
    # 할머니댁 가는데: a place, no elderly asker's aspect (population.without_places)
    aspects = read_aspects(without_places(question), names, lexicon, population, morphemes, found, named, plain)
    comparison = "comparison" in aspects
    other = _other_drugs(question, targets, lexicon, comparison, found.keys)
    if other and not comparison:
        aspects = with_interactions(aspects, on_top=bool(ON_TOP.search(question)))
    together = asks_together(question, lexicon)
    if together:
        aspects = together_first(aspects)
    if learned:
        two = bool(other) or len(targets.products) + len(targets.ingredients) + len(targets.classes) > 1
        vomited = "vomited" in load_vocabulary().asked(question, morphemes)  # a dose lost stays what is asked first
        probabilities = load_aspect_model().probabilities(question)
        aspects = with_learned(aspects, probabilities, two_medicines=two, keep_first=vomited)
        if not comparison and aspects[:1] == ["comparison"] and not together and not TIME_GAP.search(squash(question)):
            # 타이레놀이랑 게보린 중에 뭐가 나음: the model reads a comparison the rules did not; the two named are
            # then compared, not a medicine taken beside another
            comparison, other = True, ()
            joined = "intrc" not in lexicon.asked(question, pairs=False)[0]  # 이랑 joins the two compared
            aspects = [a for a in aspects if a != "interactions" or not joined]
    if SWALLOWED.search(question) and put_on(targets, names, found):
        # 오라메디 발랐는데 삼켜버렸어요: a medicine put on swallowed is taken as it must not be (삼키지 마십시오)
        aspects = ["overdose", *(a for a in aspects if a not in ("overdose", "how_to_take"))]
    if {"storage", "expiry"} <= set(aspects) and ELAPSED.search(question) and MAY_I.search(question):
        # 뚜껑 딴지 1년 넘었는데 발라도 돼요: how long it keeps once opened, before how to keep it
        aspects = ["expiry", *(a for a in aspects if a != "expiry")]
    # asked only for whom (not how much, nor with what): real-dev aspects 0.696 -> 0.720, gold phrases unchanged
    only_who = all(a in GENERIC or a in POPULATION_ASPECTS for a in aspects)
    if only_who and asks_if_allowed(question, population, bool(targets.products or targets.ingredients)):
        aspects = [*aspects, "contraindication"] if "contraindication" not in aspects else aspects
    if "contraindication" in aspects and "cautions" not in aspects:
        aspects = [*aspects, "cautions"]  # a condition the asker has is one of the cautions (real-dev aspects +0.007)
    if asks_nursing_gap(question):
        aspects = gap_aspects(aspects)  # 먹고 몇 시간 지나야 젖 물려요: the wait before nursing, not the next dose
    if population.group == "pregnant" and used_unknowing(question):
        aspects = exposure_aspects(aspects)  # 임신인 줄 모르고 두 알 먹었어요: what the use did, not its dose
    return QuestionFrame(question, targets, tuple(aspects), population, other, comparison)


# Read beside the rules, the learned model (retrievers/aspect_model.py, its probabilities as the data has them)
# adds the aspects it gives MORE or above (real-dev aspects 0.676 at 0.5, 0.684 at 0.4, 0.698 at 0.3, gold phrases
# 0.731 / 0.734 / 0.734, the self-check's false flags 0.087 / 0.091 / 0.095; at 0.3 "두통에 먹는 약" reads as asking
# about interactions), and its most probable aspect leads when it is sure of it (LEAD) and doubts the rules' first
# (DOUBT); set on real-dev.
MORE = 0.4
LEAD = 0.6
DOUBT = 0.2


def with_learned(
    aspects, probabilities: dict[str, float], asked: float = MORE, two_medicines: bool = True, keep_first=False
) -> list[str]:
    """The rules' aspects with the learned model's (`retrievers.aspect_model`): those it finds asked (at or above
    `asked`) and the rules did not follow them, most probable first; its most probable leads when it is sure of it
    (`LEAD`) and doubts the rules' first (`DOUBT`), unless `keep_first` (a vomited dose). Who the medicine is for
    stays the population reader's (a nursing mother's baby is not who takes it), and two taken together needs two
    medicines (`two_medicines`: 가루약 물이랑 같이 먹는 거예요 asks how it is taken).

    >>> with_learned(["child_use"], {"child_use": 0.9, "dosage": 0.7, "storage": 0.1})
    ['child_use', 'dosage']
    >>> with_learned(["cautions"], {"child_use": 0.9, "interactions": 0.8}, two_medicines=False)
    ['cautions']
    >>> with_learned(["storage"], {"storage": 0.1, "expiry": 0.8})
    ['expiry', 'storage']
    """
    out = list(aspects)
    may = {
        a: p for a, p in probabilities.items() if a not in POPULATION_ASPECTS and (two_medicines or a != "interactions")
    }
    top = max(may, key=may.get, default=None)
    if out and not keep_first and top is not None and may[top] >= LEAD and probabilities.get(out[0], 0.0) < DOUBT:
        out = [top, *[a for a in out if a != top]]
    more = sorted((a for a, p in may.items() if p >= asked and a not in out), key=lambda a: -may[a])
    return [*out, *more]


# one more of a second medicine, on top of the first (판피린 한병 더, 하나 더, 추가로): the amount is no dose question
ON_TOP = re.compile(r"(?:하나|한\s*(?:병|알|개|포|봉)|[\d두세]\s*(?:병|알|개|포|봉))\s*더|추가로")


def with_interactions(aspects: list[str], on_top: bool = False) -> list[str]:
    """A question naming a medicine taken beside the one asked about (혈압약 먹는데 감기약 먹어도, 타이레놀 추가로)
    asks whether the two go together: first when it asks nothing more particular than "may I" or takes the second
    `on_top` of the first (타이레놀 먹었는데 판피린 한병 더: whether, before how much), else after what it asks.

    >>> with_interactions(["efficacy"]), with_interactions(["cautions"]), with_interactions(["duration"])
    (['interactions'], ['interactions', 'cautions'], ['duration', 'interactions'])
    >>> with_interactions(["dosage", "interactions"], on_top=True)
    ['interactions', 'dosage']
    """
    if on_top:
        return ["interactions", *[a for a in aspects if a not in ("interactions", "efficacy")]]
    if "interactions" in aspects:
        return aspects
    if any(a not in GENERIC for a in aspects):
        return [*aspects, "interactions"]
    return ["interactions", *[a for a in aspects if a != "efficacy"]]


TOGETHER = ("같이", "함께", "번갈아")  # 같이 먹여도, 함께 복용, 번갈아 먹여도: whether two are taken together


# the end of a clause that tells what the asker does (먹고 있는데, 먹는 중인데, 발랐는데), before the one that asks
_TOLD_CLAUSE = re.compile(r"(?:있|먹|쓰|써|발랐|붙였|넣었|먹였|었|았|중이)는?데(?=.)|(?:있|먹|쓰|시)는데(?=.)")
_ASKING = re.compile(r"[?？]|나요|까요|되나|될까|돼요|되요|괜찮|어때|몇|언제|얼마|어떻게")


MEAL_SYMPTOM_CHARS = 10  # how far after a meal word a symptom says when it comes (밥만먹으면더부룩해요)


def told_before(flat: str, situations, vocab) -> set[str]:
    """Of `situations`, those whose question words (`vocab.asks`) are all in the clauses that tell what the asker
    does (up to the last 먹고 있는데, 발랐는데, 붙이시는데 …), when the clause after them asks whether something is
    taken with it (같이, 함께) or asks another situation (햇빛): told of the medicine taken, not asked. Who it is
    for is never only told. `flat`: the question with its spaces removed.

    >>> from retrievers.aspects import load_vocabulary
    >>> flat = squash("변비약 자기전에 먹고 있는데 제산제도 같이 먹으려고요 괜찮나요?")
    >>> told_before(flat, ["timing"], load_vocabulary())
    {'timing'}
    >>> told_before(squash("변비약 아침에 우유랑 같이 먹었는데 괜찮을까요?"), ["timing", "food"], load_vocabulary())
    set()
    >>> sun = squash("케토톱 매일 붙이시는데 밖에 나가도 되나요? 햇빛")
    >>> told_before(sun, ["duration", "sunlight"], load_vocabulary())
    {'duration'}
    """
    ends = [m.end() for m in _TOLD_CLAUSE.finditer(flat)]
    if not ends or not _ASKING.search(flat, ends[-1]):
        return set()
    told, asked = flat[: ends[-1]], flat[ends[-1] :]

    def said(text: str, aspect: str) -> bool:
        return any(squash(w.lstrip(WORD_START)) in text for w in vocab.asks.get(aspect, ()) if w.lstrip(WORD_START))

    # 케토톱 매일 붙이시는데 … 밖에 나가도 되나요? 햇빛: another situation asked after it also makes it told
    if not any(t in asked for t in TOGETHER) and not any(said(asked, a) for a in situations):
        return set()

    return {
        a for a in situations if VOCAB_ASPECT.get(a) not in POPULATION_ASPECTS and said(told, a) and not said(asked, a)
    }


def meal_before_symptom(flat: str, vocab, lexicon: Lexicon) -> bool:
    """A meal word (밥, 식사) followed, within a few syllables, by a symptom the lexicon reads (더부룩, 속쓰림) and
    no asking word between: the meal says when the symptom comes (밥만 먹으면 더부룩해요), not when to take the
    medicine. `flat`: the question with its spaces removed.

    >>> vocab, lexicon = load_vocabulary(), Lexicon.load()
    >>> meal_before_symptom(squash("임신 중기인데 요즘 밥만 먹으면 더부룩해요 큐자임 먹어도 돼요?"), vocab, lexicon)
    True
    >>> meal_before_symptom(squash("큐자임 밥 먹고 먹어요 아니면 빈속에 먹어요?"), vocab, lexicon)
    False
    """
    for word in vocab.asks.get("meal", ()):
        at = flat.find(squash(word))
        if at < 0:
            continue
        after = flat[at + len(squash(word)) : at + len(squash(word)) + MEAL_SYMPTOM_CHARS]
        stop = _ASKING.search(after)
        after = after[: stop.start()] if stop else after
        if lexicon.target_words(after):
            return True
    return False


def asks_together(question: str, lexicon: Lexicon) -> bool:
    """The question asks whether two are taken together: one of the interaction section's words that says
    together (같이먹, 이랑같이, 함께복용 …, `data/section_intents.json`) is in it.

    >>> asks_together("챔프코프랑 콧물약 같이 먹여도 되나요?", Lexicon.load())
    True
    >>> asks_together("아이 기침약 먹여도 되나요?", Lexicon.load())
    False
    """
    flat = squash(question)
    words = dict(lexicon.section_patterns).get("intrc", ())
    return any(w in flat for w in words if any(t in w for t in TOGETHER))


def together_first(aspects) -> list[str]:
    """With two taken together asked, the interactions come before who they are for (아이 기침약이랑 콧물약 같이
    먹여도 asks whether the two go together, for a child), else the order stays.

    >>> together_first(["child_use", "interactions"]), together_first(["dosage", "interactions"])
    (['interactions', 'child_use'], ['dosage', 'interactions'])
    """
    aspects = list(aspects)
    if "interactions" not in aspects:
        return aspects
    at = aspects.index("interactions")
    before = [a for a in aspects[:at] if a not in POPULATION_ASPECTS]
    moved = [a for a in aspects[:at] if a in POPULATION_ASPECTS]
    return [*before, "interactions", *moved, *aspects[at + 1 :]]


def _beside_name(flat: str, word: str, keys) -> bool:
    """`word` occurs in `flat` (a squashed question) right before or after one of the name `keys`."""
    return any(k and ((k + word) in flat or (word + k) in flat) for k in keys)


def kind_words(question: str) -> list[str]:
    """Words that name a kind of medicine by their ending (가래약, 지사제, 안약, 코스프레이 written as one word), the
    last syllable read as it sounds (소화재 is 소화제: ㅐ and ㅔ sound alike, `retrievers/sound_alike.py`). Whether
    one is a medicine the corpus knows is the caller's to check (청약 and 숙제 have such endings too). 약 and 제 count
    after two syllables or more: 예약, 숙제, 실제, 현재 are no kinds.

    >>> kind_words("돌쟁이 아기 가래약 먹여도 되나요 약국 가서"), kind_words("소화재 빈속에 먹어도 되나")
    (['가래약'], ['소화제'])
    >>> kind_words("실제로 현재 숙제 예약 안약")
    ['안약']
    """
    return list(kind_readings(question))


def kind_readings(question: str) -> dict[str, str]:
    """`kind_words` with the word as written: {소화제: 소화재}.

    >>> kind_readings("소화재 빈속에 먹어도 되나")
    {'소화제': '소화재'}
    """
    return dict(_kind_readings(question))


def forget_readings() -> None:
    """Drop the questions `kind_readings` remembers (a benchmark times each question as a new one)."""
    _kind_readings.cache_clear()


@functools.lru_cache(maxsize=1024)
def _kind_readings(question: str) -> tuple[tuple[str, str], ...]:
    """`kind_readings`, remembered for recent questions (retrieval, the frame and the answer each ask)."""
    out: dict[str, str] = {}
    for token in re.findall(r"[가-힣A-Za-z0-9]+", question):
        for written in (token, _JOSA.sub("", token)):
            word = written[:-1] + sound_alike(written[-1:])
            if word.endswith(FORM_ENDINGS) or (
                len(word) >= 3 and word.endswith(KIND_ENDINGS) and word not in NOT_KINDS
            ):
                out.setdefault(word, written)
                break
    return tuple(out.items())


def _other_drugs(question: str, targets: Targets, lexicon: Lexicon, comparison: bool, keys=()) -> tuple[str, ...]:
    """Medicines taken beside the one asked about: a second name (unless the question compares the two), or a kind
    of medicine the asker already takes (혈압약 먹는데, 항생제랑). A kind written right before or after a name says
    what the named one is (케토프로펜 파스, 수면유도제 아론정): no second medicine.

    >>> from retrievers.names import NameIndex
    >>> t = Targets(ingredients=("케토프로펜",))
    >>> _other_drugs("케토프로펜 파스 붙이고", t, Lexicon.load(), False, ["케토프로펜"])
    ()
    >>> _other_drugs("혈압약 먹는데 케토프로펜 발라도", t, Lexicon.load(), False, ["케토프로펜"])
    ('혈압약',)
    >>> pas = Targets(products=("신신파스",))
    >>> _other_drugs("신신파스 붙인 자리에 물집이", pas, Lexicon.load(), False, ["신신파스"])
    ()
    >>> syrup = Targets(products=("코뚜에스시럽",), classes=("종합감기시럽",))
    >>> _other_drugs("코뚜에스시럽 먹는데 종합감기시럽이랑 같이 먹여도", syrup, Lexicon.load(), False, ["코뚜에스시럽"])
    ('종합감기시럽',)
    >>> after = Targets(products=("타이레놀",), classes=("시럽",))
    >>> _other_drugs("좌약 넣고 한시간 지났는데 타이레놀 시럽 더 먹여도", after, Lexicon.load(), False, ["타이레놀"])
    ('좌약',)
    """
    named = [*targets.products, *targets.ingredients]
    flat = squash(question)
    unnamed = flat  # a kind inside a name read (파스 in 신신파스) is that name's, no second medicine
    for key in sorted((k for k in keys if k), key=len, reverse=True):
        unnamed = unnamed.replace(squash(key), "|")
    kinds = [w for w in lexicon.other_medicine_words if w in unnamed and not _beside_name(flat, w, keys)]
    if len(named) >= 2 and not comparison:
        return tuple(named[1:])
    if named and kinds:
        return tuple(kinds[:1])
    classes = [squash(c) for c in targets.classes if squash(c) not in map(squash, named)]
    classes = [c for c in classes if c in unnamed and not _beside_name(flat, c, keys)]
    if named and classes and any(w in flat for w in TOGETHER):
        return tuple(classes[:1])  # 코뚜에스시럽 먹이는데 종합감기시럽이랑 같이: a kind taken with the named one
    used = _USED_FORM.search(unnamed)
    if named and used and _ADDED.search(flat) and not _beside_name(flat, used.group(1), keys):
        return (used.group(1),)  # 좌약 넣고 한시간 지났는데 타이레놀 시럽 더 먹여도: a form used before the named one
    if len(kinds) >= 2:
        return tuple(kinds[1:])
    if named and (taken := _taken_leaflet_word(question, keys, lexicon)):
        return (taken,)  # 치과에서 받은 아목시실린도 먹고 있어요: a medicine the index lacks, which leaflets name
    return ()


# a medicine swallowed by mistake: a child at the bottle (뚜껑 열고, 반병, 병째, 한 병 다), or 실수로 / 모르고 삼켰어요
SWALLOWED_BY_MISTAKE = re.compile(
    r"뚜껑|반\s*병|병\s*째|통\s*째|한\s*(?:병|통)\s*다|다\s*(?:먹어|마셔)\s*버렸|실수로|모르고\s*삼"
    # an unknown number of tablets swallowed (몇 알 먹은 거 같아요, 몇 개 삼켰어요), or picked up and eaten
    r"|몇\s*(?:알|개|정|캡슐)\s*(?:을|를|이나|정도)?\s*(?:먹은|먹었|삼킨|삼켰|집어\s*먹)|(?:주워|몰래)\s*(?:먹|삼)"
)
# a medicine said by its form and used (좌약 넣고, 시럽 먹였는데, 연고 바르고): read in the question without spaces
_USED_FORM = re.compile(r"(좌약|좌제|시럽|물약|가루약|연고|패치|파스)(?:을|를|은|는|이|도)?(?:넣|먹|발라|바르|바른|붙)")
# the named one asked on top of another (더 먹여도, 추가로 먹어도): read in the question without spaces
_ADDED = re.compile(r"(?:더|추가로|추가해서|추가해)(?:먹|드시|드셔|발라|바르|넣|붙|뿌려|뿌리|써도|사용)")
# a word of three syllables or more said to be taken now (아목시실린도 먹고 있어요, 와파린 복용 중인데)
TAKEN_NOW = re.compile(
    r"(?<![가-힣])([가-힣]{3,}?)(?:도|을|를|이랑|랑|하고)?\s*(?:같이\s*|함께\s*)?"
    r"(?:먹고\s*있|먹는\s*중|복용\s*중|복용하고\s*있)"
)


def _taken_leaflet_word(question: str, keys, lexicon: Lexicon) -> str:
    """A word the question says is taken now that no name read but the leaflets use (아목시실린 is named in an
    expectorant's 상호작용, though no leaflet of its own is in e약은요), nor a symptom or a kind the lexicon reads: the
    other medicine, as the leaflets write it; "" for none.

    >>> _taken_leaflet_word("이테란과립 먹는데 치과에서 받은 아목시실린도 먹고 있어요", ["이테란과립"], Lexicon.load())
    '아목시실린'
    >>> _taken_leaflet_word("이테란과립 먹는데 요즘 영양제도 먹고 있어요", ["이테란과립"], Lexicon.load())
    ''
    """
    idf = load_vocabulary().idf
    for m in TAKEN_NOW.finditer(question):
        word = m.group(1)
        if word in idf and not any(squash(k) in word or word in squash(k) for k in keys if k):
            if not lexicon.target_words(word) and word not in lexicon.other_medicine_words:
                return word
    return ""
