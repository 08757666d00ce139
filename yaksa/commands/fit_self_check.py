"""``yaksa fit-self-check``: refit the answer's doubt (`programs/answer_doubt.py`) on the real-question dev split:
answer every answerable question with gold phrases without an LM, label each answer (it quotes a gold phrase or
not), fit a logistic regression over the features its ``doubt_check`` step recorded, choose the threshold on
cross-validated predictions, report the figures (and, with ``--report real-test``, the test split's aggregates) and
write `programs/data/answer_doubt.json`."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from yaksa.errors import UserError

C_GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
FOLDS = 5


def register(sub) -> None:
    p = sub.add_parser(
        "fit-self-check",
        help="refit the answer's doubt, the self-check that flags answers likely to miss what was asked",
        description="Answer the answerable questions of the real-question dev split without an LM, label each "
        "answer by whether it quotes a gold answer phrase, and fit the logistic regression the doubt_check step "
        "uses (features: the grader's relevance, rewrites, the evaluator's scores, the aspect check, what the "
        "answer cites). The threshold keeps the share of the answers that do quote one flagged by the whole "
        "self-check at --flag-share (on cross-validated predictions, counting the answers the other self-checks "
        "already flag). Reports AUC and the shares flagged, cross-validated on dev and, with --report real-test, on "
        "the test split (aggregates only: the test split is run to report, never to fit). Writes the model file "
        "and logs an MLflow run (experiment yaksa-answers).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--report", default="none", choices=["none", "real-test"], help="also report on this split")
    p.add_argument(
        "--flag-share",
        type=float,
        default=0.09,
        help="share of the answers quoting a gold phrase the whole self-check may flag (0 < share < 1): the doubt "
        "flags what the other checks leave of it",
    )
    p.add_argument("-C", dest="c", type=float, help="inverse L2 strength (default: chosen by cross-validated log loss)")
    p.add_argument("--out", help="model file to write (default: the shipped programs/data/answer_doubt.json)")
    p.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    p.add_argument("--dry-run", action="store_true", help="report only; do not write the model file")
    p.add_argument("--no-mlflow", action="store_true", help="do not log an MLflow run")
    p.set_defaults(func=run)


def run(args) -> int:
    from programs.answer_doubt import FEATURES, DoubtModel
    from yaksa.commands._backend import backend_for

    if not 0 < args.flag_share < 1:
        raise UserError("--flag-share must be between 0 and 1")
    if args.c is not None and args.c <= 0:
        raise UserError("-C must be > 0")
    backend = backend_for(args)
    features, labels, told = labelled_answers(backend, "real-dev")
    if sum(labels) < FOLDS or len(labels) - sum(labels) < FOLDS:
        raise UserError(f"too few answers of each kind to fit ({sum(labels)} missing, {len(labels) - sum(labels)} not)")
    c, losses = (args.c, {}) if args.c is not None else choose_c(features, labels)
    if losses:
        print(f"C={c:g} (cross-validated log loss on real-dev: {losses})")
    probabilities = cross_validated(features, labels, c)
    threshold = threshold_for(probabilities, labels, args.flag_share, told)
    report = {"fit": "real-dev", "C": c, "flag_share": args.flag_share}
    report["cross_validated"] = figures(probabilities, labels, threshold, told)
    print(format_figures("real-dev, 5-fold cross-validated", report["cross_validated"]))
    model = DoubtModel(fit_logistic(features, labels, c), threshold, report)
    if args.report != "none":
        test_features, test_labels, test_told = labelled_answers(backend, args.report)
        test_p = [model.model(row) for row in test_features]
        report[args.report] = figures(test_p, test_labels, threshold, test_told)
        print(format_figures(f"{args.report} (report only)", report[args.report]))
    model = DoubtModel(model.model, threshold, report)
    print(json.dumps(dict(zip(FEATURES, (round(x, 3) for x in model.model.coef), strict=True)), ensure_ascii=False))
    if not args.dry_run:
        print(f"wrote {model.save(args.out)}")
    if not args.no_mlflow:
        _log(model, args)
    return 0


def labelled_answers(backend, split: str) -> tuple[list[list[float]], list[bool], list[bool]]:
    """Per answerable question of `split` with gold phrases: the features its ``doubt_check`` step recorded, True
    when the answer quotes no gold phrase, and True when another self-check already flagged it."""
    from tqdm import tqdm

    from metrics.answer_eval import SELF_CHECKS, answer_row, question_kind
    from programs.answer_doubt import FEATURES
    from programs.crag import CRAG
    from yaksa.commands._program import crag_settings
    from yaksa.commands.eval_answers import answer, doc_text
    from yaksa.commands.fit_relevance import load_real

    rows = load_real(split.removeprefix("real-"))
    questions = [q for q in rows if question_kind(q) == "answerable" and q.get("gold_phrases")]
    settings = crag_settings(argparse.Namespace(), web_references=False)
    program = CRAG(backend=backend, settings=settings, lms={})
    text_of = doc_text(backend)
    features, labels, told = [], [], []
    for q in tqdm(questions, desc=f"answering {split}", unit="q"):
        pred = answer(program, q["question"])
        step = next((s for s in pred["trace"]["steps"] if s.get("step") == "doubt_check"), None)
        if step is None:  # out of scope, or nothing found to quote: no answer to doubt
            continue
        features.append([float(step["features"][name]) for name in FEATURES])
        labels.append(not answer_row(q, pred, pred["latency_ms"], text_of)["phrase_quoted"])
        others = [s for s in pred["trace"]["steps"] if s.get("step") in SELF_CHECKS and s.get("step") != step["step"]]
        told.append(any(s.get("flagged") for s in others))
    return features, labels, told


def _scaled_model(c: float):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=2000))


def choose_c(features, labels, grid=C_GRID) -> tuple[float, dict]:
    """The C of `grid` with the lowest cross-validated log loss, and each C's loss."""
    from sklearn.metrics import log_loss

    losses = {c: round(float(log_loss(labels, cross_validated(features, labels, c))), 4) for c in grid}
    return min(losses, key=losses.get), losses


