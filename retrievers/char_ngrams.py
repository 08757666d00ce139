"""Character n-grams within words and their TF-IDF weights, as scikit-learn's ``char_wb`` analyzer and
``TfidfVectorizer(sublinear_tf=True)`` make them: what the learned scope and aspect models read, without
scikit-learn at run time.

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

import numpy as np


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
