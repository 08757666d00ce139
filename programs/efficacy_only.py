"""An answer that quotes only what its products are for, to a question that asks something else (파스 붙이고
전기장판 틀고 자도 되나요, 변비약으로 살 빠지나요): no sentence found speaks to what was asked, so the answer says
so before the efficacy it shows.

What a medicine is for answers a question only when it names what the question asks about: a symptom the asker has
(머리 아픈데 게보린 먹어도 → "두통에 사용합니다", a lay word of `retrievers/data/lay_words.json` read as the leaflets
write it) or a word of the question (the sentence ranker's content words, `programs/sentences.py`). A question with
no such word is flagged only when it writes a noun no leaflet uses (감기약 먹고 헬스해도 돼요); 게보린 먹어도 돼요
asks nothing the efficacy does not speak to. The purpose of a class the question names is no such word: every
감기약's efficacy says 감기, whatever is asked about 감기약 (a lay word can still read it: 머리 아픈데 두통약 → 두통).
A "which medicine for X" answer (opening with `extractive.PRODUCT_LIST`), a comparison and a question asking for the
efficacy itself (the section's own title words, 훼스탈플러스 효능) are answered by efficacy by design and are never
flagged.

Example:
    >>> from programs.aspect_check import Quoted
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> efficacy = [Quoted("이 약은 감기의 여러 증상(콧물, 코막힘)의 완화에 사용합니다.", "efcy")]
    >>> gym = QuestionFrame("감기약 먹고 헬스해도 돼요?", Targets(classes=("감기약",)))
    >>> answers_something_else(gym, efficacy)
    True
    >>> nose = QuestionFrame("콧물 나는데 감기약 먹어도 돼요?", Targets(classes=("감기약",), symptoms=("콧물",)))
    >>> answers_something_else(nose, efficacy)
    False
"""

from __future__ import annotations

from programs.aspect_check import Quoted
from programs.sentences import SentenceRanker, leaflet_tokenizer
from retrievers.aspects import load_vocabulary
from retrievers.class_products import class_terms
from retrievers.corpus import SECTION_LABELS
from retrievers.lexicon import Lexicon
from retrievers.question_frame import QuestionFrame

NOTICE = (
    "※ 찾은 설명서에서 질문에 답하는 문장을 찾지 못해, 제품의 효능·효과만 옮겼습니다. 궁금한 점은 의사나 "
    "약사와 상의하세요."
)
EFFICACY = "efcy"
TITLE_WORDS = tuple(SECTION_LABELS[EFFICACY].split("·"))  # 효능, 효과: the efficacy section asked for by its name
NOUNS = ("NNG", "NNP")


def answers_something_else(frame: QuestionFrame, quotes: list[Quoted], which_medicine: bool = False) -> bool:
    """Whether every quote is an efficacy sentence and none names what the question asks about: a symptom it
    states (not the purpose of a class it names) or one of its content words. False for no quotes, a comparison,
    or a `which_medicine` question."""
    if not quotes or which_medicine or frame.comparison or any(q.section != EFFICACY for q in quotes):
        return False
    if asks_efficacy(frame):
        return False
    words = asked_words(frame)
    if not words:  # 게보린 먹어도 돼요?: nothing asked beyond the medicine; 헬스해도 돼요: a word no leaflet uses
        return bool(unknown_words(frame))
    return not any(w in q.text for q in quotes for w in words)


def asks_efficacy(frame: QuestionFrame) -> bool:
    """The question asks what the medicine is for by the efficacy section's own title words, and no other aspect.

    >>> from retrievers.question_frame import Targets
    >>> asks_efficacy(QuestionFrame("훼스탈플러스 효능", Targets(products=("훼스탈플러스",)), aspects=("efficacy",)))
    True
    >>> asks_efficacy(QuestionFrame("타이레놀 효과 언제 나타나요", aspects=("onset",)))
    False
    """
    return set(frame.aspects) <= {"efficacy"} and any(word in frame.question for word in TITLE_WORDS)


def unknown_words(frame: QuestionFrame) -> list[str]:
    """The question's nouns (two syllables or more) no leaflet sentence uses and no target of the frame holds: what
    it asks about that the leaflets cannot speak to (헬스, 찜질방), not a name it writes (게보린).

    >>> from retrievers.question_frame import Targets
    >>> unknown_words(QuestionFrame("감기약 먹고 헬스해도 돼요?", Targets(classes=("감기약",))))
    ['헬스']
    >>> unknown_words(QuestionFrame("게보린 먹어도 돼요?", Targets(products=("게보린",))))
    []
    """
    known = load_vocabulary().idf
    targets = [t for ts in (frame.targets.products, frame.targets.ingredients, frame.targets.classes) for t in ts]
    targets += list(frame.targets.symptoms)
    nouns = [t.form for t in leaflet_tokenizer().tagged(frame.question) if t.tag in NOUNS and len(t.form) > 1]
    return [n for n in dict.fromkeys(nouns) if n not in known and not any(n in t or t in n for t in targets)]


def asked_words(frame: QuestionFrame) -> list[str]:
    """The words whose presence in an efficacy sentence answers the question: its symptoms, less the purpose of
    its classes (감기 of 감기약; 콧물 said beside it is the asker's), and each content word of the question in
    the forms the sentence ranker finds it in (쓰리 → 쓰림).

    >>> from retrievers.question_frame import Targets
    >>> sorted(asked_words(QuestionFrame("파스 붙이고 전기장판 틀고 자도 돼요", Targets(classes=("파스",)))))
    ['붙이', '붙임', '전기', '전김']
    """
    lexicon = Lexicon.load()
    purposes = [t for c in frame.targets.classes for t in class_terms(c, lexicon)]
    own = [s for s in frame.targets.symptoms if not any(s in p or p in s for p in purposes)]
    ranker = SentenceRanker(frame.question)
    forms = [f for w in ranker.words for f in ranker.forms[w]]
    return list(dict.fromkeys([*own, *forms]))
