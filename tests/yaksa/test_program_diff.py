"""`yaksa compare A B --diff` on JSON state files: per predictor the instructions as a unified diff and the demos
added / removed / changed; one clear line for a path that is not a compiled program (a pickle is never opened)."""

import copy
import json
import pickle

from yaksa import cli
from yaksa.commands._program_diff import diff_demos, diff_states

BASE = {
    "yaksa": {"format": 1, "program": "crag", "profile": "baseline", "optimizer": "bootstrap", "settings": None},
    "generator.generate": {
        "signature": {"instructions": "Answer from the documents.\nCite them.", "fields": []},
        "demos": [
            {"question": "게보린 부작용", "answer": "위장 장애"},
            {"question": "게보린 먹는 법", "answer": "1정"},
        ],
    },
    "grader.grade": {"signature": {"instructions": "Grade the document.", "fields": []}, "demos": []},
}


def changed():
    state = copy.deepcopy(BASE)
    state["yaksa"]["optimizer"] = "gepa"
    state["generator.generate"]["signature"]["instructions"] = "Answer only from the documents.\nCite them."
    state["generator.generate"]["demos"] = [
        {"question": "게보린 부작용", "answer": "위장 장애, 발진"},
        {"question": "타이레놀 효능", "answer": "해열"},
    ]
    return state


def test_the_diff_shows_changed_instructions_and_demos_per_predictor():
    text = diff_states(BASE, changed(), "old.json", "new.json")
    assert "optimizer: bootstrap -> gepa" in text
    assert "== generator.generate" in text
    assert "--- old.json" in text and "+++ new.json" in text
    assert "-Answer from the documents." in text
    assert "+Answer only from the documents." in text
    assert " Cite them." in text  # unchanged context line
    assert "demos: 1 added, 1 removed, 1 changed (2 -> 2)" in text
    assert "  + 타이레놀 효능" in text and "  - 게보린 먹는 법" in text and "  ~ 게보린 부작용" in text
    assert "grader.grade" not in text  # unchanged predictors are not listed
    assert diff_states(BASE, copy.deepcopy(BASE)) == "no differences"


def test_demo_changes_are_keyed_by_question():
    a = [{"question": "q1", "answer": "a"}, {"question": "q2", "answer": "b"}]
    b = [{"question": "q2", "answer": "b", "augmented": True}, {"question": "q3", "answer": "c"}]
    assert diff_demos(a, b) == {"added": ["q3"], "removed": ["q1"], "changed": []}


def test_compare_diff_on_two_state_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(BASE, ensure_ascii=False), encoding="utf-8")
    b.write_text(json.dumps(changed(), ensure_ascii=False), encoding="utf-8")
    assert cli.main(["compare", str(a), str(b), "--diff"]) == 0
    out = capsys.readouterr().out
    assert "+Answer only from the documents." in out
    assert "  + 타이레놀 효능" in out


def test_compare_diff_refuses_what_is_not_a_compiled_program(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    good = tmp_path / "a.json"
    good.write_text(json.dumps(BASE), encoding="utf-8")
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps({"hello": 1}), encoding="utf-8")
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    evil = tmp_path / "program.pkl"
    evil.write_bytes(pickle.dumps(Evil()))
    for bad, says in (
        (notes, "not a yaksa program state"),
        (tmp_path / "missing.json", "no such state file"),
        (evil, "pickled programs can run code"),
    ):
        assert cli.main(["compare", str(good), str(bad), "--diff"]) == 2
        err = capsys.readouterr().err
        assert f"{bad} is not a compiled yaksa program" in err and says in err
        assert err.count("\n") == 1
    assert not marker.exists()
    assert cli.main(["compare", str(good), "--diff"]) == 2
    assert "--diff needs exactly two programs" in capsys.readouterr().err
