"""`yaksa evaluate` over the stub LM and the fake backend: dspy.Evaluate's mean, the per-example table artifact,
LM usage, evaluation of a compiled state file, and the turn evaluator."""

import json

import mlflow
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli


def last_run(experiment="test"):
    exp = mlflow.get_experiment_by_name(experiment)
    return MlflowClient().search_runs([exp.experiment_id], order_by=["attributes.start_time DESC"])[0]


def test_evaluate_logs_the_score_and_the_per_example_table(lab, capsys):
    assert cli.main(["evaluate", "--profile", "baseline", "--threads", "2", *lab.data, *lab.lm]) == 0
    out = capsys.readouterr().out
    assert "quality score: 0.930 (undetermined: 0)" in out
    run = last_run()
    assert run.data.params["model"] == "uncompiled"
    assert run.data.params["optimizer"] == "none"
    assert run.data.params["dev_n"] == "2"
    assert len(run.data.params["dataset_version"]) == 12
    m = run.data.metrics
    assert abs(m["dev_score"] - 0.93) < 1e-9
    assert m["dev_undetermined"] == 0
    assert m["lm_calls"] == len(lab.stub.requests) > 0
    path = mlflow.artifacts.download_artifacts(run_id=run.info.run_id, artifact_path="dev_examples.json")
    table = json.loads(open(path, encoding="utf-8").read())
    rows = dict(zip(table["columns"], zip(*table["data"], strict=True), strict=True))
    assert rows["id"] == ("d1", "d2")
    assert rows["out_of_scope"] == (False, True)
    assert rows["score"] == (0.86, 1.0)


def test_a_repeated_evaluation_is_served_from_the_cache(lab, capsys):
    argv = ["evaluate", "--profile", "baseline", *lab.data, *lab.lm]
    assert cli.main(argv) == 0
    first = len(lab.stub.requests)
    assert cli.main(argv) == 0
    assert len(lab.stub.requests) == first
    assert last_run().data.metrics["lm_calls"] == 0


def test_evaluate_a_compiled_state_file(lab, capsys, tmp_path):
    state = tmp_path / "compiled.json"
    argv = ["compile", "--train", "2", "--dev", "1", "--profile", "baseline", "--no-register", "--out", str(state)]
    assert cli.main(argv + lab.data + lab.lm) == 0
    assert cli.main(["evaluate", "--model", str(state), *lab.data, "--dev", "1", *lab.lm]) == 0
    run = last_run()
    assert run.data.params["model"] == str(state)
    assert run.data.params["profile"] == "baseline"
    assert run.data.params["optimizer"] == "bootstrap"  # from the state's header, as `yaksa compare` shows it
    compiled = MlflowClient().search_runs([run.info.experiment_id], filter_string="tags.`yaksa.command` = 'compile'")[0]
    assert run.data.params["dataset_version"] == compiled.data.params["dataset_version"]  # the same dev question


def test_turn_program_evaluates_on_the_turn_set(lab, capsys):
    argv = ["evaluate", "--program", "turn", "--dev", "3", "--experiment", "test", *lab.lm]
    assert cli.main(argv) == 0
    run = last_run()
    assert run.data.params["program"] == "turn"
    assert run.data.params["metric"] == "turn"
    assert 0 <= run.data.metrics["dev_score"] <= 1


def test_ragas_metric_without_an_lm_says_what_is_needed(lab, capsys):
    assert cli.main(["evaluate", "--metric", "ragas", *lab.data]) == 2
    assert "the ragas metric needs an LM" in capsys.readouterr().err
