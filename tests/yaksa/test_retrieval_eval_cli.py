"""`yaksa eval-retrieval` and `yaksa tune-retrieval` over the mini index, with MLflow in a tmp store."""

import json

import pytest

from yaksa.cli import main


@pytest.fixture
def setup(mini_index, mini_searcher, tmp_path, monkeypatch):
    from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder

    open_searchers_with_hash_embedder(monkeypatch)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")

    def doc_id(name: str, section: str) -> str:
        return next(
            d.id for d in mini_searcher.docs if name in d.metadata.get("item_name", "") and d.id.endswith(f":{section}")
        )

    rows = [
        {
            "id": "q1",
            "question": "게보린 먹으면 부작용 있어요?",
            "gold": [doc_id("게보린", "se")],
            "kind": "product_section",
        },
        {
            "id": "q2",
            "question": "베아제 어떻게 보관해요",
            "gold": [doc_id("베아제", "depositMethod")],
            "kind": "product_section",
        },
        {
            "id": "q3",
            "question": "부루펜 하루에 몇알",
            "gold": [doc_id("부루펜", "useMethod")],
            "kind": "product_section",
        },
        {"id": "q4", "question": "ㅋㅋㅋㅋㅋ", "gold": [], "kind": "oos"},
    ]
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return str(mini_index[0]), str(questions), tmp_path


def test_eval_retrieval_prints_every_mode_and_logs_a_run(setup, capsys):
    index_dir, questions, tmp_path = setup
    assert main(["eval-retrieval", "--questions", questions, "--index-dir", index_dir, "--json"]) == 0
    out = capsys.readouterr().out
    table = json.loads(out[: out.rindex("}") + 1])
    assert set(table) == {"bm25", "dense", "seed", "hybrid"}
    assert table["hybrid"]["product_section"]["recall@5"] == 1.0
    assert table["hybrid"]["oos"]["recall"] == 1.0
    assert table["hybrid"]["all"]["recall@5"] >= table["bm25"]["all"]["recall@5"]

    import mlflow

    runs = mlflow.search_runs(experiment_names=["yaksa-retrieval"])
    assert len(runs) == 1
    assert runs["metrics.hybrid.all.recall_at_5"].iloc[0] == 1.0


def test_tune_retrieval_finds_better_settings_and_writes_the_best_trial(setup, capsys, monkeypatch):
    index_dir, questions, tmp_path = setup
    config = tmp_path / "yaksa.toml"
    # current settings that rank by the (hash) embedding alone: tuning has something to find
    config.write_text(
        '[lm]\ngenerate = "openai/x"\n\n[retrieval.weights]\nbm25 = 0.0\ndense = 1.0\nproduct = 0.0\nsection = 0.0\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("YAKSA_CONFIG", str(config))  # every command reads its [retrieval] table from here
    args = ["tune-retrieval", "--questions", questions, "--index-dir", index_dir, "--trials", "5"]
    assert main([*args, "--config", str(config)]) == 0
    out = capsys.readouterr().out
    current = float(out.split("current  recall@5 ")[1].split()[0])
    best = float(out.split("best     recall@5 ")[1].split()[0])
    assert current < 1.0  # the embedding alone misses a gold document
    assert best > current  # a trial beat it
    text = config.read_text(encoding="utf-8")
    assert '[lm]\ngenerate = "openai/x"' in text
    assert "[retrieval.weights]" in text

    from retrievers.settings import RetrievalSettings

    written = RetrievalSettings.load(config)
    assert written.oos_min_dense > 0
    assert written.weights != {"bm25": 0.0, "dense": 1.0, "product": 0.0, "section": 0.0}

    import mlflow

    runs = mlflow.search_runs(experiment_names=["yaksa-retrieval"])
    assert len(runs) == 1 + 5  # the parent and one child per trial
    trials = runs[runs["tags.mlflow.parentRunId"].notna()]
    assert best == pytest.approx(trials["metrics.recall_at_5"].max(), abs=1e-3)  # the best trial, not any trial
    top = trials[trials["metrics.recall_at_5"] >= trials["metrics.recall_at_5"].max() - 1e-9]
    top = top[top["metrics.mrr_at_10"] >= top["metrics.mrr_at_10"].max() - 1e-9]
    top_weights = [{k: float(row[f"params.w_{k}"]) for k in written.weights} for _, row in top.iterrows()]
    assert written.weights in top_weights  # the written weights are those of a best trial

    # the written settings score what tuning printed, on the same questions
    assert main(["eval-retrieval", "--questions", questions, "--index-dir", index_dir, "--json", "--no-mlflow"]) == 0
    out = capsys.readouterr().out
    table = json.loads(out[: out.rindex("}") + 1])
    assert table["hybrid"]["all"]["recall@5"] == pytest.approx(best, abs=1e-3)


def test_bad_question_file_is_one_line(setup, capsys, tmp_path):
    index_dir, _, _ = setup
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    assert main(["eval-retrieval", "--questions", str(bad), "--index-dir", index_dir, "--no-mlflow"]) == 2
    assert "cannot read" in capsys.readouterr().err
