"""One MLflow trace per question: a root span around the program (its inputs the question, its outputs the answer),
under which programs/spans.py records each graph node and each search, and DSPy's autolog each LM call.

Tracing is on when a tracking URI is configured (``$MLFLOW_TRACKING_URI``) or asked for (``yaksa ask --trace``);
off, nothing here imports MLflow. Traces go to the experiment ``$MLFLOW_EXPERIMENT_NAME`` (default ``yaksa-traces``).

Example:
    >>> tracer = QuestionTracer.from_environment(env={})   # no tracking URI: off
    >>> tracer is None
    True
"""

from __future__ import annotations

import os
import random
import threading
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import contextmanager
from dataclasses import dataclass

DEFAULT_EXPERIMENT = "yaksa-traces"
KEEP_IDS = 100_000  # trace ids a server remembers for feedback
PROBE_TIMEOUT_S = 3.0  # a tracking server that does not answer its /health in this is taken as down


class TracingUnavailable(Exception):
    """The tracking server cannot be reached (one line naming it and the fix)."""


def check_reachable(uri: str, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """Raise `TracingUnavailable` when the tracking server at an http(s) `uri` does not answer ``/health`` within
    `timeout_s` (MLflow's own client would retry for minutes); other stores (sqlite) are not probed."""
    if not uri.startswith(("http://", "https://")):
        return
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(uri.rstrip("/") + "/health", timeout=timeout_s):  # noqa: S310 — http(s) only
            return
    except urllib.error.HTTPError:
        return  # it answered (a proxy or an older server without /health): MLflow's client says the rest
    except (OSError, ValueError) as e:
        raise TracingUnavailable(
            f"the MLflow tracking server {uri} does not answer ({type(e).__name__}): start it, or unset "
            "MLFLOW_TRACKING_URI to answer without traces"
        ) from None


@dataclass
class QuestionTrace:
    """The trace of one question: its id (None when the question was not sampled) and the span to finish."""

    trace_id: str | None = None
    span: object | None = None

    def finish(self, pred) -> None:
        """Record the prediction as the trace's outputs: the answer, the citations and how it was made."""
        if self.span is None or pred is None:
            return
        trace = getattr(pred, "trace", None) or {}
        try:
            self.span.set_outputs(
                {
                    "answer": pred.answer,
                    "citations": [c.get("id") for c in pred.citations or []],
                    "mode": trace.get("mode"),
                    "method": trace.get("method"),
                    "outcome": trace.get("outcome"),
                    "lm_calls": (trace.get("lm_calls") or {}).get("total", 0),
                }
            )
        except Exception:  # noqa: BLE001 — a trace must never break an answer
            pass


class QuestionTracer:
    """Starts a trace for a question (a `sample` share of them) and remembers the ids it gave out.

    Args:
        sample: the share of questions traced, 0 to 1.
        autolog_lm: turn on ``mlflow.dspy.autolog()`` so LM calls appear as DSPy's spans.
        experiment: the MLflow experiment the traces go to.
    """

    def __init__(self, sample: float = 1.0, autolog_lm: bool = False, experiment: str | None = None):
        if not 0.0 <= sample <= 1.0:
            raise ValueError(f"the trace sample must be between 0 and 1, not {sample:g}")
        self.sample = sample
        self.experiment = experiment or os.environ.get("MLFLOW_EXPERIMENT_NAME") or DEFAULT_EXPERIMENT
        self.autolog_lm = autolog_lm
        self._ready = False
        self._lock = threading.Lock()
        self._issued: OrderedDict[str, None] = OrderedDict()

    @classmethod
    def from_environment(
        cls, sample: float = 1.0, autolog_lm: bool = False, env: Mapping[str, str] | None = None, force: bool = False
    ) -> QuestionTracer | None:
        """A tracer when a tracking URI is configured (or `force`), else None."""
        env = os.environ if env is None else env
        if not force and not env.get("MLFLOW_TRACKING_URI"):
            return None
        return cls(sample, autolog_lm)

    def setup(self) -> None:
        """Point MLflow at the store and the experiment, and turn on DSPy's autolog when asked (once).

        Raises:
            TracingUnavailable: the tracking server does not answer (within seconds, not MLflow's retries).
        """
        with self._lock:
            if self._ready:
                return
            from yaksa.tracking import experiment, tracking_uri

            check_reachable(tracking_uri())
            experiment(self.experiment)
            if self.autolog_lm:
                import mlflow

                mlflow.dspy.autolog(log_traces=True)
            self._ready = True

    def sampled(self) -> bool:
        return self.sample >= 1.0 or (self.sample > 0.0 and random.random() < self.sample)

    @contextmanager
    def question(self, question: str, user=None, source: str = "ask"):
        """Trace what runs inside (a sampled question): yields a `QuestionTrace` whose ``finish(pred)`` records
        the answer. Not sampled: yields an empty one, and DSPy's autolog starts no trace of its own."""
        if not self.sampled():
            with _without_autolog():
                yield QuestionTrace()
            return
        self.setup()
        import mlflow
        from mlflow.entities import SpanType

        with mlflow.start_span(name="yaksa.question", span_type=SpanType.CHAIN) as span:
            profile = user.to_dict() if hasattr(user, "to_dict") else (user or {})
            span.set_inputs({"question": question, "user": profile})
            mlflow.update_current_trace(tags={"yaksa.source": source}, request_preview=question[:200])
            handle = QuestionTrace(span.trace_id, span)
            self._remember(span.trace_id)
            yield handle

    def _remember(self, trace_id: str) -> None:
        with self._lock:
            self._issued[trace_id] = None
            while len(self._issued) > KEEP_IDS:
                self._issued.popitem(last=False)

    def issued(self, trace_id: str) -> bool:
        """Whether this tracer gave out `trace_id` (among the last `KEEP_IDS`)."""
        with self._lock:
            return trace_id in self._issued


@contextmanager
def _without_autolog():
    """Run without MLflow's DSPy callback (an unsampled question must not become a trace of its own)."""
    import dspy

    callbacks = dspy.settings.callbacks or []
    kept = [c for c in callbacks if type(c).__name__ != "MlflowCallback"]
    if len(kept) == len(callbacks):
        yield
        return
    with dspy.context(callbacks=kept):
        yield


def flush() -> None:
    """Send the traces still queued (async logging) to the store; a no-op when MLflow was never imported."""
    import sys

    mlflow = sys.modules.get("mlflow")
    if mlflow is not None:
        try:
            mlflow.flush_trace_async_logging()
        except Exception:  # noqa: BLE001
            pass


class FeedbackError(Exception):
    """The tracking store refused the feedback or could not be reached (the message is one safe line)."""


def log_feedback(trace_id: str, value: bool, comment: str | None = None, source_id: str = "yaksa-serve") -> str:
    """Log a reader's 👍 (True) / 👎 (False) on the trace `trace_id` as MLflow feedback named ``user_feedback``;
    returns the assessment id. A trace still queued for the store is sent first.

    Raises:
        FeedbackError: the store refused it or could not be reached.
    """
    import mlflow
    from mlflow.entities import AssessmentSource, AssessmentSourceType

    source = AssessmentSource(source_type=AssessmentSourceType.HUMAN, source_id=source_id)
    for attempt in range(2):
        try:
            assessment = mlflow.log_feedback(
                trace_id=trace_id, name="user_feedback", value=bool(value), source=source, rationale=comment or None
            )
            return assessment.assessment_id
        except Exception as e:  # noqa: BLE001 — the store's own error, as one line
            if attempt == 0:
                flush()  # the trace may still be in the async queue
                continue
            raise FeedbackError(f"the tracking store did not take the feedback ({type(e).__name__})") from e
    raise AssertionError("unreachable")
