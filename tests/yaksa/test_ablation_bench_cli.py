"""`yaksa ablation` (six profiles, child runs under a parent, the comparison table) and `yaksa bench kormedmcqa`
(MCQ accuracy with and without retrieval) over the stub LM; both say what they need without an LM."""

import csv
import random

import mlflow
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli
from yaksa.commands.bench import KORMEDMCQA


def test_ablation_prints_the_table_and_logs_one_child_run_per_profile(lab, capsys):
    argv = ["ablation", "--data", str(lab.qa), "--experiment", "abl", *lab.lm]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert "profile" in lines
    assert "quality" in lines["profile"]
    assert "loop stops" in lines["profile"]
    for name in ("baseline", "self_refine_heuristic", "full_context_engineering"):
        assert name in lines
    assert "basic_rag:1" in lines["baseline"]
    assert "quality_ok:1" in lines["full_context_engineering"]
    baseline_calls = float(lines["baseline"].split()[4])
    full_calls = float(lines["full_context_engineering"].split()[4])
    assert baseline_calls < full_calls  # evaluation costs LM calls the baseline does not make
    exp = mlflow.get_experiment_by_name("abl")
    runs = MlflowClient().search_runs([exp.experiment_id])
    parent = [r for r in runs if r.info.run_name.startswith("ablation-seed")][0]
    children = [r for r in runs if r.data.tags.get("mlflow.parentRunId") == parent.info.run_id]
    assert sorted(r.data.params["profile"] for r in children) == sorted(
        [
            "baseline",
            "self_refine_heuristic",
            "self_refine_llm_quality",
            "self_refine_dynamic_query",
            "self_refine_full_safety",
            "full_context_engineering",
        ]
    )
    assert all("quality" in r.data.metrics and "loop_stops" in r.data.metrics for r in children)
    for child in children:  # the LM requests sent and served from cache: printed as logged
        sent, cached = lines[child.data.params["profile"]].split()[5:7]
        assert (int(sent), int(cached)) == (child.data.metrics["lm_calls"], child.data.metrics["lm_cache_hits"])
        assert child.data.params["dataset_version"] == parent.data.params["dataset_version"]
    assert "sent" in lines["profile"] and "cached" in lines["profile"]
    assert sum(c.data.metrics["lm_cache_hits"] for c in children) > 0  # later profiles reuse earlier calls


def test_ablation_without_an_lm_says_what_is_needed(lab, capsys):
    assert cli.main(["ablation", "--data", str(lab.qa)]) == 2
    assert "yaksa ablation needs an LM: pass --lm MODEL" in capsys.readouterr().err


def test_bench_kormedmcqa_scores_both_arms(lab, capsys):
    assert cli.main(["bench", "kormedmcqa", "--n", "5", "--seed", "1", "--experiment", "bench", *lab.lm]) == 0
    out = capsys.readouterr().out
    rows = list(csv.DictReader((KORMEDMCQA / "test.csv").open(encoding="utf-8")))
    drawn = [rows[i] for i in sorted(random.Random(1).sample(range(len(rows)), 5))]
    expected = sum(r["answer"] == "A" for r in drawn) / 5  # the stub always picks the first option
    assert f"no_retrieval       {expected:.3f}" in out
    assert f"retrieval          {expected:.3f}" in out
    run = MlflowClient().search_runs([mlflow.get_experiment_by_name("bench").experiment_id])[0]
    assert run.data.metrics["no_retrieval.accuracy"] == expected
    assert run.data.params["n"] == "5"
    assert run.data.metrics["no_retrieval.lm_calls"] == 5
    arm = next(line for line in out.splitlines() if line.startswith("no_retrieval "))
    assert arm.split()[-2:] == ["5", str(int(run.data.metrics["no_retrieval.lm_cache_hits"]))]  # printed as logged


def test_bench_without_an_lm_says_what_is_needed(lab, capsys):
    assert cli.main(["bench", "kormedmcqa", "--n", "2"]) == 2
    assert "yaksa bench kormedmcqa needs an LM" in capsys.readouterr().err
