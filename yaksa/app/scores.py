"""The scores sent after the answer on the stream: the hook and the two scorers.

A scorer is any callable ``scorer(question, prediction) -> dict`` with keys ``kind``, ``scores`` (name -> float or
None when undetermined), ``method`` and ``note``. The app runs it in a worker thread after the ``answer`` event, so
a slow judge (RAGAS takes about a minute per answer in the seed) never delays the answer; the stream sends progress
meanwhile. Pass your own to ``create_app(scorer=...)``.

* `quality_scores`: the program's own quality evaluation from the trace (grounding, completeness, accuracy,
  overall = 0.4 g + 0.4 c + 0.2 a): free, it was computed while answering.
* `RagasScorer`: the above plus RAGAS faithfulness and answer relevancy (metrics/ragas_metrics.py) over exactly
  the contexts the generator saw, judged by the judge LM.

Example:
    >>> import dspy
    >>> pred = dspy.Prediction(out_of_scope=False, contexts=["..."], trace={"quality": {
    ...     "overall": 0.8, "grounding": 0.9, "completeness": 0.7, "accuracy": 0.8, "method": "heuristic"}})
    >>> quality_scores("게보린 부작용", pred)["scores"]["overall"]
    0.8
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Scorer = Callable[[str, Any], dict]
QUALITY_KEYS = ("overall", "grounding", "completeness", "accuracy")


def quality_scores(question: str, pred) -> dict:
    """The program's own quality evaluation of `pred`, from its trace."""
    if getattr(pred, "out_of_scope", False):
        return {"kind": "quality", "scores": {}, "method": "none", "note": "범위 밖 질문이라 평가하지 않았습니다."}
    quality = (getattr(pred, "trace", None) or {}).get("quality")
    if not quality:
        return {"kind": "quality", "scores": {}, "method": "none", "note": "이 프로필은 답변 품질을 평가하지 않습니다."}
    scores = {k: round(float(quality[k]), 4) for k in QUALITY_KEYS if isinstance(quality.get(k), int | float)}
    method = str(quality.get("method", ""))
    note = "LM 없이 휴리스틱으로 평가했습니다." if method == "heuristic" else ""
    return {"kind": "quality", "scores": scores, "method": method, "note": note}


class RagasScorer:
    """Quality scores plus RAGAS faithfulness and answer relevancy, judged by `judge` (a dspy.LM)."""

    def __init__(self, judge, embedder=None):
        from metrics.ragas_metrics import RagasMetric

        self.metric = RagasMetric(judge=judge, embedder=embedder)

    def __call__(self, question: str, pred) -> dict:
        import dspy

        out = quality_scores(question, pred)
        if getattr(pred, "out_of_scope", False) or not getattr(pred, "contexts", None):
            return out
        ragas = self.metric.score_both(dspy.Example(question=question), pred)
        note = "판정할 수 없는 RAGAS 점수는 비워 둡니다." if any(v is None for v in ragas.values()) else out["note"]
        return {"kind": "ragas", "scores": {**out["scores"], **ragas}, "method": out["method"], "note": note}


def make_scorer(mode: str, judge=None) -> tuple[Scorer | None, str]:
    """The scorer for a ``--scores`` mode and the mode actually used (``auto`` resolves to ragas or quality).

    Raises:
        ValueError: ``ragas`` was asked for without a judge LM or without the RAGAS metric module.
    """
    if mode == "off":
        return None, "off"
    if mode == "quality":
        return quality_scores, "quality"
    try:
        ragas = RagasScorer(judge) if judge is not None else None
    except ImportError as e:
        if mode == "ragas":
            raise ValueError(f"RAGAS scores need metrics.ragas_metrics and ragas ({e})") from None
        ragas = None
    if ragas is None and mode == "ragas":
        raise ValueError("RAGAS scores need a judge LM (--lm or --lm-judge)")
    return (ragas, "ragas") if ragas is not None else (quality_scores, "quality")
