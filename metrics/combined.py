"""A weighted mix of the quality metric and the RAGAS metrics, plus the factory the CLI uses (`make_metric`).

Undetermined RAGAS scores (None) drop out and the remaining weights are renormalised, so a missing score never
counts as 0. Optimizers need a number on every example: `for_optimizer` gives them 0.0 where nothing at all could be
determined (evaluation still records such examples as missing; see `yaksa evaluate`).

Example:
    >>> m = CombinedMetric({"quality": 1.0}, quality=lambda e, p, t=None: 0.8)
    >>> m(None, None)
    0.8
"""

from __future__ import annotations

import dspy

DEFAULT_WEIGHTS = {"quality": 0.5, "faithfulness": 0.25, "answer_relevancy": 0.25}
METRICS = ("quality", "ragas", "combined")


class CombinedMetric:
    """``metric(example, prediction, trace=None)`` = sum(w_i * s_i) / sum(w_i) over the determined scores.

    Args:
        weights: weight per part: ``quality``, ``faithfulness``, ``answer_relevancy`` (zero or missing: not run).
        quality: the quality metric (a `metrics.quality.QualityMetric`).
        ragas: a `metrics.ragas_metrics.RagasMetric` (needed when a RAGAS weight is set).
    """

    name = "combined"

    def __init__(self, weights: dict[str, float] | None = None, quality=None, ragas=None):
        self.weights = {k: float(v) for k, v in (weights or DEFAULT_WEIGHTS).items() if float(v) > 0}
        unknown = set(self.weights) - {"quality", "faithfulness", "answer_relevancy"}
        if unknown:
            raise ValueError(f"unknown metric weights: {', '.join(sorted(unknown))}")
        self.quality = quality
        self.ragas = ragas
        self.last: dict[str, float | None] = {}

    def parts(self, example, pred) -> dict[str, float | None]:
        """Each weighted part's score (None: undetermined)."""
        out: dict[str, float | None] = {}
        if "quality" in self.weights:
            out["quality"] = float(self.quality(example, pred))
        if {"faithfulness", "answer_relevancy"} & set(self.weights):
            out.update({k: v for k, v in self.ragas.score_both(example, pred).items() if k in self.weights})
        return out

    def __call__(self, example, pred, trace=None, pred_name=None, pred_trace=None):
        parts = self.parts(example, pred)
        self.last = parts
        determined = {k: v for k, v in parts.items() if v is not None}
        total = sum(self.weights[k] for k in determined)
        return sum(self.weights[k] * v for k, v in determined.items()) / total if total else None


def parse_weights(text: str | None) -> dict[str, float]:
    """``"quality=0.5,faithfulness=0.25,answer_relevancy=0.25"`` -> a dict (None: the defaults)."""
    if not text:
        return dict(DEFAULT_WEIGHTS)
    out = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            raise ValueError(f"bad weight {part.strip()!r}; write name=number") from None
    return out


def make_metric(name: str, judge=None, embedder=None, weights: dict[str, float] | None = None, feedback=False):
    """The metric the CLI names: ``quality``, ``ragas`` (faithfulness + relevancy, equal weights) or ``combined``."""
    from metrics.quality import QualityMetric

    if name == "quality":
        return QualityMetric(judge, feedback=feedback)
    if name not in METRICS:
        raise ValueError(f"unknown metric {name!r}; choose one of {', '.join(METRICS)}")
    from metrics.ragas_metrics import RagasMetric

    if name == "ragas":
        weights = {"faithfulness": 0.5, "answer_relevancy": 0.5}
    weights = weights or dict(DEFAULT_WEIGHTS)
    which = tuple(k for k in ("faithfulness", "answer_relevancy") if weights.get(k))
    combined = CombinedMetric(weights, QualityMetric(judge), RagasMetric(judge, embedder, which) if which else None)
    combined.name = name
    return combined


def for_optimizer(metric, feedback: bool = False, threshold: float = 0.5):
    """`metric` for optimizers: undetermined (None) scores as 0.0, a pass mark at `threshold` while bootstrapping
    demos, and with ``feedback=True`` (GEPA) ``dspy.Prediction(score, feedback)`` carrying the evaluator's
    missing_info and suggestions (and each RAGAS part)."""
    from metrics.quality import feedback_text

    def score(example, pred, trace=None, pred_name=None, pred_trace=None):
        text = ""
        if hasattr(metric, "judge_feedback"):  # the quality metric: its full verdict, computed once
            fb = metric.judge_feedback(example, pred)
            value, text = fb.overall, feedback_text(fb, example)
        elif isinstance(metric, CombinedMetric):
            parts = {}
            if "quality" in metric.weights:
                fb = metric.quality.judge_feedback(example, pred)
                parts["quality"], text = fb.overall, feedback_text(fb, example)
            if metric.ragas is not None:
                parts.update({k: v for k, v in metric.ragas.score_both(example, pred).items() if k in metric.weights})
            determined = {k: v for k, v in parts.items() if v is not None}
            total = sum(metric.weights[k] for k in determined)
            value = sum(metric.weights[k] * v for k, v in determined.items()) / total if total else None
            text += "\n" + ", ".join(f"{k} {'undetermined' if v is None else f'{v:.2f}'}" for k, v in parts.items())
        else:
            value = metric(example, pred)
            value = getattr(value, "score", value)
        value = 0.0 if value is None else float(value)
        if feedback:
            return dspy.Prediction(score=value, feedback=text.strip() or f"score {value:.2f}")
        return value >= threshold if trace is not None and pred_name is None else value

    score.__name__ = f"{getattr(metric, 'name', 'metric')}_metric"
    return score
