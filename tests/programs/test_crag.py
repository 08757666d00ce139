"""The CRAG program end to end over the fake backend, with no LM and with scripted LMs: every route, every stop,
the LM-call counts, the budget, the user profile, and DSPy's save/load and named predictors."""

import pytest

from programs.crag import BUDGET_NOTICE, CRAG, OUT_OF_SCOPE_ANSWER
from programs.extractive import INSUFFICIENT_NOTICE
from programs.profiles import PROFILES, get_profile
from tests.helpers.fake_backend import FakeBackend
from tests.helpers.scripted_lm import GOOD

QUESTION = "게보린 먹고 속이 쓰려요"
LOW = {
    "grounding": 0.3,
    "completeness": 0.3,
    "accuracy": 0.5,
    "missing_info": ["위장 장애"],
    "improvement_suggestions": ["부작용을 구체적으로"],
    "needs_retrieval": True,
    "reason": "부족",
}


def low(score):
    """An evaluation whose overall score is exactly `score` (all three axes equal)."""
    return {**LOW, "grounding": score, "completeness": score, "accuracy": score}


def test_no_lm_gives_an_extractive_cited_answer_with_zero_lm_calls(backend):
    pred = CRAG(backend=backend)(question=QUESTION)
    assert "[문서 1]" in pred.answer and "전문가와 꼭 상담하세요" in pred.answer
    assert "언어 모델(LM) 없이" in pred.answer
    assert pred.trace["lm_calls"]["total"] == 0 and pred.trace["uses_lm"] is False
    assert {c["product"] for c in pred.citations} == {"게보린정"}
    assert any(c["section"] == "이상반응(부작용)" for c in pred.citations)
    assert pred.contexts and all(isinstance(c, str) for c in pred.contexts)
    assert pred.trace["stop_reason"] == "quality_ok" and pred.trace["method"] == "extractive"


def test_out_of_scope_blocks_with_zero_lm_calls_even_with_an_lm(scripted):
    lm, lms = scripted()
    backend = FakeBackend()
    pred = CRAG(backend=backend, lms=lms)(question="삼성전자 주가")
    assert pred.answer == OUT_OF_SCOPE_ANSWER and pred.out_of_scope
    assert lm.calls == [] and pred.trace["lm_calls"]["total"] == 0
    assert pred.trace["stop_reason"] == "out_of_scope" and len(backend.calls) == 1


def test_corrective_rag_passing_first_time_makes_four_lm_calls(scripted, no_web):
    lm, lms = scripted()
    pred = CRAG(backend=FakeBackend(), lms=lms, web=no_web)(question=QUESTION)
    assert lm.calls == ["optimize", "generate", "verify", "evaluate"]
    assert pred.trace["lm_calls"] == {"query": 1, "generate": 1, "verify": 1, "judge": 1, "total": 4}
    assert pred.trace["stop_reason"] == "quality_ok" and pred.trace["verification"] == "pass"
    assert pred.answer.startswith("게보린을 먹고") and pred.citations[0]["cited"]


def test_basic_rag_generates_exactly_once(scripted):
    lm, lms = scripted(evaluate=[low(0.1)])
    pred = CRAG(backend=FakeBackend(), settings=get_profile("baseline"), lms=lms)(question=QUESTION)
    assert lm.calls == ["optimize", "generate"]
    assert pred.trace["stop_reason"] == "basic_rag" and pred.trace["strategy"] == "basic_rag"


def test_query_optimisation_terms_reach_the_retriever(scripted):
    _, lms = scripted()
    backend = FakeBackend()
    CRAG(backend=backend, lms=lms)(question=QUESTION)
    assert backend.calls[0]["query"] == QUESTION and backend.calls[0]["extra_terms"] is None
    assert backend.calls[1] == {
        "query": "게보린 속쓰림",
        "k": 5,
        "extra_terms": ["게보린", "아세트아미노펜"],
        "avoid_terms": None,
    }


