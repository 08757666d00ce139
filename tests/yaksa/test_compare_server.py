"""`yaksa compare` against a real MLflow server on 127.0.0.1: two compiles over the stub LM (bootstrap adds demos,
GEPA rewrites the answer instructions) and an evaluate with another metric on another dev set, then

* the table has one column per metric (``quality`` / ``combined``, "—" where a run lacks one), the params as
  columns, the LM requests sent and cache hits as the compiles printed and logged them, and a warning for the
  evaluate's other dev set;
* ``--diff`` shows GEPA's new instructions and bootstrap's demos, for run ids and for registered versions;
* each compile registered its instructions per predictor in the prompt registry, linked to its run and version."""

import json
import re

import mlflow
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from tests.helpers.mlflow_server import *  # noqa: F403
from tests.yaksa.test_compile_cli import MARK, rewards_new_instructions
from yaksa import cli

COMPILE = ["compile", "--train", "3", "--dev", "2", "--seed", "0", "--profile", "baseline", "--experiment", "srv"]
USAGE = re.compile(r"LM calls: (\d+) \(\+(\d+) from cache\)")
RUN = re.compile(r"-> run ([0-9a-f]{32})")


def call(argv, capsys) -> str:
    assert cli.main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_compare_runs_and_programs_through_the_server(  # noqa: F405
    mlflow_server, fresh_cache, backend, stub, qa_dir, monkeypatch, tmp_path, capsys
):
    monkeypatch.chdir(tmp_path)
    lm = ["--data", str(qa_dir), "--lm", "openai/stub", "--api-base", stub.url]
    stub.script(rewards_new_instructions)
    printed = {}
    for optimizer in (["bootstrap"], ["gepa", "--metric-calls", "16"]):
        out = call([*COMPILE, "--optimizer", *optimizer, *lm], capsys)
        run_id = RUN.search(out).group(1)
        printed[run_id] = tuple(map(int, USAGE.search(out).groups()))
        assert "registered 9 prompts" in out
    boot, gepa = printed
    evaluate_argv = ["evaluate", "--metric", "combined", "--dev", "1", "--profile", "baseline", "--experiment", "srv"]
    out = call([*evaluate_argv, *lm], capsys)
    evaluate = RUN.search(out).group(1)

    # the two compiles: no warning, and the counts printed are those logged and those shown
    out = call(["compare", boot, gepa, "--no-log", "--json"], capsys)
    table = json.loads(out)
    assert table["warning"] is None
    rows = {r["run_id"]: r for r in table["rows"]}
    for run_id, (calls, cached) in printed.items():
        metrics = MlflowClient().get_run(run_id).data.metrics
        assert (metrics["lm_calls"], metrics["lm_cache_hits"]) == (calls, cached)
        assert (rows[run_id]["lm_calls"], rows[run_id]["lm_cache_hits"]) == (calls, cached)
    assert rows[boot]["optimizer"] == "bootstrap" and rows[gepa]["optimizer"] == "gepa"
    assert rows[gepa]["quality"] == MlflowClient().get_run(gepa).data.metrics["dev_score_after"]

    # with the evaluate: its metric gets its own column, and its other dev set a warning
    text = call(["compare", boot, gepa, evaluate], capsys)
    head = text.splitlines()[0].split()
    for column in ("command", "optimizer", "metric", "profile", "dataset", "dataset_version", "dev_n"):
        assert column in head
    for column in ("lm.generate", "lm.judge", "quality", "combined", "lm_calls", "lm_cache_hits"):
        assert column in head
    assert "score" not in head
    line = next(x for x in text.splitlines() if x.startswith(evaluate[:8]))
    assert "evaluate" in line and "combined" in line and "—" in line  # no quality, no optimizer
    assert "warning: these runs measured different dev sets" in text
    assert "table and chart logged to run" in text

    # --diff: GEPA's instructions against bootstrap's demos, by run id and by registered version
    diff = call(["compare", boot, gepa, "--diff"], capsys)
    assert "optimizer: bootstrap -> gepa" in diff
    block = diff.split("== generator.generate", 1)[1].split("\n== ", 1)[0]
    assert f"--- {boot}" in block and f"+++ {gepa}" in block
    assert any(x.startswith("+") and MARK in x for x in block.splitlines())
    assert "removed" in block  # bootstrap's demos are not in GEPA's program
    assert (
        call(["compare", "models:/yaksa-crag/1", "models:/yaksa-crag/2", "--diff"], capsys)
        .replace("models:/yaksa-crag/1", boot)
        .replace("models:/yaksa-crag/2", gepa)
        == diff
    )
    assert cli.main(["compare", "models:/yaksa-crag/9", gepa, "--diff"]) == 2
    err = capsys.readouterr().err
    assert "models:/yaksa-crag/9 is not a compiled yaksa program" in err and err.count("\n") == 1

    # the prompts: one version per compile, the GEPA one with the new instructions, linked to its run and version
    client = MlflowClient()
    prompt = mlflow.genai.load_prompt("prompts:/yaksa-generator-generate/2")
    assert MARK in prompt.template
    assert prompt.tags["yaksa.run_id"] == gepa
    assert prompt.tags["yaksa.model_version"] == "yaksa-crag/2"
    assert MARK not in mlflow.genai.load_prompt("prompts:/yaksa-generator-generate/1").template
    linked = json.loads(client.get_run(gepa).data.tags["mlflow.linkedPrompts"])
    assert {"name": "yaksa-generator-generate", "version": "2"} in linked
    assert len(linked) == 9
    assert "yaksa-generator-generate/2" in client.get_model_version("yaksa-crag", "2").tags["yaksa.prompts"]
