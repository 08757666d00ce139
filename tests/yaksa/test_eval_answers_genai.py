"""`yaksa eval-answers` against a real `mlflow server` on 127.0.0.1: an evaluation run through
``mlflow.genai.evaluate`` with per-scorer metrics, per-question assessments on its traces, and the question set
registered as a versioned MLflow evaluation dataset."""

import json

import mlflow
from mlflow import MlflowClient

from tests.yaksa.test_eval_answers_cli import REAL_ROWS, mini, write  # noqa: F401  (mini: the mini index)
from tests.yaksa.test_mlflow_server import mlflow_server  # noqa: F401
from yaksa import cli


def test_eval_answers_logs_a_genai_evaluation_with_scorers_assessments_and_a_dataset(
    mlflow_server,  # noqa: F811
    tmp_path,
    capsys,
):
    questions = write(tmp_path, REAL_ROWS)
    assert cli.main(["eval-answers", "--questions", questions, "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") : out.rindex("}") + 1])
    client = MlflowClient(mlflow_server)
    exp = client.get_experiment_by_name("yaksa-answers")
    run = client.search_runs([exp.experiment_id])[0]
    metrics, params = run.data.metrics, run.data.params
    # the scorer means are the summary's shares: 2 of the 3 answerable questions quote a gold phrase
    assert round(metrics["phrase_quoted/mean"], 4) == summary["answerable"]["phrase_quoted"] == 0.6667
    assert round(metrics["gold_cited/mean"], 4) == summary["all"]["cites_gold"]
    for name in ("scope_right", "grounding_clean", "citations_valid", "answer_length", "lm_calls", "latency_ms"):
        assert f"{name}/mean" in metrics
    assert "faithfulness/mean" not in metrics and "quality/mean" not in metrics  # no LM: no LM scorer
    assert metrics["answerable.phrase_quoted"] == summary["answerable"]["phrase_quoted"]  # the summary still logged
    # per question: a trace with each scorer's assessment and the labels as expectations
    traces = mlflow.search_traces(locations=[exp.experiment_id], run_id=run.info.run_id, return_type="list")
    assert len(traces) == len(REAL_ROWS)
    by_question = {t.data.spans[0].inputs["question"]: t for t in traces}
    a1 = {a.name: a.value for a in by_question[REAL_ROWS[0]["question"]].info.assessments}
    a3 = {a.name: a.value for a in by_question[REAL_ROWS[2]["question"]].info.assessments}
    assert (a1["phrase_quoted"], a3["phrase_quoted"]) == (True, False)
    assert a1["gold_phrases"] == REAL_ROWS[0]["gold_phrases"]
    # the dataset and its version
    from mlflow.genai.datasets import search_datasets

    assert params["dataset"] == "q"
    version = params["dataset_version"]
    found = search_datasets(filter_string=f"name = 'q' AND tags.yaksa.dataset_version = '{version}'")
    assert len(found) == 1 and len(found[0].to_df()) == len(REAL_ROWS)
    assert [d.dataset.name for d in run.inputs.dataset_inputs] == ["q"]
    # the same questions again: the same version, no second dataset; a changed set: a new version
    assert cli.main(["eval-answers", "--questions", questions, "--json"]) == 0
    assert cli.main(["eval-answers", "--questions", write(tmp_path, REAL_ROWS[:2]), "--json"]) == 0
    capsys.readouterr()
    runs = client.search_runs([exp.experiment_id], order_by=["attributes.start_time ASC"])
    versions = [r.data.params["dataset_version"] for r in runs]
    assert versions[0] == versions[1] == version != versions[2]
    assert len(search_datasets(filter_string="name = 'q'")) == 2
