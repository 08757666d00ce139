"""Index, config and model-file faults are one line naming the file and the command that fixes it (exit 2), for
`search`, `ask`, `serve` and `evaluate` alike (yaksa/errors.py), over real damaged copies of the mini index."""

import argparse
import json
import shutil

import pytest

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli
from yaksa.commands import _datasets
from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder


@pytest.fixture
def index_copy(mini_index, tmp_path, monkeypatch):
    """A private copy of the mini index, opened with the test embedder by every command."""
    root = tmp_path / "index"
    shutil.copytree(mini_index[0], root)
    open_searchers_with_hash_embedder(monkeypatch, default_dir=root)
    monkeypatch.setenv("YAKSA_INDEX_DIR", str(root))
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "TAVILY_API_KEY", "YAKSA_CHROMA_URL"):
        monkeypatch.delenv(name, raising=False)
    return root


def one_line_error(argv, capsys) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("yaksa: error: "), err
    assert "Traceback" not in err, err
    return err


COMMANDS = [["search", "게보린 부작용"], ["ask", "게보린 부작용", "--no-web"]]


@pytest.mark.parametrize("argv", COMMANDS)
def test_truncated_vectors(index_copy, argv, capsys):
    path = index_copy / "vectors.npz"
    path.write_bytes(path.read_bytes()[:200])
    err = one_line_error(argv, capsys)
    assert "vectors.npz" in err
    assert "`yaksa index" in err


@pytest.mark.parametrize("argv", COMMANDS)
def test_truncated_docs_cut_inside_a_korean_character(index_copy, argv, capsys):
    path = index_copy / "docs.jsonl"
    data = path.read_bytes()
    cut = data.index("게".encode()) + 1  # inside the three bytes of a syllable
    path.write_bytes(data[:cut])
    err = one_line_error(argv, capsys)
    assert "docs.jsonl" in err
    assert "`yaksa index --rebuild`" in err


@pytest.mark.parametrize("argv", COMMANDS)
def test_garbage_chroma_database(index_copy, argv, capsys):
    (index_copy / "vectors.npz").unlink()  # the in-memory vectors are gone: search must read Chroma
    for db in (index_copy / "chroma").rglob("*.sqlite3"):
        db.write_bytes(b"this is not a database" * 100)
    err = one_line_error(argv, capsys)
    assert "chroma" in err.lower()
    assert "`yaksa index --rebuild`" in err


@pytest.mark.parametrize("argv", COMMANDS)
def test_unknown_key_in_retrieval_config(index_copy, tmp_path, monkeypatch, argv, capsys):
    config = tmp_path / "yaksa.toml"
    config.write_text("[retrieval]\nbm25_weigth = 0.5\n", encoding="utf-8")
    monkeypatch.setenv("YAKSA_CONFIG", str(config))
    err = one_line_error(argv, capsys)
    assert str(config) in err
    assert "bm25_weigth" in err


@pytest.mark.parametrize("content", ["[1, 2, 3]", '{"a": 1}'])
@pytest.mark.parametrize("command", ["serve", "ask"])
def test_model_file_that_is_not_a_program(index_copy, tmp_path, content, command, capsys):
    model = tmp_path / "model.json"
    model.write_text(content, encoding="utf-8")
    argv = ["serve", "--model", str(model), "--port", "1"] if command == "serve" else ["ask", "게보린", "--model"]
    if command == "ask":
        argv.append(str(model))
    err = one_line_error(argv, capsys)
    assert str(model) in err
    assert "`yaksa compile --out FILE`" in err


def test_evaluate_rows_without_a_question_stop_before_any_run(lab, tmp_path, capsys):  # noqa: F811
    data = tmp_path / "bad"
    data.mkdir()
    (data / "dev.jsonl").write_text('{"id": "x", "prompt": "게보린"}\n', encoding="utf-8")
    err = one_line_error(["evaluate", "--data", str(data), "--experiment", "test", *lab.lm], capsys)
    assert "dev.jsonl: row 1 has no 'question'" in err
    import mlflow

    assert mlflow.get_experiment_by_name("test") is None  # no MLflow run was started (and marked FAILED)


def test_evaluate_reads_dev_only(tmp_path):
    (tmp_path / "dev.jsonl").write_text(json.dumps({"question": "게보린 부작용"}, ensure_ascii=False) + "\n")
    args = argparse.Namespace(program="crag", data=tmp_path, dev=None, seed=0)
    train, dev, _ = _datasets.datasets(args, train=False)
    assert train == []
    assert [e.question for e in dev] == ["게보린 부작용"]
