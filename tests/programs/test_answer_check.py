"""The deterministic answer check before the LM verifier (programs/answer_check.py): an LM answer that cites nothing,
only repeats the question, or is about another medicine or another aspect fails with its cause, is corrected, and
ends as the extractive answer when corrections do not help; the trace says which check fired."""

import pytest

from programs.answer_check import check_answer, worded_aspects
from programs.crag import CRAG
from programs.routing import route_answer_check
from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.population import Population
from retrievers.question_frame import QuestionFrame, Targets

RULE = Document(
    "dur:cc:1",
    "[임부금기] 페닐레프린은(는) 임부에게 사용하면 안 되는 성분입니다.",
    {"dur_type": "임부금기", "ingredient": "페닐레프린"},
)
EFCY = Document(
    "easydrug:1:efcy",
    "판콜에이내복액\n[효능] 감기의 여러 증상(콧물, 코막힘)의 완화에 사용합니다.",
    {"section": "efcy", "item_name": "판콜에이내복액", "main_ingr": "아세트아미노펜,페닐레프린염산염"},
)
SE = Document(
    "easydrug:2:se",
    "게보린정\n[이상반응] 발진, 구역, 구토가 나타날 수 있습니다.",
    {"section": "se", "item_name": "게보린정", "main_ingr": "아세트아미노펜,카페인무수물,이소프로필안티피린"},
)
ATPN = Document(
    "easydrug:2:atpn",
    "게보린정\n[주의사항] 졸음이 올 수 있으므로 운전을 하지 마십시오.",
    {"section": "atpn", "item_name": "게보린정", "main_ingr": "아세트아미노펜,카페인무수물,이소프로필안티피린"},
)
NOSE = QuestionFrame("코막힘 약 뭐 먹어요", Targets(symptoms=("코막",)), ("efficacy",))
GEBORIN_SE = QuestionFrame("게보린 부작용 뭐 있어요", Targets(products=("게보린",)), ("side_effects",))
GEBORIN_DRIVE = QuestionFrame("게보린 먹고 운전해도 돼요", Targets(products=("게보린",)), ("driving",))
SAFETY = "\n\n전문가와 꼭 상담하세요."

