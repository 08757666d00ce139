"""`yaksa ask` over the real searcher on the mini corpus: the no-LM answer, JSON, OOS, user mistakes as one-line
errors, streaming through a real LM (an unreachable LM: test_ask_fallback_output.py)."""

import json

import pytest

from yaksa import cli

pytestmark = pytest.mark.usefixtures("ask_on_mini_index")


def test_no_lm_answer_cites_gebolin_and_says_no_lm_was_used(capsys):
    assert cli.main(["ask", "게보린 먹고 속이 쓰려요"]) == 0
    out = capsys.readouterr().out
    assert "[문서 1]" in out
    assert "전문가와 꼭 상담하세요" in out
    assert "언어 모델(LM) 없이" in out
    assert "게보린정(수출명:돌로린정) · " in out
    assert "LM 호출 0회" in out


def test_json_shows_the_trace_with_zero_lm_calls(capsys):
    assert cli.main(["ask", "부루펜 먹어도 돼요?", "--json", "--user", '{"pregnant": true}']) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["trace"]["lm_calls"]["total"] == 0
    assert data["contexts"]
    first = data["citations"][0]  # the user's rule first: 이부프로펜 임부금기, pulled in by the profile, cited
    assert first["id"] == "dur:cc:2158"
    assert first["section"] == "임부금기"
    assert first["cited"]
    assert "부루펜정200밀리그램(이부프로펜)" in [c["product"] for c in data["citations"]]
    assert data["answer"].index("[임부금기]") < data["answer"].index("전문가와 꼭 상담하세요")


def test_out_of_scope_message(capsys):
    assert cli.main(["ask", "삼성전자 주가"]) == 0
    assert "범위 밖 질문입니다" in capsys.readouterr().out


def test_trace_flag_prints_the_steps(capsys, monkeypatch):
    from yaksa.traces import QuestionTracer

    # the MLflow trace --trace also records is tested against a real server (tests/yaksa/test_tracing.py)
    monkeypatch.setattr(QuestionTracer, "from_environment", classmethod(lambda cls, **kw: None))
    assert cli.main(["ask", "게보린 부작용", "--trace", "--profile", "baseline"]) == 0
    out = capsys.readouterr().out
    assert "추적:" in out
    assert "- retrieve:" in out
    assert "stop=basic_rag" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["ask", "   "], "the question is empty"),
        (["ask", "게보린", "--user", "{bad"], "--user is not valid JSON"),
        (["ask", "게보린", "--user", '{"age": "old"}'], "--user: age must be"),
        (["ask", "게보린", "--profile", "magic"], "unknown profile 'magic'"),
        (["ask", "게보린", "--budget", "-1"], "--budget must be 0 or more"),
    ],
)
def test_user_mistakes_print_one_line(capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_long_questions_are_cut_with_a_warning(capsys):
    assert cli.main(["ask", "게보린 " * 200]) == 0
    assert "question cut to 500 characters" in capsys.readouterr().err


def test_streams_generation_tokens_through_a_real_lm(capsys):
    from tests.programs.test_stub_lm import by_prompt
    from yaksa.testing.stub_openai import StubOpenAI

    with StubOpenAI([by_prompt]) as server:
        argv = ["ask", "게보린 먹고 속이 쓰려요", "--lm", "openai/stub", "--api-base", server.url, "--no-web"]
        assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert [r.get("stream") for r in server.requests] == [True] * 3  # every call streams, so its limits fit
    assert out.count("게보린을 먹고 속이 쓰리면") == 1
    assert "LM 호출 3회" in out


def test_a_dash_in_text_mode_is_a_one_line_error_not_a_question(capsys):
    assert cli.main(["ask", "-"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "--json" in err[0]
