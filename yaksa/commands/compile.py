"""``yaksa compile``: optimise the CRAG program (or the turn evaluator) with a DSPy optimizer, track it in MLflow,
and register the result as a new version of ``yaksa-crag`` (``yaksa-turn``).

Example:
    $ yaksa compile --optimizer bootstrap --metric quality --profile full_context_engineering --train 20 --seed 0 \\
          --lm openai/qwen2.5-7b-instruct --api-base http://127.0.0.1:8000/v1 --promote
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from programs.ablations import DEFAULT_ABLATION
from yaksa.commands import (
    _backend,
    _datasets,
    _evaluation,
    _lm_flags,
    _metric,
    _mlflow_table,
    _optimizers,
    _program,
    _promotion,
    _prompts,
    _registry,
    _run_params,
    _usage,
    _version,
)
from yaksa.errors import UserError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compile",
        help="optimise the program with a DSPy optimizer, log it to MLflow and register it",
        description="Compile the CRAG program (or --program turn) on the train set, score it on the dev set before "
        "and after, log params / metrics / the JSON state / traces to MLflow, and register a new model version.",
    )
    p.add_argument("--optimizer", choices=_optimizers.OPTIMIZERS, default="bootstrap")
    p.add_argument("--metric", choices=("quality", "ragas", "combined"), default="quality")
    p.add_argument(
        "--weights", help="combined metric weights, e.g. quality=0.5,faithfulness=0.25,answer_relevancy=0.25"
    )
    p.add_argument("--profile", default=DEFAULT_ABLATION, help=f"CRAG ablation profile (default {DEFAULT_ABLATION})")
    p.add_argument("--demos", type=int, default=2, help="bootstrapped demos per predictor (default 2)")
    p.add_argument("--candidates", type=int, default=3, help="candidate programs / instructions (default 3)")
    p.add_argument("--trials", type=int, default=3, help="MIPROv2 trials (default 3)")
    p.add_argument("--steps", type=int, default=2, help="SIMBA steps (default 2)")
    p.add_argument("--metric-calls", type=int, default=0, help="GEPA metric-call budget (default: 4 x train)")
    p.add_argument("--out", type=Path, help="also write the compiled JSON state here")
    p.add_argument("--promote", action="store_true", help="move the 'champion' alias when the new version beats it")
    p.add_argument("--no-register", action="store_true", help="log the model but do not register a version")
    _datasets.add_data_args(p)
    _lm_flags.add_lm_args(p)
    p.set_defaults(func=run)


def run(args) -> int:
    run_compile(args)
    return 0


def build_program(args, backend, lms):
    """A fresh program of the chosen kind."""
    if args.program == "turn":
        from programs.turn import TurnEvaluator

        return TurnEvaluator(num_threads=1)
    from programs.crag import CRAG

    return CRAG(backend=backend, settings=_program.crag_settings(args, web_references=False), lms=lms)


def run_compile(args, backend=None) -> dict:
    """Compile, evaluate, log and register; returns what was done (run id, version, scores, usage)."""
    import dspy
    import mlflow

    import programs.pyfunc
    from programs.budget import BudgetExhausted
    from programs.loading import save_state
    from yaksa import tracking

    config = _lm_flags.lm_config(args)
    _lm_flags.require_lm(config, "yaksa compile")
    lms = config.build()
    default_lm = lms.get("generate") or next(iter(lms.values()))
    train, dev, data_hash = _datasets.datasets(args)
    if not train or not dev:
        raise UserError("compile needs at least one train and one dev example")
    if args.program == "crag" and backend is None:
        backend = _backend.backend_for(args)
    metric, opt_metric = _metric.build_metric(args, lms, feedback=args.optimizer == "gepa")
    program = build_program(args, backend, lms)
    optimizer, opt_settings, compile_kwargs = _optimizers.make_optimizer(args, opt_metric, lms, len(train))
    model_name = _registry.MODEL_NAMES[args.program]

    tracking.experiment(args.experiment)
    mlflow.dspy.autolog(log_traces_from_compile=True, log_compiles=True, log_evals=True, silent=True)
    usage = _usage.Usage(list(lms.values())).start()
    start = time.perf_counter()
    with dspy.context(lm=default_lm), mlflow.start_run(run_name=f"compile-{args.program}-{args.optimizer}") as run:
        mlflow.set_tags({"yaksa.command": "compile", "yaksa.program": args.program})
        mlflow.log_params(
            {
                "program": args.program,
                "optimizer": args.optimizer,
                **{f"optimizer.{k}": v for k, v in opt_settings.items()},
                "metric": args.metric if args.program == "crag" else "turn",
                "profile": args.profile if args.program == "crag" else "n/a",
                "train_n": len(train),
                **_run_params.dataset_params(args, dev, data_hash),
                "seed": args.seed,
                "code_version": _version.code_version(),
                "lm_cache": config.cache,
                **_lm_flags.describe_lms(config),
            }
        )
        before = _evaluation.evaluate(program, dev, metric, args.threads, args.program)
        kwargs = dict(trainset=train, **compile_kwargs)
        if args.optimizer in ("bootstrap-rs", "mipro", "gepa"):
            kwargs["valset"] = dev
        try:
            compiled = optimizer.compile(program, **kwargs)
        except BudgetExhausted:
            raise
        except Exception as e:  # an optimizer's own failure: one line (a spent LM budget is not one)
            raise UserError(f"the {args.optimizer} optimizer failed: {type(e).__name__}: {str(e)[:300]}") from e
        after = _evaluation.evaluate(compiled, dev, metric, args.threads, args.program)
        scored = _fixed_set_score(args, compiled, dev, after["score"], metric)
        metrics = {
            "dev_score_before": before["score"],
            "dev_score_after": after["score"],
            "dev_undetermined_before": before["undetermined"],
            "dev_undetermined_after": after["undetermined"],
            **({"promotion_dev_score": scored["score"]} if scored["rescored"] else {}),
        }
        mlflow.log_metrics({k: v for k, v in metrics.items() if v == v})  # NaN (nothing determined) is not logged
        _mlflow_table.log_table(before["rows"], "dev_before")
        _mlflow_table.log_table(after["rows"], "dev_after")
        with tempfile.TemporaryDirectory() as tmp:
            state = save_state(
                compiled,
                Path(tmp) / "yaksa_state.json",
                kind=args.program,
                profile=args.profile if args.program == "crag" else None,
                optimizer=args.optimizer,
                metric=args.metric,
                dev_score=after["score"],
                dataset_hash=data_hash,
                seed=args.seed,
            )
            if args.out:
                args.out.parent.mkdir(parents=True, exist_ok=True)
                args.out.write_text(state.read_text(encoding="utf-8"), encoding="utf-8")
            state_text = state.read_text(encoding="utf-8")
            mlflow.log_artifact(str(state), artifact_path="program")
            info = mlflow.pyfunc.log_model(
                name="model",
                # model-from-code: mlflow.pyfunc.load_model runs this file and unpickles nothing
                python_model=str(Path(programs.pyfunc.__file__).with_name("pyfunc_model.py")),
                artifacts={"program": str(state)},
                registered_model_name=None if args.no_register else model_name,
                pip_requirements=["yaksa", f"dspy=={dspy.__version__}", f"mlflow=={mlflow.__version__}"],
            )
        version = None if args.no_register else str(info.registered_model_version)
        promoted = None
        if version:
            promoted = _registry.register_version(
                model_name,
                version,
                run.info.run_id,
                args,
                scored["score"],
                data_hash,
                backend,
                lms,
                dataset_version=scored["dataset_version"],
                dev_n=scored["n"],
            )
        prompts = _prompts.register(json.loads(state_text), run.info.run_id, model_name, version, info.model_id)
        # one snapshot after the last LM call of the run (a champion re-scored by --promote included): logged and
        # printed alike
        final = {**usage.totals(), "duration_s": round(time.perf_counter() - start, 3)}
        mlflow.log_metrics(final)
    _stop_autolog()
    result = {
        "run_id": run.info.run_id,
        "model": model_name,
        "version": version,
        "promoted": promoted,
        "dev_score_before": before["score"],
        "dev_score_after": after["score"],
        **final,
    }
    _registry.print_result(result, args)
    print(prompts)
    return result


def _fixed_set_score(args, compiled, dev, score, metric) -> dict:
    """The score the version is registered with, and on which dev set: this run's draw, except with --promote, where
    the candidate is scored on the fixed promotion set (the draw itself when ``--seed`` is 0 or ``--dev 0``)."""
    version = _promotion.dataset_version(dev)
    if args.promote and not args.no_register:
        fixed, fixed_version = _promotion.promotion_set(args)
        if fixed_version != version:
            score = _evaluation.evaluate(compiled, fixed, metric, args.threads, args.program, progress=False)["score"]
            return {"score": score, "dataset_version": fixed_version, "n": len(fixed), "rescored": True}
    return {"score": score, "dataset_version": version, "n": len(dev), "rescored": False}


def _stop_autolog() -> None:
    """Stop DSPy autologging once the run is over, so later calls in this process are not traced into it."""
    import mlflow

    mlflow.dspy.autolog(disable=True)
