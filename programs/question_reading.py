"""What the question asks and names, read once per question against the search backend: its frame, and what it
names that the corpus lacks (supplements, words nobody knows, ingredients only DUR rules know).

Each function reads the backend and the question's state; results are cached on the state (`st.frame`,
`st.unknown_names`), so a node can ask again at no cost.
"""

from __future__ import annotations

import re

from programs.general_question import ANIMAL
from programs.outcome import DUR_CODES, rules_for_question, uncovered_only
from programs.state import QuestionState
from retrievers.documents import Document
from retrievers.name_keys import squash
from retrievers.name_words import QUESTION_FORMS
from retrievers.population import people_words
from retrievers.query_coverage import whole_word

# a dosage form written right after a word (spaces allowed), longest first: 프로폴리스 스프레이, 홍삼 캡슐
# a form said right after a supplement, or the word for what it is (루테인 영양제, 오메가3 보충제): no class asked
SUPPLEMENT_KINDS = ("영양제", "보충제", "건강기능식품")
FORM_AFTER = (
    r"\s*(?:" + "|".join(map(re.escape, sorted((*QUESTION_FORMS, *SUPPLEMENT_KINDS), key=len, reverse=True))) + ")?"
)


def question_frame(backend, st: QuestionState):
    """What the question asks (`retrievers.question_frame.QuestionFrame`), read once with the backend's names,
    rules and tokenizer (the shipped rules alone for a backend without them)."""
    if st.frame is None:
        from retrievers.lexicon import Lexicon
        from retrievers.names import NameIndex
        from retrievers.question_frame import read_frame

        st.morphemes = tuple(backend.tokenizer(st.question)) if backend.tokenizer is not None else ()
        names = backend.names if backend.names is not None else NameIndex()
        lexicon = backend.lexicon if backend.lexicon is not None else Lexicon.load()
        from retrievers.tokenizer import KiwiTokenizer

        # the question as the rules are written (배가 너무 아파요 → 배가 아파), with a Kiwi tokenizer
        plain = backend.tokenizer.reading(st.question)[0] if isinstance(backend.tokenizer, KiwiTokenizer) else ""
        st.frame = read_frame(st.question, names, lexicon, st.morphemes, plain=plain)
    return st.frame


def unknown_names(backend, st: QuestionState) -> list[str]:
    """Words of a question that neither the dictionary, the corpus nor the answer's documents know (lexapro, 부루팬;
    리피토 beside 게보린): what the documents are not about (retrievers/query_coverage.py). The
    question as asked is read, not a rewrite's query (whose added words, 연용 or 연령금기, the user never wrote)."""
    r = st.result
    if r is None or r.out_of_scope or not r.hits:
        return []
    if st.unknown_names and st.unknown_names[0] is r:
        return list(st.unknown_names[1])
    frame = question_frame(backend, st)
    lexicon, names = backend.lexicon, backend.names
    # a word a rule or the frame reads as a class or a symptom (지사제, 입병) says what is asked: no name
    known = {*frame.targets.classes, *frame.targets.symptoms}
    # 완모중인데, 35주 막달인데: who the medicine is for, as the population reader reads it
    flat = squash(st.question)
    known.update(w for w in (frame.population.detail, *people_words()) if w and w in flat)
    if lexicon is not None:
        known.update(lexicon.target_words(st.question))
        if names is not None:
            # a rule that reads a brand as its ingredient (리피토 -> 아토르바스타틴) does not make it a leaflet's
            known = {k for k in known if not any(names.match(a).ingredients for a in lexicon.expand(k)[:1])}
    unknown = backend.query_coverage(st.question, [], r.hits)["unknown_words"]
    # a misspelling retrieval read as a name it is a vowel or a syllable off (졸피댐 -> 졸피뎀) is that name
    words = [w for w in unknown if w not in r.read_as and not any(w in k or k in w for k in known if len(k) >= 2)]
    words = [w for w in words if not ANIMAL.fullmatch(w)]  # 댕댕이: a pet, no medicine's name (general_question)
    words = list(dict.fromkeys(whole_word(st.question, w) for w in words))  # 아목 of 아목시실린: the word written
    st.unknown_names = (r, tuple(words))
    return words


