"""Latency of a no-LM answer against retrieval alone, measured in the same run over the real-question dev split.

    python bench/answer_latency.py                       # every real-dev question x3 (needs `yaksa index`)
    python bench/answer_latency.py --limit 120 --json    # the first 120 questions, the figures as JSON

The answer is the whole `yaksa ask` program path without an LM (the CRAG program built as `yaksa eval-answers` builds
it: the default profile, no web references): question cleaning, retrieval, the calibrated grader, the question
understanding and the extractive answer's sentence ranking, grounding check and heuristic evaluation. The baseline is
the searcher's `retrieve` for the same question with the program's k, timed just before each answer (every memo the
searcher keeps per question text — the query vector, the reading, names, rule matches, Kiwi analyses — is cleared
before both, `forget`, so neither reuses the other's work). Prints p50/p95 per question (wall clock, and the process's
CPU time, which the other jobs on a shared machine do not inflate) of the answer, of retrieval alone and of "beyond
retrieval" (answer minus retrieval, per question), against the target no-LM answer p95 <= 50 ms. The first answer
after opening the index is timed apart ("cold": the sentence ranking builds its own Kiwi tokenizer,
programs/sentences.py, and pays Kiwi's first analyses), then a few untimed answers warm up. Questions come from
trainsets/real_questions/dev.jsonl only (never the test split).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from programs.ablations import DEFAULT_ABLATION as PROFILE  # noqa: E402
from yaksa.errors import UserError  # noqa: E402

SPLIT = "real-dev"  # yaksa eval-answers' name of trainsets/real_questions/dev.jsonl
TARGET_P95_MS = 50.0
WARM_UP = 5  # untimed answers (and retrievals) after the cold one


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def spread(values: list[float]) -> dict[str, float]:
    """p50 and p95 in ms, rounded to 0.01."""
    return {"p50": round(statistics.median(values), 2), "p95": round(pct(values, 95), 2)}


def load_questions(limit: int) -> list[str]:
    from yaksa.commands._datasets import read_jsonl
    from yaksa.commands.eval_answers import SETS

    rows = read_jsonl(ROOT / "trainsets" / SETS[SPLIT])
    questions = [str(r["question"]) for r in rows if isinstance(r, dict) and str(r.get("question") or "").strip()]
    return questions[:limit] if limit else questions


def build(index_dir: str | None):
    """(searcher, no-LM program, seconds to open the index): `yaksa eval-answers`'s construction with no LM."""
    from programs.crag import CRAG
    from yaksa.commands._backend import backend_for
    from yaksa.commands._program import crag_settings

    args = SimpleNamespace(index_dir=index_dir, profile=PROFILE)
    t = time.perf_counter()
    searcher = backend_for(args)  # IndexMissing / IndexCorrupt -> a one-line UserError
    open_s = time.perf_counter() - t
    settings = crag_settings(args, web_references=False)
    return searcher, CRAG(backend=searcher, settings=settings, lms={}), open_s


def forget(searcher) -> None:
    """Clear the searcher's memos kept per question text (`Searcher.forget_texts`), the sentence ranking's Kiwi
    analyses, the aspect vocabulary's asked aspects and the answering-section model's probabilities, so a memo saves
    only what one answer reads more than once (retrieval, the frame and the answer each read the question). The
    program's small LRU caches (`sentences.sentence_tokens`, `chosen_by`, `extractive._frame`, the grounding check's
    document forms) also hold leaflet sentences every answer reads, so they stay: a later pass may reuse an earlier
    one's entries (`--repeat 1` times each question once)."""
    from programs.sentences import leaflet_tokenizer
    from retrievers.aspects import load_vocabulary
    from retrievers.section_model import load_section_model

    load_section_model().forget()
    if hasattr(searcher, "forget_texts"):
        searcher.forget_texts()
    elif hasattr(getattr(searcher, "dense", None), "forget_queries"):
        searcher.dense.forget_queries()
    if hasattr(leaflet_tokenizer(), "forget"):
        leaflet_tokenizer().forget()
    vocabulary = load_vocabulary()
    if hasattr(vocabulary, "forget"):
        vocabulary.forget()


