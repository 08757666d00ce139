"""`yaksa compile` end to end over the stub LM server and the fake backend: the MLflow run's params, metrics and
artifacts, the registered version and its champion alias, loading it back through `programs.load` and pyfunc (the
compiled demos reach the prompt; an uncompiled program's prompt lacks them), the DSPy cache (a second identical
compile makes no LM request), every optimizer (bootstrap, bootstrap-rs, MIPROv2, GEPA, SIMBA: each changes the
program and registers a version), and safe loading."""

import json
import pickle
import re

import mlflow
import pytest
from mlflow import MlflowClient

import programs
from programs.loading import StateError, build_program, load, read_state
from tests.helpers.lab import *  # noqa: F403
from tests.helpers.lab import TRAIN
from yaksa import cli
from yaksa.testing.any_signature import ANSWER, any_signature, chat

COMPILE = ["compile", "--train", "4", "--dev", "2", "--seed", "0", "--profile", "baseline"]
ASKED = "타이레놀 먹는 법"  # in no train question, and no train question is in it
MARK = "문서만 근거로 답하"  # in what the stub proposes as instructions (yaksa/testing/any_signature.py)
FOLLOWED = "지시문을 따른 답변입니다. 위장 장애가 나타날 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."
EXAMPLED = "예시를 따른 답변입니다. 위장 장애가 나타날 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."


def field(message: str, name: str) -> str:
    found = re.search(rf"\[\[ ## {name} ## \]\]\n(.*?)(?:\n\n\[\[ ## |\Z)", message, re.S)
    return found.group(1).strip() if found else ""


def rewards_new_instructions(request: dict) -> str:
    """Like `any_signature`, but the answer depends on the prompt and the judge rewards the changes an optimizer
    makes: an answer written under the proposed instructions scores 0.9, one written with demos in the prompt 0.75,
    the others 0.6 (0.2 for Tylenol questions, so a batch has good and bad examples)."""
    messages = request.get("messages") or []
    system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
    last = messages[-1]["content"] if messages else ""
    if "`grounding`" in system:
        answer, question = field(last, "answer"), field(last, "question")
        score = {"지시문을": 0.9, "예시를": 0.75}.get(answer.split(" ", 1)[0], 0.2 if "타이레놀" in question else 0.6)
        return chat(
            grounding=score,
            completeness=score,
            accuracy=score,
            missing_info='["복용 간격"]',
            improvement_suggestions='["용법을 함께 안내"]',
            needs_retrieval="false",
            reason="채점",
        )
    if "`module_advice`" in system:  # SIMBA asks for a rule per module
        names = json.loads(field(last, "module_names") or "[]")
        return chat(module_advice=json.dumps({n: "문서만 근거로 답하세요." for n in names}, ensure_ascii=False))
    if is_generate(system):
        return chat(answer=FOLLOWED if MARK in system else EXAMPLED if len(messages) > 2 else ANSWER)
    return any_signature(request)


def is_generate(system: str) -> bool:
    outputs = system.split("Your output fields are:", 1)[-1].split("All interactions", 1)[0]
    return "`answer`" in outputs and "`context`" in system and "`corrected_answer`" not in system


def generate_requests(requests: list[dict]) -> list[str]:
    """The prompts (all messages as JSON text) of the answer-writing calls among `requests`."""
    return [json.dumps(r["messages"], ensure_ascii=False) for r in requests if is_generate(r["messages"][0]["content"])]


def demo_questions(state: dict, predictor: str = "generator.generate") -> list[str]:
    return [d["question"] for d in state[predictor]["demos"]]


def instructions(state: dict) -> dict:
    return {name: entry["signature"]["instructions"] for name, entry in state.items() if name != "yaksa"}


def uncompiled_instructions(state: dict) -> dict:
    program = build_program(state["yaksa"], backend=object(), lms={})
    return {name: p.signature.instructions for name, p in program.named_predictors()}


