"""The query LM's output checked against the question's frame (programs/query_check.py) and its search merged with
the question's own (programs/hit_merge.py): named drugs, the group and the asked aspect are kept, words neither the
question's nor the corpus's are dropped, and the trace says which check fired."""

import pytest

from programs.ablations import ablation_settings
from programs.crag import CRAG
from programs.hit_merge import merge_hits
from programs.query_check import CorpusVocabulary, check_query
from retrievers.documents import Document, Hit
from retrievers.lexicon import Lexicon
from retrievers.population import read_population
from retrievers.question_frame import QuestionFrame, Targets
from retrievers.result import RetrievalResult

LEX = Lexicon.load()
VOCAB = CorpusVocabulary(lexicon=LEX)
NOSE = QuestionFrame("코막힘 약 뭐 먹어요", Targets(classes=("코막힘약",), symptoms=("코막",)), ("efficacy",))
TYLENOL = QuestionFrame(
    "임신 12주인데 타이레놀 먹고 운전해도 되나요",
    Targets(products=("타이레놀정500밀리그람",)),
    ("driving", "pregnancy"),
    read_population("임신 12주인데"),
)

# frame, LM query, LM terms, LM avoid terms, profile -> checked query, terms, avoid, the checks that fired
CASES = {
    "the measured rewrite: 코막힘 -> 마지막, 임신 avoided": (
        NOSE,
        "마지막 약",
        ["마지막"],
        ["임신"],
        "임신 중",
        ("코막힘 약", (), (), ["avoid_dropped", "terms_dropped", "words_dropped", "restored"]),
    ),
    "the named drug, the group and the aspect are never avoided": (
        TYLENOL,
        "타이레놀 임신 운전",
        ["타이레놀", "아세트아미노펜"],
        ["타이레놀", "임부", "운전", "주사제"],
        "",
        ("타이레놀 임신 운전", ("타이레놀", "아세트아미노펜"), ("주사제",), ["avoid_dropped"]),
    ),
    "a query that lost the drug and the aspect gets them back": (
        TYLENOL,
        "임신 두통",
        ["두통"],
        [],
        "",
        ("타이레놀 운전 임신 두통", ("두통",), (), ["restored"]),
    ),
    "an aspect asked in other words is kept as the LM wrote it": (
        QuestionFrame("게보린 어떻게 먹어요", Targets(products=("게보린정",)), ("how_to_take",)),
        "게보린 복용 방법",
        [],
        [],
        "",
        ("게보린 복용 방법", (), (), []),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_query_lm_output_keeps_the_question(name):
    frame, query, terms, avoid, profile, (want_query, want_terms, want_avoid, fired) = CASES[name]
    out = check_query(frame, query, terms, avoid, VOCAB, profile, lexicon=LEX)
    assert (out.query, out.terms, out.avoid, out.fired) == (want_query, want_terms, want_avoid, fired), out


def test_the_corpus_vocabulary_knows_the_corpus_words_not_others(searcher):
    vocab = CorpusVocabulary(searcher.names, LEX)
    for word in ("게보린", "이부프로펜", "코막힘", "부작용", "운전", "임부", "복용 방법"):
        assert word in vocab, word
    for word in ("마지막", "clinical", "주식"):
        assert word not in vocab, word


def hits(*ids):
    return [Hit(Document(i, i), 1.0 - n / 10) for n, i in enumerate(ids)]


def test_a_rewrites_hits_are_merged_with_the_questions_not_swapped():
    own = RetrievalResult("코막힘 약", hits=hits("efcy:1", "efcy:2", "efcy:3"))
    rewrite = RetrievalResult("마지막", hits=hits("dur:cc:7", "efcy:2", "dur:cc:8", "dur:cc:9"))
    merged = merge_hits(own, rewrite, k=5)
    assert [h.id for h in merged.hits] == ["efcy:1", "dur:cc:7", "efcy:2", "efcy:3", "dur:cc:8"]
    assert merged.query == "마지막"


# these questions name their targets: the query LM is asked anyway, so what it says can be checked
ALWAYS = ablation_settings(optimize_named_queries=True)
UNRELATED = {"core_terms": ["마지막"], "recall_terms": [], "avoid_terms": ["임신"], "rerank_query": "마지막 약"}


def test_the_graph_searches_the_checked_query_and_keeps_the_questions_hits(searcher, scripted):
    lm, lms = scripted(optimize=[UNRELATED])
    pred = CRAG(backend=searcher, lms=lms, settings=ALWAYS)(question="코막힘 약 뭐 먹어요", user={"pregnant": True})
    step = next(s for s in pred.trace["steps"] if s["step"] == "optimize_query")
    assert step["query"] == "마지막 약"  # what the LM said, and what was searched instead
    assert step["checked_query"] == "코막힘 약"
    assert step["query_check"]["avoid_dropped"] == ["임신"]
    assert step["query_check"]["terms_dropped"] == ["마지막"]
    question, optimized = [s for s in pred.trace["steps"] if s["step"] == "retrieve"][:2]
    assert optimized["query"] == "코막힘 약"
    assert optimized["merged_with_question"] is True
    assert optimized["hits"][0]["id"] == question["hits"][0]["id"]


def test_a_rewrite_replacing_the_hits_with_dur_rows_keeps_the_questions(searcher, scripted):
    dur = {"core_terms": ["병용금기"], "recall_terms": [], "avoid_terms": [], "rerank_query": "병용금기 임부금기"}
    lm, lms = scripted(optimize=[dur])
    pred = CRAG(backend=searcher, lms=lms, settings=ALWAYS)(question="게보린 먹고 속이 쓰려요")
    question, optimized = [s for s in pred.trace["steps"] if s["step"] == "retrieve"][:2]
    own = [h["id"] for h in question["hits"]]
    got = [h["id"] for h in optimized["hits"]]
    assert got[0] == own[0]
    assert len(set(got) & set(own)) >= 3  # taken in turn: the question's first, third and fifth places stay
    assert "게보린" in optimized["query"]  # the named drug the rewrite lost is searched again