def cross_validated(features, labels, c: float) -> list[float]:
    """Out-of-fold probabilities of a miss (stratified 5-fold, fixed seed)."""
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    folds = StratifiedKFold(FOLDS, shuffle=True, random_state=0)
    predicted = cross_val_predict(_scaled_model(c), features, labels, cv=folds, method="predict_proba")
    return [float(p) for p in predicted[:, 1]]


def fit_logistic(features, labels, c: float):
    """The logistic regression fitted on standardised features, written back in the features' own units."""
    from retrievers.relevance import Logistic

    pipeline = _scaled_model(c).fit(features, labels)
    scaler, logistic = pipeline[0], pipeline[-1]
    coef = [float(w / s) for w, s in zip(logistic.coef_[0], scaler.scale_, strict=True)]
    intercept = float(logistic.intercept_[0]) - sum(w * m for w, m in zip(coef, scaler.mean_, strict=True))
    return Logistic(tuple(coef), intercept)


def threshold_for(probabilities: list[float], labels: list[bool], share: float, told: list[bool]) -> float:
    """The probability above which, with the answers the other checks flag (`told`), at most `share` of the answers
    quoting a gold phrase are flagged (1.0 when the other checks already flag that many).

    >>> threshold_for([0.1, 0.2, 0.3, 0.4, 0.9], [False, False, False, False, True], 0.25, [False] * 5)
    0.3
    >>> threshold_for([0.1, 0.2, 0.3, 0.4, 0.9], [False, False, False, False, True], 0.25, [True] + [False] * 4)
    1.0
    """
    good = [p for p, miss in zip(probabilities, labels, strict=True) if not miss]
    already = sum(t for t, miss in zip(told, labels, strict=True) if not miss)
    left = sorted(p for p, t, miss in zip(probabilities, told, labels, strict=True) if not miss and not t)
    allowed = int(share * len(good)) - already
    if allowed <= 0 or not left:
        return 1.0
    return round(left[max(len(left) - allowed - 1, 0)], 4) if allowed < len(left) else 0.0


def figures(probabilities: list[float], labels: list[bool], threshold: float, told: list[bool]) -> dict:
    """AUC of the doubt, and the shares the whole self-check flags at `threshold` (the doubt or another check,
    `told`) among answers missing a gold phrase and among the others.

    >>> figures([0.9, 0.2, 0.1], [True, False, False], 0.5, [False, False, True])
    {'n': 3, 'missing': 1, 'auc': 1.0, 'flags_missing': 1.0, 'flags_others': 0.5}
    """
    from metrics.answer_eval import auc

    flagged = [p > threshold or t for p, t in zip(probabilities, told, strict=True)]
    missing = [f for f, miss in zip(flagged, labels, strict=True) if miss]
    others = [f for f, miss in zip(flagged, labels, strict=True) if not miss]
    return {
        "n": len(labels),
        "missing": len(missing),
        "auc": auc(labels, probabilities),
        "flags_missing": round(sum(missing) / len(missing), 4) if missing else None,
        "flags_others": round(sum(others) / len(others), 4) if others else None,
    }


def format_figures(title: str, f: dict) -> str:
    return (
        f"{title}: n={f['n']} missing={f['missing']} doubt AUC {f['auc']}  the self-check flags {f['flags_missing']} "
        f"of the answers quoting no gold phrase, {f['flags_others']} of the others"
    )


def _log(model, args) -> None:
    import mlflow

    from yaksa.tracking import experiment

    experiment("yaksa-answers")
    with mlflow.start_run(run_name="fit-self-check"):
        mlflow.log_params({"fit_split": "real-dev", "report_split": args.report, "C": model.report["C"]})
        mlflow.log_param("flag_share", args.flag_share)
        mlflow.log_metric("threshold", model.threshold)
        for split in ("cross_validated", args.report):
            for name, value in (model.report.get(split) or {}).items():
                if isinstance(value, int | float):
                    mlflow.log_metric(f"{split}.{name}".replace("-", "_"), value)
        with tempfile.TemporaryDirectory() as tmp:
            mlflow.log_artifact(str(model.save(Path(tmp) / "answer_doubt.json")))
        print(f"logged MLflow run {mlflow.active_run().info.run_id} (experiment yaksa-answers)")
