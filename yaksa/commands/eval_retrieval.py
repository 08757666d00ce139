"""``yaksa eval-retrieval``: recall@5/@20, MRR@10 and OOS precision/recall per retrieval mode, logged to MLflow."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from yaksa.commands._backend import open_searcher_or_explain
from yaksa.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "eval-retrieval",
        help="score BM25, dense, hybrid (and reranked) retrieval on the dev set",
        description="Run every retrieval mode over a question set with gold document ids (default: "
        "trainsets/retrieval/dev.jsonl) and print recall@5, recall@20, MRR@10 per question kind and the "
        "out-of-scope guard's precision/recall. Logs one MLflow run (experiment yaksa-retrieval). No LM.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--split", default="dev", choices=["dev", "test"], help="which shipped question set")
    p.add_argument("--questions", help="a JSONL file of {id, question, gold, kind} instead of a shipped split")
    p.add_argument("--modes", help="comma-separated subset of bm25,dense,seed,hybrid,hybrid+rerank")
    p.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    p.add_argument("--reranker", help="flag:<path> or cross-encoder:<path> to add the hybrid+rerank mode")
    p.add_argument("--no-mlflow", action="store_true", help="do not log an MLflow run")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=run)


def format_table(table: dict) -> str:
    kinds = [k for k in next(iter(table.values())) if k not in {"oos", "_rows"}]
    lines = [f"{'mode':<14}{'kind':<20}{'n':>4}{'R@5':>8}{'R@20':>8}{'MRR@10':>8}"]
    for mode, summary in table.items():
        for kind in kinds:
            m = summary[kind]
            lines.append(
                f"{mode:<14}{kind:<20}{m['n']:>4}{m['recall@5']:>8.3f}{m['recall@20']:>8.3f}{m['mrr@10']:>8.3f}"
            )
        o = summary["oos"]
        lines.append(
            f"{mode:<14}{'oos guard':<20}{o['n']:>4}   precision {o['precision']:.3f}  recall {o['recall']:.3f}"
            f"  in-scope blocked {o['in_scope_blocked']:.3f}"
        )
    return "\n".join(lines)


def run(args) -> int:
    from tqdm import tqdm

    from metrics.retrieval_eval import evaluate_retrieval, load_questions

    try:
        questions = load_questions(args.split, args.questions)
    except (OSError, json.JSONDecodeError) as e:
        raise UserError(f"cannot read the question set: {e}") from None
    searcher = open_searcher_or_explain(args.index_dir, reranker=args.reranker)
    modes = args.modes.split(",") if args.modes else None
    with tqdm(total=len(questions), desc="retrieving", unit="q") as bar:
        table = evaluate_retrieval(searcher, questions, modes, progress=bar.update)
    rows = {mode: summary.pop("_rows") for mode, summary in table.items()}
    print(json.dumps(table, indent=1) if args.json else format_table(table))
    if not searcher.reranker:
        print("(no reranker configured: hybrid+rerank not measured; pass --reranker flag:<path>)")
    if not args.no_mlflow:
        _log(table, rows, searcher, args)
    return 0


def _log(table: dict, rows: dict, searcher, args) -> None:
    import mlflow

    from yaksa.tracking import experiment

    experiment("yaksa-retrieval")
    with mlflow.start_run(run_name=f"eval-retrieval-{args.split}"):
        mlflow.log_params(
            {
                "split": args.split,
                "scorer": searcher.scorer,
                "fusion": searcher.settings.fusion,
                **{f"w_{k}": v for k, v in searcher.settings.weights.items()},
                "oos_min_dense": searcher.settings.oos_min_dense,
            }
        )
        for mode, summary in table.items():
            for kind, metrics in summary.items():
                for name, value in metrics.items():
                    if name != "n":
                        mlflow.log_metric(f"{mode}.{kind}.{name}".replace("@", "_at_").replace("+", "_"), value)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "per_question.json"
            path.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
            mlflow.log_artifact(str(path))
        print(f"logged MLflow run {mlflow.active_run().info.run_id} (experiment yaksa-retrieval)")
