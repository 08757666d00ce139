"""The MLflow model registry side of ``yaksa compile``: tag a new version with its score and data, and with
``--promote`` move the ``champion`` alias when the new version beats the champion on the same dev set."""

from __future__ import annotations

from yaksa.commands import _datasets, _evaluation, _metric

MODEL_NAMES = {"crag": "yaksa-crag", "turn": "yaksa-turn"}
CHAMPION = "champion"


def register_version(name, version, run_id, args, score, data_hash, backend, lms):
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
        _, dev, _ = _datasets.datasets(args)
        metric, _ = _metric.build_metric(args, lms)
        best = _evaluation.evaluate(old, dev, metric, args.threads, args.program, progress=False)["score"]
    won = score == score and (best != best or score > best)
    if won:
        client.set_registered_model_alias(name, CHAMPION, version)
    return {"promoted": won, "champion_version": champion.version, "champion_score": best}


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
                f"(dev {promoted['champion_score']:.3f} >= {result['dev_score_after']:.3f})"
            )
    print(f"compiled {args.program} with {args.optimizer} ({args.metric}) -> run {result['run_id']}")
    print(f"dev score: {result['dev_score_before']:.3f} -> {result['dev_score_after']:.3f}")
    cost = f", ${result['lm_cost_usd']:.4f}" if "lm_cost_usd" in result else ""
    print(
        f"LM calls: {result['lm_calls']} (+{result['lm_cache_hits']} from cache), tokens: {result['lm_tokens']}{cost}"
    )
    print(line)