def prompt_of(program, stub, question: str = ASKED) -> str:
    """Ask `program` one question; the prompt its answer-writing call sent to the stub (the DSPy cache is off
    meanwhile, so every call reaches the stub)."""
    import dspy

    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)  # the `fresh_cache` fixture restores it
    before = len(stub.requests)
    program(question=question)
    prompts = generate_requests(stub.requests[before:])
    assert len(prompts) == 1, [r["messages"][0]["content"][-300:] for r in stub.requests[before:]]
    return prompts[0]


def compile_args(lab, *extra):
    return COMPILE + lab.data + lab.lm + list(extra)


def only_run(experiment="test"):
    exp = mlflow.get_experiment_by_name(experiment)
    runs = MlflowClient().search_runs([exp.experiment_id], filter_string="tags.`yaksa.command` = 'compile'")
    assert len(runs) >= 1
    return runs[0]


def test_bootstrap_compile_logs_registers_and_loads_back(lab, capsys, tmp_path, monkeypatch):
    state_out = tmp_path / "compiled.json"
    assert cli.main(compile_args(lab, "--optimizer", "bootstrap", "--promote", "--out", str(state_out))) == 0
    out = capsys.readouterr().out
    assert "registered yaksa-crag version 1; it is now @champion" in out
    requests = len(lab.stub.requests)
    assert requests > 0

    run = only_run()
    p, m = run.data.params, run.data.metrics
    assert p["optimizer"] == "bootstrap"
    assert p["metric"] == "quality"
    assert p["profile"] == "baseline"
    assert p["optimizer.max_bootstrapped_demos"] == "2"
    assert p["seed"] == "0"
    assert p["train_n"] == "4"
    assert p["lm.generate"] == "openai/stub"
    assert p["lm.judge"] == "openai/stub"
    assert len(p["dataset_hash"]) == 12
    assert p["code_version"].startswith("0.1.0")
    assert 0 < m["dev_score_before"] <= 1
    assert 0 < m["dev_score_after"] <= 1
    assert m["lm_calls"] == requests
    assert m["lm_tokens"] == 2 * requests  # the stub reports 1 + 1 tokens per call
    artifacts = {a.path for a in MlflowClient().list_artifacts(run.info.run_id)}
    assert {"program", "dev_before.json", "dev_after.json", "dev_after.csv"} <= artifacts
    assert [a.path for a in MlflowClient().list_artifacts(run.info.run_id, "program")] == ["program/yaksa_state.json"]

    version = MlflowClient().get_model_version_by_alias("yaksa-crag", "champion")
    assert str(version.version) == "1"
    assert version.run_id == run.info.run_id
    assert version.tags["metric"] == "quality"
    assert version.tags["optimizer"] == "bootstrap"

    # the state file carries the demos and the profile, and all three loading paths hold the same compiled state
    state = read_state(state_out)
    assert state["yaksa"]["profile"] == "baseline"
    demos = demo_questions(state)
    assert demos
    assert all(q != ASKED and q not in ASKED for q in demos)
    lms = compile_lms(lab)
    from_file = load(state_out, backend=lab.backend, lms=lms)
    from_registry = programs.load("models:/yaksa-crag@champion", backend=lab.backend, lms=lms)
    assert from_file.dump_state() == from_registry.dump_state()
    assert demo_questions(from_file.dump_state()) == demos
    # the compile ran without web references; loading turns them back on unless asked otherwise
    assert state["yaksa"]["settings"]["web_references"] is False
    assert from_file.settings.web_references
    assert from_registry.settings.web_references
    assert not load(state_out, backend=lab.backend, lms=lms, web_references=False).settings.web_references
    # the demos reach the prompt of every loaded program, and only through the compiled state
    prompt = prompt_of(from_file, lab.stub)
    assert all(q in prompt for q in demos)
    assert prompt_of(from_registry, lab.stub) == prompt
    uncompiled = prompt_of(build_program(state["yaksa"], backend=lab.backend, lms=lms), lab.stub)
    assert not any(q in uncompiled for q in demos)

    import dspy

    import retrievers.index_open

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(retrievers.index_open, "open_searcher", lambda *a, **k: lab.backend)
        for name, value in (("YAKSA_LM", "openai/stub"), ("YAKSA_API_BASE", lab.stub.url), ("YAKSA_API_KEY", "x")):
            patch.setenv(name, value)  # pyfunc builds its LMs from the LM configuration
        pickle_loads = []
        real_loads = pickle.loads
        patch.setattr(pickle, "loads", lambda *a, **k: pickle_loads.append(1) or real_loads(*a, **k))
        # logged as a model-from-code: the model folder holds the code file, no pickled python model
        files = {a.path for a in MlflowClient().list_artifacts(version.run_id, "model")}
        assert not any(f.endswith(".pkl") for f in files)
        model = mlflow.pyfunc.load_model("models:/yaksa-crag@champion")
        assert pickle_loads == []
        served = model.unwrap_python_model().program
        assert served.dump_state() == from_file.dump_state()
        dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=False)
        before = len(lab.stub.requests)
        row = model.predict({"question": ASKED})[0]
        assert row["lm_calls"] > 0
        assert generate_requests(lab.stub.requests[before:]) == [prompt]  # the compiled demos, through pyfunc
        assert row["answer"] == from_file(question=ASKED).answer


