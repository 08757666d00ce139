"""The quality metric: the program's own quality evaluator (grounding, completeness, accuracy; 0.4/0.4/0.2) judging
a prediction against exactly the contexts its generator saw, as a DSPy metric.

It returns a float for `dspy.Evaluate` and the few-shot optimizers (a pass/fail at ``threshold`` while bootstrapping),
and, with ``feedback=True`` (GEPA), a ``dspy.Prediction(score=..., feedback=...)`` whose feedback carries the
evaluator's missing_info and suggestions, so the reflection LM learns from them.

With no judge LM the evaluator's heuristic answers (``method == "heuristic"``), which costs nothing.

Example:
    >>> import dspy
    >>> metric = QualityMetric(judge=None)
    >>> ex = dspy.Example(question="게보린 부작용", answer="위장 장애").with_inputs("question")
    >>> pred = dspy.Prediction(answer="짧음", contexts=[], out_of_scope=False)
    >>> round(metric(ex, pred), 4)   # no documents: nothing grounds the answer
    0.1
"""

from __future__ import annotations

import dspy

from programs.quality_evaluator import QualityEvaluator, QualityFeedback
from programs.run import Run
from programs.settings import CragSettings
from retrievers.documents import Document


def context_documents(contexts) -> list[Document]:
    """The generator's contexts (strings, as in ``prediction.contexts``) as documents, numbered like the answer."""
    docs = []
    for i, text in enumerate(contexts or [], 1):
        text = str(text)
        docs.append(Document(f"context:{i}", text, {"item_name": text.split("\n", 1)[0][:60]}))
    return docs


def feedback_text(fb: QualityFeedback, example=None) -> str:
    """The evaluator's verdict as one paragraph for a reflection LM."""
    lines = [
        f"quality {fb.overall:.2f} (grounding {fb.grounding:.2f}, completeness {fb.completeness:.2f}, "
        f"accuracy {fb.accuracy:.2f}; judged by {fb.method})"
    ]
    if fb.missing_info:
        lines.append("missing information: " + "; ".join(fb.missing_info))
    if fb.improvement_suggestions:
        lines.append("suggestions: " + "; ".join(fb.improvement_suggestions))
    if fb.reason:
        lines.append("reason: " + fb.reason)
    reference = getattr(example, "answer", None) if example is not None else None
    if reference:
        lines.append("reference answer: " + str(reference)[:300])
    return "\n".join(lines)


class QualityMetric:
    """``metric(example, prediction, trace=None, pred_name=None, pred_trace=None)``.

    Args:
        judge: the judge `dspy.LM`; None uses ``dspy.settings.lm`` and, with none, the heuristic evaluation.
        weights: grounding, completeness, accuracy weights (the seed's 0.4 / 0.4 / 0.2).
        threshold: the pass mark while bootstrapping demos (``trace`` given).
        feedback: return ``dspy.Prediction(score, feedback)`` (for GEPA) instead of a float.
    """

    name = "quality"

    def __init__(self, judge=None, weights=(0.4, 0.4, 0.2), threshold: float = 0.5, feedback: bool = False):
        self.judge = judge
        self.evaluator = QualityEvaluator(CragSettings(quality_weights=tuple(weights)))
        self.threshold = threshold
        self.feedback = feedback
        self.last: QualityFeedback | None = None

    def judge_feedback(self, example, pred) -> QualityFeedback:
        """The evaluator's full verdict on `pred` (out-of-scope predictions are scored by whether they should be)."""
        expect_oos = bool(getattr(example, "out_of_scope", False))
        if bool(getattr(pred, "out_of_scope", False)) or expect_oos:
            right = expect_oos == bool(getattr(pred, "out_of_scope", False))
            why = "out-of-scope handled correctly" if right else "out-of-scope decision was wrong"
            s = 1.0 if right else 0.0
            return QualityFeedback(s, s, s, s, [] if right else ["범위 판단"], [], False, why, "oos")
        lm = self.judge or dspy.settings.lm
        run = Run(lms={"judge": lm} if lm is not None else {}, budget_limit=None)
        return self.evaluator.judge(
            question=example.question,
            answer=str(getattr(pred, "answer", "") or ""),
            documents=context_documents(getattr(pred, "contexts", [])),
            run=run,
            use_lm=lm is not None,
        )

    def __call__(self, example, pred, trace=None, pred_name=None, pred_trace=None):
        fb = self.judge_feedback(example, pred)
        self.last = fb
        if self.feedback:
            return dspy.Prediction(score=fb.overall, feedback=feedback_text(fb, example))
        if trace is not None:
            return fb.overall >= self.threshold
        return fb.overall
