"""Score fusion as pure functions: per-query min-max normalisation, weighted sums, reciprocal-rank fusion.

Normalisation is min-max over the query's candidate set (the best candidate -> 1, the worst -> 0), chosen
over z-scores because BM25 scores are unbounded and heavy-tailed while cosines crowd in a narrow band:
min-max puts both on one [0, 1] scale per query without assuming a distribution.

Example:
    >>> minmax([2.0, 4.0, 3.0])
    [0.0, 1.0, 0.5]
    >>> weighted_sum({"bm25": [1.0, 0.0], "dense": [0.0, 1.0]}, {"bm25": 0.8, "dense": 0.2})
    [0.8, 0.2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def minmax(scores: Sequence[float]) -> list[float]:
    """Scale to [0, 1]; a constant list maps to all ones when positive, all zeros otherwise."""
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [1.0 if hi > 0 else 0.0] * len(scores)
    return [(s - lo) / (hi - lo) for s in scores]


def weighted_sum(features: Mapping[str, Sequence[float]], weights: Mapping[str, float]) -> list[float]:
    """Sum of weight x feature per candidate; features missing from `weights` count zero."""
    n = len(next(iter(features.values()))) if features else 0
    out = [0.0] * n
    for name, values in features.items():
        w = float(weights.get(name, 0.0))
        if w == 0.0:
            continue
        if len(values) != n:
            raise ValueError(f"feature {name!r} has {len(values)} values, expected {n}")
        for i, v in enumerate(values):
            out[i] += w * v
    return out


def rrf(
    rankings: Mapping[str, Sequence[str]], weights: Mapping[str, float] | None = None, k: int = 60
) -> dict[str, float]:
    """Reciprocal-rank fusion: sum over rankings of weight / (k + rank), rank starting at 1."""
    fused: dict[str, float] = {}
    for name, ranked_ids in rankings.items():
        w = 1.0 if weights is None else float(weights.get(name, 0.0))
        for rank, doc_id in enumerate(ranked_ids, 1):
            fused[doc_id] = fused.get(doc_id, 0.0) + w / (k + rank)
    return fused


def fuse_features(
    raw: Mapping[str, Sequence[float]], weights: Mapping[str, float], fusion: str = "weighted", rrf_k: int = 60
) -> list[float]:
    """Fused score per candidate from raw features.

    ``weighted``: BM25 and dense are min-max normalised over the candidates; name and section features are
    already in [0, 1]; then the weighted sum. ``rrf``: each feature ranks the candidates (zeros unranked) and
    the weighted reciprocal ranks are summed.
    """
    n = len(next(iter(raw.values()))) if raw else 0
    if fusion == "rrf":
        rankings = {
            name: [str(j) for j in sorted(range(n), key=lambda j, v=vals: -v[j]) if vals[j] > 0]
            for name, vals in raw.items()
        }
        fused = rrf(rankings, weights, k=rrf_k)
        return [fused.get(str(j), 0.0) for j in range(n)]
    if fusion != "weighted":
        raise ValueError(f"unknown fusion {fusion!r}: use weighted or rrf")
    norm = {name: (minmax(vals) if name in {"bm25", "dense"} else list(vals)) for name, vals in raw.items()}
    return weighted_sum(norm, weights)
