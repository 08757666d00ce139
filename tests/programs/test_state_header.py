"""Nothing unknown is accepted silently: a state header of a format this code does not read, settings keys
`CragSettings` lacks, and a yaksa.toml table no settings object reads are refused with a message naming them;
the format-1 files written so far keep loading."""

import json
from pathlib import Path

import pytest

from programs.loading import StateError, build_program, load, read_state
from programs.settings import CragSettings
from retrievers.config_file import ConfigFileError, read_table

V1 = Path(__file__).parent.parent / "fixtures" / "crag_state_v1.json"


def with_header(tmp_path, **changes) -> Path:
    state = json.loads(V1.read_text(encoding="utf-8"))
    state["yaksa"].update(changes)
    path = tmp_path / "compiled.json"
    path.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    return path


def test_a_format_1_state_still_loads_with_its_settings(tmp_path):
    path = with_header(tmp_path, settings={**read_state(V1)["yaksa"]["settings"], "lm_call_budget": 7})
    assert load(path, backend=object(), lms=None).settings.lm_call_budget == 7


def test_an_unknown_format_is_refused_naming_it(tmp_path):
    path = with_header(tmp_path, format=999)
    with pytest.raises(StateError, match=r"state format 999 is not one this version reads \(1\)"):
        load(path, backend=object(), lms=None)


def test_unknown_settings_keys_are_refused_naming_them(tmp_path):
    settings = {**read_state(V1)["yaksa"]["settings"], "lm_budget": 3, "turbo": True}
    with pytest.raises(StateError, match="unknown settings key.*lm_budget, turbo"):
        load(with_header(tmp_path, settings=settings), backend=object(), lms=None)
    with pytest.raises(StateError, match="lm_budget"):  # a header handed straight to build_program too
        build_program({"program": "crag", "settings": {"lm_budget": 3}}, backend=object(), lms={})


def test_an_unknown_yaksa_toml_table_is_refused_naming_it(tmp_path):
    path = tmp_path / "yaksa.toml"
    path.write_text("[crga]\nlm_call_budget = 3\n[crag]\nmax_rewrites = 1\n", encoding="utf-8")
    with pytest.raises(ConfigFileError, match=r"unknown table\(s\) \[crga\]"):
        CragSettings.load(path)
    path.write_text("[crag]\nmax_rewrites = 1\n[lm]\n[retrieval]\n[serve]\n", encoding="utf-8")
    assert read_table("crag", path) == {"max_rewrites": 1}


def test_a_state_written_before_the_renames_loads_under_todays_names(tmp_path):
    """`grader.grade` and `evaluator.evaluate` are `lm_grader.grade` and `quality_evaluator.evaluate` now, the
    setting `extractive_docs` is `extractive_quotes`; the settings nothing read are dropped, not refused."""
    state = json.loads(V1.read_text(encoding="utf-8"))
    assert {"grader.grade", "evaluator.evaluate"} <= set(state)
    assert {"extractive_docs", "extractive_sentences", "strip_threshold"} <= set(state["yaksa"]["settings"])
    state["yaksa"]["settings"]["extractive_docs"] = 2
    demo = {"augmented": True, "question": "q", "answer": "a", "documents": "d", "profile_summary": "",
            "previous_feedback": "", "grounding": 0.9, "completeness": 0.9, "accuracy": 0.9, "missing_info": [],
            "improvement_suggestions": [], "reason": "r"}  # fmt: skip
    state["evaluator.evaluate"]["demos"] = [demo]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    program = load(path, backend=object(), lms=None)
    assert program.settings.extractive_quotes == 2
    assert program.generator.settings is program.settings is program.quality_evaluator.settings
    assert program.quality_evaluator.evaluate.demos[0]["reason"] == "r"
    assert not any(w.startswith("quality_evaluator") for w in program.load_warnings)
