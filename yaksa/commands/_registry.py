"""The MLflow model registry side of ``yaksa compile``: tag a new version with its score and what the score was
measured on (the dev set's version, the metric, the LMs), and with ``--promote`` move the ``champion`` alias when
the new version beats the champion like with like (`yaksa.commands._promotion`)."""

from __future__ import annotations

from yaksa.commands import _evaluation, _metric, _promotion

MODEL_NAMES = {"crag": "yaksa-crag", "turn": "yaksa-turn"}
CHAMPION = _promotion.CHAMPION


def version_tags(args, score, data_hash, run_id, lms, dataset_version: str, dev_n: int) -> dict:
    """The tags of a registered version: ``dev_score`` measured on ``dataset_version`` (``dev_n`` questions) with
    ``metric`` / ``metric_weights`` and ``lm``, and where it came from."""
    return {
        "dev_score": f"{score:.6f}",
        "dataset_version": dataset_version,
        "dev_n": str(dev_n),
        "metric": args.metric if args.program == "crag" else "turn",
        "metric_weights": (getattr(args, "weights", None) or "") if args.program == "crag" else "",
        "lm": _promotion.describe_lms(lms),
        "dataset_hash": data_hash,
        "optimizer": args.optimizer,
        "profile": args.profile,
        "run_id": run_id,
    }


def register_version(name, version, run_id, args, score, data_hash, backend, lms, dataset_version=None, dev_n=None):
    """Tag the version; with --promote move the champion alias when the new version beats it on the fixed dev set.

    Args:
        score: the version's dev score, measured on the dev set whose version is `dataset_version` (default: the
            fixed promotion set, `_promotion.promotion_set`, which ``--promote`` requires).
        data_hash: the run's train + dev draw hash (a run param too).
        backend, lms: for re-scoring a champion that was measured with another scorer.
    """
    from mlflow import MlflowClient

    client = MlflowClient()
    if dataset_version is None:
        fixed, dataset_version = _promotion.promotion_set(args)
        dev_n = len(fixed)
    tags = version_tags(args, score, data_hash, run_id, lms, dataset_version, dev_n)
    for key, value in tags.items():
        client.set_model_version_tag(name, version, key, value)
    if not args.promote:
        return None

    def rescore(champion_version) -> float:
        from programs.loading import load

        old = load(f"models:/{name}/{champion_version}", backend=backend, lms=lms)
        fixed, _ = _promotion.promotion_set(args)
        metric, _ = _metric.build_metric(args, lms)
        return _evaluation.evaluate(old, fixed, metric, args.threads, args.program, progress=False)["score"]

    decision = _promotion.promote(client, name, str(version), tags, rescore)
    return {**decision, "score": score, "dataset_version": dataset_version}


def print_result(result: dict, args) -> None:
    """What ``yaksa compile`` did: the run, the scores, the LM usage and the registered version."""
    promoted = result["promoted"]
    line = f"registered {result['model']} version {result['version']}" if result["version"] else "not registered"
    if promoted is not None:
        if promoted["promoted"]:
            line += f"; it is now @{CHAMPION}"
        else:
            line += (
                f"; @{CHAMPION} stays at version {promoted['champion_version']} "
                f"(fixed dev set {promoted['dataset_version']}: {promoted['champion_score']:.3f} "
                f">= {promoted['score']:.3f}, {promoted['reason']})"
            )
    print(f"compiled {args.program} with {args.optimizer} ({args.metric}) -> run {result['run_id']}")
    print(f"dev score: {result['dev_score_before']:.3f} -> {result['dev_score_after']:.3f}")
    cost = f", ${result['lm_cost_usd']:.4f}" if "lm_cost_usd" in result else ""
    print(
        f"LM calls: {result['lm_calls']} (+{result['lm_cache_hits']} from cache), tokens: {result['lm_tokens']}{cost}"
    )
    print(line)
