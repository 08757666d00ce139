"""Retrieval metrics over gold document ids: recall@k, MRR@k, nDCG@k, and out-of-scope precision/recall.

recall@k is *capped* recall, |gold ∩ top-k| / min(|gold|, k): a question with one right section scores 1
when that section is in the top k, and a symptom question with thirty right efficacy sections scores 1
when all k slots hold right ones (plain recall would cap it at k/30).

Example:
    >>> recall_at_k(["a", "b", "c"], {"b"}, 2)
    1.0
    >>> mrr_at_k(["a", "b"], {"b"}, 10)
    0.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def recall_at_k(ranked: Sequence[str], gold: set[str], k: int) -> float:
    if not gold:
        return 0.0
    hits = len(set(ranked[:k]) & gold)
    return hits / min(len(gold), k)


def mrr_at_k(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    for rank, doc_id in enumerate(ranked[:k], 1):
        if doc_id in gold:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    dcg = sum(1.0 / math.log2(rank + 1) for rank, d in enumerate(ranked[:k], 1) if d in gold)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold), k) + 1))
    return dcg / ideal if ideal else 0.0


def oos_precision_recall(blocked: Sequence[bool], is_oos: Sequence[bool]) -> tuple[float, float, float]:
    """(precision, recall, in-scope block rate) of the out-of-scope guard."""
    tp = sum(b and o for b, o in zip(blocked, is_oos, strict=True))
    fp = sum(b and not o for b, o in zip(blocked, is_oos, strict=True))
    n_oos = sum(is_oos)
    n_in = len(is_oos) - n_oos
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / n_oos if n_oos else 1.0
    return precision, recall, (fp / n_in if n_in else 0.0)


def retrieval_metric(example, prediction, trace=None) -> float:
    """DSPy-style metric: capped recall@5 of `prediction.citations` (or `.ids`) against `example.gold`."""
    ids = getattr(prediction, "ids", None) or [c["id"] if isinstance(c, dict) else c for c in prediction.citations]
    return recall_at_k(ids, set(example.gold), 5)
