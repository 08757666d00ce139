"""The real dspy.LM -> litellm path against an OpenAI-compatible stub on 127.0.0.1: a normal run, then 500s,
timeouts and malformed bodies falling back as designed."""

import dspy
import pytest

from programs.ablations import ablation_settings
from programs.crag import CRAG
from programs.lm_config import LMOverrides, load_lm_config
from yaksa.testing.any_signature import chat
from yaksa.testing.mini_index import real_searcher
from yaksa.testing.stub_openai import StubOpenAI


def by_prompt(request):
    system = request["messages"][0]["content"]
    if "`rerank_query`" in system:
        return chat(core_terms='["게보린"]', recall_terms="[]", avoid_terms="[]", rerank_query="게보린 속쓰림")
    if "`verdict`" in system:
        return chat(verdict="PASS", failure_cause="none", feedback="")
    if "`grounding`" in system:
        return chat(
            grounding=0.9,
            completeness=0.8,
            accuracy=0.9,
            missing_info="[]",
            improvement_suggestions="[]",
            needs_retrieval="false",
            reason="좋음",
        )
    return chat(answer="게보린을 먹고 속이 쓰리면 위장 장애일 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요.")


@pytest.fixture
def stub():
    with StubOpenAI([by_prompt]) as server:
        yield server


def program(server, timeout=5.0):
    """Per-role LMs built by the LM configuration, pointed at the stub."""
    config = load_lm_config(
        "/nonexistent",
        env={},
        overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x", timeout=timeout),
    )
    config.num_retries = 0
    return CRAG(backend=real_searcher(), settings=ablation_settings(web_references=False), lms=config.build())


def test_plain_dspy_lm_talks_to_the_stub(stub):
    lm = dspy.LM("openai/stub", api_base=stub.url, api_key="x", num_retries=0, cache=False)
    stub.script(chat(answer="네"))
    with dspy.context(lm=lm):
        assert dspy.Predict("question -> answer")(question="?").answer == "네"
    assert stub.requests[0]["model"] == "stub"


def test_real_lm_path_passes_first_time_with_three_requests(stub):
    # the question names its medicine: no query LM request (routing.asks_query_lm)
    pred = program(stub)(question="게보린 먹고 속이 쓰려요")
    assert len(stub.requests) == 3
    assert pred.trace["lm_calls"]["total"] == 3
    assert pred.answer.startswith("게보린을 먹고")
    assert pred.trace["verification"] == "pass"
    assert [r["temperature"] for r in stub.requests] == [0.1, 0.3, 0.3]
    assert pred.trace["errors"] == []


def test_server_errors_fall_back_everywhere(stub):
    stub.script({"status": 500, "body": "boom"})
    pred = program(stub)(question="게보린 먹고 속이 쓰려요")
    assert "[문서 " in pred.answer
    assert "언어 모델 호출이 실패해" in pred.answer
    assert pred.trace["method"] == "extractive"
    assert pred.trace["errors"]
    assert pred.trace["unreachable"] == []
    assert any(f.startswith("generate") for f in pred.trace["fallbacks"])


def test_malformed_bodies_fall_back(stub):
    stub.script({"raw": "{not json"}, "free text without fields")
    pred = program(stub)(question="게보린 먹고 속이 쓰려요")
    assert pred.answer
    assert pred.trace["fallbacks"]
    assert pred.trace["lm_calls"]["total"] <= 12


def test_timeouts_switch_the_role_off_after_one_wait(stub):
    stub.script({"delay": 1.5, "content": "late"})
    pred = program(stub, timeout=0.3)(question="게보린 먹고 속이 쓰려요")
    assert set(pred.trace["unreachable"]) >= {"query"}
    assert "[문서 " in pred.answer
    assert pred.trace["lm_calls"]["total"] <= 4
