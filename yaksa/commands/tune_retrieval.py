"""``yaksa tune-retrieval``: search fusion weights, candidate depth and the OOS cut on the dev set (no LM)."""

from __future__ import annotations

import argparse
import json

from yaksa.commands._backend import open_searcher_or_explain
from yaksa.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "tune-retrieval",
        help="tune fusion weights, depth and the OOS threshold on the dev set",
        description="Gather candidates once per dev question, then score TRIALS settings (random search over a "
        "grid of BM25/dense/name/section weights, weighted vs reciprocal-rank fusion and candidate depth, seeded; "
        "trial 0 is the current setting). Every trial is logged as a child MLflow run under one parent "
        "(experiment yaksa-retrieval). The best setting, and the OOS cut that keeps in-scope blocking <= 3%%, "
        "are written to the [retrieval] table of yaksa.toml, which every command reads. No LM.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--split", default="dev", choices=["dev", "test"])
    p.add_argument("--questions", help="a JSONL file of {id, question, gold, kind} instead of a shipped split")
    p.add_argument("--trials", type=int, default=150)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", default="yaksa.toml", help="where to write the best settings")
    p.add_argument("--dry-run", action="store_true", help="report, but do not write the config")
    p.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    p.add_argument("--no-mlflow", action="store_true", help="do not log MLflow runs")
    p.set_defaults(func=run)


def run(args) -> int:
    from tqdm import tqdm

    from metrics.retrieval_eval import load_questions
    from metrics.retrieval_tuning import tune
    from retrievers.settings import write_settings

    if args.trials < 1:
        raise UserError("--trials must be at least 1")
    try:
        questions = load_questions(args.split, args.questions)
    except (OSError, json.JSONDecodeError) as e:
        raise UserError(f"cannot read the question set: {e}") from None
    searcher = open_searcher_or_explain(args.index_dir)
    logger = None if args.no_mlflow else _MlflowTrials(args)
    try:
        with tqdm(total=len(questions), desc="gathering", unit="q") as bar:
            result = tune(
                searcher,
                questions,
                trials=args.trials,
                seed=args.seed,
                progress=bar.update,
                log_trial=logger.log if logger else None,
            )
    finally:
        if logger:
            logger.close()
    d, b = result.default_score, result.best_score
    print(f"current  recall@5 {d['recall@5']:.3f}  mrr@10 {d['mrr@10']:.3f}  {searcher.settings.weights}")
    print(f"best     recall@5 {b['recall@5']:.3f}  mrr@10 {b['mrr@10']:.3f}  {result.best}")
    print(
        f"oos cut  {result.oos_threshold}  (oos recall {result.oos['oos_recall']:.3f}, "
        f"in-scope blocked {result.oos['in_scope_blocked']:.3f})"
    )
    better = (b["recall@5"], b["mrr@10"]) > (d["recall@5"], d["mrr@10"])
    settings = searcher.settings.updated(oos_min_dense=result.oos_threshold)
    if better:
        settings = settings.updated(
            weights=result.best["weights"],
            fusion=result.best["fusion"],
            bm25_depth=result.best["depth"],
            dense_depth=result.best["depth"],
        )
    if args.dry_run:
        print("dry run: config not written")
    else:
        path = write_settings(settings, args.config)
        print(f"wrote [retrieval] to {path}" + ("" if better else " (weights unchanged: no trial beat them)"))
    return 0


class _MlflowTrials:
    """One parent run; each trial a child run with its weights as params and its scores as metrics."""

    def __init__(self, args):
        import mlflow

        from yaksa.tracking import experiment

        experiment("yaksa-retrieval")
        self.mlflow = mlflow
        self.parent = mlflow.start_run(run_name=f"tune-retrieval-{args.split}")
        mlflow.log_params({"split": args.split, "trials": args.trials, "seed": args.seed})
        self.best = -1.0

    def log(self, n: int, cand: dict, score: dict) -> None:
        mlflow = self.mlflow
        with mlflow.start_run(run_name=f"trial-{n:03d}", nested=True):
            mlflow.log_params(
                {**{f"w_{k}": v for k, v in cand["weights"].items()}, "fusion": cand["fusion"], "depth": cand["depth"]}
            )
            mlflow.log_metrics({k.replace("@", "_at_"): v for k, v in score.items()})
        self.best = max(self.best, score["recall@5"])
        mlflow.log_metric("best_recall_at_5", self.best, step=n)

    def close(self) -> None:
        self.mlflow.end_run()
