"""Retrieval tests use the session-wide mini index of tests/conftest.py; the index-maintenance tests (integrity,
lock, rebuild) share a private copy of it and `yaksa index` over the mini corpus with the test embedder."""

import shutil

import pytest

from retrievers import index_builder, index_open
from yaksa import cli
from yaksa.testing.hash_embedder import HashEmbedder
from yaksa.testing.mini_index import MINI_CORPUS  # noqa: F401  (re-exported for the tests)


@pytest.fixture
def test_embedders(monkeypatch):
    """`yaksa index` and `yaksa search` embed with the test embedder and open their searcher afresh."""
    monkeypatch.setattr(index_builder, "get_embedder", lambda *a, **k: HashEmbedder())
    monkeypatch.setattr(index_open, "get_embedder", lambda *a, **k: HashEmbedder())
    monkeypatch.setattr(index_open, "_SHARED", {})


@pytest.fixture
def index(mini_index, tmp_path, test_embedders):
    """A copy of the mini index in a folder of its own (``tmp/parent/idx``: the lock and a rebuild live beside it)."""
    root = tmp_path / "parent" / "idx"
    shutil.copytree(mini_index[0], root)
    return root


def yaksa_index(root, *flags) -> int:
    """`yaksa index` of the mini corpus into `root` (quiet, no shipped vectors)."""
    return cli.main(["index", str(MINI_CORPUS), "--index-dir", str(root), "-q", "--no-shipped-vectors", *flags])
