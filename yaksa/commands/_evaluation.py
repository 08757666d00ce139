"""`dspy.Evaluate` with a per-example table: the mean over determined scores (a metric's None or NaN is missing,
never 0), one row per example, and the count left undetermined."""

from __future__ import annotations

import math
import time


def program_row(example, pred, score, kind: str) -> dict:
    """One row of the per-example table."""
    if kind == "turn":
        return {
            "id": example.get("id", ""),
            "prompt": str(example.prompt)[:120],
            "score": score,
            "gold_score": example.get("score"),
            "predicted_score": getattr(pred, "score", None),
            "intents": ",".join(getattr(pred, "intents", []) or []),
        }
    trace = getattr(pred, "trace", {}) or {}
    quality = trace.get("quality") or {}
    return {
        "id": example.get("id", ""),
        "question": example.question,
        "score": score,
        "answer": str(getattr(pred, "answer", ""))[:300],
        "out_of_scope": bool(getattr(pred, "out_of_scope", False)),
        "stop_reason": trace.get("stop_reason", ""),
        "iterations": trace.get("iterations", 0),
        "lm_calls": (trace.get("lm_calls") or {}).get("total", 0),
        "grounding": quality.get("grounding"),
        "overall": quality.get("overall"),
        "contexts": len(getattr(pred, "contexts", []) or []),
    }


def evaluate(program, devset, metric, threads: int = 2, kind: str = "crag", progress: bool = True) -> dict:
    """Run `dspy.Evaluate`; returns the mean over determined scores, the rows, and the undetermined count.

    A metric returning None (undetermined, e.g. a NaN RAGAS score) is recorded as missing, never as 0.
    """
    import dspy

    raw: dict[int, float | None] = {}
    grounding: dict[int, float] = {}

    def scored(example, pred, trace=None):
        if hasattr(metric, "judge_feedback"):  # the quality metric: keep its grounding for the table
            fb = metric.judge_feedback(example, pred)
            grounding[id(example)] = fb.grounding
            value = fb.overall
        else:
            value = metric(example, pred)
        value = getattr(value, "score", value)
        value = None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)
        raw[id(example)] = value
        return value or 0.0

    start = time.perf_counter()
    result = dspy.Evaluate(
        devset=devset,
        metric=scored,
        num_threads=threads,
        display_progress=progress,
        display_table=False,
        provide_traceback=False,
        max_errors=len(devset) + 1,
    )(program)
    rows, values, preds = [], [], []
    for example, pred, _ in result.results:
        preds.append(pred)
        value = raw.get(id(example))
        rows.append(program_row(example, pred, value, kind))
        if kind == "crag":
            rows[-1]["judge_grounding"] = grounding.get(id(example))
        if value is not None:
            values.append(value)
    return {
        "score": sum(values) / len(values) if values else float("nan"),
        "rows": rows,
        "preds": preds,
        "undetermined": len(rows) - len(values),
        "seconds": round(time.perf_counter() - start, 3),
        "parts": getattr(metric, "undetermined", None) or getattr(getattr(metric, "ragas", None), "undetermined", {}),
    }
