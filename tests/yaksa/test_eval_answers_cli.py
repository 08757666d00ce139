"""`yaksa eval-answers`, `yaksa fit-relevance` and `yaksa ask --json -` as users run them, over the real searcher
on the mini corpus."""

import io
import json
import sys

import pytest

from yaksa import cli
from yaksa.commands import _backend
from yaksa.testing.mini_index import real_searcher

ROWS = [
    {"id": "1", "kind": "product", "question": "게보린 부작용", "gold": ["easydrug:197900277:se"]},
    {"id": "2", "kind": "product", "question": "베아제 효능", "gold": ["easydrug:198700405:efcy"]},
    {"id": "3", "kind": "vague", "question": "이 약 어떻게 먹어요?", "gold": ["easydrug:197900277:useMethod"]},
    {"id": "4", "kind": "oos", "question": "삼성전자 주가", "gold": []},
]


@pytest.fixture(autouse=True)
def mini(monkeypatch, tmp_path):
    monkeypatch.setattr(_backend, "open_backend", real_searcher)
    for name in ("YAKSA_LM", "YAKSA_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


def write(tmp_path, rows):
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return str(path)


def test_eval_answers_reports_per_kind(tmp_path, capsys):
    assert cli.main(["eval-answers", "--questions", write(tmp_path, ROWS), "--no-mlflow", "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") :])
    assert summary["product"]["n"] == 2
    assert summary["product"]["cites_gold"] == 1.0
    assert summary["vague"]["n"] == 1
    assert sum(summary["vague"]["first_route"].values()) == 1
    assert summary["out_of_scope"] == {"n": 1, "blocked": 1.0}
    assert summary["all"]["lm_calls_mean"] == 0
    assert summary["all"]["chars_median"] > 0


def test_eval_answers_logs_an_mlflow_run_with_a_table(tmp_path, capsys, monkeypatch):
    import mlflow

    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path}/m.db")
    assert cli.main(["eval-answers", "--questions", write(tmp_path, ROWS)]) == 0
    assert "logged MLflow run" in capsys.readouterr().out
    run = mlflow.search_runs(experiment_names=["yaksa-answers"]).iloc[0]
    assert run["metrics.product.cites_gold"] == 1.0
    artifacts = {a.path for a in mlflow.MlflowClient().list_artifacts(run["run_id"])}
    assert {"answers.json", "answers.csv", "summary.json"} <= artifacts


def test_eval_answers_refuses_rows_without_a_question(tmp_path, capsys):
    assert cli.main(["eval-answers", "--questions", write(tmp_path, [{"gold": []}]), "--no-mlflow"]) == 2
    assert "have no question" in capsys.readouterr().err


def test_ask_json_batch_answers_every_line_in_order(monkeypatch, capsys):
    raw = io.BytesIO("게보린 부작용\n\n".encode() + b"\xff bad\n" + "삼성전자 주가\n".encode())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw))
    assert cli.main(["ask", "--json", "-"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["line"] for x in lines] == [1, 2, 3, 4]
    assert "[문서 1]" in lines[0]["answer"]
    assert lines[0]["trace"]["steps"][0]["step"] == "retrieve"
    assert lines[1]["error"] == "line 2 is empty"
    assert "not valid UTF-8" in lines[2]["error"]
    assert lines[3]["out_of_scope"] is True


def test_fit_relevance_fits_reports_and_writes(tmp_path, capsys, monkeypatch):
    from metrics import retrieval_eval
    from tests.metrics.test_calibration import QUESTIONS
    from yaksa.commands import fit_relevance

    monkeypatch.setattr(retrieval_eval, "load_questions", lambda split: QUESTIONS)
    monkeypatch.setattr(fit_relevance, "open_searcher_or_explain", lambda index_dir=None: real_searcher())
    out = tmp_path / "model.json"
    assert cli.main(["fit-relevance", "-C", "1", "--out", str(out), "--no-mlflow"]) == 0
    text = capsys.readouterr().out
    assert "calibration on the test split" in text
    assert "AUC" in text
    assert out.exists()
    assert json.loads(out.read_text())["report"]["results"]["n"] == 9
    assert cli.main(["fit-relevance", "-C", "0", "--no-mlflow"]) == 2


def test_eval_answers_counts_the_invented_claims_the_grounding_check_caught(tmp_path, capsys):
    """An OpenAI-compatible stub whose every answer adds an invented dose with [문서 9]: all caught, per kind."""
    from tests.yaksa.test_grounding_stub import inventing
    from yaksa.testing.stub_openai import StubOpenAI

    rows = [r for r in ROWS if r["gold"]][:2]
    with StubOpenAI([inventing]) as server:
        argv = ["eval-answers", "--questions", write(tmp_path, rows), "--no-mlflow", "--json"]
        assert cli.main([*argv, "--lm", "openai/stub", "--api-base", server.url]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") :])
    assert summary["all"]["sentences_removed"] == 2
    assert summary["all"]["answers_with_removals"] == 1.0
    assert summary["all"]["duplicate_quotes"] == 0


def test_eval_answers_reports_slot_sentences_and_no_removals_without_an_lm(tmp_path, capsys):
    rows = [{"id": "s", "kind": "slot", "question": "게보린 먹고 술 마셔도 돼?", "gold": ["easydrug:197900277:intrc"]}]
    assert cli.main(["eval-answers", "--questions", write(tmp_path, rows), "--no-mlflow", "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[out.index("{") :])
    assert summary["slot"]["slot_questions"] == 1
    assert summary["slot"]["slot_quoted"] == 1.0
    assert summary["slot"]["sentences_removed"] == 0
    assert summary["slot"]["sentences_checked"] > 0
