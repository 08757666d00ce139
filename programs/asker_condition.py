"""A condition the asker has, which a named product's leaflet warns against — the sentence that answers "may I?".

"쎄레스톤지 여드름 난데도 발라도 되나요?" asks whether acne forbids the cream, not whether the cream treats acne; the
leaflet answers in its cautions ("보통여드름, 주사 환자는 이 약을 사용하지 마십시오"). A question asking whether it
may use a product it names (`MAY_I`: 발라도 돼요, 먹으면 안 돼요) and writing a disease or symptom that the product's
효능 section does not say but one of its 주의사항 warnings does, is asking about that condition: the warning leads the
answer. Who the medicine is for (임신, 어린이) is left to the population rules, and a noun the product is for (두통
beside 타이레놀) is what it treats, not a condition it warns of.

Example:
    >>> from retrievers.documents import Document
    >>> efcy = Document("easydrug:1:efcy", "쎄레스톤지크림\\n습진, 피부염에 사용합니다.", {"section": "efcy"})
    >>> nouns = asker_nouns("쎄레스톤지 크림 여드름 난데도 발라도 되나요?")
    >>> "여드름" in nouns
    True
    >>> conditions(nouns, [efcy])
    ('여드름',)
    >>> warns_of(conditions(nouns, [efcy]), "보통여드름, 주사 환자는 이 약을 사용하지 마십시오.")
    True
    >>> warns_of(("여드름",), "여드름에 사용합니다.")
    False
"""

from __future__ import annotations

import functools
import re

from retrievers.documents import Document

WARNING = re.compile(r"마십시오|마세요|상의하십시오|상의할 것|중지하")  # a line that forbids, or sends to a pharmacist
CAUTION_SECTIONS = frozenset({"atpn", "atpnWarn"})
MIN_NOUN = 2  # one-syllable nouns (눈, 코, 발) are in too many lines


@functools.lru_cache(maxsize=512)
def asker_nouns(question: str) -> tuple[str, ...]:
    """The question's common nouns of two syllables or more (Kiwi) that the rules know as a disease or a symptom
    (`Lexicon.condition_words`, `Lexicon.target_words`: 여드름, 녹내장, 천식; not 용량 of 저용량 or 운전) or that the
    leaflets' cautions name their patients by (`condition_words.load_caution_conditions`: 수두 환자), less those that
    say who it is for."""
    from programs.sentences import leaflet_tokenizer
    from retrievers.condition_words import load_caution_conditions
    from retrievers.lexicon import Lexicon
    from retrievers.population import read_population

    lexicon = Lexicon.load()
    cautioned = load_caution_conditions()  # 수두 환자, 천식 환자: the conditions the cautions name patients by
    known = set(lexicon.condition_words) | cautioned
    tokens = leaflet_tokenizer().tagged(question)
    # a condition the cautions name may be read as a proper noun (수두)
    nouns = (
        t.form
        for t in tokens
        if len(t.form) >= MIN_NOUN and (t.tag == "NNG" or (t.tag == "NNP" and t.form in cautioned))
    )
    told = (n for n in nouns if n in known or lexicon.target_words(n))
    organ = organ_diseases("".join(question.split()))  # 신부전, 간경화: Kiwi may read them as a name or cut them
    return tuple(dict.fromkeys([*(n for n in told if not read_population(n).group), *organ]))


def kind_conditions(question: str) -> tuple[str, ...]:
    """The conditions a prescription kind the question says is taken treats, as the leaflets write them (혈압약 먹는중
    → 고혈압; 당뇨약 → 당뇨병): taking it says the asker has the condition a product's warning names.

    >>> kind_conditions("혈압약 먹는중인데 쌍비원 마셔도 돼요"), kind_conditions("우울증약 먹는데 타이레놀")
    (('고혈압',), ())
    """
    from programs.leaflet_condition_limit import SUFFIXES
    from retrievers.lexicon import Lexicon
    from retrievers.not_covered import kind_leaflet_words

    known = set(Lexicon.load().condition_words)
    return tuple(w for w in kind_leaflet_words(question) if w in known or (w.endswith(SUFFIXES) and w[:-1] in known))