def prescription_kinds(backend, st: QuestionState) -> dict[str, tuple[str, ...]]:
    """The kinds of prescription-only medicine the question names (혈압약), as written, with their ingredients the
    index knows (`retrievers.not_covered.prescription_kinds`), and `PRESCRIBED_WORD` when it says a clinic gave the
    medicine (병원에서 받은 …, `prescribed_phrase`); {} for none."""
    from retrievers.not_covered import PRESCRIBED_WORD, prescribed_before, prescribed_phrase
    from retrievers.not_covered import prescription_kinds as kinds_in

    kinds = kinds_in(st.question, backend.names) if backend.names is not None else {}
    phrase = prescribed_phrase(st.question)  # 병원에서 받은 코 스프레이: a prescription medicine, which one unknown
    if phrase and not (backend.names is not None and backend.names.match(phrase).keys):  # 처방받은 졸피뎀: named
        kinds[PRESCRIBED_WORD] = ()
    # 인데놀 처방받아 먹어보려는데: a word said to be prescribed, in a question naming nothing the index knows (Kiwi
    # reads 인데놀 as 인데 + 놀, so no word of it is unknown); 심바스타틴이랑 … 같이 처방받았는데 names its medicines
    elif (
        prescribed_before(st.question)
        and backend.names is not None
        and not backend.names.match(st.question).keys
        and not unknown_names(backend, st)  # 비모보정 처방받아: the name the corpus lacks is said instead
    ):
        kinds[PRESCRIBED_WORD] = ()
    elif prescribed_by_mouth(backend, st.question):  # 먹는 미녹시딜 처방받았는데: not the lotion the leaflets have
        kinds[PRESCRIBED_WORD] = ()
    return kinds


SWALLOWED = re.compile(r"복용(?!하지)|삼키|씹어|물과 함께")  # a 용법 line of a medicine taken by mouth


def prescribed_by_mouth(backend, question: str) -> bool:
    """The question says an ingredient it names was prescribed and is taken by mouth (먹는 미녹시딜 처방받았는데), and
    no product of that ingredient in the index is swallowed (every 용법 says to apply it: the minoxidil lotions): the
    prescribed medicine is one the leaflets do not describe, though they have the ingredient."""
    from retrievers.form_kinds import taken_by_mouth
    from retrievers.not_covered import prescribed_before

    said = prescribed_before(question)
    if not said or backend.names is None or not taken_by_mouth(question):
        return False
    found = backend.names.match(said)
    if not found.ingredients or any(key not in found.ingredients for key in found.keys):
        return False  # a product named (타이레놀 처방받았는데) is the one its leaflet describes
    seqs = sorted({s for canon in found.ingredients for s in backend.names.ingredient_products.get(canon, ())})
    ways = [doc.text for s in seqs if (doc := backend.get(f"easydrug:{s}:useMethod")) is not None]
    return bool(ways) and not any(SWALLOWED.search(text) for text in ways)


