"""`POST /v1/ask/stream`: every event type in order, tokens from a real LM stream (stub server), heartbeats, scores
after the answer without delaying it, program errors and timeouts as error events."""

import time

import httpx
from fastapi.testclient import TestClient

from programs.lm_config import LMOverrides, load_lm_config
from tests.programs.test_stub_lm import by_prompt
from yaksa.app import ServeSettings
from yaksa.testing.fake_backend import FakeBackend
from yaksa.testing.scripted_lm import ScriptedLM
from yaksa.testing.serve_app import WEB_LINK, LiveServer, make_app, parse_sse, slow_lm
from yaksa.testing.stub_openai import StubOpenAI

QUESTION = {"question": "게보린 먹고 속이 쓰려요"}


def stream(app, body=QUESTION) -> list[tuple[str, dict]]:
    r = TestClient(app, raise_server_exceptions=False).post("/v1/ask/stream", json=body)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    return parse_sse(r.text)


def names(events):
    return [name for name, _ in events]


def test_every_event_type_in_order_with_a_scripted_lm():
    events = stream(make_app(lms=ScriptedLM().roles()))
    order = names(events)
    assert order[0] == "accepted"
    assert order[-1] == "done"
    assert {"status", "progress", "token", "answer", "verification", "web", "scores"} <= set(order)
    first = {name: order.index(name) for name in ("answer", "verification", "web", "scores", "done")}
    assert first["answer"] < first["verification"] < first["web"] < first["scores"] < first["done"]
    assert max(i for i, n in enumerate(order) if n == "token") < first["answer"]
    steps = [d["step"] for n, d in events if n == "status"]
    assert steps[:2] == ["retrieve", "grade"]  # a named medicine: no query LM step
    assert {"generate", "verify", "evaluate"} <= set(steps)
    assert all(d["label"] for n, d in events if n == "status")
    answer = next(d for n, d in events if n == "answer")
    tokens = "".join(d["text"] for n, d in events if n == "token")
    assert tokens == answer["answer"]
    assert answer["uses_lm"]
    assert answer["citations"][0]["text"]
    assert next(d for n, d in events if n == "verification") == {"status": "pass", "rounds": 1}
    assert next(d for n, d in events if n == "web")["links"] == [WEB_LINK]
    scores = next(d for n, d in events if n == "scores")
    assert scores["kind"] == "quality"
    assert scores["scores"]["overall"] == 0.9
    assert scores["method"] == "lm"
    for stage in ("answer", "scores"):
        percents = [d["percent"] for n, d in events if n == "progress" and d["stage"] == stage]
        assert percents == sorted(percents)
        assert percents[-1] == 100


def test_no_lm_answer_is_sent_in_pieces_and_says_no_lm_was_used():
    events = stream(make_app())
    answer = next(d for n, d in events if n == "answer")
    pieces = [d for n, d in events if n == "token"]
    assert len(pieces) > 1
    assert all(p["source"] == "final" for p in pieces)
    assert "".join(p["text"] for p in pieces) == answer["answer"]
    assert answer["uses_lm"] is False
    assert "LM" in answer["notice"]
    assert next(d for n, d in events if n == "verification")["rounds"] == 0


def test_out_of_scope_stream_has_no_scores_to_give():
    events = stream(make_app(), {"question": "삼성전자 주가"})
    answer = next(d for n, d in events if n == "answer")
    assert answer["out_of_scope"]
    assert "범위 밖" in answer["notice"]
    assert next(d for n, d in events if n == "scores")["scores"] == {}


def test_tokens_stream_from_a_real_lm_before_the_answer():
    with StubOpenAI([by_prompt]) as server:
        config = load_lm_config(
            "/nonexistent", env={}, overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x")
        )
        config.num_retries = 0
        events = stream(make_app(lms=config.build()))
    tokens = [d for n, d in events if n == "token"]
    assert tokens
    assert all(t["source"] == "lm" for t in tokens)
    assert len(tokens) > 1
    assert "".join(t["text"] for t in tokens).startswith("게보린을 먹고 속이 쓰리면")
    assert [r.get("stream") for r in server.requests] == [True] * 3  # every call streams; only answers show


def test_program_error_is_an_error_event_without_internals():
    class Exploding(FakeBackend):
        def retrieve(self, *a, **k):
            raise RuntimeError("secret internals")

    events = stream(make_app(Exploding()))
    assert names(events)[-1] == "error"
    assert "done" not in names(events)
    error = events[-1][1]
    assert error["error"] == "program_error"
    assert "secret" not in error["message"]
    assert "RuntimeError" in error["message"]


