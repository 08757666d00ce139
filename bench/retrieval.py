"""Retrieval latency, index build time and peak memory over the full corpus, against plain BM25.

    python bench/retrieval.py            # latency over the dev+test questions (needs `yaksa index`)
    python bench/retrieval.py --build    # also time a fresh index build into a temp folder (minutes)

Prints p50/p95 per query with the query embedding included, for the hybrid searcher and for the baseline
measured in the same run: bm25s over lower-cased whitespace tokens of the same documents.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from metrics.retrieval_eval import load_questions  # noqa: E402
from retrievers.bm25_index import BM25Index  # noqa: E402
from retrievers.searcher import open_searcher  # noqa: E402
from retrievers.tokenizer import whitespace_tokens  # noqa: E402


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def timed(fn, queries: list[str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        for q in queries:
            t = time.perf_counter()
            fn(q)
            out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--build", action="store_true", help="also time a fresh full index build")
    args = ap.parse_args()

    queries = [q["question"] for split in ("dev", "test") for q in load_questions(split)]
    t = time.perf_counter()
    searcher = open_searcher()
    open_s = time.perf_counter() - t

    t = time.perf_counter()
    baseline = BM25Index.build([whitespace_tokens(d.text) for d in searcher.docs], [d.id for d in searcher.docs])
    base_build_s = time.perf_counter() - t

    def base_search(q: str):
        return baseline.top(whitespace_tokens(q), 20)

    def hybrid_search(q: str):
        searcher._query_cache.clear()  # time the query embedding every time, not the memo
        return searcher.retrieve(q, k=5)

    hybrid = timed(hybrid_search, queries, args.repeat)
    base = timed(base_search, queries, args.repeat)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"documents: {len(searcher.docs)}   queries: {len(queries)} x {args.repeat}   scorer: {searcher.scorer}")
    print(f"open index: {open_s:.1f} s   peak RSS: {peak_mb:.0f} MB")
    print(f"{'':<28}{'p50 ms':>10}{'p95 ms':>10}")
    print(f"{'hybrid (incl. query embed)':<28}{statistics.median(hybrid):>10.1f}{pct(hybrid, 95):>10.1f}")
    print(f"{'baseline bm25 whitespace':<28}{statistics.median(base):>10.2f}{pct(base, 95):>10.2f}")
    print(
        f"ratio hybrid/baseline p50: {statistics.median(hybrid) / statistics.median(base):.1f}x   "
        f"baseline build: {base_build_s:.1f} s"
    )
    stages = {}
    for q in queries[:100]:
        searcher._query_cache.clear()
        for k, v in searcher.retrieve(q).timings.items():
            stages.setdefault(k, []).append(v)
    print("stage p50 ms: " + ", ".join(f"{k} {statistics.median(v):.1f}" for k, v in stages.items()))

    if args.build:
        from retrievers.index_builder import build_index

        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            report = build_index(index_dir=tmp, progress=False)
            print(f"fresh index build: {time.perf_counter() - t:.0f} s  {report.seconds}  notes: {report.notes}")
        print(f"peak RSS after build: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