def measure(searcher, program, questions: list[str], repeat: int) -> dict:
    """Per question and pass: retrieval alone, then the answer, each after `forget`; wall and CPU ms, and what the
    answers did."""
    k = program.settings.k
    out = {name: [] for name in ("answer", "retrieval", "beyond", "answer_cpu", "retrieval_cpu", "beyond_cpu")}
    in_answer, stops, lm_calls, retrieves = [], Counter(), 0, 0
    for _ in range(repeat):
        for q in questions:
            forget(searcher)
            t, c = time.perf_counter(), time.process_time()
            searcher.retrieve(q, k=k)
            r_ms, r_cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
            forget(searcher)
            t, c = time.perf_counter(), time.process_time()
            pred = program(question=q)
            a_ms, a_cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
            for name, value in (("answer", a_ms), ("retrieval", r_ms), ("beyond", a_ms - r_ms)):
                out[name].append(value)
            for name, value in (("answer_cpu", a_cpu), ("retrieval_cpu", r_cpu), ("beyond_cpu", a_cpu - r_cpu)):
                out[name].append(value)
            trace = pred.trace
            in_answer.append(trace["timings"]["retrieval_ms"])
            stops[trace["stop_reason"]] += 1
            lm_calls += trace["lm_calls"]["total"]
            retrieves += sum(s.get("step") == "retrieve" for s in trace["steps"]) > 1
    return {**out, "in_answer": in_answer, "stops": dict(stops), "lm_calls": lm_calls, "retrieved_again": retrieves}


def figures(args) -> dict:
    questions = load_questions(args.limit)
    if not questions:
        raise UserError(f"no questions in the {SPLIT} split")
    searcher, program, open_s = build(args.index_dir)
    t = time.perf_counter()
    program(question=questions[0])
    cold_ms = (time.perf_counter() - t) * 1000
    for q in questions[:WARM_UP]:
        searcher.retrieve(q, k=program.settings.k)
        program(question=q)
    m = measure(searcher, program, questions, args.repeat)
    answer = spread(m["answer"])
    return {
        "split": SPLIT,
        "questions": len(questions),
        "repeat": args.repeat,
        "documents": len(getattr(searcher, "docs", [])),
        "scorer": getattr(searcher, "scorer", "?"),
        "profile": PROFILE,
        "open_index_s": round(open_s, 2),
        "cold_first_answer_ms": round(cold_ms, 1),
        "answer_ms": answer,
        "retrieval_ms": spread(m["retrieval"]),
        "beyond_retrieval_ms": spread(m["beyond"]),
        "answer_cpu_ms": spread(m["answer_cpu"]),
        "retrieval_cpu_ms": spread(m["retrieval_cpu"]),
        "beyond_retrieval_cpu_ms": spread(m["beyond_cpu"]),
        "retrieval_in_answer_ms": spread(m["in_answer"]),
        "retrieved_again": m["retrieved_again"],
        "stop_reasons": m["stops"],
        "lm_calls": m["lm_calls"],
        "target_answer_p95_ms": TARGET_P95_MS,
        "target_met": answer["p95"] <= TARGET_P95_MS,
        "load_average": round(os.getloadavg()[0], 2),
    }


def report(f: dict) -> str:
    rows = [
        ("no-LM answer (yaksa ask path)", "answer_ms", "answer_cpu_ms"),
        ("retrieval alone (baseline)", "retrieval_ms", "retrieval_cpu_ms"),
        ("beyond retrieval (answer - retr.)", "beyond_retrieval_ms", "beyond_retrieval_cpu_ms"),
    ]
    lines = [
        f"questions: {f['questions']} (real-question dev split) x {f['repeat']}   documents: {f['documents']}   "
        f"scorer: {f['scorer']}   profile: {f['profile']}   LM calls: {f['lm_calls']}",
        f"open index: {f['open_index_s']:.1f} s   cold first answer: {f['cold_first_answer_ms']:.0f} ms "
        f"(then {WARM_UP} untimed answers warm up)",
        f"{'':<36}{'p50 ms':>9}{'p95 ms':>9}{'CPU p50':>9}{'CPU p95':>9}",
    ]
    for label, wall, cpu in rows:
        lines.append(
            f"{label:<36}{f[wall]['p50']:>9.1f}{f[wall]['p95']:>9.1f}{f[cpu]['p50']:>9.1f}{f[cpu]['p95']:>9.1f}"
        )
    r = f["retrieval_in_answer_ms"]
    lines += [
        f"retrieval inside the answer (trace): p50 {r['p50']:.1f} ms, p95 {r['p95']:.1f} ms; "
        f"answers that searched more than once: {f['retrieved_again']} of {f['questions'] * f['repeat']}",
        f"stop reasons: {f['stop_reasons']}",
        f"target: no-LM answer p95 <= {f['target_answer_p95_ms']:.0f} ms: "
        f"{'met' if f['target_met'] else 'NOT met'} ({f['answer_ms']['p95']:.1f} ms)   "
        f"(load average {f['load_average']:.1f})",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="bench/answer_latency.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N real-dev questions (0: all)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes over the questions (default 3)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if args.limit < 0 or args.repeat < 1:
        ap.error("--limit must be 0 or more and --repeat 1 or more")
    try:
        f = figures(args)
    except UserError as e:
        print(f"bench/answer_latency.py: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(f, ensure_ascii=False, indent=1) if args.json else report(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
