"""The whole loop with the stub LM: compile -> a registered champion -> `yaksa ask --model
models:/yaksa-crag@champion` answers -> `yaksa compare` prints the runs and logs a PNG chart."""

import mlflow
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli


def test_compile_ask_champion_and_compare(lab, capsys):
    argv = ["compile", "--train", "3", "--dev", "2", "--profile", "baseline", "--promote", *lab.data, *lab.lm]
    assert cli.main(argv) == 0
    assert cli.main(["evaluate", "--profile", "baseline", *lab.data, *lab.lm]) == 0
    capsys.readouterr()

    before = len(lab.stub.requests)
    ask = ["ask", "게보린 부작용", "--model", "models:/yaksa-crag@champion", "--no-stream", *lab.lm]
    assert cli.main(ask) == 0
    out = capsys.readouterr().out
    assert "[문서 1]" in out
    assert "전문가와 꼭 상담하세요" in out
    assert "게보린정(수출명:돌로린정) · " in out
    demo_prompt = lab.stub.requests[before]["messages"]
    assert len(demo_prompt) > 2  # the compiled demos travel as extra chat turns

    assert cli.main(["compare", "--experiment", "test"]) == 0
    out = capsys.readouterr().out
    assert "compile-crag-bootstrap" in out
    assert "evaluate-crag" in out
    assert "lm_calls" in out
    assert "duration_s" in out
    runs = MlflowClient().search_runs(
        [mlflow.get_experiment_by_name("test").experiment_id], filter_string="tags.`yaksa.command` = 'compare'"
    )
    assert len(runs) == 1
    files = {a.path for a in MlflowClient().list_artifacts(runs[0].info.run_id)}
    assert {"compare.png", "compare.txt"} <= files


def test_ask_with_a_missing_model_is_one_line(lab, capsys, tmp_path):
    assert cli.main(["ask", "게보린", "--model", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert "no such state file" in err
    assert err.count("\n") == 1


def test_compare_without_runs_is_one_line(lab, capsys):
    assert cli.main(["compare", "--experiment", "nothing-here"]) == 2
    assert "no experiment 'nothing-here'" in capsys.readouterr().err
