"""`yaksa compile` end to end over the stub LM server and the fake backend: the MLflow run's params, metrics and
artifacts, the registered version and its champion alias, loading it back through `programs.load` and pyfunc, the
DSPy cache (a second identical compile makes no LM request), an instruction optimizer (MIPROv2), and safe loading."""

import json
import pickle

import mlflow
import pytest
from mlflow import MlflowClient

import programs
from programs.loading import StateError, load, read_state
from tests.helpers.lab import *  # noqa: F403
from yaksa import cli

COMPILE = ["compile", "--train", "4", "--dev", "2", "--seed", "0", "--profile", "baseline"]


def compile_args(lab, *extra):
    return COMPILE + lab.data + lab.lm + list(extra)


def only_run(experiment="test"):
    exp = mlflow.get_experiment_by_name(experiment)
    runs = MlflowClient().search_runs([exp.experiment_id], filter_string="tags.`yaksa.command` = 'compile'")
    assert len(runs) >= 1
    return runs[0]


def test_bootstrap_compile_logs_registers_and_loads_back(lab, capsys, tmp_path):
    state_out = tmp_path / "compiled.json"
    assert cli.main(compile_args(lab, "--optimizer", "bootstrap", "--promote", "--out", str(state_out))) == 0
    out = capsys.readouterr().out
    assert "registered yaksa-crag version 1; it is now @champion" in out
    requests = len(lab.stub.requests)
    assert requests > 0

    run = only_run()
    p, m = run.data.params, run.data.metrics
    assert p["optimizer"] == "bootstrap" and p["metric"] == "quality" and p["profile"] == "baseline"
    assert p["optimizer.max_bootstrapped_demos"] == "2" and p["seed"] == "0" and p["train_n"] == "4"
    assert p["lm.generate"] == "openai/stub" and p["lm.judge"] == "openai/stub" and len(p["dataset_hash"]) == 12
    assert p["code_version"].startswith("0.1.0")
    assert 0 < m["dev_score_before"] <= 1 and 0 < m["dev_score_after"] <= 1
    assert m["lm_calls"] == requests and m["lm_tokens"] == 2 * requests  # the stub reports 1 + 1 tokens per call
    artifacts = {a.path for a in MlflowClient().list_artifacts(run.info.run_id)}
    assert {"program", "dev_before.json", "dev_after.json", "dev_after.csv"} <= artifacts
    assert [a.path for a in MlflowClient().list_artifacts(run.info.run_id, "program")] == ["program/yaksa_state.json"]

    version = MlflowClient().get_model_version_by_alias("yaksa-crag", "champion")
    assert str(version.version) == "1" and version.run_id == run.info.run_id
    assert version.tags["metric"] == "quality" and version.tags["optimizer"] == "bootstrap"

    # the state file carries the demos and the profile, and all three loading paths answer alike
    state = read_state(state_out)
    assert state["yaksa"]["profile"] == "baseline" and state["generator.generate"]["demos"]
    lms = None
    from_file = load(state_out, backend=lab.backend, lms=lms)
    from_registry = programs.load("models:/yaksa-crag@champion", backend=lab.backend, lms=lms)
    assert from_file.dump_state() == from_registry.dump_state()
    # the compile ran without web references; loading turns them back on unless asked otherwise
    assert state["yaksa"]["settings"]["web_references"] is False
    assert from_file.settings.web_references and from_registry.settings.web_references
    assert not load(state_out, backend=lab.backend, lms=lms, web_references=False).settings.web_references
    question = "게보린 부작용"
    expected = from_file(question=question)
    assert from_registry(question=question).answer == expected.answer
    import retrievers.searcher

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(retrievers.searcher, "open_searcher", lambda *a, **k: lab.backend)
        pickle_loads = []
        real_loads = pickle.loads
        patch.setattr(pickle, "loads", lambda *a, **k: pickle_loads.append(1) or real_loads(*a, **k))
        # logged as a model-from-code: the model folder holds the code file, no pickled python model
        files = {a.path for a in MlflowClient().list_artifacts(version.run_id, "model")}
        assert not any(f.endswith(".pkl") for f in files)
        model = mlflow.pyfunc.load_model("models:/yaksa-crag@champion")
        assert pickle_loads == []
        model.unwrap_python_model().program.shared.lms = {}
        assert model.predict({"question": question})[0]["answer"] == expected.answer


def test_in_memory_program_equals_the_registered_one_with_an_lm(lab, capsys):
    from yaksa.commands import compile as compile_cmd

    args = cli.build_parser().parse_args(compile_args(lab, "--optimizer", "bootstrap"))
    result = compile_cmd.run_compile(args, backend=lab.backend)
    config = compile_cmd._lm_flags.lm_config(args)
    lms = config.build()
    loaded = programs.load(f"models:/yaksa-crag/{result['version']}", backend=lab.backend, lms=lms)
    fresh = compile_cmd.build_program(args, lab.backend, lms)
    fresh.load_state(read_state(_state_path(result["run_id"])))
    a, b = loaded(question="게보린 먹는 법"), fresh(question="게보린 먹는 법")
    assert a.answer == b.answer and a.trace["lm_calls"]["total"] == b.trace["lm_calls"]["total"] > 0
    prompts = [r for r in lab.stub.requests[-2 * a.trace["lm_calls"]["total"] :]]
    assert "게보린" in json.dumps(prompts, ensure_ascii=False)  # the demos reached the prompt


