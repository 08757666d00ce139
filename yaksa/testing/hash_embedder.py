"""A deterministic, dependency-free embedder for tests: hashed character bigrams, L2-normalised.

Texts sharing bigrams get similar vectors, which is enough to exercise dense retrieval, fusion and the
index's caches without loading a real model.
"""

from __future__ import annotations

import hashlib

import numpy as np


class HashEmbedder:
    name = "hash-test"
    dim = 64

    def __init__(self) -> None:
        self.calls = 0
        self.texts_embedded = 0

    def _embed(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        self.texts_embedded += len(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            t = "".join(text.split())
            for a, b in zip(t, t[1:], strict=False):
                h = int(hashlib.md5((a + b).encode()).hexdigest()[:8], 16)
                out[row, h % self.dim] += 1.0
            out[row, 0] += 1e-3
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def query(self, texts):
        return self._embed(list(texts))

    def passage(self, texts):
        return self._embed(list(texts))


def open_searchers_with_hash_embedder(monkeypatch, default_dir=None) -> None:
    """Make every `open_searcher` call of a test (the commands open their own) use a fresh `HashEmbedder` and a
    private searcher; `default_dir` is the index a call without one opens."""
    from retrievers import index_open

    real_open = index_open.open_searcher

    def open_with_test_embedder(index_dir=None, settings=None, dense=True, shared=True, embedder=None):
        return real_open(
            index_dir or default_dir, settings=settings, dense=dense, shared=False, embedder=HashEmbedder()
        )

    monkeypatch.setattr(index_open, "open_searcher", open_with_test_embedder)
