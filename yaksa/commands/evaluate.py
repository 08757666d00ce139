"""``yaksa evaluate``: score a program (uncompiled, a JSON state, or a registered model) on the dev set with
`dspy.Evaluate` and log the mean, the undetermined count, LM usage and the per-example table to MLflow.

Example:
    $ yaksa evaluate --model models:/yaksa-crag@champion --metric combined --dev 40 --lm openai/gpt-4o-mini
"""

from __future__ import annotations

import time

from yaksa.commands import (
    _backend,
    _datasets,
    _evaluation,
    _lm_flags,
    _metric,
    _mlflow_table,
    _run_params,
    _usage,
    _version,
)
from yaksa.errors import UserError


def register(subparsers) -> None:
    p = subparsers.add_parser("evaluate", help="score a program on the dev set (dspy.Evaluate) and log it to MLflow")
    p.add_argument("--model", help="a JSON state path or models:/yaksa-crag@champion (default: the uncompiled program)")
    p.add_argument("--metric", choices=("quality", "ragas", "combined"), default="quality")
    p.add_argument(
        "--weights", help="combined metric weights, e.g. quality=0.5,faithfulness=0.25,answer_relevancy=0.25"
    )
    p.add_argument("--profile", default="full_context_engineering", help="CRAG profile of the uncompiled program")
    _datasets.add_data_args(p, train=False)
    _lm_flags.add_lm_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    run_evaluate(args)
    return 0


def load_program(args, backend, lms):
    from yaksa.commands.compile import build_program

    if not args.model:
        return build_program(args, backend, lms)
    from programs.loading import StateError, load

    try:
        return load(args.model, backend=backend, lms=lms)
    except StateError as e:
        raise UserError(str(e)) from None


def run_evaluate(args, backend=None) -> dict:
    import dspy
    import mlflow

    from yaksa import tracking

    config = _lm_flags.lm_config(args)
    if args.metric != "quality" and args.program == "crag":
        _lm_flags.require_lm(config, f"the {args.metric} metric")
    lms = config.build()
    _, dev, data_hash = _datasets.datasets(args, train=False)
    if args.program == "crag" and backend is None:
        backend = _backend.backend_for(args)
    program = load_program(args, backend, lms)
    metric, _ = _metric.build_metric(args, lms)
    tracking.experiment(args.experiment)
    mlflow.dspy.autolog(log_traces_from_eval=True, log_evals=True, silent=True)
    usage = _usage.Usage(list(lms.values())).start()
    start = time.perf_counter()
    default_lm = lms.get("generate") or next(iter(lms.values()), None)
    with dspy.context(lm=default_lm), mlflow.start_run(run_name=f"evaluate-{args.program}") as run:
        mlflow.set_tags({"yaksa.command": "evaluate", "yaksa.program": args.program})
        mlflow.log_params(
            {
                "program": args.program,
                "model": args.model or "uncompiled",
                "metric": args.metric if args.program == "crag" else "turn",
                "profile": getattr(program, "settings", None) and _profile(program, args),
                "optimizer": (getattr(program, "yaksa_header", None) or {}).get("optimizer") or "none",
                **_run_params.dataset_params(args, dev, data_hash),
                "seed": args.seed,
                "code_version": _version.code_version(),
                **_lm_flags.describe_lms(config),
            }
        )
        result = _evaluation.evaluate(program, dev, metric, args.threads, args.program)
        metrics = {
            "dev_score": result["score"],
            "dev_undetermined": result["undetermined"],
            **{f"undetermined_{k}": v for k, v in (result["parts"] or {}).items()},
            **usage.totals(),
            "duration_s": round(time.perf_counter() - start, 3),
        }
        mlflow.log_metrics({k: v for k, v in metrics.items() if v == v})
        _mlflow_table.log_table(result["rows"], "dev_examples")
    _stop_autolog()
    what = args.model or f"the uncompiled {args.program}"
    print(f"evaluated {what} on {len(dev)} dev examples -> run {run.info.run_id}")
    score = "undetermined" if result["score"] != result["score"] else f"{result['score']:.3f}"
    print(
        f"{args.metric if args.program == 'crag' else 'turn'} score: {score} (undetermined: {result['undetermined']})"
    )
    print(f"LM calls: {metrics['lm_calls']} (+{metrics['lm_cache_hits']} from cache), tokens: {metrics['lm_tokens']}")
    return {"run_id": run.info.run_id, **metrics, "rows": result["rows"]}


def _profile(program, args) -> str:
    header = getattr(program, "yaksa_header", None) or {}
    return header.get("profile") or args.profile


def _stop_autolog() -> None:
    """Stop DSPy autologging once the run is over, so later calls in this process are not traced into it."""
    import mlflow

    mlflow.dspy.autolog(disable=True)
