"""RAGAS faithfulness / answer relevancy through our LM adapter (scripted replies) and our embedder; NaN counted as
undetermined, never 0; the combined metric's weights and its optimizer wrapper."""

import json
import math

import dspy
import pytest

from metrics.combined import CombinedMetric, for_optimizer, make_metric, parse_weights
from metrics.ragas_metrics import DspyRagasLLM, EmbedderAdapter, RagasMetric
from yaksa.testing.hash_embedder import HashEmbedder
from yaksa.testing.scripted_lm import ScriptedLM

EXAMPLE = dspy.Example(question="게보린 부작용이 뭐예요", answer="위장 장애").with_inputs("question")
PRED = dspy.Prediction(
    answer="게보린은 위장 장애를 일으킬 수 있습니다. [문서 1]",
    contexts=["게보린정\n[이상반응] 속쓰림 등 위장 장애가 나타날 수 있습니다."],
    out_of_scope=False,
)


def ragas_judge(statements, verdicts, question="게보린 부작용이 뭐예요", noncommittal=0):
    """A scripted LM answering ragas' three prompts by the schema they ask for."""
    seen = []

    def reply(messages):
        prompt = messages[-1]["content"]
        seen.append(prompt)
        schema = prompt.rsplit("JSON schema:", 1)[1]
        if '"noncommittal"' in schema:
            return json.dumps({"question": question, "noncommittal": noncommittal}, ensure_ascii=False)
        if '"verdict"' in schema:
            items = [
                {"statement": s, "reason": "문서에 있음", "verdict": v}
                for s, v in zip(statements, verdicts, strict=True)
            ]
            return json.dumps({"statements": items}, ensure_ascii=False)
        return json.dumps({"statements": statements}, ensure_ascii=False)

    lm = ScriptedLM(unknown=[reply])
    lm.seen = seen
    return lm


def test_faithfulness_counts_supported_statements_in_the_generators_contexts():
    lm = ragas_judge(["게보린은 위장 장애를 일으킨다", "게보린은 간에 좋다"], [1, 0])
    metric = RagasMetric(judge=lm, which=("faithfulness",))
    assert metric.score_both(EXAMPLE, PRED) == {"faithfulness": 0.5}
    assert len(lm.calls) == 2
    assert "속쓰림 등 위장 장애" in lm.seen[1]  # the NLI prompt holds pred.contexts


def test_answer_relevancy_uses_our_embedder():
    embedder = HashEmbedder()
    metric = RagasMetric(
        judge=ragas_judge([], [], question=EXAMPLE.question),
        embedder=embedder,
        which=("answer_relevancy",),
        strictness=2,
    )
    score = metric.score_both(EXAMPLE, PRED)["answer_relevancy"]
    assert score == pytest.approx(1.0, abs=1e-5)
    assert embedder.calls == 2  # same question back: cosine 1
    noncommittal = RagasMetric(
        judge=ragas_judge([], [], noncommittal=1), embedder=HashEmbedder(), which=("answer_relevancy",), strictness=1
    )
    assert noncommittal.score_both(EXAMPLE, PRED)["answer_relevancy"] == 0.0


def test_nan_is_undetermined_and_counted_never_zero():
    metric = RagasMetric(judge=ragas_judge([], []), which=("faithfulness",))  # no statements -> NaN
    assert metric.score_both(EXAMPLE, PRED) == {"faithfulness": None}
    no_context = dspy.Prediction(answer="답", contexts=[], out_of_scope=False)  # ragas raises -> undetermined
    assert metric(EXAMPLE, no_context) is None
    assert metric.undetermined == {"faithfulness": 2}


def test_adapter_validates_against_the_response_model():
    from pydantic import BaseModel

    class Out(BaseModel):
        question: str

    llm = DspyRagasLLM(ScriptedLM(unknown=['앞말 {"question": "게보린?"} 뒷말']))
    assert llm.generate("질문을 만드세요", Out).question == "게보린?"
    assert llm.calls == 1
    emb = EmbedderAdapter(HashEmbedder())
    assert len(emb.embed_text("게보린")) == 64
    assert len(emb.embed_texts(["a", "b"])) == 2


def test_combined_renormalises_over_determined_parts():
    class FakeRagas:
        def score_both(self, example, pred):
            return {"faithfulness": None, "answer_relevancy": 0.4}

    metric = CombinedMetric(
        {"quality": 0.5, "faithfulness": 0.25, "answer_relevancy": 0.25}, quality=lambda e, p: 1.0, ragas=FakeRagas()
    )
    assert metric(EXAMPLE, PRED) == pytest.approx((0.5 * 1.0 + 0.25 * 0.4) / 0.75)
    assert metric.last == {"quality": 1.0, "faithfulness": None, "answer_relevancy": 0.4}
    only_ragas = CombinedMetric({"faithfulness": 1.0}, ragas=FakeRagas())
    assert only_ragas(EXAMPLE, PRED) is None
    assert for_optimizer(only_ragas)(EXAMPLE, PRED) == 0.0  # optimizers need a number


def test_optimizer_wrapper_feedback_and_pass_mark():
    judge = ScriptedLM(
        evaluate=[
            {
                "grounding": 1.0,
                "completeness": 0.5,
                "accuracy": 1.0,
                "missing_info": ["보관법"],
                "improvement_suggestions": [],
                "needs_retrieval": False,
                "reason": "",
            }
        ]
    )
    quality = make_metric("quality", judge=judge)
    out = for_optimizer(quality, feedback=True)(EXAMPLE, PRED, None, "generate.predict", None)
    assert out.score == pytest.approx(0.8)
    assert "missing information: 보관법" in out.feedback
    assert for_optimizer(quality, threshold=0.9)(EXAMPLE, PRED, trace=[]) is False


def test_weights_parse_and_reject_unknown_names():
    assert parse_weights("quality=0.7, faithfulness=0.3") == {"quality": 0.7, "faithfulness": 0.3}
    with pytest.raises(ValueError, match="unknown metric weights"):
        CombinedMetric({"bleu": 1.0})
    with pytest.raises(ValueError, match="bad weight"):
        parse_weights("quality")
    assert math.isclose(sum(parse_weights(None).values()), 1.0)
