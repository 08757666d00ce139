"""The mini corpus (a handful of real rows) and a complete index over it, built with the hash embedder."""

from pathlib import Path

from retrievers.index_builder import build_index
from tests.helpers.hash_embedder import HashEmbedder

MINI_CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "mini_corpus"


def build_mini_index(index_dir):
    return build_index(MINI_CORPUS, index_dir, embedder=HashEmbedder(), shipped_vectors=None, progress=False)