def _state_path(run_id):
    return mlflow.artifacts.download_artifacts(run_id=run_id, artifact_path="program/yaksa_state.json")


def test_a_second_identical_compile_makes_no_lm_request(lab, capsys):
    argv = compile_args(lab, "--optimizer", "bootstrap", "--train", "2", "--dev", "1", "--no-register")
    assert cli.main(argv) == 0
    first = len(lab.stub.requests)
    assert cli.main(argv) == 0
    assert len(lab.stub.requests) == first
    runs = MlflowClient().search_runs(
        [mlflow.get_experiment_by_name("test").experiment_id], order_by=["attributes.start_time DESC"]
    )
    assert runs[0].data.metrics["lm_calls"] == 0 and runs[0].data.metrics["lm_cache_hits"] > 0
    assert runs[0].data.params["dataset_hash"] == runs[1].data.params["dataset_hash"]
    assert "LM calls: 0 (+" in capsys.readouterr().out


def test_gepa_compile_reflects_on_the_metric_feedback(lab, capsys):
    argv = compile_args(lab, "--optimizer", "gepa", "--metric-calls", "8", "--train", "3", "--dev", "1")
    assert cli.main(argv) == 0
    run = only_run()
    assert run.data.params["optimizer"] == "gepa" and run.data.params["optimizer.max_metric_calls"] == "8"
    assert "dev_score_after" in run.data.metrics
    reflections = [
        r for r in lab.stub.requests if "missing information: 복용 간격" in json.dumps(r, ensure_ascii=False)
    ]
    assert reflections, "the reflection LM saw the evaluator's missing_info"


def test_mipro_without_optuna_says_what_to_install(lab, capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "optuna", None)
    assert cli.main(compile_args(lab, "--optimizer", "mipro")) == 2
    assert "needs optuna" in capsys.readouterr().err


def test_promote_keeps_a_better_champion(lab, capsys):
    assert cli.main(compile_args(lab, "--optimizer", "bootstrap", "--promote")) == 0
    client = MlflowClient()
    client.set_model_version_tag("yaksa-crag", "1", "dev_score", "2.0")  # an unbeatable champion
    assert cli.main(compile_args(lab, "--optimizer", "bootstrap", "--promote", "--seed", "0")) == 0
    out = capsys.readouterr().out
    assert "@champion stays at version 1" in out
    assert str(client.get_model_version_by_alias("yaksa-crag", "champion").version) == "1"
    assert client.get_model_version("yaksa-crag", "2").tags["dev_score"]


def test_no_lm_says_what_is_needed(lab, capsys):
    assert cli.main(COMPILE + lab.data) == 2
    err = capsys.readouterr().err
    assert "yaksa compile needs an LM: pass --lm MODEL" in err and err.count("\n") == 1


def test_pickled_programs_are_refused_and_never_run(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    bad = tmp_path / "program.pkl"
    bad.write_bytes(pickle.dumps(Evil()))
    with pytest.raises(StateError, match="pickled programs can run code"):
        load(bad, lms={})
    with pytest.raises(StateError):
        read_state(bad)
    assert not marker.exists()


def test_a_json_state_is_only_data(tmp_path):
    not_ours = tmp_path / "x.json"
    not_ours.write_text(json.dumps({"generator.generate": {"demos": []}}))
    with pytest.raises(StateError, match="not a yaksa program state"):
        load(not_ours, lms={})
    garbage = tmp_path / "y.json"
    garbage.write_text("{not json")
    with pytest.raises(StateError, match="not a JSON state file"):
        load(garbage, lms={})
    # an LM smuggled into the state is dropped: the program's LMs come from the caller
    from programs.crag import CRAG
    from programs.loading import save_state

    path = save_state(CRAG(backend=object()), tmp_path / "ok.json", profile="baseline")
    state = json.loads(path.read_text())
    state["generator.generate"]["lm"] = {"model": "openai/evil", "api_base": "http://evil.example/v1"}
    path.write_text(json.dumps(state))
    program = load(path, backend=object(), lms={})
    assert program.generator.generate.lm is None


def test_turn_evaluator_compiles_and_registers_yaksa_turn(lab, capsys):
    argv = ["compile", "--program", "turn", "--train", "3", "--dev", "2", "--experiment", "test", "--promote", *lab.lm]
    assert cli.main(argv) == 0
    assert "registered yaksa-turn version 1; it is now @champion" in capsys.readouterr().out
    run = only_run()
    assert run.data.params["program"] == "turn" and run.data.params["metric"] == "turn"
    program = programs.load("models:/yaksa-turn@champion", lms={})
    assert type(program).__name__ == "TurnEvaluator"
    out = program(prompt="투 포인터로 풀어줘. N <= 10^5", problem_title="두 수의 합")
    assert out.intents and out.score is not None


def test_mipro_compile_proposes_instructions_and_logs_the_run(lab, capsys):
    pytest.importorskip("optuna")
    argv = compile_args(lab, "--optimizer", "mipro", "--candidates", "2", "--trials", "2", "--train", "3", "--dev", "1")
    assert cli.main(argv) == 0
    run = only_run()
    assert run.data.params["optimizer"] == "mipro" and run.data.params["optimizer.num_trials"] == "2"
    assert "dev_score_after" in run.data.metrics and run.data.metrics["lm_calls"] > 0
