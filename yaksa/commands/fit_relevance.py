"""``yaksa fit-relevance``: refit the calibrated retrieval evaluator on the dev split (the result model also on the
real-question dev split), report its cross-validated figures on the fit data and its calibration on the test split
(Brier, ECE, AUC, reliability plot) and write `retrievers/data/relevance_model.json`."""

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
        "result (a gold document id in the top 5 or not), fit the two logistic regressions the CRAG grader uses, and "
        "report Brier score, expected calibration error, AUC and the routing at the 0.7 threshold: cross-validated "
        "on the fit data and on the report split. The result model is also fitted on the answerable questions of "
        "the real-question dev split (--real), whose documents stay out of the document model. Writes the model "
        "file and logs an MLflow run (experiment yaksa-retrieval) with a reliability plot.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--fit", default="dev", choices=["dev", "test"], help="split the model is fitted on")
    p.add_argument("--report", default="test", choices=["dev", "test"], help="split the calibration is judged on")
    p.add_argument(
        "--real",
        default="dev",
        choices=["dev", "none"],
        help="also fit the result model on this real-question split (trainsets/real_questions/); never its test",
    )
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


def load_real(split: str) -> list[dict]:
    """The rows of a real-question split (``trainsets/real_questions/<split>.jsonl``)."""
    from metrics.retrieval_eval import SETS_DIR
    from yaksa.commands._datasets import read_jsonl

    return read_jsonl(SETS_DIR.parent / "real_questions" / f"{split}.jsonl")


def run(args) -> int:
    from tqdm import tqdm

    from metrics.calibration import (
        calibration_report,
        choose_c,
        cross_validated,
        fit_model,
        label_retrievals,
        merged,
    )
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
            labelled[name] = label_retrievals(searcher, questions, progress=bar.update, source=name)
    fit_data, fit_name = labelled[args.fit], args.fit
    if args.real != "none":
        real = load_real(args.real)
        with tqdm(total=len(real), desc=f"retrieving real-{args.real}", unit="q") as bar:
            real_labelled = label_retrievals(
                searcher, real, progress=bar.update, documents=False, source=f"real-{args.real}"
            )
        fit_data, fit_name = merged(fit_data, real_labelled), f"{args.fit} + real-{args.real}"
    try:
        if args.c is None:
            chosen, losses = choose_c(fit_data)
            for part in ("doc", "result"):
                print(f"{part} C={chosen[part]:g} (cross-validated log loss on {fit_name}: {losses[part]})")
        else:
            chosen = {"doc": args.c, "result": args.c}
        args.c = chosen
        model = fit_model(fit_data, chosen["doc"], dict(searcher.settings.weights), chosen["result"])
        cv = cross_validated(fit_data, chosen["doc"], chosen["result"])
    except ValueError as e:
        raise UserError(f"cannot fit on the {fit_name} split: {e}") from None
    report = calibration_report(model, labelled[args.report])
    points = report.pop("_points")
    fitted_on = {"fit": args.fit, "real": args.real, "report": args.report, "C": args.c}
    model = type(model)(model.doc, model.result, model.fusion, {**fitted_on, **report, "cross_validated": cv})
    print(_format_cv(cv, fit_name))
    print(_format(report, args.report))
    if not args.dry_run:
        print(f"wrote {model.save(args.out)}")
    if not args.no_mlflow:
        _log(model, {**report, "_points": points}, args)
    return 0


def _format_cv(cv: dict, fit_name: str) -> str:
    lines = [f"result model, 5-fold cross-validated on {fit_name}"]
    for name, r in cv.items():
        lines.append(
            f"  {name:<10} n={r['n']:<5} AUC {r['auc']}  Brier {r['brier']}  ECE {r['ece']}  corrective: "
            f"{r['misses_routed_corrective']}/{r['misses']} without a gold document, "
            f"{r['found_routed_corrective']}/{r['found']} with one"
        )
    return "\n".join(lines)


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
            {
                "fit_split": args.fit,
                "real_split": args.real,
                "report_split": args.report,
                "C_doc": args.c["doc"],
                "C_result": args.c["result"],
            }
        )
        for source, figures in model.report.get("cross_validated", {}).items():
            for name, value in figures.items():
                if isinstance(value, int | float) and value is not None:
                    mlflow.log_metric(f"cv.{source}.{name}", value)
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
