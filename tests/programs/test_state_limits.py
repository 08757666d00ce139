"""Limits on compiled state files: the file size, each instruction and field text, the demo count and each demo's
size; a file past one is refused with the limit in a one-line error, before anything reaches an LM prompt."""

import json
from pathlib import Path

import pytest

from programs.loading import StateError, load, read_state
from tests.helpers.lab import *  # noqa: F403
from yaksa import cli

V1 = Path(__file__).parent.parent / "fixtures" / "crag_state_v1.json"


def state_file(tmp_path, change) -> Path:
    state = json.loads(V1.read_text(encoding="utf-8"))
    change(state)
    path = tmp_path / "compiled.json"
    path.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    return path


def refused(path) -> str:
    with pytest.raises(StateError) as e:
        load(path, backend=object(), lms=None)
    message = str(e.value)
    assert str(path) in message and "\n" not in message
    return message


def test_a_shipped_state_is_within_every_limit():
    assert read_state(V1)["yaksa"]["format"] == 1


def test_a_file_larger_than_the_limit_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "huge.json"
    path.write_text('{"yaksa": {"format": 1}, "pad": "' + "x" * 6_000_000 + '"}', encoding="utf-8")
    message = refused(path)
    assert f"{path.stat().st_size:,} bytes; the limit is 5,000,000" in message


def test_a_30k_character_instruction_is_refused(tmp_path):
    def long_instruction(state):
        state["generator.generate"]["signature"]["instructions"] = "지시" * 15_000

    message = refused(state_file(tmp_path, long_instruction))
    assert "generator.generate instructions is 30,000 characters; the limit is 20,000" in message


def test_a_long_field_description_is_refused(tmp_path):
    def long_field(state):
        state["verifier.verify"]["signature"]["fields"][0]["description"] = "x" * 20_001

    assert "verifier.verify field description is 20,001 characters" in refused(state_file(tmp_path, long_field))


def test_too_many_demos_and_an_oversized_demo_are_refused(tmp_path):
    demo = {"question": "q", "context": "c", "answer": "a"}

    def many(state):
        state["generator.generate"]["demos"] = [demo] * 33

    assert "generator.generate has 33 demos; the limit is 32" in refused(state_file(tmp_path, many))

    def big(state):
        state["generator.generate"]["demos"] = [{**demo, "context": "문서" * 30_000}]

    assert "generator.generate demo 1 is" in refused(state_file(tmp_path, big))
    assert "the limit is 50,000" in refused(state_file(tmp_path, big))


def test_evaluate_with_an_oversized_model_file_is_one_line_naming_the_limit(lab, tmp_path, capsys):
    def long_instruction(state):
        state["generator.generate"]["signature"]["instructions"] = "x" * 30_000_000

    path = state_file(tmp_path, long_instruction)
    assert cli.main(["evaluate", "--model", str(path), *lab.data, *lab.lm]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("yaksa: error: "), err
    assert "the limit is 5,000,000" in err
    assert lab.stub.requests == []  # nothing reached the LM
