"""A read-only index (a container image, a shared disk): `search`, `ask` and `serve` answer from it and never write
to it. Tests may run as root, where ``chmod a-w`` stops nothing, so the check is that every file's bytes and mtime
are unchanged, and a Chroma store that cannot be opened for writing (what a read-only mount gives) is simulated."""

import json
import os
import shutil
import stat

import pytest
from fastapi.testclient import TestClient

from retrievers import index_open
from retrievers.vector_store import ChromaStore, VectorStoreError
from yaksa import cli
from yaksa.commands import _backend
from yaksa.testing.hash_embedder import HashEmbedder
from yaksa.testing.serve_app import make_app


def snapshot(root) -> dict:
    return {
        str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def read_only_index(mini_index, tmp_path, monkeypatch):
    """A copy of the mini index made read-only, opened with the test embedder; Chroma cannot be opened."""
    root = tmp_path / "ro-index"
    shutil.copytree(mini_index[0], root)
    for p in [root, *root.rglob("*")]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    real_open = index_open.open_searcher

    def open_with_test_embedder(index_dir=None, settings=None, dense=True, shared=True, embedder=None):
        return real_open(index_dir or root, settings=settings, dense=dense, shared=False, embedder=HashEmbedder())

    def no_writable_chroma(*args, **kwargs):
        raise VectorStoreError(
            f"cannot open the Chroma store at {root / 'chroma'}: attempt to write a readonly database"
        )

    monkeypatch.setattr(index_open, "open_searcher", open_with_test_embedder)
    monkeypatch.setattr(ChromaStore, "open", no_writable_chroma)
    monkeypatch.setenv("YAKSA_INDEX_DIR", str(root))
    before = snapshot(root)
    yield root
    assert snapshot(root) == before, "the index was written to"
    for p in [root, *root.rglob("*")]:
        p.chmod(p.stat().st_mode | stat.S_IWUSR)


def test_search_on_a_read_only_index_uses_dense_vectors_in_memory(read_only_index, capsys):
    s = index_open.open_searcher()
    result = s.retrieve("게보린 부작용", k=3)
    assert result.hits[0].id.endswith(":se")
    assert s.store is None
    unnamed = s.retrieve("속이 더부룩해요", k=3)  # no product named: the query is embedded (dense policy "unnamed")
    assert unnamed.hits
    assert unnamed.hits[0].scores["dense"] != 0
    assert s.store is None
    assert cli.main(["search", "게보린 부작용", "--json", "--index-dir", str(read_only_index)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["id"].endswith(":se")
    if os.geteuid() != 0:  # a real read-only file system check where permissions apply
        with pytest.raises(PermissionError):
            (read_only_index / "probe").write_text("x")


def test_ask_on_a_read_only_index(read_only_index, monkeypatch, capsys):
    monkeypatch.setattr(_backend, "open_backend", lambda: index_open.open_searcher())
    assert cli.main(["ask", "게보린 먹고 속이 쓰려요", "--json", "--no-web"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["citations"]
    assert "게보린" in out["citations"][0]["product"]


def test_serve_on_a_read_only_index(read_only_index):
    c = TestClient(make_app(backend=index_open.open_searcher()))
    assert c.get("/v1/search", params={"q": "게보린 부작용"}).json()["hits"][0]["id"].endswith(":se")
    r = c.post("/v1/ask", json={"question": "게보린 먹고 속이 쓰려요"})
    assert r.status_code == 200
    assert r.json()["citations"]
