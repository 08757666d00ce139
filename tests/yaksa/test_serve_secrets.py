"""An LM server whose error bodies hold a secret: `POST /v1/ask` and every `/v1/ask/stream` event carry codes and
messages of ours, the secret reaches the server log only; `yaksa ask --json` (the user's own machine) keeps it."""

import json
import logging

import pytest
from fastapi.testclient import TestClient

from programs.error_codes import MESSAGES
from programs.lm_config import LMOverrides, load_lm_config
from tests.yaksa.test_serve_stream import stream
from yaksa import cli
from yaksa.commands import _backend
from yaksa.testing.mini_index import real_searcher
from yaksa.testing.ports import free_port
from yaksa.testing.serve_app import make_app
from yaksa.testing.stub_openai import StubOpenAI

SECRET = "db password=hunter2 at /srv/secret/path"
LEAKS = ("hunter2", "/srv/secret")
QUESTION = {"question": "게보린 먹고 속이 쓰려요"}


def app_at(api_base: str):
    config = load_lm_config(
        "/nonexistent", env={}, overrides=LMOverrides(model="openai/stub", api_base=api_base, api_key="x")
    )
    config.num_retries = 0
    return make_app(lms=config.build())


@pytest.fixture
def leaky():
    with StubOpenAI([{"status": 500, "body": json.dumps({"error": {"message": SECRET}})}]) as server:
        yield server


def codes(trace: dict) -> set[str]:
    return {e["error"] for e in trace["errors"]} | {f["error"] for f in trace["fallbacks"]}


def test_post_ask_answers_with_codes_and_logs_the_upstream_text(leaky, caplog):
    with caplog.at_level(logging.WARNING, logger="yaksa.serve"):
        r = TestClient(app_at(leaky.url)).post("/v1/ask", json=QUESTION)
    assert r.status_code == 200
    assert leaky.requests  # the LM was asked, and failed
    assert not [word for word in LEAKS if word in r.text]
    data = r.json()
    assert "[문서 " in data["answer"]  # the extractive fallback still answers
    trace = data["trace"]
    assert trace["errors"]
    first = trace["errors"][0]
    assert first == {"role": first["role"], "error": "lm_error", "message": MESSAGES["lm_error"]}
    assert "lm_error" in codes(trace)
    assert codes(trace) <= set(MESSAGES)
    generate = next(f for f in trace["fallbacks"] if f["where"] == "generate")
    assert generate["then"] == "extractive answer"
    assert "error_codes" not in trace
    assert "hunter2" in caplog.text


def test_no_stream_event_carries_the_upstream_text(leaky, caplog):
    with caplog.at_level(logging.WARNING, logger="yaksa.serve"):
        events = stream(app_at(leaky.url))
    text = json.dumps(events, ensure_ascii=False)
    assert not [word for word in LEAKS if word in text]
    answer = next(d for n, d in events if n == "answer")
    assert "lm_error" in codes(answer["trace"])
    fallbacks = [d["detail"] for n, d in events if n == "status" and d["step"] == "fallback"]
    assert fallbacks
    assert all(set(f) <= {"where", "error", "message", "then"} for f in fallbacks)
    assert "hunter2" in caplog.text


def test_an_unreachable_lm_is_a_code_on_the_api():
    port = free_port()  # nothing listens there
    data = TestClient(app_at(f"http://127.0.0.1:{port}/v1")).post("/v1/ask", json=QUESTION).json()
    trace = data["trace"]
    assert trace["unreachable"]
    assert "lm_unreachable" in {e["error"] for e in trace["errors"]}
    assert trace["cut"]
    assert all(c["error"] == "lm_unreachable" and "detail" not in c for c in trace["cut"])
    assert "[문서 " in data["answer"]


def test_yaksa_ask_json_keeps_the_details_on_the_users_machine(leaky, monkeypatch, capsys):
    monkeypatch.setattr(_backend, "open_backend", real_searcher)
    argv = ["ask", "게보린 먹고 속이 쓰려요", "--lm", "openai/stub", "--api-base", leaky.url, "--no-web", "--json"]
    assert cli.main(argv) == 0
    trace = json.loads(capsys.readouterr().out)["trace"]
    assert any("hunter2" in e for e in trace["errors"])
    assert {e["error"] for e in trace["error_codes"]} == {"lm_error"}