def test_tc_cb_016_vague_question_is_rewritten_and_searched_again(scripted):
    lm, lms = scripted(
        optimize=[{"core_terms": [], "recall_terms": [], "avoid_terms": [], "rerank_query": "그거 어떻게 해?"}],
        rewrite=[{"rewritten_query": "재작성된 질의: 게보린 복용 방법"}],
    )
    backend = FakeBackend()
    pred = CRAG(backend=backend, lms=lms)(question="그거 어떻게 해?")
    assert "rewrite" in lm.calls and backend.calls[-1]["query"] == "게보린 복용 방법"
    grades = [s for s in pred.trace["steps"] if s["step"] == "grade"]
    assert grades[0]["route"] == "rewrite" and grades[-1]["route"] == "generate"
    assert (
        pred.trace["rewrites"] == 1 and pred.trace["relevance_history"][0] < 0.7 <= pred.trace["relevance_history"][-1]
    )


def test_low_relevance_after_two_rewrites_uses_the_top_three(scripted):
    lm, lms = scripted(rewrite=[{"rewritten_query": "열 해열제"}, {"rewritten_query": "발열 약"}])
    backend = FakeBackend(score_script=[[0.3] * 5] * 4)
    pred = CRAG(backend=backend, settings=get_profile(query_optimization=False), lms=lms)(question="열이 나요")
    assert lm.calls.count("rewrite") == 2 and "generate_low_relevance" in lm.calls and "generate" not in lm.calls
    assert pred.trace["mode"] == "generate_low_relevance" and len(pred.contexts) == 3
    assert [s["route"] for s in pred.trace["steps"] if s["step"] == "grade"] == [
        "rewrite",
        "rewrite",
        "generate_low_relevance",
    ]


def test_no_context_generation_when_nothing_is_found(scripted):
    lm, lms = scripted()
    backend = FakeBackend(docs=[], guard=False)
    pred = CRAG(backend=backend, settings=get_profile(query_optimization=False), lms=lms)(question="열이 나요")
    assert "generate_no_context" in lm.calls and pred.contexts == [] and pred.citations == []
    assert pred.trace["mode"] == "generate_no_context"


def test_no_lm_no_context_answer_says_nothing_was_found():
    pred = CRAG(backend=FakeBackend(docs=[], guard=False))(question="열이 나요")
    assert "찾지 못했습니다" in pred.answer and "전문가와 꼭 상담하세요" in pred.answer


def test_iteration_cap_stops_refinement_within_the_budget(scripted):
    lm, lms = scripted(
        evaluate=[low(0.1), low(0.2), low(0.3)],
        rewrite=[{"rewritten_query": "타이레놀 부작용"}, {"rewritten_query": "게보린 부작용"}],
    )
    pred = CRAG(backend=FakeBackend(), settings=get_profile("self_refine_dynamic_query"), lms=lms)(question=QUESTION)
    assert pred.trace["stop_reason"] == "iteration_cap" and pred.trace["iterations"] == 2
    assert lm.calls.count("generate") == 3 and lm.calls.count("evaluate") == 3
    assert pred.trace["lm_calls"]["total"] == len(lm.calls) == 12
    assert pred.trace["score_history"] == [0.1, 0.2, 0.3]


def test_duplicate_documents_stop_before_generating_again(scripted):
    lm, lms = scripted(evaluate=[low(0.2)], rewrite=[{"rewritten_query": "게보린 먹고 속이 쓰려요 위장"}])
    pred = CRAG(backend=FakeBackend(), lms=lms)(question=QUESTION)
    assert pred.trace["stop_reason"] == "duplicate_documents"
    assert lm.calls == ["optimize", "generate", "verify", "evaluate", "rewrite"]


