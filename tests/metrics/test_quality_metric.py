"""The quality metric with scripted judge LMs: the evaluator's 0.4/0.4/0.2 score, its feedback for GEPA, the
heuristic without an LM, out-of-scope handling, and the pass mark while bootstrapping."""

import dspy
import pytest

from metrics.quality import QualityMetric, context_documents
from yaksa.testing.scripted_lm import ScriptedLM

EXAMPLE = dspy.Example(question="게보린 부작용", answer="위장 장애가 나타날 수 있습니다").with_inputs("question")
PRED = dspy.Prediction(
    answer="게보린은 위장 장애를 일으킬 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요.",
    contexts=["게보린정 (아세트아미노펜)\n[이상반응(부작용)] 속쓰림 등 위장 장애가 나타날 수 있습니다."],
    out_of_scope=False,
)
VERDICT = {
    "grounding": 0.5,
    "completeness": 1.0,
    "accuracy": 0.0,
    "missing_info": ["복용 간격"],
    "improvement_suggestions": ["용법을 함께 안내"],
    "needs_retrieval": False,
    "reason": "부분적으로 충분",
}


def test_weighted_score_from_the_judge_and_one_call():
    lm = ScriptedLM(evaluate=[VERDICT])
    assert QualityMetric(judge=lm)(EXAMPLE, PRED) == pytest.approx(0.4 * 0.5 + 0.4 * 1.0 + 0.2 * 0.0)
    assert lm.calls == ["evaluate"]
    prompt = lm.prompts[0][1][-1]["content"]
    assert "속쓰림 등 위장 장애" in prompt  # the judge saw exactly the generator's contexts


def test_feedback_mode_returns_missing_info_and_suggestions():
    out = QualityMetric(judge=ScriptedLM(evaluate=[VERDICT]), feedback=True)(EXAMPLE, PRED, None, "generate", None)
    assert out.score == pytest.approx(0.6)
    assert "missing information: 복용 간격" in out.feedback
    assert "suggestions: 용법을 함께 안내" in out.feedback
    assert "reference answer: 위장 장애가" in out.feedback


def test_bootstrap_pass_mark():
    metric = QualityMetric(judge=ScriptedLM(evaluate=[VERDICT]), threshold=0.7)
    assert metric(EXAMPLE, PRED, trace=[]) is False
    metric = QualityMetric(judge=ScriptedLM(evaluate=[{**VERDICT, "accuracy": 1.0, "grounding": 1.0}]))
    assert metric(EXAMPLE, PRED, trace=[]) is True


def test_no_lm_uses_the_heuristic_and_calls_nothing():
    metric = QualityMetric(judge=None)
    with dspy.context(lm=None):
        fb = metric.judge_feedback(EXAMPLE, PRED)
    assert fb.method == "heuristic"
    assert 0 < fb.overall <= 1


def test_out_of_scope_is_scored_by_the_decision_without_an_lm_call():
    lm = ScriptedLM()
    metric = QualityMetric(judge=lm)
    oos = dspy.Example(question="날씨", out_of_scope=True).with_inputs("question")
    assert metric(oos, dspy.Prediction(answer="범위 밖", contexts=[], out_of_scope=True)) == 1.0
    assert metric(oos, PRED) == 0.0
    assert metric(EXAMPLE, dspy.Prediction(answer="범위 밖", contexts=[], out_of_scope=True)) == 0.0
    assert lm.calls == []


def test_context_documents_are_numbered_like_the_answer():
    docs = context_documents(["게보린정\n본문", "타이레놀\n본문"])
    assert [d.id for d in docs] == ["context:1", "context:2"]
    assert docs[0].text == "게보린정\n본문"
