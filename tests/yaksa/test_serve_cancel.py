"""Abandoned questions stop their work: a stream whose client leaves, or a `/v1/ask` whose client leaves, makes no
LM call after the one in flight; the admission slot and the worker stay taken until the program has really stopped,
and the server's threads never grow past ``--workers`` (a real uvicorn server on 127.0.0.1, a scripted slow LM)."""

import socket
import threading
import time

import httpx
import pytest

from yaksa.app import ServeSettings
from yaksa.app.cancel import CancelOnLM, QuestionCancelled, Work, step_guard
from yaksa.testing.scripted_lm import ScriptedLM
from yaksa.testing.serve_app import LiveServer, make_app, slow_lm

QUESTION = {"question": "게보린 먹고 속이 쓰려요"}
DELAY = 0.3  # seconds per LM call; a full answer makes 4 calls


def wait_until(check, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


def settings(**kw):
    return ServeSettings(scores="off", api_token=None, **kw)


def test_work_releases_once_after_both_the_response_and_the_thread_end():
    released = []
    work = Work(release=lambda: released.append(1))
    assert work.start()
    work.closed()
    assert released == []
    assert work.event.is_set()  # the thread still runs
    work.finished()
    assert released == [1]
    assert not work.start()  # nothing starts after the release
    lone = Work(release=lambda: released.append(2))
    lone.closed()  # the work never started: released at once
    assert released == [1, 2]


def test_hooks_raise_past_except_exception_once_cancelled():
    event = threading.Event()
    seen = []
    guard = step_guard(event, seen.append)
    guard({"step": "retrieve"})
    event.set()
    with pytest.raises(QuestionCancelled):
        guard({"step": "grade"})
    with pytest.raises(QuestionCancelled):
        CancelOnLM(event).on_lm_start("id", None, {})
    assert seen == [{"step": "retrieve"}]
    assert not issubclass(QuestionCancelled, Exception)


def test_abandoned_stream_stops_within_one_lm_call():
    lm = slow_lm(DELAY)
    app = make_app(lms=lm.roles(), settings=settings())
    with LiveServer(app) as server:
        with httpx.stream("POST", server.url + "/v1/ask/stream", json=QUESTION, timeout=10) as r:
            for line in r.iter_lines():
                if line.startswith("event: status") and "optimize_query" not in line:
                    break  # the first status event (retrieve): the first LM call is about to start
        assert wait_until(lambda: app.state.gate.in_flight == 0), "the slot was never given back"
        calls = len(lm.calls)
        time.sleep(4 * DELAY)
        assert len(lm.calls) == calls <= 1, lm.calls  # the call in flight finished; no new one started
        assert app.state.gate.in_flight == 0


def test_stream_closed_right_after_the_headers_makes_at_most_one_lm_call():
    lm = slow_lm(DELAY)
    app = make_app(lms=lm.roles(), settings=settings())
    with LiveServer(app) as server:
        for _ in range(5):
            with httpx.stream("POST", server.url + "/v1/ask/stream", json=QUESTION, timeout=10) as r:
                assert r.status_code == 200
        assert wait_until(lambda: app.state.gate.in_flight == 0)
        calls = len(lm.calls)
        time.sleep(4 * DELAY)
        assert len(lm.calls) == calls <= 5, lm.calls


def test_in_flight_counts_the_program_until_it_stops():
    release = threading.Event()
    started = threading.Event()

    def held(messages):
        started.set()
        release.wait(10)
        return {"answer": "게보린은 두통에 씁니다. [문서 1]\n\n전문가와 꼭 상담하세요."}

    lm = ScriptedLM(generate=[held])
    app = make_app(lms=lm.roles(), settings=settings())
    with LiveServer(app) as server:
        with httpx.stream("POST", server.url + "/v1/ask/stream", json=QUESTION, timeout=10) as r:
            lines = r.iter_lines()  # kept: a dropped iterator closes the connection
            next(lines)
            assert started.wait(10)
        time.sleep(0.3)
        assert httpx.get(server.url + "/healthz").json()["in_flight"] == 1  # the LM call still runs
        release.set()
        assert wait_until(lambda: app.state.gate.in_flight == 0)
        assert lm.calls == ["generate"]


def test_ask_whose_client_left_is_cancelled():
    lm = slow_lm(DELAY)
    app = make_app(lms=lm.roles(), settings=settings())
    with LiveServer(app) as server:
        body = httpx.Request("POST", server.url + "/v1/ask", json=QUESTION)
        raw = (
            f"POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body.content)}\r\n\r\n"
        ).encode() + body.content
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(raw)
            assert wait_until(lambda: len(lm.calls) >= 1)
        assert wait_until(lambda: app.state.gate.in_flight == 0)
        calls = len(lm.calls)
        time.sleep(4 * DELAY)
        assert len(lm.calls) == calls <= 2, lm.calls


def test_threads_do_not_grow_past_workers_under_abandoned_streams():
    workers = 4
    lm = slow_lm(DELAY)
    app = make_app(lms=lm.roles(), settings=settings(workers=workers, max_concurrent=64))
    with LiveServer(app) as server:

        def abandon():
            with httpx.stream("POST", server.url + "/v1/ask/stream", json=QUESTION, timeout=10) as r:
                next(r.iter_lines())

        peak, baseline = 0, threading.active_count()
        for _wave in range(3):
            clients = [threading.Thread(target=abandon) for _ in range(12)]
            for t in clients:
                t.start()
            for t in clients:
                t.join(10)
            peak = max(peak, app.state.host.limiter().borrowed_tokens)  # threads running the program now
            assert threading.active_count() <= baseline + workers
        assert wait_until(lambda: app.state.gate.in_flight == 0, 20)
        assert 0 < peak <= workers
        assert len(lm.calls) <= 36  # at most one LM call per abandoned question
