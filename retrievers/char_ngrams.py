"""Character n-grams within words and their TF-IDF weights, as scikit-learn's ``char_wb`` analyzer and
``TfidfVectorizer(sublinear_tf=True)`` make them: what the learned scope, aspect and section models read, without
scikit-learn at run time; `NgramLinearModel`, the per-label linear scores the aspect and section models share.

Example:
    >>> char_wb_ngrams("콧속 헐", 2, 2)
    [' 콧', '콧속', '속 ', ' 헐', '헐 ']
    >>> import numpy as np
    >>> cols, weights = tfidf_weights("콧속", {" 콧": 0, "콧속": 1}, np.array([1.0, 1.0]), (2, 2))
    >>> cols.tolist(), [round(float(w), 3) for w in weights]
    ([0, 1], [0.707, 0.707])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from retrievers.memo import remembered


def char_wb_ngrams(text: str, lo: int, hi: int) -> list[str]:
    """Character `lo`–`hi`-grams within words, each word padded with a space (lowercased, runs of white space read
    as one)."""
    out: list[str] = []
    for word in text.lower().split():
        w = f" {word} "
        for n in range(lo, hi + 1):
            offset = 0
            out.append(w[offset : offset + n])
            while offset + n < len(w):
                offset += 1
                out.append(w[offset : offset + n])
            if offset == 0:  # a word shorter than n: counted once
                break
    return out


def tfidf_weights(text: str, columns: dict[str, int], idf: np.ndarray, ngrams: tuple[int, int]):
    """The columns of `text`'s known n-grams and their L2-normalised sublinear TF-IDF weights (both empty when
    none is known)."""
    counts = Counter(g for g in char_wb_ngrams(text, *ngrams) if g in columns)
    if not counts:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    cols = np.fromiter((columns[g] for g in counts), dtype=np.int64, count=len(counts))
    tf = 1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64, count=len(counts)))
    weights = tf * idf[cols]
    norm = float(np.linalg.norm(weights))
    return cols, (weights / norm if norm else weights)


@dataclass(frozen=True)
class NgramLinearModel:
    """A fitted linear model over `tfidf_weights`, read from its JSON (no scikit-learn, no pickle): each n-gram's
    column and IDF, and per label a coefficient row and an intercept. A subclass turns the scores into probabilities
    (`_link`) and names the JSON key of its labels (`LABELS`); each text's probabilities are remembered for recent
    texts (retrieval, the program and the answer each read the same question)."""

    labels: tuple[str, ...]
    columns: dict[str, int]
    idf: np.ndarray
    coef: np.ndarray  # labels x n-grams
    intercepts: np.ndarray
    ngrams: tuple[int, int] = (1, 3)
    _memo: dict = field(default_factory=dict, compare=False, repr=False)
    LABELS: ClassVar[str] = "labels"
    MEMO: ClassVar[int] = 1024  # texts remembered

    def probabilities(self, text: str) -> dict[str, float]:
        """Each label's probability for `text`."""
        return dict(remembered(self._memo, text, lambda: self._probabilities(text), self.MEMO))

    def forget(self) -> None:
        """Drop the texts remembered (a benchmark times each question as a new one)."""
        self._memo.clear()

    def _probabilities(self, text: str) -> tuple[tuple[str, float], ...]:
        cols, weights = tfidf_weights(text, self.columns, self.idf, self.ngrams)
        scores = self.intercepts + self.coef[:, cols] @ weights
        return tuple(zip(self.labels, (float(p) for p in self._link(scores)), strict=True))

    @staticmethod
    def _link(scores: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict):
        return cls(
            tuple(data[cls.LABELS]),
            {g: i for i, g in enumerate(data["vocabulary"])},
            np.asarray(data["idf"], dtype=np.float64),
            np.asarray(data["coef"], dtype=np.float64),
            np.asarray(data["intercepts"], dtype=np.float64),
            tuple(data["ngrams"]),
        )