def test_stagnation_stops_and_decline_keeps_the_better_answer(scripted):
    answers = [
        {"answer": "첫 답변 [문서 1] 전문가와 꼭 상담하세요."},
        {"answer": "둘째 답변 [문서 1] 전문가와 꼭 상담하세요."},
    ]
    lm, lms = scripted(
        evaluate=[low(0.3), low(0.32)], rewrite=[{"rewritten_query": "타이레놀 부작용"}], generate=answers
    )
    pred = CRAG(backend=FakeBackend(), lms=lms)(question=QUESTION)
    assert pred.trace["stop_reason"] == "stagnation" and pred.answer.startswith("둘째")

    lm, lms = scripted(
        evaluate=[low(0.4), low(0.3)], rewrite=[{"rewritten_query": "타이레놀 부작용"}], generate=answers
    )
    pred = CRAG(backend=FakeBackend(), lms=lms)(question=QUESTION)
    assert pred.trace["stop_reason"] == "decline" and pred.answer.startswith("첫")
    assert pred.trace["score_history"] == [0.4, 0.3]


def test_budget_exhaustion_returns_the_best_answer_and_says_why(scripted):
    lm, lms = scripted()
    pred = CRAG(backend=FakeBackend(), settings=get_profile(lm_call_budget=3), lms=lms)(question=QUESTION)
    assert lm.calls == ["optimize", "generate", "verify"] and pred.trace["lm_calls"]["total"] == 3
    assert pred.trace["stop_reason"] == "lm_budget_exhausted" and BUDGET_NOTICE in pred.answer
    assert pred.answer.startswith("게보린을 먹고")


def test_budget_of_zero_still_answers_from_the_documents(scripted):
    lm, lms = scripted()
    pred = CRAG(backend=FakeBackend(), settings=get_profile(lm_call_budget=0), lms=lms)(question=QUESTION)
    assert lm.calls == [] and "[문서 1]" in pred.answer and pred.trace["stop_reason"] == "lm_budget_exhausted"


def test_hallucination_is_corrected_then_verified(scripted):
    fail = {"verdict": "FAIL", "failure_cause": "hallucination", "feedback": "문서에 없는 용량"}
    lm, lms = scripted(verify=[fail, {"verdict": "PASS", "failure_cause": "none", "feedback": ""}])
    pred = CRAG(backend=FakeBackend(), lms=lms)(question=QUESTION)
    assert lm.calls == ["optimize", "generate", "verify", "correct", "verify", "evaluate"]
    assert pred.answer.startswith("교정된 답변") and pred.trace["verification"] == "pass"


def test_missing_information_searches_again_once_then_says_so(scripted):
    fail = {"verdict": "FAIL", "failure_cause": "missing_information", "feedback": "복용 간격 정보 없음"}
    lm, lms = scripted(verify=[fail], rewrite=[{"rewritten_query": "타이레놀 복용 간격"}])
    backend = FakeBackend()
    pred = CRAG(backend=backend, lms=lms)(question=QUESTION)
    assert lm.calls == ["optimize", "generate", "verify", "rewrite", "generate", "verify", "evaluate"]
    assert backend.calls[-1]["query"] == "타이레놀 복용 간격" and "correct" not in lm.calls
    assert INSUFFICIENT_NOTICE in pred.answer and pred.trace["verification"] == "insufficient_information"


def test_contexts_are_exactly_what_the_generator_saw(scripted):
    lm, lms = scripted()
    pred = CRAG(backend=FakeBackend(), lms=lms)(question=QUESTION)
    prompt = next(m for name, m in lm.prompts if name == "generate")[-1]["content"]
    assert pred.contexts and all(c in prompt for c in pred.contexts)
    assert [f"[문서 {c['n']}] {c['title']}" in prompt for c in pred.citations] == [True] * len(pred.citations)


def test_knowledge_refinement_shortens_the_context_and_is_reported():
    backend = FakeBackend()
    on = CRAG(backend=backend)(question="게보린 구토")
    off = CRAG(backend=backend, settings=get_profile(knowledge_refinement=False))(question="게보린 구토")
    step = next(s for s in on.trace["steps"] if s["step"] == "refine_knowledge")
    assert step["chars_after"] < step["chars_before"] and 0 < step["reduction"] < 1
    assert sum(map(len, on.contexts)) < sum(map(len, off.contexts))