def compile_lms(lab) -> dict:
    """The per-role LMs `yaksa compile` builds from the lab's LM flags."""
    from yaksa.commands import compile as compile_cmd

    args = cli.build_parser().parse_args(compile_args(lab))
    return compile_cmd._lm_flags.lm_config(args).build()


def test_in_memory_program_equals_the_registered_one_with_an_lm(lab, capsys):
    from yaksa.commands import compile as compile_cmd

    args = cli.build_parser().parse_args(compile_args(lab, "--optimizer", "bootstrap"))
    result = compile_cmd.run_compile(args, backend=lab.backend)
    lms = compile_lms(lab)
    loaded = programs.load(f"models:/yaksa-crag/{result['version']}", backend=lab.backend, lms=lms)
    fresh = compile_cmd.build_program(args, lab.backend, lms)
    uncompiled_state = fresh.dump_state()
    fresh.load_state(read_state(_state_path(result["run_id"])))
    assert loaded.dump_state() == fresh.dump_state()
    assert fresh.dump_state() != uncompiled_state
    demos = demo_questions(fresh.dump_state())
    assert demos
    assert demo_questions(uncompiled_state) == []
    a, b = loaded(question=ASKED), fresh(question=ASKED)
    assert a.answer == b.answer
    assert a.trace["lm_calls"]["total"] == b.trace["lm_calls"]["total"] > 0
    prompt = prompt_of(loaded, lab.stub)
    assert prompt == prompt_of(fresh, lab.stub)
    assert all(q in prompt for q in demos)  # the demos reached the prompt ...
    assert ASKED not in demos
    assert not any(q in prompt_of(compile_cmd.build_program(args, lab.backend, lms), lab.stub) for q in demos)


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
    assert runs[0].data.metrics["lm_calls"] == 0
    assert runs[0].data.metrics["lm_cache_hits"] > 0
    assert runs[0].data.params["dataset_hash"] == runs[1].data.params["dataset_hash"]
    assert "LM calls: 0 (+" in capsys.readouterr().out


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
    assert "yaksa compile needs an LM: pass --lm MODEL" in err
    assert err.count("\n") == 1


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
    assert run.data.params["program"] == "turn"
    assert run.data.params["metric"] == "turn"
    program = programs.load("models:/yaksa-turn@champion", lms={})
    assert type(program).__name__ == "TurnEvaluator"
    out = program(prompt="투 포인터로 풀어줘. N <= 10^5", problem_title="두 수의 합")
    assert out.intents
    assert out.score is not None


