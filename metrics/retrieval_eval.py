"""Score retrieval modes on a question set with gold ids: recall@5/@20, MRR@10, nDCG@10, OOS precision/recall.

Modes re-weight one loaded searcher, so they share candidates, vectors and the guard:
  bm25 (BM25 alone), dense (dense alone), seed (the seed's 0.8 BM25 + 0.2 dense), hybrid (the configured
  fusion with name and section evidence), and hybrid+rerank when a reranker is configured.

Example:
    >>> table = evaluate_retrieval(searcher, load_questions("dev"))
    >>> table["hybrid"]["all"]["recall@5"]
    0.9
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from metrics.retrieval import mrr_at_k, ndcg_at_k, oos_precision_recall, recall_at_k

SETS_DIR = Path(__file__).resolve().parent.parent / "trainsets" / "retrieval"
MODE_WEIGHTS = {
    "bm25": {"bm25": 1.0, "dense": 0.0, "product": 0.0, "section": 0.0},
    "dense": {"bm25": 0.0, "dense": 1.0, "product": 0.0, "section": 0.0},
    "seed": {"bm25": 0.8, "dense": 0.2, "product": 0.0, "section": 0.0},
}


def load_questions(split: str = "dev", path: str | Path | None = None) -> list[dict]:
    path = Path(path) if path else SETS_DIR / f"{split}.jsonl"
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def run_mode(
    searcher, questions: list[dict], weights: dict | None = None, use_reranker: bool = False, progress=None
) -> list[dict]:
    """Retrieve top 20 for every question with the given weights; per-question rows."""
    saved_settings, saved_reranker = searcher.settings, searcher.reranker
    if weights is not None:
        searcher.settings = replace(saved_settings, weights=weights)
    if not use_reranker:
        searcher.reranker = None
    rows = []
    try:
        for q in questions:
            t = time.perf_counter()
            r = searcher.retrieve(q["question"], k=20)
            ranked = [h.id for h in (r.hits if searcher.reranker else r.candidates)]
            rows.append(
                {
                    "id": q["id"],
                    "kind": q["kind"],
                    "gold": q["gold"],
                    "ranked": ranked,
                    "blocked": r.out_of_scope,
                    "relevance": r.relevance,
                    "ms": (time.perf_counter() - t) * 1000,
                }
            )
            if progress:
                progress(1)
    finally:
        searcher.settings, searcher.reranker = saved_settings, saved_reranker
    return rows


def summarise(rows: list[dict]) -> dict[str, dict[str, float]]:
    """Metrics overall and per kind. Ranking metrics use in-scope questions; blocked in-scope ones score 0."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["kind"]].append(row)
    out = {}
    in_scope = [r for r in rows if r["kind"] != "oos"]
    for name, members in [("all", in_scope), *sorted((k, v) for k, v in groups.items() if k != "oos")]:
        out[name] = _ranking(members)
    precision, recall, fp_rate = oos_precision_recall([r["blocked"] for r in rows], [r["kind"] == "oos" for r in rows])
    out["oos"] = {
        "precision": precision,
        "recall": recall,
        "in_scope_blocked": fp_rate,
        "n": len(groups.get("oos", [])),
    }
    return out


def _ranking(rows: list[dict]) -> dict[str, float]:
    if not rows:
        return {"n": 0}

    def mean(fn) -> float:
        return sum(0.0 if r["blocked"] else fn(r) for r in rows) / len(rows)

    return {
        "recall@5": mean(lambda r: recall_at_k(r["ranked"], set(r["gold"]), 5)),
        "recall@20": mean(lambda r: recall_at_k(r["ranked"], set(r["gold"]), 20)),
        "mrr@10": mean(lambda r: mrr_at_k(r["ranked"], set(r["gold"]), 10)),
        "ndcg@10": mean(lambda r: ndcg_at_k(r["ranked"], set(r["gold"]), 10)),
        "n": len(rows),
    }


def evaluate_retrieval(searcher, questions: list[dict], modes: list[str] | None = None, progress=None) -> dict:
    """{mode: summary} for the requested modes (default: all that apply)."""
    modes = modes or ["bm25", "dense", "seed", "hybrid"] + (["hybrid+rerank"] if searcher.reranker else [])
    table = {}
    for mode in modes:
        if mode == "hybrid+rerank" and not searcher.reranker:
            continue
        rows = run_mode(
            searcher, questions, MODE_WEIGHTS.get(mode), use_reranker=mode == "hybrid+rerank", progress=progress
        )
        table[mode] = summarise(rows)
        table[mode]["_rows"] = rows
    return table
