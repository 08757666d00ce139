"""The LM-judged answer metrics as MLflow scorers: RAGAS faithfulness and answer relevancy (`RagasMetric`) and the
program's quality judge (`QualityMetric`), each over the contexts the generator saw (``outputs["contexts"]``).

Built only with a judge LM: `lm_scorers(None)` is ``[]``, so a run without an LM has no LM scorer at all rather than
heuristic or zero scores. A score RAGAS cannot determine is no assessment (None), never 0.

Example (not run: it needs a judge LM):
    >>> scorers = lm_scorers(judge=dspy.LM("openai/gpt-4o-mini"), embedder=backend.embedder)   # doctest: +SKIP
    >>> [s.name for s in scorers]                                                             # doctest: +SKIP
    ['faithfulness', 'answer_relevancy', 'quality']
"""

from __future__ import annotations

from types import SimpleNamespace

from mlflow.entities import Feedback
from mlflow.genai.scorers import scorer


def as_prediction(inputs: dict, outputs: dict) -> tuple[SimpleNamespace, SimpleNamespace]:
    """(example, prediction) as the DSPy metrics read them: ``question``; ``answer``, ``contexts``, ``out_of_scope``."""
    outputs = outputs or {}
    example = SimpleNamespace(question=(inputs or {}).get("question", ""))
    pred = SimpleNamespace(
        answer=outputs.get("answer") or "",
        contexts=outputs.get("contexts") or [],
        out_of_scope=bool(outputs.get("out_of_scope")),
    )
    return example, pred


def ragas_scorer(which: str, judge, embedder=None, strictness: int = 3):
    """The RAGAS metric `which` (``faithfulness`` or ``answer_relevancy``) as a scorer; None where undetermined."""
    from metrics.ragas_metrics import RagasMetric

    metric = RagasMetric(judge=judge, embedder=embedder, which=(which,), strictness=strictness)

    @scorer(name=which)
    def ragas(inputs, outputs):
        example, pred = as_prediction(inputs, outputs)
        if pred.out_of_scope:  # nothing was generated from documents
            return None
        return metric.score_both(example, pred)[which]

    return ragas


def quality_scorer(judge):
    """The quality judge's overall score (grounding, completeness, accuracy), its verdict as the rationale."""
    from metrics.quality import QualityMetric, feedback_text

    metric = QualityMetric(judge=judge)

    @scorer(name="quality")
    def quality(inputs, outputs):
        example, pred = as_prediction(inputs, outputs)
        fb = metric.judge_feedback(example, pred)
        return Feedback(value=fb.overall, rationale=feedback_text(fb))

    return quality


def lm_scorers(judge, embedder=None) -> list:
    """Faithfulness, answer relevancy and quality judged by `judge` (a `dspy.LM`); none without one."""
    if judge is None:
        return []
    return [
        ragas_scorer("faithfulness", judge),
        ragas_scorer("answer_relevancy", judge, embedder),
        quality_scorer(judge),
    ]
