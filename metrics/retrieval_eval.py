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
from collections import defaultdict
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


def gather_all(searcher, questions: list[dict], progress=None) -> list:
    """Candidates and raw features per question: the expensive part (embedding, BM25), done once for all modes."""
    out = []
    for q in questions:
        out.append((q, searcher.gather(q["question"])))
        if progress:
            progress(1)
    return out


def run_mode(searcher, gathered: list, weights: dict | None = None, use_reranker: bool = False) -> list[dict]:
    """Top 20 for every gathered question with the given weights (default: the searcher's); per-question rows."""
    rows = []
    for q, g in gathered:
        candidates = searcher.rank(g, weights)
        hits = searcher.rerank(g.analysis.query, candidates, 20) if use_reranker else candidates
        blocked, _ = searcher.guard(g, hits, reranked=use_reranker)
        rows.append(
            {
                "id": q["id"],
                "kind": q["kind"],
                "gold": q["gold"],
                "ranked": [h.id for h in hits],
                "blocked": blocked,
                "relevance": g.relevance,
            }
        )
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
    gathered = gather_all(searcher, questions, progress)
    baseline = gathered
    if any(m in MODE_WEIGHTS for m in modes) and searcher.settings.dense != "always":
        # the single-stage baselines rank every question with its dense score, whatever the hybrid's dense policy
        configured = searcher.settings
        searcher.settings = configured.updated(dense="always")
        try:
            baseline = gather_all(searcher, questions)
        finally:
            searcher.settings = configured
    table = {}
    for mode in modes:
        if mode == "hybrid+rerank" and not searcher.reranker:
            continue
        source = baseline if mode in MODE_WEIGHTS else gathered
        rows = run_mode(searcher, source, MODE_WEIGHTS.get(mode), use_reranker=mode == "hybrid+rerank")
        table[mode] = summarise(rows)
        table[mode]["_rows"] = rows
    return table