def uncovered(backend, st: QuestionState) -> tuple[tuple[str, ...], bool]:
    """What the question names that the corpus lacks (supplements and kinds of prescription-only medicine; with no
    medicine named, words nobody knows; ingredients only DUR rules know, when they are all it names: 졸피뎀; a form
    no product comes in: 귀약), and whether it names nothing the corpus has (`programs.outcome.uncovered_only`)."""
    from retrievers.not_covered import absent_form, prescribed_phrase, supplement_words
    from retrievers.question_frame import classes_and_symptoms

    r, names = st.result, backend.names
    if r is None or names is None:
        return (), False
    kinds = tuple(prescription_kinds(backend, st))
    supplements = (*supplement_words(st.question, names), *kinds)
    form = absent_form(st.question, corpus_kinds(backend))  # 귀약: no leaflet of a medicine put in the ear
    unknown = tuple(w for w in unknown_names(backend, st) if w not in supplements and not any(w in k for k in kinds))
    # an ingredient only DUR rules know (졸피뎀), when it is all the question names: no leaflet can answer for it
    rules_only: tuple[str, ...] = ()
    if r.names:
        # beside a supplement (와파린 먹는데 크릴오일): a prescription ingredient other leaflets mention is still all
        # the question names that the corpus has, and those leaflets are about other products
        only = tuple(w for w in dur_only_read(backend, st) if w not in supplements and w not in unknown)
        if only and len(only) == len(names.match(st.question).keys):
            rules_only = only
    named = bool(r.names) and not rules_only
    words = (*supplements, *unknown, *rules_only, *((form,) if form else ()))
    if not words:
        return (), False
    lexicon = backend.lexicon
    phrase = prescribed_phrase(st.question)
    rest = st.question.replace(phrase, " ") if phrase else st.question  # the prescribed one is no class asked
    for w in words:
        # 프로폴리스 스프레이, 홍삼 캡슐: a form said right after a supplement is its form, no kind of medicine asked
        rest = re.sub(re.escape(w) + FORM_AFTER, " ", rest) if w in supplements else rest.replace(w, " ")
    speaks = False
    if lexicon is not None:  # what else the question asks that the leaflets have: a class's products, a symptom
        classes, symptoms = classes_and_symptoms(rest, lexicon)
        # beside a prescribed medicine (a kind, or one a clinic gave) or a supplement, a symptom is what it was
        # taken for (감기 때문에 항생제 받았는데, 감기 걸렸을 때 홍삼 먹으면, 허리 아파서 정형외과서 트라마돌 들어간
        # 진통제 받았는데; 졸피뎀 반알 먹었는데 잠이 안와요, an ingredient only DUR rules know) unless the question
        # asks what to take for it (아카보즈 먹는데 감기 기운, 뭐 먹어요?)
        if (supplements or phrase or rules_only) and not asks_for_medicine(st.question):
            # (a word the lexicon reads as an ingredient, 비아그라 → 실데나필, is a second medicine, not a symptom)
            symptoms = [w for w in symptoms if rules_only and _names_ingredient(w, lexicon, names)]
        speaks = bool(treated(symptoms, question_frame(backend, st))) or bool(backend.class_members(classes))
    alone = uncovered_only(words, named, (*supplements, *rules_only), speaks)  # both yield to a class beside them
    return words, alone


def _names_ingredient(word: str, lexicon, names) -> bool:
    """The lexicon's rule for `word` is an ingredient's the index knows, its first word that ingredient (비아그라 →
    실데나필): a medicine, not a symptom (잠이 안와 → 불면, whose rule adds 독시라민 after it, stays a symptom)."""
    return any(squash(t) in names.ingredients for t in lexicon.heads(word))


_CORPUS_KINDS: dict[tuple[int, int], frozenset[str]] = {}


def corpus_kinds(backend) -> frozenset[str]:
    """The kinds the corpus's product names say (`retrievers.form_kinds.product_kinds`), read once per document list
    (empty when the backend has no leaflet to read them from)."""
    from retrievers.form_kinds import product_kinds

    docs = backend.docs or []
    key = (id(docs), len(docs))
    if key not in _CORPUS_KINDS:
        names = {str(d.metadata.get("item_name") or "") for d in docs if d.id.startswith("easydrug:")}
        _CORPUS_KINDS[key] = frozenset(k for n in names if n for k in product_kinds(n))
    return _CORPUS_KINDS[key]


def asks_for_medicine(question: str) -> bool:
    """The question asks what to take or do (뭐 먹어요, 무슨 약, 약 추천, 어떡해요), not only about what it names.

    >>> asks_for_medicine("감기 기운 있어요 뭐 먹어요?"), asks_for_medicine("항생제 남은 건 안 먹어도 되죠?")
    (True, False)
    """
    from programs.extractive import WHICH_MEDICINE

    return bool(WHICH_MEDICINE.search(question) or _WHAT_TO_DO.search(question))


_WHAT_TO_DO = re.compile(r"어떡|어떻게\s*해")


def treated(symptoms, frame) -> list[str]:
    """Of a question's symptom words, those it may want a medicine for: not who it is for (임신 준비 중이면), and
    none when it asks about an effect noticed after taking something (암로디핀 먹기 시작하고 발목이 붓는데 부작용인가요:
    the swelling is what the uncovered medicine may have done, which another product's leaflet cannot say).

    >>> from retrievers.question_frame import QuestionFrame
    >>> treated(["임신준비", "두통"], QuestionFrame("q", aspects=("pregnancy",)))
    ['두통']
    >>> treated(["발목"], QuestionFrame("q", aspects=("side_effects", "interactions")))
    []
    """
    from retrievers.population import read_population

    if frame.aspects[:1] == ("side_effects",):
        return []
    return [s for s in symptoms if not read_population(s).group]


