"""MLflow traces of questions against a real ``mlflow server`` on 127.0.0.1 (`shared_mlflow_server`, one per session):
a question through ``yaksa serve`` is a trace with a RETRIEVER span holding its documents and a span per graph node,
LM calls are DSPy's spans, ``yaksa ask --json --trace`` returns a trace_id the server has, feedback lands on the
trace, and a sample of 0 records nothing. Without a tracking URI nothing is traced and /v1/feedback says so."""

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import mlflow
import pytest
from fastapi.testclient import TestClient
from mlflow import MlflowClient
from mlflow.entities import SpanType

from tests.helpers.lab import stub  # noqa: F401 — the stub OpenAI server fixture
from tests.helpers.shared_mlflow_server import *  # noqa: F403
from yaksa import cli
from yaksa.app import ServeSettings
from yaksa.testing.scripted_lm import ScriptedLM
from yaksa.testing.serve_app import make_app

QUESTION = "게보린 먹고 속이 쓰려요"


@pytest.fixture
def experiment(shared_mlflow_server, monkeypatch, request):
    """This test's own experiment on the server (traces of other tests stay out of its searches)."""
    name = f"traces-{request.node.name}"
    monkeypatch.setenv("MLFLOW_EXPERIMENT_NAME", name)
    return name


def client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


def traces_of(name: str) -> list:
    mlflow.flush_trace_async_logging()
    exp = MlflowClient().get_experiment_by_name(name)
    return [] if exp is None else list(MlflowClient().search_traces(locations=[exp.experiment_id]))


def spans_named(trace, name: str) -> list:
    return [s for s in trace.data.spans if s.name == name]


def test_a_served_question_is_a_trace_with_its_documents_in_a_retriever_span(experiment):
    data = client(make_app()).post("/v1/ask", json={"question": QUESTION}).json()
    assert data["trace_id"].startswith("tr-")
    traces = traces_of(experiment)
    assert [t.info.trace_id for t in traces] == [data["trace_id"]]
    trace = traces[0]
    root = next(s for s in trace.data.spans if s.parent_id is None)
    assert root.inputs["question"] == QUESTION
    assert root.outputs["answer"] == data["answer"]
    assert trace.info.tags["yaksa.source"] == "serve"

    retrievers = [s for s in trace.data.spans if s.span_type == SpanType.RETRIEVER]
    assert retrievers
    docs = retrievers[0].outputs
    assert retrievers[0].inputs["query"] == QUESTION
    assert {"page_content", "metadata"} <= set(docs[0])
    uris = [d["metadata"]["doc_uri"] for d in docs]
    assert data["citations"][0]["id"] in uris  # the cited leaflet is among the documents retrieval returned
    assert all(isinstance(d["metadata"]["score"], float) for d in docs)
    retrieve = spans_named(trace, "retrieve")[0]
    assert retrievers[0].parent_id == retrieve.span_id  # the search is inside its graph node

    steps = [s["step"] for s in data["trace"]["steps"]]
    nodes = [s.name for s in sorted(trace.data.spans, key=lambda s: s.start_time_ns) if s.get_attribute("yaksa.node")]
    assert nodes == [n for n in steps if n in nodes]  # one span per node, in the order the graph ran them
    assert {"retrieve", "grade", "generate", "stop"} <= set(nodes)
    grade = spans_named(trace, "grade")[0]
    assert grade.outputs["route"] == "generate"
    assert grade.get_attribute("yaksa.next_node") == "generate"
    assert grade.parent_id == root.span_id


def test_feedback_lands_on_the_trace_and_bad_requests_get_4xx(experiment):
    c = client(make_app())
    trace_id = c.post("/v1/ask", json={"question": QUESTION}).json()["trace_id"]
    r = c.post("/v1/feedback", json={"trace_id": trace_id, "value": False, "comment": "부작용이 더 궁금해요"})
    assert r.status_code == 200, r.text
    mlflow.flush_trace_async_logging()
    assessments = MlflowClient().get_trace(trace_id).info.assessments
    assert [(a.name, a.value, a.rationale, a.assessment_id) for a in assessments] == [
        ("user_feedback", False, "부작용이 더 궁금해요", r.json()["assessment_id"])
    ]
    assert assessments[0].source.source_type == "HUMAN"

    unknown = c.post("/v1/feedback", json={"trace_id": "tr-" + "0" * 32, "value": True})
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_trace")
    for body in ({"trace_id": trace_id}, {"trace_id": "x", "value": True}, {"trace_id": trace_id, "value": "good"}):
        r = c.post("/v1/feedback", json=body)
        assert (r.status_code, r.json()["error"]) == (422, "invalid_request"), body
    assert len(MlflowClient().get_trace(trace_id).info.assessments) == 1


def test_lm_calls_are_dspy_spans_inside_their_nodes(experiment):
    lm = ScriptedLM()
    data = client(make_app(lms=lm.roles())).post("/v1/ask", json={"question": QUESTION}).json()
    assert lm.calls == ["generate", "verify", "evaluate"]  # a named medicine: no query LM call
    mlflow.flush_trace_async_logging()
    trace = MlflowClient().get_trace(data["trace_id"])
    by_id = {s.span_id: s for s in trace.data.spans}
    lm_spans = [s for s in trace.data.spans if s.span_type == SpanType.CHAT_MODEL]  # LM.__call__, under Predict
    assert len(lm_spans) == 3

    def node_of(span):
        while span is not None and not span.get_attribute("yaksa.node"):
            span = by_id.get(span.parent_id)
        return span.name if span is not None else None

    assert sorted(node_of(s) for s in lm_spans) == sorted(["generate", "verify", "evaluate"])


