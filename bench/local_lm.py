"""A real local LM, measured: llama-cpp-python's server with Qwen2.5-Coder-0.5B-Instruct (the ``local`` extra; ``--model
1.5b`` for the ``local-1-5b`` extra) on 127.0.0.1.

Prints the server's time to first token and tokens/s on one streamed chat request, then, for a few in-scope dev
questions (trainsets/qa/dev.jsonl) answered by the full CRAG program with every role on that server and the answer
streamed as `yaksa ask` streams it: time to the first answer token, seconds and LM calls per question, replies that
did not parse, calls cut (and why), and the share of answers that were LM-generated and survived verification (the
rest are the documented extractive fallback).

    python bench/local_lm.py [--model 0.5b] [--questions 3] [--max-tokens 48] [--generate-tokens 96]
        [--time-budget 45] [--index-dir DIR] [--out bench/out/local_lm.json]
        [--profiles all|P1,P2]   # also: LM calls and seconds per question for each ablation profile
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from yaksa.testing.local_lm import MISSING, LlamaServer, local_extra_installed  # noqa: E402


def stream_speed(server: LlamaServer, max_tokens: int = 64) -> dict:
    """Time to first token and tokens/s of one streamed chat completion (no schema)."""
    import httpx

    body = {
        "model": server.alias,
        "max_tokens": max_tokens,
        "stream": True,
        "messages": [{"role": "user", "content": "게보린정을 복용할 때 주의할 점을 세 문장으로 설명하세요."}],
    }
    start = time.monotonic()
    first, chunks = None, 0
    with httpx.Client(timeout=120) as client, client.stream("POST", server.url + "/chat/completions", json=body) as r:
        for line in r.iter_lines():
            if line.startswith("data: ") and line != "data: [DONE]":
                delta = json.loads(line[6:])["choices"][0]["delta"].get("content")
                if delta:
                    first = first or time.monotonic()
                    chunks += 1
    end = time.monotonic()
    return {
        "ttft_s": round((first or end) - start, 2),
        "tokens": chunks,
        "tokens_per_s": round((chunks - 1) / (end - first), 1) if first and chunks > 1 else 0.0,
    }


def streamed_answer(program, question: str):
    """The prediction, and the seconds until the first answer token reached the caller (None: nothing streamed)."""
    import dspy
    from dspy.streaming import StreamResponse

    from programs.stream_listener import answer_listeners

    streaming = dspy.streamify(program, stream_listeners=answer_listeners(program), async_streaming=False)
    start, first, pred = time.monotonic(), None, None
    for chunk in streaming(question=question):
        if isinstance(chunk, StreamResponse) and chunk.chunk and first is None:
            first = time.monotonic() - start
        elif isinstance(chunk, dspy.Prediction):
            pred = chunk
    return pred, first


def profile_calls(args, searcher, config, questions: list[str]) -> dict:
    """Per ablation profile: mean LM calls and seconds per question, on the same questions and server."""
    from programs.ablations import ABLATIONS, ablation_settings
    from programs.crag import CRAG

    names = list(ABLATIONS) if args.profiles == "all" else [n.strip() for n in args.profiles.split(",") if n.strip()]
    out = {}
    for name in names:
        settings = ablation_settings(name, web_references=False, time_budget_s=args.time_budget)
        program = CRAG(backend=searcher, settings=settings, lms=config.build())
        calls, seconds = [], []
        for q in questions:
            start = time.monotonic()
            pred = program(question=q)
            seconds.append(time.monotonic() - start)
            calls.append(pred.trace["lm_calls"]["total"])
        out[name] = {
            "lm_calls_per_question": round(statistics.fmean(calls), 2),
            "seconds_per_question": round(statistics.fmean(seconds), 1),
        }
        print(name, json.dumps(out[name]), flush=True)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="0.5b", help="a yaksa.local_models choice: 0.5b, 1.5b, gemma")
    p.add_argument("--questions", type=int, default=3)
    p.add_argument("--max-tokens", type=int, default=48, help="output limit of query, verify and judge")
    p.add_argument("--generate-tokens", type=int, default=96, help="output limit of generate")
    p.add_argument("--time-budget", type=float, default=45.0, help="seconds per question")
    p.add_argument("--index-dir", help="search index (default: the built index)")
    p.add_argument("--out", type=Path, default=ROOT / "bench/out/local_lm.json")
    p.add_argument("--profiles", default="", help="'all' or comma-separated ablation profiles to measure too")
    args = p.parse_args()
    if not local_extra_installed(args.model):
        print(f"skipped: {MISSING}")
        return 0
    from programs.ablations import ablation_settings
    from programs.crag import CRAG
    from retrievers.index_open import open_searcher

    rows = [json.loads(line) for line in (ROOT / "trainsets/qa/dev.jsonl").read_text(encoding="utf-8").splitlines()]
    questions = [r["question"] for r in rows if not r.get("out_of_scope")][: args.questions]
    searcher = open_searcher(args.index_dir)
    with LlamaServer(model=args.model) as server:
        speed = stream_speed(server)
        print(f"server: time to first token {speed['ttft_s']} s, {speed['tokens_per_s']} tokens/s")
        config = server.lm_config(args.max_tokens, args.generate_tokens)
        settings = ablation_settings(web_references=False, time_budget_s=args.time_budget)
        program = CRAG(backend=searcher, settings=settings, lms=config.build())
        results = []
        for q in questions:
            start = time.monotonic()
            pred, first_answer_token = streamed_answer(program, q)
            t = pred.trace
            row = {
                "question": q,
                "seconds": round(time.monotonic() - start, 1),
                "first_answer_token_s": round(first_answer_token, 1) if first_answer_token is not None else None,
                "lm_calls": t["lm_calls"]["total"],
                "parse_failures": sum(t["parse_failures"].values()),
                "cut": [f"{c['role']}:{c['why']}" for c in t["cut"]],
                "method": t["method"],
                "verification": t["verification"],
                "stop_reason": t["stop_reason"],
                "cited": "[문서 " in pred.answer,
            }
            results.append(row)
            print(json.dumps(row, ensure_ascii=False))
        per_profile = profile_calls(args, searcher, config, questions) if args.profiles else {}
    survived = [r for r in results if r["method"] == "lm" and r["verification"] == "pass"]
    streamed = [r["first_answer_token_s"] for r in results if r["first_answer_token_s"] is not None]
    summary = {
        "model": args.model,
        **speed,
        "first_answer_token_s": round(statistics.median(streamed), 1) if streamed else None,
        "questions_streamed": f"{len(streamed)}/{len(results)}",
        "questions": len(results),
        "seconds_per_question": round(statistics.mean(r["seconds"] for r in results), 1),
        "lm_calls_per_question": round(statistics.mean(r["lm_calls"] for r in results), 2),
        "parse_failures": sum(r["parse_failures"] for r in results),
        "lm_answers_surviving_verification": f"{len(survived)}/{len(results)}",
        "cited": f"{sum(r['cited'] for r in results)}/{len(results)}",
        "limits": {"max_tokens": args.max_tokens, "generate": args.generate_tokens, "time_budget_s": args.time_budget},
    }
    if per_profile:
        summary["profiles"] = per_profile
    print(json.dumps(summary, ensure_ascii=False))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"summary": summary, "questions": results}, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