# answer, documents, frame, the cause ("" passes)
CASES = {
    "the measured 0.5B answer: the question and a citation": (
        "전문가와 꼭 상담하세요. 코막힘 약 뭐 먹어요? [문서 1]",
        [RULE, EFCY],
        NOSE,
        "repeats_question",
    ),
    "a base model's 'Answer' with no citation": ("Answer" + SAFETY, [RULE, EFCY], NOSE, "no_citation"),
    "a citation of a document not given": (
        "코막힘에는 판콜을 씁니다. [문서 7]" + SAFETY,
        [RULE, EFCY],
        NOSE,
        "no_citation",
    ),
    "an answer that says something": (
        "판콜에이내복액은 콧물, 코막힘 같은 감기 증상을 덜어 줍니다. [문서 2]" + SAFETY,
        [RULE, EFCY],
        NOSE,
        "",
    ),
    "another medicine's leaflet for a named product": (
        "감기의 여러 증상을 덜어 주는 약이 있습니다. [문서 1]" + SAFETY,
        [EFCY],
        GEBORIN_SE,
        "off_target",
    ),
    "the named product's side effects": ("발진이나 구역이 생길 수 있습니다. [문서 1]" + SAFETY, [SE], GEBORIN_SE, ""),
    "side effects said in words, citing another section": (
        "게보린의 부작용으로 졸음이 올 수 있습니다. [문서 1]" + SAFETY,
        [ATPN, SE],
        GEBORIN_SE,
        "",
    ),
    "about the product but not the asked aspect the documents speak to": (
        "게보린은 발진, 구역이 나타날 수 있는 약입니다. [문서 1]" + SAFETY,
        [SE, ATPN],
        GEBORIN_DRIVE,
        "misses_aspect",
    ),
    "the asked aspect, quoted": (
        "게보린을 먹으면 졸음이 올 수 있어 운전하지 마십시오. [문서 2]" + SAFETY,
        [SE, ATPN],
        GEBORIN_DRIVE,
        "",
    ),
    "an aspect no document speaks to is not the answer's fault": (
        "게보린은 발진, 구역이 나타날 수 있는 약입니다. [문서 1]" + SAFETY,
        [SE],
        GEBORIN_DRIVE,
        "",
    ),
    "no documents given: nothing to cite": (
        "관련 문서를 찾지 못했습니다. 약사와 상의하세요." + SAFETY,
        [],
        NOSE,
        "",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_answer_check_fails_answers_that_do_not_answer(name):
    answer, docs, frame, cause = CASES[name]
    out = check_answer(answer, frame.question, docs, frame, lexicon=Lexicon.load())
    assert out.cause == cause, out
    assert out.ok is (cause == "")
    assert bool(out.feedback) is (cause != "")


def test_only_aspects_the_question_words_are_checked():
    inferred = QuestionFrame("게보린 먹고 속이 쓰려요", Targets(products=("게보린",)), ("side_effects",))
    assert worded_aspects(inferred, lexicon=Lexicon.load()) == ()
    assert worded_aspects(GEBORIN_SE, lexicon=Lexicon.load()) == ("side_effects",)
    pregnant = QuestionFrame("임신 중 게보린", aspects=("pregnancy",), population=Population("pregnant", "임신"))
    assert worded_aspects(pregnant) == ("pregnancy",)


@pytest.mark.parametrize(
    "cause, rounds, can_correct, action",
    [
        ("", 0, True, ""),
        ("repeats_question", 0, True, "correct"),
        ("repeats_question", 2, True, "correct"),
        ("repeats_question", 3, True, "extractive"),
        ("no_citation", 0, False, "extractive"),
    ],
)
def test_a_failed_check_is_corrected_then_replaced(cause, rounds, can_correct, action):
    assert route_answer_check(cause, rounds, 3, can_correct) == action


NOSE_Q = "코막힘 약 뭐 먹어요"
NOSE_TERMS = {"core_terms": ["코막힘"], "recall_terms": ["페닐레프린"], "avoid_terms": [], "rerank_query": "코막힘 약"}
REPEAT = "전문가와 꼭 상담하세요. 코막힘 약 뭐 먹어요? [문서 1]"


def checks(pred):
    return [s for s in pred.trace["steps"] if s["step"] == "verify"]


def test_an_answer_repeating_the_question_never_ships(searcher, scripted):
    lm, lms = scripted(optimize=[NOSE_TERMS], generate=[{"answer": REPEAT}], correct=[{"corrected_answer": REPEAT}])
    pred = CRAG(backend=searcher, lms=lms)(question=NOSE_Q, user={"pregnant": True})
    assert lm.calls.count("correct") == 3
    assert "verify" not in lm.calls  # the LM verifier never sees an answer the check failed
    assert [s["cause"] for s in checks(pred)] == ["repeats_question"] * 4
    assert {s["by"] for s in checks(pred)} == {"answer_check"}
    assert checks(pred)[-1]["action"] == "extractive"
    assert "코막힘 약 뭐 먹어요?" not in pred.answer
    assert "판콜에이내복액" in pred.answer and "[문서 1]" in pred.answer
    assert "답변 확인" in pred.answer
    assert pred.trace["method"] == "extractive"
    assert pred.trace["verification"] == "answer_check_fallback"
    assert any(s["step"] == "fallback" and s["where"] == "answer_check" for s in pred.trace["steps"])


def test_a_corrected_answer_that_answers_goes_on_to_the_lm_verifier(searcher, scripted):
    fixed = "판콜에이내복액은 콧물, 코막힘 같은 감기 증상을 덜어 줍니다. [문서 1, 2]\n\n전문가와 꼭 상담하세요."
    lm, lms = scripted(optimize=[NOSE_TERMS], generate=[{"answer": REPEAT}], correct=[{"corrected_answer": fixed}])
    pred = CRAG(backend=searcher, lms=lms)(question=NOSE_Q)
    assert lm.calls == ["generate", "correct", "verify", "evaluate"]
    assert [s["by"] for s in checks(pred)] == ["answer_check", "verifier"]
    assert checks(pred)[-1]["check"]["ok"] is True
    assert pred.answer.startswith("판콜에이내복액은 콧물")
    assert pred.trace["verification"] == "pass"


def test_without_an_lm_verifier_the_check_still_runs(searcher, scripted):
    lm, _ = scripted(generate=[{"answer": "Answer\n\n전문가와 꼭 상담하세요."}], correct=[ValueError("no")])
    pred = CRAG(backend=searcher, lms={"generate": lm})(question=NOSE_Q)
    assert checks(pred)[0]["cause"] == "no_citation"
    assert pred.trace["method"] == "extractive"
    assert "[문서 1]" in pred.answer


RULE_ANSWERS = {
    "the rule's sentence": ("[임부금기] 페닐레프린은(는) 임부에게 사용하면 안 되는 성분입니다. [문서 1]", True),
    "the rule said in other words": ("임신 중에는 페닐레프린이 든 약을 먹으면 안 됩니다. [문서 1]", True),
    "the measured answer: the question and the rule's number": ("코막힘 약 뭐 먹어요? [문서 1]", False),
    "the ingredient without the verdict": ("페닐레프린은 코막힘을 덜어 줍니다. [문서 1]", False),
    "the rule's text without its citation": ("페닐레프린은(는) 임부에게 사용하면 안 되는 성분입니다.", False),
}


@pytest.mark.parametrize("name", sorted(RULE_ANSWERS))
def test_a_cited_rule_counts_as_quoted_only_when_the_answer_says_it(name):
    from programs.safety_rules import add_missing_rules, quoted_rules

    answer, quoted = RULE_ANSWERS[name]
    assert (quoted_rules(answer, [RULE, EFCY]) == {RULE.id}) is quoted
    _, added = add_missing_rules(answer, [RULE, EFCY])
    assert added == ([] if quoted else [RULE.id])
