"""LM calls under a caller's stream, against a stub server that answers in the dialect asked for (JSON for
structured outputs): with streaming off (``--no-lm-stream``) every streamed path still gets the LM's answer; LM calls
share one HTTP session (no connection or "Unclosed client session" per call) and start no thread per call."""

import gc
import json
import logging
import threading
import time

import dspy
import pytest
from fastapi.testclient import TestClient

from programs.lm_call import LMCallCut
from programs.lm_config import LMOverrides, load_lm_config
from programs.run import Run
from yaksa.commands._answer_output import stream_answer
from yaksa.testing.any_signature import ANSWER, any_signature
from yaksa.testing.serve_app import make_app, make_program, parse_sse
from yaksa.testing.stub_openai import StubOpenAI

QUESTION = "게보린 먹고 속이 쓰려요"


def lms(server, stream=True):
    config = load_lm_config(
        "/nonexistent",
        env={},
        overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x", stream=stream),
    )
    return config.build()


def test_no_lm_stream_answers_in_yaksa_ask_text_mode(capsys):
    with StubOpenAI([any_signature]) as server:
        pred = stream_answer(make_program(lms=lms(server, stream=False)), QUESTION, None)
    assert pred.trace["errors"] == []  # not "LMUnexpectedError: Not running inside an AnyIO worker thread"
    assert pred.trace["method"] == "lm"
    assert pred.answer.startswith(ANSWER.split(".")[0])
    assert ANSWER.split(".")[0] in capsys.readouterr().out
    assert server.requests and not any(r.get("stream") for r in server.requests)


def test_no_lm_stream_answers_on_the_http_stream():
    with StubOpenAI([any_signature]) as server:
        r = TestClient(make_app(lms=lms(server, stream=False))).post("/v1/ask/stream", json={"question": QUESTION})
    events = parse_sse(r.text)
    answer = next(d for n, d in events if n == "answer")
    assert answer["trace"]["method"] == "lm"
    assert not answer["trace"]["errors"]
    tokens = [d for n, d in events if n == "token"]
    assert tokens and {t["source"] for t in tokens} == {"final"}  # nothing streamed; the answer is sent in pieces
    assert "".join(t["text"] for t in tokens) == answer["answer"]


def test_json_answers_stream_token_by_token_in_yaksa_ask(monkeypatch):
    printed = []
    monkeypatch.setattr("builtins.print", lambda *a, **k: printed.append((time.monotonic(), "".join(map(str, a)))))
    with StubOpenAI([any_signature]) as server:
        pred = stream_answer(make_program(lms=lms(server)), QUESTION, None)
    assert all(r["response_format"]["type"] == "json_object" for r in server.requests)  # structured outputs: JSON
    pieces = [text for _, text in printed if text and text in pred.answer]
    assert len(pieces) > 3  # the stub sends 8 characters a chunk: the answer came in pieces, not at once
    assert "".join(pieces).startswith(ANSWER[:20])


def test_lm_calls_share_one_session_and_start_no_thread_per_call(caplog):
    import psutil

    def connections(port):
        return [c for c in psutil.Process().net_connections() if c.raddr and c.raddr.port == port]

    def ours():  # this process's threads, less the stub server's own
        return [t for t in threading.enumerate() if "process_request" not in t.name and "serve_forever" not in t.name]

    caplog.set_level(logging.ERROR)
    with StubOpenAI([json.dumps({"answer": "네"})], keep_alive=True) as server:
        port = int(server.url.rsplit(":", 1)[1].split("/")[0])
        built = lms(server)
        for _ in range(2):
            Run(lms=built).call("generate", dspy.Predict("question -> answer"), question="?")
        threads = len(ours())
        for _ in range(8):
            assert Run(lms=built).call("generate", dspy.Predict("question -> answer"), question="?").answer == "네"
        gc.collect()
        open_now = connections(port)
        assert len(open_now) <= 2  # one pooled connection, not one per call (10 calls)
        assert len(ours()) <= threads + 1
    assert "Unclosed client session" not in caplog.text
    assert not [t for t in threading.enumerate() if t.name == "yaksa-lm-call"]


def test_a_cut_call_closes_its_connection():
    import psutil

    with StubOpenAI([{"hang": True}]) as server:
        port = int(server.url.rsplit(":", 1)[1].split("/")[0])
        config = load_lm_config(
            "/nonexistent",
            env={},
            overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x", timeout=1.0),
        )
        run = Run(lms=config.build())
        with pytest.raises(LMCallCut):
            run.call("generate", dspy.Predict("question -> answer"), question="?")
        deadline = time.monotonic() + 2  # well before the HTTP client's own timeout (the limit + 5 s)
        while time.monotonic() < deadline:
            mine = [c for c in psutil.Process().net_connections() if c.raddr and c.raddr.port == port]
            if not [c for c in mine if c.status == "ESTABLISHED"]:
                break
            time.sleep(0.1)
        assert not [c for c in mine if c.status == "ESTABLISHED"]  # the request was closed, not left to time out
