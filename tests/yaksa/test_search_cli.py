"""`yaksa search` and `yaksa index` as a user runs them, over the mini index."""

import io
import json

import pytest

from yaksa.cli import main


@pytest.fixture
def index_dir(mini_index, monkeypatch):
    from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder

    open_searchers_with_hash_embedder(monkeypatch)
    return str(mini_index[0])


def test_search_prints_ranked_documents(index_dir, capsys):
    assert main(["search", "게보린 부작용", "--index-dir", index_dir]) == 0
    out = capsys.readouterr().out
    first = [line for line in out.splitlines() if line.startswith("1. ")][0]
    assert ":se" in first
    assert "게보린" in first


def test_search_json_and_k(index_dir, capsys):
    assert main(["search", "게보린 부작용", "--json", "-k", "2", "--index-dir", index_dir]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 2
    assert set(rows[0]) == {"id", "score", "metadata"}
    assert rows[0]["id"].endswith(":se")


def test_stdin_batch_writes_one_array_per_line_in_order(index_dir, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("게보린 부작용\n\n베아제 보관\n"))
    assert main(["search", "--json", "-", "-k", "3", "--index-dir", index_dir]) == 0
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 3
    first, empty, third = (json.loads(line) for line in lines)
    assert first[0]["id"].endswith(":se")
    assert empty == []
    assert third
    assert "베아제" in third[0]["metadata"]["item_name"]
    assert "empty" in captured.err


def test_bad_input_gets_one_line_errors(index_dir, capsys):
    assert main(["search", "   ", "--index-dir", index_dir]) == 2
    assert "empty" in capsys.readouterr().err
    assert main(["search", "게보린 " * 20_000, "--json", "--index-dir", index_dir]) == 0
    assert "cut" in capsys.readouterr().err
    assert main(["search", "x", "--index-dir", index_dir + "-missing"]) == 2
    assert "yaksa index" in capsys.readouterr().err


def test_index_command_reports_counts(tmp_path, capsys):
    from tests.retrievers.conftest import MINI_CORPUS

    assert main(["index", str(MINI_CORPUS), "--index-dir", str(tmp_path / "i"), "--bm25-only", "-q"]) == 0
    out = capsys.readouterr().out
    assert "documents" in out
    assert "bm25-only" in out
    assert main(["index", str(tmp_path / "nope"), "--index-dir", str(tmp_path / "i2"), "-q"]) == 2
    assert "not found" in capsys.readouterr().err