# diseases a question says the one taking the medicine has (녹내장이 있는데, 전립선비대증 있는 아버지, 혈압이 높은데,
# 변에 피가 섞여요),
# as written -> as `leaflet_condition_limit.forbids` reads them; reviewed domain knowledge, each a disease some
# leaflets forbid their product with, none a symptom a medicine is taken for (천식 is left out: the leaflets forbid
# 아스피린 천식, not asthma; 간질 is inside 간질환)
STATED_DISEASES = {
    "녹내장": "녹내장",
    "전립선비대": "전립선비대증",
    "전립샘비대": "전립선비대증",
    "고혈압": "고혈압",
    "혈압이높": "고혈압",
    "혈압높": "고혈압",
    "당뇨": "당뇨병",
    "뇌전증": "뇌전증",
    "파킨슨": "파킨슨병",
}
# blood in the stool, as people say it (변에 피가 섞여요, 피섞인 설사, 피똥, 혈변; not 코피): the antidiarrhoeals forbid
# themselves with 혈변 (혈변 및 고열이 있는 세균성 설사)
BLOODY_STOOL = re.compile(
    r"혈변|피\s*똥|피\s*설사"
    r"|(?:변|설사|똥)[^.?!]{0,6}?(?<!코)피\s*(?:가|도)?\s*(?:좀\s*)?(?:섞|묻|비치|비쳐)"
    r"|(?<!코)피\s*(?:가|도)?\s*(?:섞|묻)\S{0,3}\s*(?:대변|변|설사|똥)"
)


# the skin around the eyes, as people name it (눈두덩, 눈꺼풀, 눈가, 눈 밑; not 티눈): about 115 creams, gels, plasters
# and sprays forbid themselves "눈 또는 눈 주위" (none is for the eyes), so using one there is forbidden by its leaflet
EYE_AREA = re.compile(r"(?<!티)눈\s*(?:두덩|꺼풀|가(?![가-힣])|가에|가가|가랑|주위|주변|밑|아래|바로\s*(?:밑|아래|옆))")


def stated_conditions(question: str) -> tuple[str, ...]:
    """The diseases the question says the one taking the medicine has (`STATED_DISEASES`, and those of an organ:
    `organ_diseases`), as the user's own conditions would be written: a leaflet forbidding its product with one
    withholds it, as a profile's condition does (programs/leaflet_condition_limit.py).

    >>> stated_conditions("녹내장이 있는데 멀미약 먹어도 되나요"), stated_conditions("아버지 전립선 비대증 있으신데")
    (('녹내장',), ('전립선비대증',))
    >>> stated_conditions("신부전 있는 엄마 두통약"), stated_conditions("두통약 먹어도 되나요")
    (('신부전',), ())
    >>> stated_conditions("설사하는데 열도 나고 변에 피가 좀 섞여요"), stated_conditions("피섞인 설사에도 지사제")
    (('혈변',), ('혈변',))
    >>> stated_conditions("설사하는데 코피가 섞여 나와요"), stated_conditions("설사하고 나서 피곤해요")
    ((), ())
    >>> stated_conditions("눈두덩에 모기 물렸는데 버물리 발라도"), stated_conditions("티눈 주위에 발라도")
    (('눈 주위',), ())
    """
    compact = "".join(question.split())
    said = [disease for written, disease in STATED_DISEASES.items() if written in compact]
    said += ["혈변"] if BLOODY_STOOL.search(question) else []
    site = ["눈 주위"] if EYE_AREA.search(question) else []  # where it would be put on: 눈두덩에 모기 물렸는데
    return tuple(dict.fromkeys([*said, *organ_diseases(compact), *site]))


def organ_diseases(compact: str) -> tuple[str, ...]:
    """The diseases and impairments of an organ (`leaflet_condition_limit.ORGAN_DISEASES`, `ORGAN_GENERAL`) written
    in `compact`, the question without spaces.

    >>> organ_diseases("엄마가신부전있는데"), organ_diseases("간경화있는데두통약"), organ_diseases("두통약")
    (('신부전',), ('간경화',), ())
    """
    from programs.leaflet_condition_limit import ORGAN_DISEASES, ORGAN_GENERAL

    words = [w for organ in ORGAN_GENERAL for w in (*ORGAN_DISEASES[organ], *ORGAN_GENERAL[organ])]
    return tuple(w for w in words if w in compact)


