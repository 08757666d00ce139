"""``yaksa eval-answers`` through ``mlflow.genai.evaluate``: the program answers each record of the evaluation dataset
(`predict_fn`), the scorers of `metrics/scorers.py` (and, with a judge LM, `metrics/lm_scorers.py`) assess each
answer on its trace, and MLflow logs each scorer's aggregate (``phrase_quoted/mean`` …) to the active run.

The predictions are kept, so the summary is computed from the same answers, in the question set's order. The
program runs one question at a time (``MLFLOW_GENAI_EVAL_MAX_WORKERS=1``), as in the plain loop, and each question's
trace is its one ``predict_fn`` span (DSPy autologging off: its per-module spans made a question ~20x slower).
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import contextmanager


@contextmanager
def one_worker():
    """Run genai.evaluate's predictions one at a time (the program and its LM call counts are per process), and
    without its trial call of the first question (each question is answered once)."""
    settings = {"MLFLOW_GENAI_EVAL_MAX_WORKERS": "1", "MLFLOW_GENAI_EVAL_SKIP_TRACE_VALIDATION": "True"}
    saved = {key: os.environ.get(key) for key in settings}
    os.environ.update(settings)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def evaluate(program, dataset, questions: list[dict], scorers: list, prediction_json) -> tuple[list[dict], dict]:
    """(the prediction of each question, in `questions` order, with ``latency_ms``; the scorers' aggregates)."""
    import mlflow

    answers: dict[str, dict] = {}
    lock = threading.Lock()

    @mlflow.trace(name="answer", span_type="CHAIN")
    def predict_fn(question: str) -> dict:
        start = time.perf_counter()
        pred = program(question=question)
        out = {**prediction_json(pred), "latency_ms": round((time.perf_counter() - start) * 1000, 1)}
        with lock:
            answers[question] = out
        return out

    mlflow.dspy.autolog(disable=True)  # one span per question: DSPy's spans per module cost ~0.5 s a question
    with one_worker():
        result = mlflow.genai.evaluate(data=dataset, predict_fn=predict_fn, scorers=scorers)
    missing = [q["question"] for q in questions if q["question"] not in answers]
    if missing:
        raise RuntimeError(f"mlflow.genai.evaluate did not answer {len(missing)} questions, e.g. {missing[0]!r}")
    return [answers[q["question"]] for q in questions], {k: float(v) for k, v in result.metrics.items()}
