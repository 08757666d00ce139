"""The DSPy optimizers ``yaksa compile`` offers, built from its flags, with the settings it logs as MLflow params."""

from __future__ import annotations

from yaksa.errors import UserError

OPTIMIZERS = ("bootstrap", "bootstrap-rs", "mipro", "gepa", "simba")


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
