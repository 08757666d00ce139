"""``yaksa ablation``: run the six CRAG profiles (docs/seeds/crag-self-refine-strategy.md §8) on the same dev
questions, one MLflow child run each under a parent run, and print the comparison table: quality, grounding,
iterations, LM calls, loop stops.

Example:
    $ yaksa ablation --dev 30 --seed 0 --lm openai/qwen2.5-7b-instruct --api-base http://127.0.0.1:8000/v1
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from pathlib import Path

from yaksa.commands import (
    _backend,
    _datasets,
    _evaluation,
    _lm_flags,
    _mlflow_table,
    _program,
    _run_params,
    _usage,
    _version,
)

COLUMNS = ("profile", "quality", "grounding", "iterations", "lm_calls", "sent", "cached", "loop_stops", "stops")
LOOP_STOPS = ("iteration_cap", "duplicate_documents", "stagnation", "decline", "lm_budget_exhausted")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "ablation", help="compare the six CRAG profiles on the dev set (one MLflow child run each)"
    )
    p.add_argument("--profiles", help="comma-separated subset of the profiles (default: all six)")
    p.add_argument("--dev", type=int, default=20, help="dev examples drawn (seeded) from dev.jsonl (0: all)")
    p.add_argument("--data", help="folder with dev.jsonl (default trainsets/qa)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--index-dir", help="search index folder (default: the built index)")
    p.add_argument("--experiment", default="yaksa-ablation")
    _lm_flags.add_lm_args(p)
    p.set_defaults(func=run, program="crag")


def run(args) -> int:
    run_ablation(args)
    return 0


def summarize(profile: str, rows: list[dict], preds: list) -> dict:
    quality = [
        p.trace["quality"]["overall"] for p in preds if (p.trace.get("quality") or {}).get("overall") is not None
    ]
    grounding = [r["judge_grounding"] for r in rows if r.get("judge_grounding") is not None]
    stops = Counter(p.trace.get("stop_reason", "") for p in preds)
    return {
        "profile": profile,
        "quality": statistics.fmean(r["score"] for r in rows if r["score"] is not None) if rows else float("nan"),
        "grounding": statistics.fmean(grounding) if grounding else float("nan"),
        "self_quality": statistics.fmean(quality) if quality else float("nan"),
        "iterations": statistics.fmean(p.trace.get("iterations", 0) for p in preds) if preds else 0.0,
        "lm_calls": statistics.fmean(p.trace["lm_calls"]["total"] for p in preds) if preds else 0.0,
        "loop_stops": sum(stops[s] for s in LOOP_STOPS),
        "stops": dict(stops),
    }


def table(rows: list[dict]) -> str:
    """The comparison table. ``calls/q`` is the program's LM calls per question (cache hits included, the metric's
    judge calls not); ``sent`` and ``cached`` are all the profile's LM requests, the judge's included, sent to the
    server and served from the DSPy cache: the child run's ``lm_calls`` and ``lm_cache_hits``, as every command
    counts them (a profile run after another is served largely from the cache)."""
    head = (
        f"{'profile':28} {'quality':>8} {'grounding':>9} {'iters':>6} {'calls/q':>8} {'sent':>6} {'cached':>6} "
        f"{'loop stops':>10}  stop reasons"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        stops = ", ".join(f"{k}:{v}" for k, v in sorted(r["stops"].items()))
        lines.append(
            f"{r['profile']:28} {r['quality']:8.3f} {r['grounding']:9.3f} {r['iterations']:6.2f} "
            f"{r['lm_calls']:8.2f} {r.get('sent', 0):6d} {r.get('cached', 0):6d} {r['loop_stops']:10d}  {stops}"
        )
    return "\n".join(lines)


def run_ablation(args, backend=None) -> list[dict]:
    import dspy
    import mlflow

    from metrics.quality import QualityMetric
    from programs.ablations import ABLATIONS, ablation_settings
    from programs.crag import CRAG
    from yaksa import tracking
    from yaksa.errors import UserError

    config = _lm_flags.lm_config(args)
    _lm_flags.require_lm(config, "yaksa ablation")
    lms = config.build()
    names = [n.strip() for n in args.profiles.split(",")] if args.profiles else list(ABLATIONS)
    unknown = [n for n in names if n not in ABLATIONS]
    if unknown:
        raise UserError(f"unknown profile {unknown[0]!r}; choose from: {', '.join(ABLATIONS)}")
    args.data = Path(args.data) if args.data else None
    _, dev, data_hash = _datasets.datasets(args, train=False)
    if backend is None:
        backend = _backend.backend_for(args)
    base = _program.crag_settings(args)  # [crag] of yaksa.toml; each profile sets its flags over it
    metric = QualityMetric(lms.get("judge"))
    tracking.experiment(args.experiment)
    summaries = []
    with dspy.context(lm=lms.get("generate")), mlflow.start_run(run_name=f"ablation-seed{args.seed}") as parent:
        mlflow.set_tags({"yaksa.command": "ablation"})
        mlflow.log_params(
            {
                **_run_params.dataset_params(args, dev, data_hash),
                "seed": args.seed,
                "profiles": ",".join(names),
                "code_version": _version.code_version(),
                **_lm_flags.describe_lms(config),
            }
        )
        for name in names:
            program = CRAG(backend=backend, settings=ablation_settings(name, base=base, web_references=False), lms=lms)
            usage = _usage.Usage(list(lms.values())).start()
            start = time.perf_counter()
            with mlflow.start_run(run_name=name, nested=True):
                mlflow.set_tags({"yaksa.command": "ablation", "profile": name})
                mlflow.log_params(
                    {
                        "profile": name,
                        "metric": "quality",
                        **_run_params.dataset_params(args, dev, data_hash),
                        "seed": args.seed,
                        **_lm_flags.describe_lms(config),
                    }
                )
                result = _evaluation.evaluate(program, dev, metric, args.threads, "crag", progress=True)
                preds = [p for p in result["preds"] if hasattr(p, "trace")]
                totals = usage.totals()
                summary = summarize(name, result["rows"], preds)
                summary.update(sent=totals["lm_calls"], cached=totals["lm_cache_hits"])
                metrics = {
                    "quality": summary["quality"],
                    "grounding": summary["grounding"],
                    "iterations": summary["iterations"],
                    "lm_calls_per_question": summary["lm_calls"],
                    "loop_stops": summary["loop_stops"],
                    **totals,
                    "duration_s": round(time.perf_counter() - start, 3),
                }
                mlflow.log_metrics({k: v for k, v in metrics.items() if v == v})
                mlflow.log_dict(summary["stops"], "stop_reasons.json")
                _mlflow_table.log_table(result["rows"], "dev_examples")
            summaries.append(summary)
        text = table(summaries)
        mlflow.log_text(text, "ablation_table.txt")
    print(f"ablation over {len(dev)} dev questions, seed {args.seed} -> run {parent.info.run_id}")
    print(text)
    return summaries