def conditions(nouns: tuple[str, ...], own_efficacy: list[Document], names=()) -> tuple[str, ...]:
    """Of `nouns`, those the named products' 효능 sections (`own_efficacy`) do not say (not what they treat) and
    that are no part of a medicine or a class the question names (`names`: 아스피린 of 저용량 아스피린 is a medicine,
    not a condition, though 아스피린천식 is in a warning; 감기 of 종합감기약 먹었는데 is another medicine taken)."""
    said = " ".join(d.text for d in own_efficacy)
    named = ["".join(str(n).split()) for n in names]
    return tuple(n for n in nouns if n not in said and not any(n in m or m in n for m in named if m))


def treated(nouns: tuple[str, ...], own_efficacy: list[Document], names=()) -> tuple[str, ...]:
    """Of `nouns`, those the named products' 효능 sections say (습진 있는데 발라도 beside a cream for 습진): what the
    product is for answers "may I", not a warning.

    >>> efcy = Document("easydrug:1:efcy", "가나다크림\\n습진, 피부염에 사용합니다.", {"section": "efcy"})
    >>> treated(("습진", "여드름"), [efcy])
    ('습진',)
    """
    said = " ".join(d.text for d in own_efficacy)
    named = ["".join(str(n).split()) for n in names]
    return tuple(n for n in nouns if n in said and not any(n in m or m in n for m in named if m))


# the asker has drunk already (소주 두병 마셨는데, 어제 과음해서): a state the leaflets forbid some medicines in, as
# they write it (알코올을 복용한 사람은 이 약을 복용하지 마십시오), unlike 복용 중 음주하지 마십시오 (drinking later)
_DRANK_AFTER = re.compile(r"[^.?!]{0,10}?(?:마셨|먹었|마신|먹은|들이켰|했는데|했어|해서)")
_DRANK_ALONE = re.compile(r"과음|숙취|폭음")
DRANK_WORDS = ("알코올을 복용한", "알코올을 섭취한", "알코올을 마신", "음주한", "술을 마신")


def drank(question: str) -> tuple[str, ...]:
    """The leaflet phrases for someone who has drunk alcohol (`DRANK_WORDS`), when the question says the asker has:
    a word of drinking (the alcohol aspect's question words) and a past verb after it, or 과음, 숙취; else ().

    >>> drank("어제 회식에서 소주 두병 마셨는데 두통약 먹어도 되나요")[:1], drank("먹고 술 마셔도 돼요?")
    (('알코올을 복용한',), ())
    """
    from retrievers.aspects import load_vocabulary

    # 회식에서 … 먹었 is a meal eaten; 숙취 is read alone
    words = [w.lstrip("^") for w in load_vocabulary().asks.get("alcohol", ()) if w.lstrip("^") not in ("숙취", "회식")]
    said = _DRANK_ALONE.search(question) or any(
        _DRANK_AFTER.match(question, m.end()) for w in words for m in re.finditer(re.escape(w), question)
    )
    return DRANK_WORDS if said else ()


def warns_of(found: tuple[str, ...], sentence: str) -> bool:
    """The sentence forbids or sends to a pharmacist, and names one of the conditions `found`, or the general words
    of the organ one is a disease of (`leaflet_condition_limit.organ_words`: 신부전 → 신장애).

    >>> warns_of(("신부전",), "신장애 환자는 복용하지 마십시오."), warns_of(("신부전",), "간장애 환자는 마십시오.")
    (True, False)

    A condition as the leaflets write it, spaces aside and without its last 증 or 병 (`leaflet_condition_limit.forms`):

    >>> warns_of(("전립선비대증",), "녹내장, 전립선 비대 환자는 의사 또는 약사와 상의하십시오.")
    True
    """
    from programs.leaflet_condition_limit import forms

    words = {w for c in found for w in (c, *forms(c))}
    flat = "".join(sentence.split())
    return bool(found) and bool(WARNING.search(sentence)) and any(w in flat for w in words)
