"""``yaksa bench kormedmcqa``: MCQ accuracy of the configured LM on the KorMedMCQA pharmacist test split, with and
without the top retrieved documents as context, logged to MLflow.

Example:
    $ yaksa bench kormedmcqa --n 100 --lm openai/gpt-4o-mini
"""

from __future__ import annotations

import csv
import random
import time
from pathlib import Path

from yaksa.commands import _backend, _datasets, _lm_flags, _mlflow_table, _usage, _version
from yaksa.errors import UserError

KORMEDMCQA = _datasets.ROOT / "trainsets/kormedmcqa/pharm"
LETTERS = ("A", "B", "C", "D", "E")


def register(subparsers) -> None:
    p = subparsers.add_parser("bench", help="benchmarks: kormedmcqa (MCQ accuracy with and without retrieval)")
    p.add_argument("name", choices=("kormedmcqa",), help="the benchmark")
    p.add_argument("--split", default="test", choices=("test", "valid", "train", "fewshot"))
    p.add_argument("--n", type=int, default=50, help="questions drawn (seeded) from the split (0: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--k", type=int, default=3, help="documents retrieved per question (default 3)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--no-retrieval-only", action="store_true", help="skip the with-retrieval arm (no index needed)")
    p.add_argument("--data-dir", type=Path, default=KORMEDMCQA, help="folder with the split CSVs")
    p.add_argument("--index-dir", help="search index folder (default: the built index)")
    p.add_argument("--experiment", default="yaksa-bench")
    _lm_flags.add_lm_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    run_bench(args)
    return 0


def load_questions(folder: Path, split: str, n: int, seed: int) -> list:
    import dspy

    path = folder / f"{split}.csv"
    try:
        with path.open(encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None
    if n and n < len(rows):
        rows = [rows[i] for i in sorted(random.Random(seed).sample(range(len(rows)), n))]
    return [
        dspy.Example(
            id=f"{r['year']}-{r['period']}-{r['q_number']}",
            question=r["question"],
            options={k: r[k] for k in LETTERS if r.get(k)},
            gold=r["answer"].strip(),
        ).with_inputs("question", "options")
        for r in rows
    ]


def accuracy(example, pred, trace=None) -> float:
    return float(getattr(pred, "answer", "") == example.gold)


def run_bench(args, backend=None) -> dict:
    import dspy
    import mlflow

    from programs.mcq import MCQ
    from yaksa import tracking

    config = _lm_flags.lm_config(args)
    _lm_flags.require_lm(config, "yaksa bench kormedmcqa")
    lms = config.build()
    lm = lms.get("generate") or next(iter(lms.values()))
    questions = load_questions(args.data_dir, args.split, args.n, args.seed)
    arms = {"no_retrieval": MCQ()}
    if not args.no_retrieval_only:
        arms["retrieval"] = MCQ(backend if backend is not None else _backend.backend_for(args), k=args.k)
    tracking.experiment(args.experiment)
    results = {}
    with dspy.context(lm=lm), mlflow.start_run(run_name=f"bench-kormedmcqa-{args.split}") as run:
        mlflow.set_tags({"yaksa.command": "bench", "benchmark": "kormedmcqa"})
        mlflow.log_params(
            {
                "benchmark": "kormedmcqa/pharm",
                "split": args.split,
                "n": len(questions),
                "seed": args.seed,
                "k": args.k,
                "code_version": _version.code_version(),
                **_lm_flags.describe_lms(config),
            }
        )
        for arm, program in arms.items():
            usage = _usage.Usage([lm]).start()
            start = time.perf_counter()
            out = dspy.Evaluate(
                devset=questions,
                metric=accuracy,
                num_threads=args.threads,
                display_progress=True,
                provide_traceback=False,
                max_errors=len(questions) + 1,
            )(program)
            rows = [
                {"id": ex.id, "gold": ex.gold, "answer": getattr(p, "answer", ""), "correct": bool(s)}
                for ex, p, s in out.results
            ]
            acc = sum(r["correct"] for r in rows) / len(rows) if rows else 0.0
            unanswered = sum(1 for r in rows if not r["answer"])
            results[arm] = {
                "accuracy": acc,
                "unanswered": unanswered,
                **usage.totals(),
                "duration_s": round(time.perf_counter() - start, 3),
            }
            mlflow.log_metrics({f"{arm}.{k}": v for k, v in results[arm].items()})
            _mlflow_table.log_table(rows, f"{arm}_answers")
    print(
        f"KorMedMCQA pharmacist {args.split}: {len(questions)} questions, LM {config.models.get('generate')} "
        f"-> run {run.info.run_id}"
    )
    print(f"{'arm':14} {'accuracy':>9} {'unanswered':>10} {'LM calls':>9} {'cached':>7}")  # as logged
    for arm, r in results.items():
        print(f"{arm:14} {r['accuracy']:9.3f} {r['unanswered']:10d} {r['lm_calls']:9d} {r['lm_cache_hits']:7d}")
    return results
