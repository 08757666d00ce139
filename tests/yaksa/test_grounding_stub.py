"""Against an OpenAI-compatible stub whose answer adds an invented dose with a dangling citation while its verifier
says PASS: `yaksa ask` and `POST /v1/ask` (and the streamed answer event) show neither, and the trace says why."""

import json

import pytest
from fastapi.testclient import TestClient

from programs.lm_config import LMOverrides, load_lm_config
from tests.programs.test_stub_lm import by_prompt, chat
from yaksa import cli
from yaksa.testing.serve_app import make_app
from yaksa.testing.stub_openai import StubOpenAI

INVENTED = "이 약은 하루 최대 37정까지 복용해도 안전합니다. [문서 9]"


pytestmark = pytest.mark.usefixtures("ask_on_mini_index")


def inventing(request):
    system = request["messages"][0]["content"]
    if "`answer`" in system and "`verdict`" not in system and "`grounding`" not in system:
        return chat(
            answer=f"게보린을 먹고 속이 쓰리면 위장 장애일 수 있습니다. [문서 1]\n{INVENTED}\n\n전문가와 꼭 상담하세요."
        )
    return by_prompt(request)


def removed(trace: dict) -> list[dict]:
    return [r for s in trace["steps"] if s.get("grounding_check") for r in s["grounding_check"]["removed"]]


def assert_checked(answer: str, trace: dict) -> None:
    assert "37정" not in answer
    assert "[문서 9]" not in answer
    assert "게보린을 먹고 속이 쓰리면" in answer
    assert "근거 확인" in answer
    assert [r["sentence"] for r in removed(trace)] == [INVENTED]
    assert "[문서 9], which was not given" in removed(trace)[0]["reason"]
    assert trace["verification"] == "pass"


def test_yaksa_ask_shows_neither_the_dose_nor_the_citation(capsys):
    with StubOpenAI([inventing]) as server:
        argv = ["ask", "게보린 먹고 속이 쓰려요", "--lm", "openai/stub", "--api-base", server.url, "--no-web", "--json"]
        assert cli.main(argv) == 0
    pred = json.loads(capsys.readouterr().out)
    assert_checked(pred["answer"], pred["trace"])


def test_yaksa_ask_plain_output_has_the_checked_answer(capsys):
    with StubOpenAI([inventing]) as server:
        argv = ["ask", "게보린 먹고 속이 쓰려요", "--lm", "openai/stub", "--api-base", server.url, "--no-web"]
        assert cli.main([*argv, "--no-stream"]) == 0
    out = capsys.readouterr().out
    assert "37정" not in out
    assert "[문서 9]" not in out
    assert "근거 확인" in out


def test_yaksa_ask_streaming_ends_with_the_checked_answer_in_place_of_the_draft(capsys):
    with StubOpenAI([inventing]) as server:
        argv = ["ask", "게보린 먹고 속이 쓰려요", "--lm", "openai/stub", "--api-base", server.url, "--no-web"]
        assert cli.main(argv) == 0
    out = capsys.readouterr().out
    draft, _, final = out.partition("--- 최종 답변 (근거 확인·검증·교정 후; 위의 초안 대신 이 답변을 보세요) ---")
    assert "37정" in draft
    assert final
    assert "37정" not in final
    assert "[문서 9]" not in final
    assert "근거 확인" in final


def app_over_stub(server):
    config = load_lm_config(
        "/nonexistent", env={}, overrides=LMOverrides(model="openai/stub", api_base=server.url, api_key="x")
    )
    config.num_retries = 0
    return make_app(lms=config.build())


def test_post_ask_shows_neither_and_the_stream_ends_with_the_checked_text():
    from tests.yaksa.test_serve_stream import stream

    with StubOpenAI([inventing]) as server:
        data = TestClient(app_over_stub(server)).post("/v1/ask", json={"question": "게보린 먹고 속이 쓰려요"}).json()
        events = stream(app_over_stub(server))
    assert_checked(data["answer"], data["trace"])
    drafted = "".join(d["text"] for n, d in events if n == "token")
    final = next(d for n, d in events if n == "answer")
    assert "37정" in drafted
    assert "37정" not in final["answer"]
    assert "[문서 9]" not in final["answer"]
