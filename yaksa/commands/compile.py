"""``yaksa compile``: optimise the CRAG program (or the turn evaluator) with a DSPy optimizer, track it in MLflow,
and register the result as a new version of ``yaksa-crag`` (``yaksa-turn``).

Example:
    $ yaksa compile --optimizer bootstrap --metric quality --profile full_context_engineering --train 20 --seed 0 \\
          --lm openai/qwen2.5-7b-instruct --api-base http://127.0.0.1:8000/v1 --promote
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from yaksa.cli import UserError
from yaksa.commands import _lab

OPTIMIZERS = ("bootstrap", "bootstrap-rs", "mipro", "gepa", "simba")
MODEL_NAMES = {"crag": "yaksa-crag", "turn": "yaksa-turn"}
CHAMPION = "champion"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compile",
        help="optimise the program with a DSPy optimizer, log it to MLflow and register it",
        description="Compile the CRAG program (or --program turn) on the train set, score it on the dev set before "
        "and after, log params / metrics / the JSON state / traces to MLflow, and register a new model version.",
    )
    p.add_argument("--optimizer", choices=OPTIMIZERS, default="bootstrap")
    p.add_argument("--metric", choices=("quality", "ragas", "combined"), default="quality")
    p.add_argument(
        "--weights", help="combined metric weights, e.g. quality=0.5,faithfulness=0.25,answer_relevancy=0.25"
    )
    p.add_argument("--profile", default="full_context_engineering", help="CRAG ablation profile")
    p.add_argument("--demos", type=int, default=2, help="bootstrapped demos per predictor (default 2)")
    p.add_argument("--candidates", type=int, default=3, help="candidate programs / instructions (default 3)")
    p.add_argument("--trials", type=int, default=3, help="MIPROv2 trials (default 3)")
    p.add_argument("--steps", type=int, default=2, help="SIMBA steps (default 2)")
    p.add_argument("--metric-calls", type=int, default=0, help="GEPA metric-call budget (default: 4 x train)")
    p.add_argument("--out", type=Path, help="also write the compiled JSON state here")
    p.add_argument("--promote", action="store_true", help="move the 'champion' alias when the new version beats it")
    p.add_argument("--no-register", action="store_true", help="log the model but do not register a version")
    _lab.add_data_args(p)
    _lab.add_lm_args(p)
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
    from programs.profiles import PROFILES, get_profile

    if args.profile not in PROFILES:
        raise UserError(f"unknown profile {args.profile!r}; choose one of: {', '.join(PROFILES)}")
    return CRAG(backend=backend, settings=get_profile(args.profile, web_references=False), lms=lms)


def build_metric(args, lms, feedback: bool = False):
    """(the metric to report, the metric the optimizer sees)."""
    if args.program == "turn":
        from metrics.turn import turn_metric

        def turn_feedback(example, pred, trace=None, pred_name=None, pred_trace=None):
            import dspy

            value = turn_metric(example, pred, None)
            if feedback:
                text = f"gold intents {example.intents}, score {example.score}; got {pred.intents}, {pred.score}"
                return dspy.Prediction(score=value, feedback=text)
            return turn_metric(example, pred, trace) if trace is not None and pred_name is None else value

        return turn_metric, turn_feedback
    from metrics.combined import for_optimizer, make_metric, parse_weights

    try:
        weights = parse_weights(args.weights) if getattr(args, "weights", None) else None
        metric = make_metric(args.metric, judge=lms.get("judge"), weights=weights)
    except ValueError as e:
        raise UserError(str(e)) from None
    return metric, for_optimizer(metric, feedback=feedback)


def make_optimizer(args, metric, lms, n_train: int):
    """The optimizer and the settings logged as params."""
    import dspy

    name, threads = args.optimizer, max(1, args.threads)
    if name == "bootstrap":
        s = dict(max_bootstrapped_demos=args.demos, max_labeled_demos=0, max_rounds=1)
        return dspy.BootstrapFewShot(metric=metric, **s), s, {}
    if name == "bootstrap-rs":
        s = dict(
            max_bootstrapped_demos=args.demos,
            max_labeled_demos=0,
            num_candidate_programs=args.candidates,
            num_threads=threads,
        )
        return dspy.BootstrapFewShotWithRandomSearch(metric=metric, **s), s, {}
    if name == "mipro":
        try:
            import optuna  # noqa: F401
        except ModuleNotFoundError:
            raise UserError("the mipro optimizer needs optuna: pip install optuna (or dspy[optuna])") from None
        s = dict(
            auto=None,
            num_candidates=args.candidates,
            max_bootstrapped_demos=args.demos,
            max_labeled_demos=0,
            num_threads=threads,
            seed=args.seed,
        )
        opt = dspy.MIPROv2(
            metric=metric, prompt_model=lms.get("judge"), task_model=lms.get("generate"), verbose=False, **s
        )
        opt.track_stats = False
        c = dict(num_trials=args.trials, minibatch=False, program_aware_proposer=False, data_aware_proposer=False)
        return opt, {**s, **c}, c
    if name == "gepa":
        calls = args.metric_calls or max(8, 4 * n_train)
        s = dict(max_metric_calls=calls, reflection_minibatch_size=min(3, max(1, n_train)), num_threads=threads)
        opt = dspy.GEPA(metric=metric, reflection_lm=lms.get("judge"), seed=args.seed, use_merge=False, **s)
        return opt, s, {}
    s = dict(bsize=min(4, max(1, n_train)), num_candidates=args.candidates, max_steps=args.steps, max_demos=args.demos)
    return dspy.SIMBA(metric=metric, prompt_model=lms.get("judge"), num_threads=threads, **s), s, {"seed": args.seed}


def run_compile(args, backend=None) -> dict:
    """Compile, evaluate, log and register; returns what was done (run id, version, scores, usage)."""
    import dspy
    import mlflow

    import programs.pyfunc
    from programs.loading import save_state
    from yaksa import tracking

    config = _lab.lm_config(args)
    _lab.require_lm(config, "yaksa compile")
    lms = config.build()
    default_lm = lms.get("generate") or next(iter(lms.values()))
    train, dev, data_hash = _lab.datasets(args)
    if not train or not dev:
        raise UserError("compile needs at least one train and one dev example")
    if args.program == "crag" and backend is None:
        backend = _lab.open_backend(args)
    metric, opt_metric = build_metric(args, lms, feedback=args.optimizer == "gepa")
    program = build_program(args, backend, lms)
    optimizer, opt_settings, compile_kwargs = make_optimizer(args, opt_metric, lms, len(train))
    model_name = MODEL_NAMES[args.program]

    tracking.experiment(args.experiment)
    mlflow.dspy.autolog(log_traces_from_compile=True, log_compiles=True, log_evals=True, silent=True)
    usage = _lab.Usage(list(lms.values())).start()
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
                "dev_n": len(dev),
                "dataset_hash": data_hash,
                "seed": args.seed,
                "code_version": _lab.code_version(),
                "lm_cache": config.cache,
                **_lab.describe_lms(config),
            }
        )
        before = _lab.evaluate(program, dev, metric, args.threads, args.program)
        kwargs = dict(trainset=train, **compile_kwargs)
        if args.optimizer in ("bootstrap-rs", "mipro", "gepa"):
            kwargs["valset"] = dev
        try:
            compiled = optimizer.compile(program, **kwargs)
        except Exception as e:
            if type(e).__name__ in ("BudgetExhausted",):
                raise
            raise UserError(f"the {args.optimizer} optimizer failed: {type(e).__name__}: {str(e)[:300]}") from e
        after = _lab.evaluate(compiled, dev, metric, args.threads, args.program)
        metrics = {
            "dev_score_before": before["score"],
            "dev_score_after": after["score"],
            "dev_undetermined_before": before["undetermined"],
            "dev_undetermined_after": after["undetermined"],
            **usage.totals(),
            "duration_s": round(time.perf_counter() - start, 3),
        }
        mlflow.log_metrics({k: v for k, v in metrics.items() if v == v})  # NaN (nothing determined) is not logged
        _lab.log_table(before["rows"], "dev_before")
        _lab.log_table(after["rows"], "dev_after")
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
            promoted = _register(model_name, version, run.info.run_id, args, after["score"], data_hash, backend, lms)
    _stop_autolog()
    result = {
        "run_id": run.info.run_id,
        "model": model_name,
        "version": version,
        "promoted": promoted,
        "dev_score_before": before["score"],
        "dev_score_after": after["score"],
        **usage.totals(),
    }
    _print(result, args)
    return result


def _register(name, version, run_id, args, score, data_hash, backend, lms):
    """Tag the version; with --promote move the champion alias when the new version beats it on dev."""
    from mlflow import MlflowClient

    client = MlflowClient()
    tags = {
        "dev_score": f"{score:.6f}",
        "metric": args.metric if args.program == "crag" else "turn",
        "dataset_hash": data_hash,
        "optimizer": args.optimizer,
        "profile": args.profile,
        "run_id": run_id,
    }
    for key, value in tags.items():
        client.set_model_version_tag(name, version, key, value)
    if not args.promote:
        return None
    try:
        champion = client.get_model_version_by_alias(name, CHAMPION)
    except Exception:  # no champion yet
        champion = None
    if champion is None:
        client.set_registered_model_alias(name, CHAMPION, version)
        return {"promoted": True, "champion_score": None, "reason": "no champion yet"}
    same_bench = champion.tags.get("dataset_hash") == data_hash and champion.tags.get("metric") == tags["metric"]
    if same_bench and "dev_score" in champion.tags:
        best = float(champion.tags["dev_score"])
    else:  # scored on another dev set or metric: score the champion on this one
        from programs.loading import load

        old = load(f"models:/{name}@{CHAMPION}", backend=backend, lms=lms)
        _, dev, _ = _lab.datasets(args)
        metric, _ = build_metric(args, lms)
        best = _lab.evaluate(old, dev, metric, args.threads, args.program, progress=False)["score"]
    won = score == score and (best != best or score > best)
    if won:
        client.set_registered_model_alias(name, CHAMPION, version)
    return {"promoted": won, "champion_version": champion.version, "champion_score": best}


def _print(result: dict, args) -> None:
    promoted = result["promoted"]
    line = f"registered {result['model']} version {result['version']}" if result["version"] else "not registered"
    if promoted is not None:
        if promoted["promoted"]:
            line += f"; it is now @{CHAMPION}"
        else:
            line += (
                f"; @{CHAMPION} stays at version {promoted['champion_version']} "
                f"(dev {promoted['champion_score']:.3f} >= {result['dev_score_after']:.3f})"
            )
    print(f"compiled {args.program} with {args.optimizer} ({args.metric}) -> run {result['run_id']}")
    print(f"dev score: {result['dev_score_before']:.3f} -> {result['dev_score_after']:.3f}")
    cost = f", ${result['lm_cost_usd']:.4f}" if "lm_cost_usd" in result else ""
    print(
        f"LM calls: {result['lm_calls']} (+{result['lm_cache_hits']} from cache), tokens: {result['lm_tokens']}{cost}"
    )
    print(line)


def _stop_autolog() -> None:
    """Stop DSPy autologging once the run is over, so later calls in this process are not traced into it."""
    import mlflow

    mlflow.dspy.autolog(disable=True)
