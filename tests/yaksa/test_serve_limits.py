"""`yaksa serve` limits: question length, body size, bad input as clear 4xx JSON, the concurrency limit (429), the
per-request timeout (504), and the optional bearer token."""

import threading

import pytest
from fastapi.testclient import TestClient

from yaksa.app import ServeSettings
from yaksa.app.limits import Gate, token_ok
from yaksa.testing.scripted_lm import ANSWER, ScriptedLM
from yaksa.testing.serve_app import make_app, slow_lm


def client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/ask/stream"])
@pytest.mark.parametrize(
    "body, code",
    [
        ({"question": "게" * 501}, "question_too_long"),
        ({"question": "   "}, "empty_question"),
        ({"question": "게보린", "profile": "magic"}, "unknown_profile"),
        ({"question": "게보린", "user": {"age": -1}}, "invalid_request"),
        ({"question": "게보린", "user": {"height": 180}}, "invalid_request"),
        ({"question": "게보린", "extra": 1}, "invalid_request"),
        ({}, "invalid_request"),
    ],
)
def test_bad_questions_are_422_with_a_message(path, body, code):
    r = client(make_app()).post(path, json=body)
    assert r.status_code == 422
    assert r.json()["error"] == code
    assert r.json()["message"]
    assert set(r.json()) == {"error", "message"}


def test_question_limit_can_be_lowered():
    app = make_app(settings=ServeSettings(max_question_chars=10, scores="off", api_token=None))
    r = client(app).post("/v1/ask", json={"question": "게보린 부작용이 궁금합니다"})
    assert r.status_code == 422
    assert "10 characters" in r.json()["message"]


def test_invalid_json_is_422():
    r = client(make_app()).post("/v1/ask", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"] == "invalid_request"


def test_large_bodies_are_413_declared_or_streamed():
    app = make_app(settings=ServeSettings(max_body_bytes=1000, scores="off", api_token=None))
    body = ('{"question": "' + "가" * 600 + '"}').encode()
    r = client(app).post("/v1/ask", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json()["error"] == "body_too_large"

    def chunks():
        yield body[:500]
        yield body[500:]

    r = client(app).post("/v1/ask/stream", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert "1000 bytes" in r.json()["message"]


def test_one_question_too_many_is_429_then_accepted_again():
    release = threading.Event()

    def held(messages):
        release.wait(10)
        return ANSWER

    lm = ScriptedLM(generate=[held])
    app = make_app(lms=lm.roles(), settings=ServeSettings(max_concurrent=1, scores="off", api_token=None))
    c = client(app)
    first = {}
    worker = threading.Thread(target=lambda: first.setdefault("r", c.post("/v1/ask", json={"question": "게보린"})))
    worker.start()
    try:
        for _ in range(200):  # wait until the first question holds the only slot
            if app.state.gate.in_flight == 1:
                break
            threading.Event().wait(0.01)
        for path in ("/v1/ask", "/v1/ask/stream"):
            r = c.post(path, json={"question": "타이레놀"})
            assert r.status_code == 429
            assert r.json()["error"] == "busy"
            assert r.headers["retry-after"] == "1"
        assert c.get("/healthz").json()["in_flight"] == 1
    finally:
        release.set()
        worker.join(10)
    assert first["r"].status_code == 200
    assert app.state.gate.in_flight == 0
    assert c.post("/v1/ask/stream", json={"question": "게보린"}).status_code == 200
    assert app.state.gate.in_flight == 0  # the stream gave its slot back


def test_slow_questions_time_out_with_504():
    settings = ServeSettings(request_timeout_s=0.2, scores="off", api_token=None)
    r = client(make_app(lms=slow_lm(1.0).roles(), settings=settings)).post("/v1/ask", json={"question": "게보린"})
    assert r.status_code == 504
    assert r.json() == {"error": "timeout", "message": "no answer within 0.2 s"}


def test_bearer_token_guards_the_api_but_not_the_page_or_health():
    c = client(make_app(settings=ServeSettings(api_token="s3cret", scores="off")))
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret"}):
        r = c.post("/v1/ask", json={"question": "게보린"}, headers=headers)
        assert r.status_code == 401
        assert r.json()["error"] == "unauthorized"
        assert r.headers["www-authenticate"] == "Bearer"
    assert c.get("/v1/search", params={"q": "게보린"}).status_code == 401
    ok = {"Authorization": "Bearer s3cret"}
    assert c.post("/v1/ask", json={"question": "게보린"}, headers=ok).status_code == 200
    assert c.get("/v1/search", params={"q": "게보린"}, headers=ok).status_code == 200
    assert c.get("/healthz").json()["auth"] is True
    assert c.get("/").status_code == 200


def test_token_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("YAKSA_API_TOKEN", "from-env")
    assert ServeSettings().api_token == "from-env"
    monkeypatch.delenv("YAKSA_API_TOKEN")
    assert ServeSettings().api_token is None


def test_gate_and_token_helpers():
    gate = Gate(1)
    assert gate.try_enter()
    assert not gate.try_enter()
    gate.leave()
    gate.leave()
    assert gate.in_flight == 0
    assert gate.try_enter()
    assert token_ok(None, None)
    assert token_ok("Bearer t", "t")
    assert token_ok("bearer  t", "t")
    assert not token_ok(None, "t")
    assert not token_ok("Bearer x", "t")
    assert not token_ok("t", "t")


def test_settings_reject_nonsense():
    for bad in ({"max_question_chars": 0}, {"max_question_chars": 501}, {"max_concurrent": 0}, {"scores": "x"}):
        with pytest.raises(ValueError):
            ServeSettings(**bad)
