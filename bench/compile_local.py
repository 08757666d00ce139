"""A compile measured on a real model: the local instruct LM (the ``local`` extra's Qwen2.5-Coder-0.5B-Instruct, or
``--model 1.5b``) on llama-cpp-python's server, every role on it.

1. answers a fixed dev subset (the first answerable questions of the real-question dev split, in file order) with the
   uncompiled CRAG program;
2. runs ``yaksa compile`` (bootstrap by default) on a small train draw, which logs the run to MLflow and registers a
   model version, and writes the compiled JSON state;
3. loads that state (`programs.loading.load`: JSON only) and answers the same subset again.

Prints one row per program: gold answer phrase quoted, answers citing a document, sentences the grounding check
removed, LM answers that passed verification, LM calls and seconds per question; writes them as JSON.

    python bench/compile_local.py [--model 0.5b] [--questions 4] [--train 4] [--optimizer bootstrap]
        [--time-budget 45] [--index-dir DIR] [--out bench/out/compile_local.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from yaksa.testing.local_lm import MISSING, LlamaServer, local_extra_installed  # noqa: E402

DEV = ROOT / "trainsets/real_questions/dev.jsonl"


def dev_subset(n: int) -> list[dict]:
    """The first `n` answerable real-dev questions with gold answer phrases, in file order (fixed across runs)."""
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if r.get("answerable") and r.get("gold_phrases")][:n]


def answer_all(program, questions: list[dict], label: str) -> dict:
    """Answer each question; the row of figures for this program."""
    from metrics.gold_phrases import quotes_phrase

    per = []
    for q in questions:
        start = time.monotonic()
        pred = program(question=q["question"])
        t = pred.trace
        checks = [s["grounding_check"] for s in t["steps"] if s.get("grounding_check")]
        row = {
            "id": q["id"],
            "seconds": round(time.monotonic() - start, 1),
            "lm_calls": t["lm_calls"]["total"],
            "phrase_quoted": quotes_phrase(pred.answer, q["gold_phrases"]),
            "cited": any(c.get("cited") for c in pred.citations),
            "removed": sum(len(c.get("removed") or []) for c in checks),
            "lm_answer_passed": t["method"] == "lm" and t["verification"] == "pass",
            "parse_failures": sum(t["parse_failures"].values()),
        }
        per.append(row)
        print(label, json.dumps(row, ensure_ascii=False), flush=True)
    n = len(per) or 1
    return {
        "program": label,
        "questions": len(per),
        "phrase_quoted": round(sum(r["phrase_quoted"] for r in per) / n, 3),
        "cited": round(sum(r["cited"] for r in per) / n, 3),
        "grounding_removals": sum(r["removed"] for r in per),
        "lm_answers_passed_verification": round(sum(r["lm_answer_passed"] for r in per) / n, 3),
        "lm_calls_per_question": round(statistics.fmean(r["lm_calls"] for r in per), 2) if per else 0.0,
        "seconds_per_question": round(statistics.fmean(r["seconds"] for r in per), 1) if per else 0.0,
        "parse_failures": sum(r["parse_failures"] for r in per),
        "rows": per,
    }


def compile_with(server: LlamaServer, args, out: Path) -> tuple[int, float, str]:
    """Run ``yaksa compile`` against the server, with the same time budget per question (a ``[crag]`` config file);
    its exit code, seconds and the tail of its output."""
    config = out.with_name("yaksa.toml")
    config.write_text(f"[crag]\ntime_budget_s = {args.time_budget}\n", encoding="utf-8")
    cmd = [
        sys.executable, "-c", "import sys; from yaksa.cli import main; sys.exit(main())", "compile",
        "--optimizer", args.optimizer, "--train", str(args.train), "--dev", str(args.compile_dev),
        "--demos", "1", "--candidates", "2", "--threads", "1", "--metric", "quality",
        "--lm", server.model, "--api-base", server.url, "--max-tokens", str(args.max_tokens),
        "--max-tokens", f"generate={args.generate_tokens}", "--experiment", args.experiment, "--out", str(out),
        "--config", str(config),
    ]  # fmt: skip
    if args.index_dir:
        cmd += ["--index-dir", args.index_dir]
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=args.compile_timeout)
    tail = (done.stdout + done.stderr)[-1500:]
    return done.returncode, round(time.monotonic() - start, 1), tail


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="0.5b", help="a yaksa.local_models choice: 0.5b, 1.5b")
    p.add_argument("--questions", type=int, default=4, help="fixed real-dev questions answered before and after")
    p.add_argument("--train", type=int, default=4, help="train examples the optimizer sees (trainsets/qa)")
    p.add_argument("--compile-dev", type=int, default=2, help="dev examples compile scores itself on")
    p.add_argument("--optimizer", default="bootstrap", help="bootstrap, mipro or gepa (yaksa compile --optimizer)")
    p.add_argument("--max-tokens", type=int, default=48, help="output limit of query, verify and judge")
    p.add_argument("--generate-tokens", type=int, default=96, help="output limit of generate")
    p.add_argument("--time-budget", type=float, default=45.0, help="seconds per question")
    p.add_argument("--compile-timeout", type=float, default=3600.0, help="seconds before the compile is stopped")
    p.add_argument("--experiment", default="yaksa-compile-local", help="MLflow experiment of the compile run")
    p.add_argument("--index-dir", help="search index (default: the built index)")
    p.add_argument("--out", type=Path, default=ROOT / "bench/out/compile_local.json")
    args = p.parse_args()
    if not local_extra_installed(args.model):
        print(f"skipped: {MISSING}")
        return 0
    from programs.ablations import ablation_settings
    from programs.crag import CRAG
    from programs.loading import load
    from retrievers.index_open import open_searcher

    questions = dev_subset(args.questions)
    searcher = open_searcher(args.index_dir)
    with LlamaServer(model=args.model) as server, tempfile.TemporaryDirectory() as tmp:
        config = server.lm_config(args.max_tokens, args.generate_tokens)
        settings = ablation_settings(web_references=False, time_budget_s=args.time_budget)
        before = answer_all(CRAG(backend=searcher, settings=settings, lms=config.build()), questions, "before")
        state = Path(tmp) / "compiled.json"
        code, seconds, tail = compile_with(server, args, state)
        print(f"compile: exit {code}, {seconds} s\n{tail}", flush=True)
        if code != 0 or not state.exists():
            print("compile failed: no compiled program to measure")
            return 1
        compiled = load(state, backend=searcher, lms=config.build(), web_references=False)
        compiled = compiled.with_settings(settings)  # the same profile and time budget as the uncompiled run
        after = answer_all(compiled, questions, "after")
    summary = {
        "model": args.model,
        "optimizer": args.optimizer,
        "train": args.train,
        "compile_seconds": seconds,
        "limits": {"max_tokens": args.max_tokens, "generate": args.generate_tokens, "time_budget_s": args.time_budget},
        "before": before,
        "after": after,
    }
    keys = ("phrase_quoted", "cited", "grounding_removals", "lm_answers_passed_verification",
            "lm_calls_per_question", "seconds_per_question", "parse_failures")  # fmt: skip
    print("| program | " + " | ".join(keys) + " |")
    for row in (before, after):
        print(f"| {row['program']} | " + " | ".join(str(row[k]) for k in keys) + " |")
    print(f"compile: {args.optimizer}, {args.train} train examples, {seconds} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
