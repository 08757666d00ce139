"""LM calls per question for each ablation profile, and the program's own time per question excluding LM time.

Two scripted LMs (no network): one whose first answer passes, one that needs refinement (the first verification
fails for hallucination and the first quality evaluation is low). The backend is the real searcher when its index
opens (``--backend real``), else a fixed in-memory backend over hand-made 게보린/타이레놀 leaflets whose documents
rotate with the query, so a re-search finds new documents.

    python bench/lm_calls.py [--backend auto|real|fixed] [--limit 50] [--out bench/out/lm_calls.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from programs.ablations import ABLATIONS, ablation_settings  # noqa: E402
from programs.crag import CRAG  # noqa: E402
from retrievers.documents import Hit  # noqa: E402
from retrievers.result import RetrievalResult  # noqa: E402
from yaksa.testing.fake_backend import default_documents  # noqa: E402
from yaksa.testing.scripted_lm import ScriptedLM  # noqa: E402

DEV = ROOT / "trainsets" / "retrieval" / "dev.jsonl"
LOW = {
    "grounding": 0.3,
    "completeness": 0.3,
    "accuracy": 0.5,
    "missing_info": ["부작용"],
    "improvement_suggestions": ["부작용을 구체적으로"],
    "needs_retrieval": True,
    "reason": "부족",
}
FAIL = {"verdict": "FAIL", "failure_cause": "hallucination", "feedback": "문서에 없는 내용"}


class FixedBackend:
    """Five of six leaflets, rotated by the query's hash; scores that route to generation (a `SearchBackend` with no
    name dictionary, lexicon or tokenizer)."""

    names = None
    lexicon = None
    tokenizer = None

    def __init__(self):
        self.docs = default_documents()
        self.by_id = {d.id: i for i, d in enumerate(self.docs)}
        self.leaflets = [d for d in self.docs if d.source == "easydrug"]

    def retrieve(self, query, k=5, extra_terms=None, avoid_terms=None):
        start = int(hashlib.md5(query.encode()).hexdigest(), 16) % len(self.leaflets)
        docs = (self.leaflets[start:] + self.leaflets[:start])[:k]
        hits = [Hit(d, s) for d, s in zip(docs, (0.9, 0.8, 0.7, 0.6, 0.2), strict=False)]
        return RetrievalResult(query, hits=hits, top_score=0.9, relevance=0.9)

    def get(self, doc_id):
        return None

    def dur_rules(self, ingredients, dur_types):
        return [d for d in self.docs if d.source == "dur" and d.metadata["dur_type"] in dur_types]

    def query_coverage(self, query, names, hits):
        return {"names_uncovered": [], "unknown_words": []}

    def class_members(self, classes):
        return set()  # no lexicon: no class word is read


def scripted(kind: str) -> ScriptedLM:
    if kind == "passes":
        return ScriptedLM()
    counter = {"n": 0}

    def rewrite(_messages):
        counter["n"] += 1
        return {"rewritten_query": f"재검색 질의 {counter['n']}"}

    return ScriptedLM(
        verify=[FAIL, {"verdict": "PASS", "failure_cause": "none", "feedback": ""}],
        evaluate=[LOW, {**LOW, "grounding": 0.9, "completeness": 0.9, "accuracy": 0.9}],
        rewrite=[rewrite],
    )


def open_backend(choice: str):
    if choice in ("auto", "real"):
        try:
            from retrievers.index_open import open_searcher

            return open_searcher(), "real"
        except Exception as e:
            if choice == "real":
                raise
            print(f"real searcher unavailable ({type(e).__name__}: {e}); using the fixed backend", file=sys.stderr)
    return FixedBackend(), "fixed"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="auto", choices=("auto", "real", "fixed"))
    ap.add_argument("--limit", type=int, default=0, help="use only the first N dev questions")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "lm_calls.json"))
    args = ap.parse_args(argv)
    questions = [json.loads(line)["question"] for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    questions = questions[: args.limit] if args.limit else questions
    backend, kind = open_backend(args.backend)
    rows = []
    for profile in ABLATIONS:
        for lm_kind in ("passes", "needs_refinement"):
            calls, overhead, stops, over_budget = [], [], {}, 0
            settings = ablation_settings(profile, web_references=False)
            for q in questions:
                lm = scripted(lm_kind)
                pred = CRAG(backend=backend, settings=settings, lms=lm.roles())(question=q)
                n = pred.trace["lm_calls"]["total"]
                calls.append(n)
                over_budget += n > settings.lm_call_budget
                overhead.append(pred.trace["timings"]["overhead_ms"])
                stops[pred.trace["stop_reason"]] = stops.get(pred.trace["stop_reason"], 0) + 1
            row = {
                "profile": profile,
                "lm": lm_kind,
                "questions": len(questions),
                "lm_calls_median": statistics.median(calls),
                "lm_calls_max": max(calls),
                "over_budget": over_budget,
                "overhead_ms_p50": round(statistics.median(overhead), 2),
                "overhead_ms_p95": round(sorted(overhead)[int(0.95 * (len(overhead) - 1))], 2),
                "stops": stops,
            }
            rows.append(row)
            print(
                f"{profile:28s} {lm_kind:17s} calls median {row['lm_calls_median']:>4} max {row['lm_calls_max']:>3}"
                f"  overhead p50 {row['overhead_ms_p50']:7.2f} ms  p95 {row['overhead_ms_p95']:7.2f} ms  {stops}"
            )
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"backend": kind, "rows": rows}, ensure_ascii=False, indent=2), "utf-8")
    print(f"wrote {args.out} (backend: {kind})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