def dur_only_read(backend, st: QuestionState) -> list[str]:
    """`dur_only` as `uncovered` reads it: beside a supplement or a prescription kind, an ingredient other products'
    leaflets mention counts too (와파린 먹는데 크릴오일: no leaflet is about what was asked)."""
    from retrievers.not_covered import supplement_words

    names = backend.names
    beside = names is not None and bool(supplement_words(st.question, names) or prescription_kinds(backend, st))
    return dur_only(backend, st, mentioned=beside)


def dur_only(backend, st: QuestionState, mentioned: bool = False) -> list[str]:
    """The question's ingredients only DUR rules know (졸피뎀), with no product named and no leaflet found that
    mentions them (`retrievers.not_covered.dur_only_ingredients`); with `mentioned`, also those other products'
    leaflets mention (와파린과 함께 사용 시 …: beside a supplement, no leaflet is about what was asked)."""
    from retrievers.not_covered import dur_only_ingredients

    r, names = st.result, backend.names
    if r is None or r.out_of_scope or names is None:
        return []
    leaflets = " ".join(h.doc.text for h in r.hits if h.id.startswith("easydrug:"))
    return [w for w in dur_only_ingredients(names.match(st.question), names) if mentioned or w not in leaflets]


def uncovered_rules(backend, st: QuestionState) -> list[Document]:
    """The DUR rules of what the uncovered words are made of, when a rule names it (리피토 -> 아토르바스타틴) or the
    word is an ingredient DUR names (졸피뎀), that speak to the question (`programs.outcome.rules_for_question`)."""
    lexicon, names = backend.lexicon, backend.names
    if not st.uncovered or lexicon is None or names is None:
        return []
    ingredients = [a for a in lexicon.expand(" ".join(st.uncovered)) if names.match(a).ingredients]
    ingredients += [w for w in st.uncovered if names.match(w).ingredients]  # 졸피뎀: an ingredient DUR names
    kinds = prescription_kinds(backend, st)
    of_kinds = list(dict.fromkeys(i for w in st.uncovered for i in kinds.get(w, ())))  # 혈압약: its ingredients' rules
    try:
        rows = backend.dur_rules([*ingredients, *of_kinds], list(DUR_CODES))
    except Exception:  # noqa: BLE001 - a backend without DUR rules: the answer without them
        return []
    rows = one_per_ingredient(rows, of_kinds)
    frame = question_frame(backend, st)
    question = st.question
    for written, name in (st.result.read_as if st.result is not None else {}).items():
        question = question.replace(written, name)  # 캐토코나졸 as retrieval read it: a pair's side it names
    own = [*ingredients, *of_kinds]
    return rules_for_question(rows, question, frame.population.group, own=own, aspects=frame.aspects)


def one_per_ingredient(rows: list[Document], ingredients) -> list[Document]:
    """`rows` with one rule per ingredient, type and partner for the `ingredients` of a kind of medicine the
    question names (혈압약): the asker does not know which of them is theirs, nor its form, so three forms of one
    ingredient's 임부금기 would hide the others'.

    >>> rows = [Document(f"dur:cc:{i}", "x", {"ingredient": "암로디핀", "dur_type": "임부금기"}) for i in (1, 2)]
    >>> [d.id for d in one_per_ingredient(rows, {"암로디핀"})], [d.id for d in one_per_ingredient(rows, set())]
    (['dur:cc:1'], ['dur:cc:1', 'dur:cc:2'])
    """
    out, seen = [], set()
    for d in rows:
        m = d.metadata
        key = (m.get("ingredient"), m.get("dur_type"), m.get("partner"))
        if m.get("ingredient") in ingredients:
            if key in seen:
                continue
            seen.add(key)
        out.append(d)
    return out


def question_names(backend, st: QuestionState) -> list[str]:
    """The medicine names the question itself writes, as the index keys and displays them (a rewritten query's
    result may name others)."""
    names = backend.names
    if names is None:
        return list(st.result.names) if st.result is not None else []
    keys = names.match(st.question).keys
    return [*keys, *(names.display.get(k, k) for k in keys)]
