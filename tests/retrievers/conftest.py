"""A complete index over tests/fixtures/mini_corpus, built once per session with the hash embedder."""

from pathlib import Path

import pytest

from retrievers.index_builder import build_index
from retrievers.searcher import open_searcher
from tests.helpers.hash_embedder import HashEmbedder

MINI_CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "mini_corpus"


@pytest.fixture(scope="session")
def mini_index(tmp_path_factory):
    index_dir = tmp_path_factory.mktemp("mini_index")
    report = build_index(MINI_CORPUS, index_dir, embedder=HashEmbedder(), shipped_vectors=None, progress=False)
    return index_dir, report


@pytest.fixture(scope="session")
def mini_searcher(mini_index):
    return open_searcher(mini_index[0], embedder=HashEmbedder(), shared=False)
