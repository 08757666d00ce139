"""``yaksa fit-relevance``: refit the calibrated retrieval evaluator on the dev split, report its calibration on the
test split (Brier, ECE, AUC, reliability plot) and write `retrievers/data/relevance_model.json`."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from yaksa.commands._backend import open_searcher_or_explain
from yaksa.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "fit-relevance",
        help="refit the calibrated retrieval evaluator (run after fusion changes)",
        description="Retrieve every question of the fit split, label each top-5 document (gold or not) and each "
        "result (a gold document in the top 5 or not), fit the two logistic regressions the CRAG grader uses, and "
        "report Brier score, expected calibration error, AUC and the routing at the 0.7 threshold on the report "
        "split. Writes the model file and logs an MLflow run (experiment yaksa-retrieval) with a reliability plot.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--fit", default="dev", choices=["dev", "test"], help="split the model is fitted on")
    p.add_argument("--report", default="test", choices=["dev", "test"], help="split the calibration is judged on")
    p.add_argument("--out", help="model file to write (default: the shipped retrievers/data/relevance_model.json)")
    p.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    p.add_argument(
        "-C",
        dest="c",
        type=float,
        help="inverse L2 regularisation strength (default: chosen by 5-fold cross-validated log loss on the fit split)",
    )
    p.add_argument("--dry-run", action="store_true", help="report only; do not write the model file")
    p.add_argument("--no-mlflow", action="store_true", help="do not log an MLflow run")
    p.set_defaults(func=run)


def run(args) -> int:
    from tqdm import tqdm

    from metrics.calibration import calibration_report, choose_c, fit_model, label_retrievals
    from metrics.retrieval_eval import load_questions

    if args.c is not None and args.c <= 0:
        raise UserError("-C must be > 0")
    searcher = open_searcher_or_explain(args.index_dir)
    if searcher.reranker is not None:
        raise UserError("a reranker is configured: its scores are the evaluator; fit-relevance fits the fused scorer")
    splits = {name: load_questions(name) for name in {args.fit, args.report}}
    labelled = {}
    for name, questions in splits.items():
        with tqdm(total=len(questions), desc=f"retrieving {name}", unit="q") as bar:
            labelled[name] = label_retrievals(searcher, questions, progress=bar.update)
    try:
        if args.c is None:
            chosen, losses = choose_c(labelled[args.fit])
            for part in ("doc", "result"):
                print(f"{part} C={chosen[part]:g} (cross-validated log loss on {args.fit}: {losses[part]})")
        else:
            chosen = {"doc": args.c, "result": args.c}
        args.c = chosen
        model = fit_model(labelled[args.fit], chosen["doc"], dict(searcher.settings.weights), chosen["result"])
    except ValueError as e:
        raise UserError(f"cannot fit on the {args.fit} split: {e}") from None
    report = calibration_report(model, labelled[args.report])
    points = report.pop("_points")
    model = type(model)(
        model.doc, model.result, model.fusion, {"fit": args.fit, "report": args.report, "C": args.c, **report}
    )
    print(_format(report, args.report))
    if not args.dry_run:
        print(f"wrote {model.save(args.out)}")
    if not args.no_mlflow:
        _log(model, {**report, "_points": points}, args)
    return 0


def _format(report: dict, split: str) -> str:
    d, r = report["documents"], report["results"]
    return "\n".join(
        [
            f"calibration on the {split} split",
            f"  documents  n={d['n']:<5} AUC {d['auc']}  Brier {d['brier']}  ECE {d['ece']}",
            f"  results    n={r['n']:<5} AUC {r['auc']}  Brier {r['brier']}  ECE {r['ece']}",
            f"  routing at {r['threshold']}: {r['misses_routed_corrective']}/{r['misses']} results without a gold "
            f"document take a corrective route; {r['found_routed_corrective']}/{r['found']} with one do",
        ]
    )


def _log(model, report: dict, args) -> None:
    import mlflow

    from metrics.calibration import reliability_plot
    from yaksa.tracking import experiment

    experiment("yaksa-retrieval")
    with mlflow.start_run(run_name="fit-relevance"):
        mlflow.log_params(
            {"fit_split": args.fit, "report_split": args.report, "C_doc": args.c["doc"], "C_result": args.c["result"]}
        )
        for level in ("documents", "results"):
            for name, value in report[level].items():
                if isinstance(value, int | float) and value is not None:
                    mlflow.log_metric(f"{level}.{name}", value)
        with tempfile.TemporaryDirectory() as tmp:
            png = Path(tmp) / "reliability.png"
            reliability_plot(report, png)
            mlflow.log_artifact(str(png))
            path = Path(tmp) / "relevance_model.json"
            model.save(path)
            mlflow.log_artifact(str(path))
        print(f"logged MLflow run {mlflow.active_run().info.run_id} (experiment yaksa-retrieval)")
