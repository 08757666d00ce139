"""Search fusion weights, candidate depth and the OOS threshold on a question set, with no LM.

Candidates and their raw features are gathered once per question (`Searcher.gather`); every trial only
re-weights them, so hundreds of settings are scored in seconds. The objective is in-scope recall@5
(ties broken by MRR@10); the OOS threshold is the highest dense-similarity cut that blocks at most
`max_in_scope_blocked` of the in-scope questions.

Example:
    >>> result = tune(searcher, load_questions("dev"), trials=100, seed=0)
    >>> result.best["weights"]
    {'bm25': 0.8, 'dense': 0.2, 'product': 1.5, 'section': 1.0}
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import numpy as np

from metrics.retrieval import mrr_at_k, recall_at_k
from metrics.retrieval_eval import gather_all
from retrievers.fusion import fuse_features

GRID = {
    "bm25": [0.2, 0.5, 0.8, 1.0],
    "dense": [0.0, 0.2, 0.5, 1.0],
    "product": [0.5, 1.0, 1.5, 2.0, 3.0],
    "section": [0.25, 0.5, 1.0, 1.5],
    "depth": [50, 100],
    "fusion": ["weighted", "rrf"],
}


@dataclass
class TuneResult:
    best: dict
    best_score: dict
    default_score: dict
    trials: list[dict] = field(default_factory=list)
    oos_threshold: float = 0.0
    oos: dict = field(default_factory=dict)


def _fused(raw: dict, depth: list[int], weights: dict, fusion: str, max_depth: int) -> list[tuple[int, float]]:
    """(candidate position, fused score) for candidates within `max_depth` of BM25 or dense, or named by the query;
    the same `fuse_features` the searcher ranks with."""
    keep = [j for j, (d, p) in enumerate(zip(depth, raw["product"], strict=True)) if d < max_depth or p > 0]
    if not keep:
        return []
    fused = fuse_features({name: [vals[j] for j in keep] for name, vals in raw.items()}, weights, fusion)
    return list(zip(keep, fused, strict=True))


def score(gathered: list, searcher, weights: dict, fusion: str, depth: int) -> dict:
    """Recall@5 and MRR@10 over in-scope questions for one setting."""
    recalls, mrrs = [], []
    by_kind: dict[str, list[float]] = {}
    for q, g in gathered:
        if q["kind"] == "oos":
            continue
        fused = sorted(_fused(g.raw, g.depth, weights, fusion, depth), key=lambda jf: -jf[1])[:20]
        ranked = [searcher.docs[g.cand_idx[j]].id for j, _ in fused]
        r = recall_at_k(ranked, set(q["gold"]), 5)
        recalls.append(r)
        mrrs.append(mrr_at_k(ranked, set(q["gold"]), 10))
        by_kind.setdefault(q["kind"], []).append(r)
    out = {"recall@5": float(np.mean(recalls)), "mrr@10": float(np.mean(mrrs))}
    out.update({f"recall@5.{k}": float(np.mean(v)) for k, v in by_kind.items()})
    return out


def choose_oos_threshold(
    gathered: list, max_in_scope_blocked: float = 0.03, grid=(0.83, 0.84, 0.85, 0.86, 0.87, 0.88)
) -> tuple[float, dict]:
    """The `oos_min_dense` cut of the layered guard (see retrievers.oos_guard) that blocks the most out-of-scope
    questions while blocking at most `max_in_scope_blocked` of the in-scope ones; ties go to the lower cut."""
    from retrievers.oos_guard import guard

    def blocked(g, cut: float) -> bool:
        a = g.analysis
        return guard(
            "fused",
            1.0,
            g.relevance,
            has_names=bool(a.names),
            has_rules=bool(a.expansions),
            has_sections=bool(a.sections),
            min_dense=cut,
            rescue_dense=max(cut, 0.885),
        )[0]

    n_in = sum(1 for q, _ in gathered if q["kind"] != "oos") or 1
    n_oos = sum(1 for q, _ in gathered if q["kind"] == "oos") or 1
    best, best_stats = grid[0], None
    for cut in grid:
        stats = {
            "oos_recall": sum(blocked(g, cut) for q, g in gathered if q["kind"] == "oos") / n_oos,
            "in_scope_blocked": sum(blocked(g, cut) for q, g in gathered if q["kind"] != "oos") / n_in,
        }
        if stats["in_scope_blocked"] <= max_in_scope_blocked and (
            best_stats is None or stats["oos_recall"] > best_stats["oos_recall"]
        ):
            best, best_stats = cut, stats
    return float(best), best_stats or {"oos_recall": 0.0, "in_scope_blocked": 1.0}


def tune(
    searcher,
    questions: list[dict],
    trials: int = 150,
    seed: int = 0,
    progress=None,
    log_trial=None,
    max_in_scope_blocked: float = 0.03,
) -> TuneResult:
    """Random search over GRID (seeded), always including the current settings as trial 0."""
    gathered = gather_all(searcher, questions, progress)
    current = {
        "weights": dict(searcher.settings.weights),
        "fusion": searcher.settings.fusion,
        "depth": searcher.settings.bm25_depth,
    }
    combos = list(itertools.product(*(GRID[k] for k in ("bm25", "dense", "product", "section", "depth", "fusion"))))
    random.Random(seed).shuffle(combos)
    candidates = [current] + [
        {"weights": {"bm25": b, "dense": d, "product": p, "section": s}, "depth": depth, "fusion": fusion}
        for b, d, p, s, depth, fusion in combos[: max(0, trials - 1)]
    ]
    results = []
    for n, cand in enumerate(candidates):
        sc = score(gathered, searcher, cand["weights"], cand["fusion"], cand["depth"])
        results.append({**cand, **sc})
        if log_trial:
            log_trial(n, cand, sc)
    best = max(results, key=lambda r: (round(r["recall@5"], 6), r["mrr@10"]))
    threshold, oos = choose_oos_threshold(gathered, max_in_scope_blocked)
    return TuneResult(
        best={"weights": best["weights"], "fusion": best["fusion"], "depth": best["depth"]},
        best_score={k: v for k, v in best.items() if k not in {"weights", "fusion", "depth"}},
        default_score={k: v for k, v in results[0].items() if k not in {"weights", "fusion", "depth"}},
        trials=results,
        oos_threshold=threshold,
        oos=oos,
    )
