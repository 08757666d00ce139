"""What an MLflow trace per question costs a no-LM answer: the same program, the same questions, in the same run,
answered untraced and traced (yaksa/traces.py: a root span, a span per graph node, a RETRIEVER span per search).

    python bench/tracing.py                          # the mini corpus (built in a temp folder, ~5 s), x20
    python bench/tracing.py --index-dir /work/index  # the full index
    python bench/tracing.py --json                   # the figures as JSON

Traces go to a throw-away sqlite store in a temporary folder (``--tracking-uri`` for another; MLflow's default async
export, so what the answer waits for is the spans, not the store's write). Untraced and traced answers alternate
question by question after a few untimed warm-ups of each, so a shared machine's load falls on both alike. Prints
p50/p95 wall ms of each, and the added p50/p95 (traced minus untraced) and their ratio, against the target of at
most 5 ms added at p50. MLflow is imported in both arms (the untraced arm then pays the hooks' one check of whether
a span is active; without a tracking URI ``yaksa ask`` never imports MLflow at all).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

QUESTIONS = [
    "게보린 먹고 속이 쓰려요",
    "게보린 부작용",
    "타이레놀 효능",
    "부루펜 먹는 법",
    "타이레놀 먹고 술 마셔도 되나요",
    "삼성전자 주가 알려줘",  # out of scope: one search, no answer
]
TARGET_ADDED_P50_MS = 5.0
WARM_UP = 3


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def spread(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 2), "p95": round(pct(values, 95), 2)}


def build(index_dir: str | None):
    """A no-LM CRAG program (default profile, no web references) over `index_dir`, or the mini corpus."""
    from programs.crag import CRAG
    from yaksa.commands._program import crag_settings

    if index_dir:
        from yaksa.commands._backend import backend_for

        backend = backend_for(SimpleNamespace(index_dir=index_dir, profile=None))
    else:
        from yaksa.testing.mini_index import real_searcher

        backend = real_searcher()
    settings = crag_settings(SimpleNamespace(profile=None), web_references=False)
    return CRAG(backend=backend, settings=settings, lms={})


def figures(args) -> dict:
    import mlflow

    from yaksa.traces import QuestionTracer

    store = None if args.tracking_uri else tempfile.mkdtemp(prefix="yaksa-bench-tracing-")
    mlflow.set_tracking_uri(args.tracking_uri or f"sqlite:///{store}/mlflow.db")
    os.environ["MLFLOW_TRACKING_URI"] = mlflow.get_tracking_uri()
    tracer = QuestionTracer(1.0, experiment="bench-tracing")
    tracer.setup()
    program = build(args.index_dir)

    def untraced(q: str) -> None:
        program(question=q)

    def traced(q: str) -> str:
        with tracer.question(q, None, source="bench") as handle:
            handle.finish(program(question=q))
        return handle.trace_id

    for q in QUESTIONS[:WARM_UP]:
        untraced(q)
        traced(q)
    times = {"untraced": [], "traced": []}
    trace_ids = []
    for _ in range(args.repeat):
        for q in QUESTIONS:
            t = time.perf_counter()
            untraced(q)
            times["untraced"].append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            trace_ids.append(traced(q))
            times["traced"].append((time.perf_counter() - t) * 1000)
    mlflow.flush_trace_async_logging()
    spans = len(mlflow.get_trace(trace_ids[0]).data.spans) if trace_ids else 0
    if store is not None:
        shutil.rmtree(store, ignore_errors=True)  # the throw-away store goes with the run
    off, on = spread(times["untraced"]), spread(times["traced"])
    return {
        "index": args.index_dir or "mini corpus",
        "answers_per_arm": len(times["traced"]),
        "spans_in_first_trace": spans,
        "untraced_ms": off,
        "traced_ms": on,
        "added_ms": {k: round(on[k] - off[k], 2) for k in off},
        "ratio": {k: round(on[k] / off[k], 3) if off[k] else None for k in off},
        "target_added_p50_ms": TARGET_ADDED_P50_MS,
    }


def report(f: dict) -> str:
    ok = "meets" if f["added_ms"]["p50"] <= f["target_added_p50_ms"] else "MISSES"
    return "\n".join(
        [
            f"index: {f['index']}; {f['answers_per_arm']} answers per arm; {f['spans_in_first_trace']} spans per trace",
            f"untraced  p50 {f['untraced_ms']['p50']:8.2f} ms   p95 {f['untraced_ms']['p95']:8.2f} ms",
            f"traced    p50 {f['traced_ms']['p50']:8.2f} ms   p95 {f['traced_ms']['p95']:8.2f} ms",
            f"added     p50 {f['added_ms']['p50']:8.2f} ms   p95 {f['added_ms']['p95']:8.2f} ms   "
            f"(ratio p50 {f['ratio']['p50']}, p95 {f['ratio']['p95']})",
            f"target: at most {f['target_added_p50_ms']:g} ms added at p50 — {ok}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="bench/tracing.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--index-dir", help="index folder (default: the mini corpus, built in a temporary folder)")
    ap.add_argument("--repeat", type=int, default=20, help="timed passes over the questions (default 20)")
    ap.add_argument("--tracking-uri", help="where the traces go (default: a temporary sqlite store)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    f = figures(args)
    print(json.dumps(f, ensure_ascii=False, indent=2) if args.json else report(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
