"""The compiled instructions in MLflow's prompt registry (`yaksa.commands._prompts`): one prompt per predictor named
``yaksa-<predictor>``, registered and linked to the run on a store that has a prompt registry (sqlite), and skipped
with one line on a store without one, the compile itself standing."""

import json

import mlflow
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli
from yaksa.commands import _prompts

STATE = {
    "yaksa": {"format": 1, "program": "crag", "optimizer": "gepa", "metric": "quality"},
    "generator.generate": {"signature": {"instructions": "문서만 근거로 답하세요."}, "demos": []},
    "grader.grade": {"signature": {"instructions": "Grade."}, "demos": []},
    "rewriter.rewrite": {"signature": {"instructions": ""}, "demos": []},
}


def test_prompt_names_and_the_instructions_taken():
    assert _prompts.prompt_name("generator.generate_no_context") == "yaksa-generator-generate_no_context"
    assert _prompts.compiled_prompts(STATE) == {
        "yaksa-generator-generate": ("generator.generate", "문서만 근거로 답하세요."),
        "yaksa-grader-grade": ("grader.grade", "Grade."),
    }


def test_registered_and_linked_to_the_run_on_sqlite(mlflow_db):  # noqa: F405
    run = MlflowClient().create_run(mlflow.create_experiment("prompts"))
    line = _prompts.register(STATE, run.info.run_id, None, None, None)
    assert line.startswith("registered 2 prompts (yaksa-generator-generate/1, yaksa-grader-grade/1")
    prompt = mlflow.genai.load_prompt("prompts:/yaksa-generator-generate/1")
    assert prompt.template == "문서만 근거로 답하세요."
    assert prompt.tags["yaksa.run_id"] == run.info.run_id
    assert prompt.tags["yaksa.predictor"] == "generator.generate"
    linked = json.loads(MlflowClient().get_run(run.info.run_id).data.tags["mlflow.linkedPrompts"])
    assert {"name": "yaksa-grader-grade", "version": "1"} in linked


def test_a_store_without_a_prompt_registry_is_skipped_with_one_line_and_the_compile_stands(lab, capsys, monkeypatch):
    from mlflow.exceptions import MlflowException

    def unsupported(**kwargs):
        raise MlflowException("this tracking store has no prompt registry")

    monkeypatch.setattr(mlflow.genai, "register_prompt", unsupported)
    argv = ["compile", "--train", "2", "--dev", "1", "--profile", "baseline", *lab.data, *lab.lm]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "registered yaksa-crag version 1" in out
    line = next(x for x in out.splitlines() if x.startswith("prompts not registered"))
    assert line == (
        "prompts not registered: the tracking store does not support it "
        "(MlflowException: this tracking store has no prompt registry)"
    )