def registered_state(run) -> dict:
    """The compiled state of the model version registered from `run` (it must exist)."""
    versions = MlflowClient().search_model_versions("name='yaksa-crag'")
    mine = [v for v in versions if v.run_id == run.info.run_id]
    assert len(mine) == 1
    assert mine[0].tags["optimizer"] == run.data.params["optimizer"]
    return read_state(_state_path(run.info.run_id))


def changed_instructions(state: dict) -> dict:
    """{predictor: new instructions} for the predictors whose instructions differ from the uncompiled program's."""
    before = uncompiled_instructions(state)
    return {name: text for name, text in instructions(state).items() if text != before[name]}


def test_mipro_compile_proposes_instructions_and_registers_them(lab, capsys):
    pytest.importorskip("optuna")
    lab.stub.script(rewards_new_instructions)
    argv = compile_args(lab, "--optimizer", "mipro", "--candidates", "2", "--trials", "4", "--train", "3", "--dev", "2")
    assert cli.main(argv) == 0
    run = only_run()
    assert run.data.params["optimizer"] == "mipro"
    assert run.data.params["optimizer.num_trials"] == "4"
    assert run.data.metrics["lm_calls"] > 0
    changed = changed_instructions(registered_state(run))
    assert MARK in changed.get("generator.generate", "")  # the proposed instructions won and were registered
    assert run.data.metrics["dev_score_after"] > run.data.metrics["dev_score_before"]


def test_gepa_compile_reflects_on_the_metric_feedback_and_registers_new_instructions(lab, capsys):
    lab.stub.script(rewards_new_instructions)
    argv = compile_args(lab, "--optimizer", "gepa", "--metric-calls", "16", "--train", "3", "--dev", "2")
    assert cli.main(argv) == 0
    run = only_run()
    assert run.data.params["optimizer"] == "gepa"
    assert run.data.params["optimizer.max_metric_calls"] == "16"
    reflections = [
        r for r in lab.stub.requests if "missing information: 복용 간격" in json.dumps(r, ensure_ascii=False)
    ]
    assert reflections, "the reflection LM saw the evaluator's missing_info"
    changed = changed_instructions(registered_state(run))
    assert MARK in changed.get("generator.generate", "")
    assert run.data.metrics["dev_score_after"] > run.data.metrics["dev_score_before"]


def test_simba_compile_changes_the_program_and_registers_it(lab, capsys):
    lab.stub.script(rewards_new_instructions)
    argv = compile_args(lab, "--optimizer", "simba", "--steps", "2", "--candidates", "2", "--train", "4", "--dev", "2")
    assert cli.main(argv) == 0
    run = only_run()
    assert run.data.params["optimizer"] == "simba"
    assert run.data.params["optimizer.max_steps"] == "2"
    assert run.data.params["optimizer.num_candidates"] == "2"
    state = registered_state(run)
    demos = sum(len(entry.get("demos", [])) for name, entry in state.items() if name != "yaksa")
    assert changed_instructions(state) or demos > 0  # a rule appended to the instructions, or a demo added
    assert run.data.metrics["dev_score_after"] > run.data.metrics["dev_score_before"]


def test_bootstrap_random_search_tries_candidates_and_registers_the_best(lab, capsys):
    lab.stub.script(rewards_new_instructions)
    argv = compile_args(lab, "--optimizer", "bootstrap-rs", "--candidates", "2", "--train", "4", "--dev", "2")
    assert cli.main(argv) == 0
    run = only_run()
    assert run.data.params["optimizer"] == "bootstrap-rs"
    assert run.data.params["optimizer.num_candidate_programs"] == "2"
    state = registered_state(run)
    assert demo_questions(state)
    assert set(demo_questions(state)) <= {row["question"] for row in TRAIN}
    assert changed_instructions(state) == {}  # a few-shot optimizer: demos only
    assert run.data.metrics["dev_score_after"] > run.data.metrics["dev_score_before"]