@pytest.mark.parametrize("user, rule", [({"pregnant": True}, "dur:cc:1001"), ({"age": 72}, "dur:fc:2002")])
def test_pregnant_or_elderly_user_pulls_in_dur_rules(user, rule):
    pred = CRAG(backend=FakeBackend())(question=QUESTION, user=user)
    assert rule in [c["id"] for c in pred.citations]
    assert any(s["step"] == "dur_rules" and rule in s["added"] for s in pred.trace["steps"])


def test_profile_reaches_the_generation_prompt(scripted):
    lm, lms = scripted()
    CRAG(backend=FakeBackend(), lms=lms)(question=QUESTION, user={"age": 70, "sex": "여", "medicines": ["암로디핀"]})
    prompt = next(m for name, m in lm.prompts if name == "generate")[-1]["content"]
    assert "70세 여성" in prompt and "암로디핀" in prompt


def test_web_references_are_returned_but_never_enter_an_lm_context(scripted, no_web):
    lm, lms = scripted()
    pred = CRAG(backend=FakeBackend(), lms=lms, web=no_web)(question=QUESTION)
    assert pred.web_refs == [{"title": "식약처", "url": "https://www.mfds.go.kr"}] and no_web.calls == [QUESTION]
    assert all("mfds.go.kr" not in m["content"] for _, msgs in lm.prompts for m in msgs)


def test_llm_grading_grades_each_document(scripted):
    lm, lms = scripted(grade=[{"relevant": "yes", "reason": "r"}] * 4 + [{"relevant": "no", "reason": "r"}])
    pred = CRAG(backend=FakeBackend(), settings=get_profile(llm_grading=True), lms=lms)(question=QUESTION)
    grade = next(s for s in pred.trace["steps"] if s["step"] == "grade")
    assert grade["method"] == "lm" and grade["relevant"] == [True] * 4 + [False] and grade["route"] == "generate"
    assert lm.calls.count("grade") == 5 and pred.trace["lm_calls"]["judge"] == 6  # 5 grades + 1 evaluation


def test_long_questions_are_cut_and_empty_ones_refused(backend):
    program = CRAG(backend=backend, settings=get_profile(max_question_chars=20))
    pred = program(question="게보린 " * 30)
    assert len(pred.question) == 20 and pred.trace["warnings"] == ["question cut to 20 characters"]
    with pytest.raises(ValueError):
        program(question="   ")


def test_named_predictors_are_stable_and_state_round_trips(tmp_path, scripted):
    program = CRAG(backend=FakeBackend())
    names = [name for name, _ in program.named_predictors()]
    assert names == [
        "query_optimizer.optimize",
        "grader.grade",
        "generator.generate",
        "generator.generate_low_relevance",
        "generator.generate_no_context",
        "verifier.verify",
        "verifier.correct",
        "evaluator.evaluate",
        "rewriter.rewrite",
    ]
    program.generator.generate.signature = program.generator.generate.signature.with_instructions("새 지침")
    program.verifier.verify.demos = [
        {"question": "q", "context": "c", "answer": "a", "verdict": "PASS", "failure_cause": "none", "feedback": ""}
    ]
    program.save(str(tmp_path / "x.json"))
    loaded = CRAG(backend=FakeBackend())
    loaded.load(str(tmp_path / "x.json"))
    assert loaded.generator.generate.signature.instructions == "새 지침"
    assert loaded.dump_state() == program.dump_state()
    copy = program.deepcopy()
    assert copy.shared is program.shared and copy.generator.generate is not program.generator.generate


def test_every_profile_runs_without_an_lm(backend):
    for name in PROFILES:
        pred = CRAG(backend=backend, settings=get_profile(name))(question=QUESTION)
        assert "[문서 1]" in pred.answer and pred.trace["lm_calls"]["total"] == 0, name


def test_dspy_configure_lm_is_used_when_no_role_lm_is_given(scripted):
    import dspy

    lm, _ = scripted(evaluate=[GOOD])
    with dspy.context(lm=lm):
        pred = CRAG(backend=FakeBackend())(question=QUESTION)
    assert lm.calls == ["optimize", "generate", "verify", "evaluate"] and pred.trace["uses_lm"]
