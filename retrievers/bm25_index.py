"""BM25 over Kiwi morphemes with bm25s, persisted next to the rest of the index.

Example:
    >>> bm = BM25Index.build([["게보린", "두통"], ["보관", "실온"]], ids=["a", "b"])
    >>> int(bm.scores(["두통"]).argmax())
    0
"""

from __future__ import annotations

import json
from pathlib import Path

import bm25s
import numpy as np


class BM25Index:
    """A bm25s index plus the document ids in index order."""

    def __init__(self, model: bm25s.BM25, ids: list[str]):
        self.model = model
        self.ids = ids

    @classmethod
    def build(
        cls, corpus_tokens: list[list[str]], ids: list[str], method: str = "lucene", k1: float = 1.5, b: float = 0.75
    ) -> BM25Index:
        if len(corpus_tokens) != len(ids):
            raise ValueError("one token list per id")
        # bm25s needs at least one token per document; an empty document gets a placeholder no query contains
        tokens = [t if t else ["\u2205"] for t in corpus_tokens]
        # our own sorted vocabulary: bm25s numbers tokens in set order, which changes with the hash seed, and the
        # same corpus must give byte-identical index files in any process
        vocab = {tok: i for i, tok in enumerate(sorted({tok for doc in tokens for tok in doc}))}
        ids_per_doc = [[vocab[tok] for tok in doc] for doc in tokens]
        model = bm25s.BM25(method=method, k1=k1, b=b)
        model.index(bm25s.tokenization.Tokenized(ids=ids_per_doc, vocab=vocab), show_progress=False)
        return cls(model, list(ids))

    @property
    def vocabulary(self) -> dict[str, int]:
        """Every token of the indexed corpus (token -> its id)."""
        return self.model.vocab_dict

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25 score of every document (index order) for the query tokens; zeros when none is known."""
        known = [t for t in query_tokens if t in self.vocabulary]
        if not known:
            return np.zeros(len(self.ids), dtype=np.float32)
        return np.asarray(self.model.get_scores(known), dtype=np.float32)

    def top(self, query_tokens: list[str], k: int, scores: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The `k` best (document index, score) with a positive score; `scores`: `scores(query_tokens)` when the
        caller has them already (scoring the corpus is most of the cost)."""
        s = self.scores(query_tokens) if scores is None else scores
        k = min(k, len(s))
        if k == 0:
            return []
        idx = np.argpartition(-s, k - 1)[:k]
        idx = idx[np.argsort(-s[idx])]
        return [(int(i), float(s[i])) for i in idx if s[i] > 0]

    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.model.save(str(folder))
        (folder / "ids.json").write_text(json.dumps(self.ids), encoding="utf-8")

    @classmethod
    def load(cls, folder: str | Path) -> BM25Index:
        folder = Path(folder)
        model = bm25s.BM25.load(str(folder))
        ids = json.loads((folder / "ids.json").read_text(encoding="utf-8"))
        if len(ids) != model.scores["num_docs"]:
            raise ValueError(f"BM25 index at {folder} has {model.scores['num_docs']} documents but {len(ids)} ids")
        return cls(model, ids)