def test_a_sample_of_zero_records_no_trace(experiment):
    lm = ScriptedLM()  # with an LM, DSPy's autolog is on: an unsampled question must not become its own trace
    settings = ServeSettings(scores="quality", api_token=None, trace_sample=0.0)
    c = client(make_app(lms=lm.roles(), settings=settings))
    data = c.post("/v1/ask", json={"question": QUESTION}).json()
    assert data["answer"]
    assert lm.calls
    assert data["trace_id"] is None
    assert traces_of(experiment) == []
    events = c.post("/v1/ask/stream", json={"question": QUESTION}).text
    assert '"trace_id": null' in events
    assert traces_of(experiment) == []


def test_the_stream_answer_event_carries_the_trace_id_and_scoring_makes_no_trace_of_its_own(experiment):
    from yaksa.testing.serve_app import parse_sse

    lm = ScriptedLM()  # DSPy's autolog is on; the scores after the answer run DSPy modules outside the trace
    events = dict(parse_sse(client(make_app(lms=lm.roles())).post("/v1/ask/stream", json={"question": QUESTION}).text))
    assert events["scores"]["scores"]
    trace_id = events["answer"]["trace_id"]
    assert [t.info.trace_id for t in traces_of(experiment)] == [trace_id]


def test_ask_json_trace_returns_a_trace_id_the_server_has_with_node_spans(experiment, ask_on_mini_index):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["ask", QUESTION, "--json", "--trace", "--no-web"])
    assert code == 0
    pred = json.loads(out.getvalue())
    trace = MlflowClient().get_trace(pred["trace_id"])  # ask flushed it: on the server when the command ended
    assert trace.info.tags["yaksa.source"] == "ask"
    names = [s.name for s in trace.data.spans]
    assert [s["step"] for s in pred["trace"]["steps"] if s["step"] in names] == [
        s.name for s in sorted(trace.data.spans, key=lambda s: s.start_time_ns) if s.get_attribute("yaksa.node")
    ]
    assert "search" in names
    assert MlflowClient().get_experiment(trace.info.experiment_id).name == experiment


def test_each_batch_line_is_a_trace_of_its_own(experiment, ask_on_mini_index, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("게보린 부작용\n타이레놀 효능\n".encode())))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["ask", "--json", "--no-web", "-"]) == 0
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    traces = {t.info.trace_id: t for t in traces_of(experiment)}
    assert sorted(traces) == sorted(line["trace_id"] for line in lines)
    for line in lines:
        root = next(s for s in traces[line["trace_id"]].data.spans if s.parent_id is None)
        assert root.inputs["question"] == line["question"]


def test_without_a_tracking_uri_nothing_is_traced_and_feedback_says_tracing_is_off(
    monkeypatch, ask_on_mini_index, tmp_path
):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["ask", QUESTION, "--json", "--no-web"]) == 0
    assert json.loads(out.getvalue())["trace_id"] is None
    assert not (tmp_path / "mlruns").exists()
    c = client(make_app())
    assert c.post("/v1/ask", json={"question": QUESTION}).json()["trace_id"] is None
    r = c.post("/v1/feedback", json={"trace_id": "tr-" + "0" * 32, "value": True})
    assert (r.status_code, r.json()["error"]) == (409, "tracing_off")


def test_ask_with_an_lm_server_puts_its_lm_calls_in_the_question_trace(experiment, ask_on_mini_index, stub):  # noqa: F811
    out = io.StringIO()
    argv = ["ask", QUESTION, "--json", "--no-web", "--lm", "openai/stub", "--api-base", stub.url]
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    pred = json.loads(out.getvalue())
    assert pred["trace"]["lm_calls"]["total"] > 0
    traces = traces_of(experiment)
    assert [t.info.trace_id for t in traces] == [pred["trace_id"]]  # the LM's spans made no trace of their own
    lm_spans = [s for s in traces[0].data.spans if s.span_type == SpanType.CHAT_MODEL]
    assert len(lm_spans) == pred["trace"]["lm_calls"]["total"]


def test_without_tracking_the_program_never_imports_mlflow():
    code = """
import sys
from programs.crag import CRAG
from yaksa.commands.ask import question_tracer, traced
from yaksa.testing.fake_backend import FakeBackend
from types import SimpleNamespace as NS
tracer = question_tracer(NS(trace=False), NS(configured=False))
with traced(tracer, "게보린 부작용", None) as handle:
    pred = CRAG(backend=FakeBackend(), web=lambda q: None)(question="게보린 부작용")
print(tracer, handle.trace_id, bool(pred.answer), "mlflow" in sys.modules)
"""
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["None", "None", "True", "False"], done.stderr[-2000:]


def test_a_tracking_server_that_is_down_costs_seconds_and_a_warning_not_the_answer(
    monkeypatch, ask_on_mini_index, capsys
):
    import time

    from yaksa.testing.ports import free_port

    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"http://127.0.0.1:{free_port()}")  # nothing listens there
    start = time.monotonic()
    assert cli.main(["ask", QUESTION, "--json", "--no-web"]) == 0
    assert time.monotonic() - start < 30  # MLflow's own client would retry for minutes
    captured = capsys.readouterr()
    pred = json.loads(captured.out)
    assert pred["answer"] and pred["trace_id"] is None
    assert "does not answer" in captured.err and "this answer is not traced" in captured.err
