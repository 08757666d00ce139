"""`yaksa ask` with an LM that cannot be reached (a closed port on 127.0.0.1): every output mode prints the answer
the program produced and a warning; the exit status says a fallback was used only with --strict."""

import io
import json
import re

import pytest

from yaksa import cli
from yaksa.commands._answer_output import STRICT_EXIT
from yaksa.testing.ports import free_port

QUESTION = "게보린 먹고 속이 쓰려요"


pytestmark = pytest.mark.usefixtures("ask_on_mini_index")


@pytest.fixture
def dead_lm():
    """--lm flags for a server that is not there: a free port nobody listens on."""
    base = f"http://127.0.0.1:{free_port()}/v1"
    return ["--lm", "openai/x", "--api-base", base, "--no-web"], base


def warned(err: str, base: str) -> bool:
    return f"could not be reached at {base}" in err and "Traceback" not in err


def test_json_prints_the_extractive_answer_and_exits_0(dead_lm, capsys):
    flags, base = dead_lm
    assert cli.main(["ask", QUESTION, *flags, "--json"]) == 0
    out, err = capsys.readouterr()
    pred = json.loads(out)
    assert re.search(r"\[문서 \d+\]", pred["answer"])
    assert "언어 모델 호출이 실패해" in pred["answer"]
    assert pred["trace"]["unreachable"]
    assert pred["trace"]["method"] == "extractive"
    assert warned(err, base)


@pytest.mark.parametrize("mode", [["--no-stream"], []], ids=["no-stream", "stream"])
def test_text_modes_print_the_answer_and_exit_0(dead_lm, capsys, mode):
    flags, base = dead_lm
    assert cli.main(["ask", QUESTION, *flags, *mode]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"\[문서 \d+\]", out)
    assert "전문가와 꼭 상담하세요" in out
    assert "게보린정(수출명:돌로린정) · " in out
    assert warned(err, base)


def test_strict_exits_3_after_printing_the_answer(dead_lm, capsys):
    flags, base = dead_lm
    assert STRICT_EXIT == 3
    assert cli.main(["ask", QUESTION, *flags, "--json", "--strict"]) == STRICT_EXIT
    out, err = capsys.readouterr()
    assert re.search(r"\[문서 \d+\]", json.loads(out)["answer"])
    assert warned(err, base)
    assert cli.main(["ask", QUESTION, *flags, "--no-stream", "--strict"]) == STRICT_EXIT
    assert re.search(r"\[문서 \d+\]", capsys.readouterr().out)


def test_strict_without_an_lm_and_without_a_failure_exits_0(capsys):
    assert cli.main(["ask", QUESTION, "--strict", "--json", "--no-web"]) == 0
    pred = json.loads(capsys.readouterr().out)
    assert pred["trace"]["lm_calls"]["total"] == 0
    assert pred["trace"]["fallbacks"] == []


def test_batch_writes_every_answer_and_strict_exits_3(dead_lm, capsys, monkeypatch):
    flags, _ = dead_lm
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(f"{QUESTION}\n게보린 부작용\n".encode())))
    assert cli.main(["ask", "-", *flags, "--json", "--strict"]) == STRICT_EXIT
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["line"] for line in lines] == [1, 2]
    assert all("[문서 " in line["answer"] for line in lines)


def test_help_documents_strict(capsys):
    with pytest.raises(SystemExit):
        cli.main(["ask", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--strict" in out
    assert f"exit with status {STRICT_EXIT}" in out
