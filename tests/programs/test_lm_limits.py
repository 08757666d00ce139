"""LM calls against a scripted local HTTP server: a slow but streaming model finishes, a silent one is unreachable
within the first-token limit, a stalled one is cut as slow, the wall-clock budget ends a question with a cited
answer, and the budget counts HTTP requests (no hidden retries)."""

import json
import time

import dspy
import pytest

from programs.ablations import ablation_settings
from programs.budget import ROLES
from programs.crag import CRAG
from programs.lm_call import CallLimits, LMCallCut, TimeBudgetExhausted, call_with_limits
from programs.lm_config import LMOverrides, load_lm_config
from programs.run import Run
from yaksa.testing.fake_backend import FakeBackend
from yaksa.testing.stub_openai import StubOpenAI

ANSWER = json.dumps({"answer": "하나 둘 셋 넷 다섯"}, ensure_ascii=False)  # five space-separated tokens


def lms(server, first=2.5, idle=2.5, stream=True, **kw):
    config = load_lm_config(
        "/nonexistent",
        env={},
        overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x", timeout=first, **kw),
    )
    config.idle_timeout, config.stream = idle, stream
    return config.build()


def ask(run, role="generate"):
    return run.call(role, dspy.Predict("question -> answer"), question="게보린 부작용")


def test_a_model_streaming_one_token_a_second_is_not_a_timeout():
    with StubOpenAI([ANSWER, {"drip": 1.0, "content": ANSWER}]) as server:
        ask(Run(lms(server, first=30, idle=30)))  # warm the client (its first call builds types for seconds)
        run = Run(lms(server, first=3.0, idle=3.0))
        start = time.monotonic()
        out = ask(run)
        took = time.monotonic() - start
    # the reply took longer than either limit, yet it arrived whole: the limits are per token, not per response
    assert out.answer == "하나 둘 셋 넷 다섯"
    assert took > 4.5
    assert run.trace.cut == []
    assert run.trace.errors == []
    assert server.requests[-1]["stream"] is True


def test_the_same_model_without_streaming_is_cut_by_the_first_token_limit():
    with StubOpenAI([{"drip": 1.0, "content": ANSWER}]) as server:
        run = Run(lms(server, first=2.5, idle=2.5, stream=False))
        with pytest.raises(LMCallCut):
            ask(run)
    assert run.trace.cut[0]["why"] == "unreachable"
    assert "stream" not in server.requests[0]


def test_a_server_that_never_sends_a_byte_is_unreachable_within_the_first_token_limit():
    with StubOpenAI([{"hang": True}]) as server:
        run = Run(lms(server, first=1.5, idle=10))
        start = time.monotonic()
        with pytest.raises(LMCallCut, match="no first token within 1.5 s"):
            ask(run)
        took = time.monotonic() - start
        assert 1.4 < took < 1.5 + 10  # cut at the limit; the server would have held the call for ever
        assert sorted(run.unreachable()) == sorted(ROLES)  # every role on that server is off for the question
        assert not run.has_lm("generate")
        [cut] = run.trace.cut
        assert (cut["role"], cut["why"], cut["tokens"]) == ("generate", "unreachable", 0)
        assert cut["seconds"] >= 1.4
        with pytest.raises(RuntimeError, match="could not be reached"):  # one timeout per role per question
            ask(run)
        assert len(server.requests) == 1


def test_a_model_that_stalls_mid_answer_is_cut_as_slow_not_unreachable():
    with StubOpenAI([{"drip": 2.0, "content": ANSWER}]) as server:
        run = Run(lms(server, first=3.0, idle=1.0))
        with pytest.raises(LMCallCut) as cut:
            ask(run)
    assert cut.value.kind == "slow"
    assert cut.value.tokens >= 1
    assert run.trace.cut[0]["why"] == "slow"
    assert run.unreachable() == []
    assert not run.has_lm("generate")
    assert "was too slow" in run.disabled["generate"]


def test_a_dead_server_costs_one_timeout_per_question_and_the_question_still_answers():
    with StubOpenAI([{"hang": True}]) as server:
        program = CRAG(
            backend=FakeBackend(), settings=ablation_settings(web_references=False), lms=lms(server, first=1.0)
        )
        start = time.monotonic()
        pred = program(question="게보린 먹고 속이 쓰려요")
        took = time.monotonic() - start
        requests = len(server.requests)
    calls = pred.trace["lm_calls"]
    assert "[문서 1]" in pred.answer
    assert pred.trace["method"] == "extractive"
    assert requests == calls["total"] == 1  # the first role's call; the others are on the same dead server
    assert took < 1.0 + 10  # one first-token limit, not the server's never
    assert [c["why"] for c in pred.trace["cut"]] == ["unreachable"]
    assert set(pred.trace["unreachable"]) == set(ROLES)


def test_the_call_budget_counts_http_requests_with_a_failing_server():
    with StubOpenAI([{"status": 500, "body": "boom"}]) as server:
        program = CRAG(
            backend=FakeBackend(), settings=ablation_settings(web_references=False, lm_call_budget=1), lms=lms(server)
        )
        pred = program(question="게보린 먹고 속이 쓰려요")
        assert len(server.requests) == 1 == pred.trace["lm_calls"]["total"]


def test_the_wall_clock_budget_ends_the_question_with_a_cited_answer_and_says_why():
    # each reply takes 5 x 3 s: only a cut at the 3 s budget ends the question well before the first one is done
    with StubOpenAI([{"drip": 3.0, "content": ANSWER}]) as server:
        settings = ablation_settings(web_references=False, time_budget_s=3.0)
        program = CRAG(backend=FakeBackend(), settings=settings, lms=lms(server, first=5, idle=5))
        start = time.monotonic()
        pred = program(question="게보린 먹고 속이 쓰려요")
        took = time.monotonic() - start
    assert took < 12
    assert pred.trace["stop_reason"] == "time_budget_exhausted"
    assert "[문서 1]" in pred.answer
    assert "시간을 모두 써서" in pred.answer
    assert pred.trace["cut"]
    assert pred.trace["cut"][-1]["why"] == "time_budget"
    assert pred.trace["unreachable"] == []


def test_the_deadline_cuts_a_plain_call_and_no_call_starts_after_it():
    with pytest.raises(TimeBudgetExhausted):
        call_with_limits(lambda: time.sleep(2), CallLimits(5, 5, stream=False), deadline=time.monotonic() + 0.3)
    run = Run(lms={"generate": dspy.utils.DummyLM([{"answer": "네"}])}, time_budget_s=0.01)
    time.sleep(0.05)
    with pytest.raises(TimeBudgetExhausted):
        ask(run)
    assert run.trace.lm_calls["total"] == 0
    assert run.trace.cut[0]["why"] == "time_budget"


def test_a_failed_call_raises_the_lm_error_not_a_timeout():
    with pytest.raises(ZeroDivisionError):
        call_with_limits(lambda: 1 / 0, CallLimits(5, 5))
