"""The scripted LM (yaksa/testing/scripted_lm.py) tells the program's predictors apart by their signature's fields,
never by their instructions: with every predictor's instructions rewritten (as MIPROv2, GEPA and SIMBA do) each
scripted reply still reaches its own predictor, over the real program and the real `Searcher`."""

import pytest
from dspy.adapters.chat_adapter import ChatAdapter

from programs.ablations import ablation_settings
from programs.crag import CRAG
from yaksa.testing.scripted_lm import PASS, SIGNATURES, ScriptedLM, which

REWRITTEN = "Answer the user's drug question carefully."  # one text for every predictor: no hint left in it
QUESTION = "게보린 먹고 속이 쓰려요"
VAGUE = "이 약 어떻게 먹어요?"
SAME = {"core_terms": [], "recall_terms": [], "avoid_terms": [], "rerank_query": VAGUE}
FAIL = {"verdict": "FAIL", "failure_cause": "hallucination", "feedback": "문서에 없는 용량"}
CORRECTED = {"corrected_answer": "고친 답변: 속쓰림이 있을 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."}
LOW_RELEVANCE = {"answer": "일부만 관련된 문서로 답합니다. [문서 1]\n\n전문가와 꼭 상담하세요."}
NO_CONTEXT = {"answer": "문서를 찾지 못해 답하지 않습니다. 전문가와 꼭 상담하세요."}


def prompt(signature) -> list[dict]:
    """The messages DSPy's ChatAdapter sends for `signature`."""
    return ChatAdapter().format(signature, demos=[], inputs={name: "x" for name in signature.input_fields})


def rewrite_instructions(program, text: str = REWRITTEN) -> None:
    for _, predictor in program.named_predictors():
        predictor.signature = predictor.signature.with_instructions(text)


def grade_all(verdict: str):
    return lambda messages: {"verdicts": [verdict] * messages[-1]["content"].count("[문서 "), "reason": "r"}


@pytest.mark.parametrize("name", list(SIGNATURES))
def test_each_predictor_is_known_by_its_fields_whatever_its_instructions(name):
    signature = SIGNATURES[name]
    assert which(prompt(signature)) == name
    assert which(prompt(signature.with_instructions(REWRITTEN))) == name
    for other in SIGNATURES.values():  # another predictor's instructions do not move it either
        assert which(prompt(signature.with_instructions(other.instructions))) == name


def test_an_unknown_signature_is_known_by_its_output_fields():
    import dspy

    assert which(prompt(dspy.Signature("question -> verdicts: list[str], reason"))) == "grade"
    assert which(prompt(dspy.Signature("question -> answer"))) == "generate"
    assert which(prompt(dspy.Signature("question -> haiku"))) == "unknown"


def test_rewritten_instructions_still_send_the_correction_to_the_corrector(searcher):
    lm = ScriptedLM(verify=[FAIL, PASS], correct=[CORRECTED])
    program = CRAG(backend=searcher, lms=lm.roles())
    rewrite_instructions(program)
    assert {p.signature.instructions for _, p in program.named_predictors()} == {REWRITTEN}
    pred = program(question=QUESTION)
    assert lm.calls == ["generate", "verify", "correct", "verify", "evaluate"]
    assert pred.answer.startswith("고친 답변")
    assert pred.trace["verification"] == "pass"


def test_rewritten_instructions_still_tell_the_three_generators_apart(searcher):
    lm = ScriptedLM(
        optimize=[SAME],
        rewrite=[{"rewritten_query": "그거 먹는 법"}, {"rewritten_query": "그거 어떻게 해요"}],
        grade=[grade_all("no")],
        generate_low_relevance=[LOW_RELEVANCE],
        generate_no_context=[NO_CONTEXT],
    )
    program = CRAG(backend=searcher, settings=ablation_settings(llm_grading=True), lms=lm.roles())
    rewrite_instructions(program)
    pred = program(question=VAGUE)
    assert "generate_low_relevance" in lm.calls
    assert "generate" not in lm.calls
    assert pred.answer.startswith("일부만 관련된 문서로")

    lm.calls.clear()
    settings = ablation_settings(llm_grading=True, low_relevance_floor=0.95)  # no document reaches the floor
    program = CRAG(backend=searcher, settings=settings, lms=lm.roles())
    rewrite_instructions(program)
    pred = program(question=VAGUE)
    assert "generate_no_context" in lm.calls
    assert "generate_low_relevance" not in lm.calls
    assert pred.answer.startswith("문서를 찾지 못해")