def test_live_stream_beats_and_sends_the_answer_before_slow_scores():
    def slow_scorer(question, pred):
        time.sleep(1.0)
        return {"kind": "test", "scores": {"x": 1.0}, "method": "test", "note": ""}

    settings = ServeSettings(heartbeat_s=0.2, progress_interval_s=0.1, scores_expected_s=1.0, api_token=None)
    app = make_app(lms=slow_lm(0.15).roles(), settings=settings, scorer=slow_scorer)
    seen = []
    with LiveServer(app) as server, httpx.Client(timeout=30) as c:
        start = time.perf_counter()
        with c.stream("POST", server.url + "/v1/ask/stream", json=QUESTION) as r:
            buffer = ""
            for text in r.iter_text():
                buffer += text
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    for name, data in parse_sse(block + "\n\n"):
                        seen.append((time.perf_counter() - start, name, data))
    at = {name: t for t, name, _ in reversed(seen)}  # when each event first arrived
    assert seen[0][1] == "accepted"
    # in order, with gaps no faster machine can shrink (each LM call sleeps 0.15 s, the scorer 1 s): the acceptance
    # did not wait for the LM calls, nor the answer for the scores
    assert at["answer"] - at["accepted"] >= 2 * 0.15
    assert at["scores"] - at["answer"] >= 0.8
    beats = [d for _, n, d in seen if n == "heartbeat"]
    assert len(beats) >= 3
    assert {b["stage"] for b in beats} == {"answer", "scores"}
    score_progress = [d["percent"] for _, n, d in seen if n == "progress" and d["stage"] == "scores"]
    assert len(score_progress) >= 4
    assert score_progress == sorted(score_progress)
    assert score_progress[-1] == 100
    assert next(d for _, n, d in seen if n == "scores")["scores"] == {"x": 1.0}


def test_stream_times_out_with_an_error_event():
    settings = ServeSettings(request_timeout_s=0.3, scores="quality", api_token=None)
    events = stream(make_app(lms=slow_lm(1.0).roles(), settings=settings))
    assert names(events)[-1] == "error"
    assert events[-1][1]["error"] == "timeout"


def test_concurrent_streams_share_one_program_and_keep_their_own_answers():
    import asyncio

    app = make_app(lms=slow_lm(0.05).roles())
    questions = ["게보린 부작용", "타이레놀 효능"] * 5

    async def ask_all(url):
        async with httpx.AsyncClient(timeout=30) as c:

            async def one(q):
                r = await c.post(url + "/v1/ask/stream", json={"question": q})
                return q, parse_sse(r.text)

            return await asyncio.gather(*(one(q) for q in questions))

    with LiveServer(app) as server:
        results = asyncio.run(ask_all(server.url))
    for question, events in results:
        assert names(events)[-1] == "done"
        answer = next(d for n, d in events if n == "answer")
        assert answer["question"] == question
        assert answer["trace"]["steps"][0]["query"] == question
        assert next(d for n, d in events if n == "accepted")["question"] == question
        # each question has its own budget and trace: three calls, and one more where its query LM was asked
        asked = any(s["step"] == "optimize_query" for s in answer["trace"]["steps"])
        assert answer["trace"]["lm_calls"]["total"] == 3 + asked
    assert app.state.gate.in_flight == 0


def test_a_regeneration_is_a_new_generation_not_appended_to_the_draft():
    from tests.programs.test_stub_lm import chat

    judged = []

    def low_then_high(request):
        system = request["messages"][0]["content"]
        if "`grounding`" in system:  # the first answer scores low: the program searches again and regenerates
            judged.append(1)
            score = 0.1 if len(judged) == 1 else 0.9
            return chat(grounding=score, completeness=score, accuracy=score, missing_info='["복용량"]',
                        improvement_suggestions='["용량"]', needs_retrieval="true", reason="부족")  # fmt: skip
        if "`answer`" in system and "`context`" in system and "`verdict`" not in system:
            return chat(answer="답변 초안입니다. [문서 1]\n\n전문가와 꼭 상담하세요.")
        return by_prompt(request)

    with StubOpenAI([low_then_high]) as server:
        config = load_lm_config(
            "/nonexistent", env={}, overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x")
        )
        # a profile without the duplicate-document stop, so the fake backend's same documents are generated from again
        events = stream(make_app(lms=config.build(), profile="self_refine_llm_quality"))
    tokens = [d for n, d in events if n == "token"]
    generations = sorted({t["generation"] for t in tokens})
    assert len(generations) >= 2, "the program should have generated twice"
    for g in generations:  # each generation is one whole answer text on its own
        text = "".join(t["text"] for t in tokens if t["generation"] == g)
        assert text.startswith("답변 ")
        assert text.count("초안입니다") == 1
