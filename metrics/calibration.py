"""Fit and judge the calibrated retrieval evaluator (`retrievers.relevance`): labelled rows from a question set with
gold ids, logistic regressions (scikit-learn), and the calibration report (Brier score, expected calibration error,
AUC, a reliability plot).

Example:
    >>> round(expected_calibration_error([1, 0, 1, 1], [0.9, 0.1, 0.8, 0.7]), 3)
    0.175
"""

from __future__ import annotations

from dataclasses import dataclass, field

from metrics.gold_phrases import phrase_in_any
from retrievers.relevance import Logistic, RelevanceModel, document_features, result_features


@dataclass
class Labelled:
    """Feature rows with labels: per document (gold or not) and per result (gold in the top k or not)."""

    doc_x: list[list[float]] = field(default_factory=list)
    doc_y: list[int] = field(default_factory=list)
    results: list[dict] = field(default_factory=list)  # hits, names, expanded, label, kind, question


def label_retrievals(
    searcher, questions: list[dict], k: int = 5, progress=None, documents: bool = True, source: str = ""
) -> Labelled:
    """Retrieve every in-scope question with gold ids and label its top `k`: a result is relevant when its top `k`
    holds a gold document id (what `yaksa eval-answers` judges the evaluator by) or, for a real question, a document
    quoting one of its gold answer phrases (a class question's gold is a few leaflets among many that say the same).
    Out-of-scope rows, rows without
    gold ids and real questions marked unanswerable are skipped. With `documents` False the results' documents do
    not join the document model's rows (real questions: their gold is a few leaflets among many that say the same);
    `source` names the set in each result."""
    out = Labelled()
    for q in questions:
        if progress:
            progress(1)
        gold = set(q.get("gold") or [])
        if not gold or q.get("answerable") is False:
            continue
        phrases = q.get("gold_phrases") or []  # a real question: another leaflet saying the answer is as good
        r = searcher.retrieve(q["question"], k=k)
        if r.out_of_scope or not r.hits:
            continue
        if documents:
            out.doc_x += document_features(r.hits)
            out.doc_y += [int(h.id in gold) for h in r.hits]
        out.results.append(
            {
                "result": r,
                "hits": r.hits,
                "names": list(r.names),
                "expanded": bool(r.expansions),
                "label": int(any(h.id in gold for h in r.hits) or phrase_in_any([h.doc.text for h in r.hits], phrases)),
                "doc_labels": [int(h.id in gold) for h in r.hits],
                "documents": documents,
                "kind": q.get("kind", ""),
                "question": q["question"],
                "source": source,
            }
        )
    return out


def merged(*parts: Labelled) -> Labelled:
    """One labelled set of several (the retrieval dev split and the real-question dev split)."""
    out = Labelled()
    for part in parts:
        out.doc_x += part.doc_x
        out.doc_y += part.doc_y
        out.results += part.results
    return out


def fit_model(
    train: Labelled, c: float = 3.0, fusion: dict | None = None, c_result: float | None = None
) -> RelevanceModel:
    """Fit the document model (regularisation `c`), then the result model on the document model's outputs
    (`c_result`, default `c`)."""
    from sklearn.linear_model import LogisticRegression

    if len(set(train.doc_y)) < 2 or len({r["label"] for r in train.results}) < 2:
        raise ValueError(
            "the fit split needs both relevant and irrelevant documents, and results with and without a gold "
            "document in the top 5"
        )
    doc = LogisticRegression(C=c, max_iter=5000).fit(train.doc_x, train.doc_y)
    doc_model = Logistic(tuple(float(v) for v in doc.coef_[0]), float(doc.intercept_[0]))
    rx, ry = result_rows(train, doc_model)
    res = LogisticRegression(C=c if c_result is None else c_result, max_iter=5000).fit(rx, ry)
    result_model = Logistic(tuple(float(v) for v in res.coef_[0]), float(res.intercept_[0]))
    return RelevanceModel(doc_model, result_model, dict(fusion or {}))


C_GRID = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)


def choose_c(data: Labelled, grid=C_GRID, folds: int = 5) -> tuple[dict[str, float], dict[str, dict]]:
    """The regularisation strength of each model with the lowest cross-validated log loss of its own probability
    (the document model over every top-5 document, the result model over the results), folds split by question on
    the fit split only (the report split never chooses). Returns ({"doc": C, "result": C}, the losses)."""
    from sklearn.metrics import log_loss

    losses: dict[str, dict] = {"doc": {}, "result": {}}
    for c in grid:
        doc_y, doc_p, res_y, res_p = out_of_fold(data, c, c, folds)
        losses["doc"][c] = round(float(log_loss(doc_y, doc_p, labels=[0, 1])), 5)
        losses["result"][c] = round(float(log_loss(res_y, res_p, labels=[0, 1])), 5)
    return {part: min(by_c, key=by_c.get) for part, by_c in losses.items()}, losses


def out_of_fold(data: Labelled, c: float, c_result: float, folds: int = 5):
    """Each question's probabilities from the model fitted on the other folds (folds split by question, every
    `folds`-th result held out in turn): (document labels, document probabilities, result labels, result
    probabilities)."""
    n = len(data.results)
    doc_y, doc_p, res_y, res_p = [], [], [], []
    for k in range(folds):
        train, held = _split(data, [i % folds != k for i in range(n)])
        model = fit_model(train, c, c_result=c_result)
        doc_p += [model.doc(x) for x in held.doc_x]
        doc_y += held.doc_y
        res_p += [model.grade_result(r["result"]).result for r in held.results]
        res_y += [r["label"] for r in held.results]
    return doc_y, doc_p, res_y, res_p


def cross_validated(data: Labelled, c: float, c_result: float, folds: int = 5, threshold: float = 0.7) -> dict:
    """The result model's out-of-fold figures on the fit data, overall and per source (AUC, Brier, ECE, and the
    routing at `threshold`): what the fit split says about data it was not fitted on."""
    from sklearn.metrics import brier_score_loss, roc_auc_score

    _, _, res_y, res_p = out_of_fold(data, c, c_result, folds)
    # out_of_fold visits fold 0's results first, then fold 1's …: put the probabilities back in data order
    order = [i for k in range(folds) for i in range(len(data.results)) if i % folds == k]
    prob = [0.0] * len(order)
    for i, p in zip(order, res_p, strict=True):
        prob[i] = p
    out = {}
    sources = [r.get("source", "") for r in data.results]
    for name in ["all", *dict.fromkeys(s for s in sources if s)]:
        idx = [i for i, s in enumerate(sources) if name == "all" or s == name]
        y = [data.results[i]["label"] for i in idx]
        p = [prob[i] for i in idx]
        out[name] = {
            "n": len(idx),
            "positive_rate": round(sum(y) / max(len(y), 1), 4),
            "auc": round(float(roc_auc_score(y, p)), 4) if 0 < sum(y) < len(y) else None,
            "brier": round(float(brier_score_loss(y, p)), 4),
            "ece": round(expected_calibration_error(y, p), 4),
            "misses": len(y) - sum(y),
            "misses_routed_corrective": sum(q < threshold for q, t in zip(p, y, strict=True) if not t),
            "found": sum(y),
            "found_routed_corrective": sum(q < threshold for q, t in zip(p, y, strict=True) if t),
        }
    return out


def _split(data: Labelled, keep: list[bool]) -> tuple[Labelled, Labelled]:
    parts = (Labelled(), Labelled())
    for r, k in zip(data.results, keep, strict=True):
        part = parts[0] if k else parts[1]
        if r.get("documents", True):
            part.doc_x += document_features(r["hits"])
            part.doc_y += r["doc_labels"]
        part.results.append(r)
    return parts


def result_rows(data: Labelled, doc_model: Logistic) -> tuple[list[list[float]], list[int]]:
    rows, labels = [], []
    for r in data.results:
        probs = [doc_model(x) for x in document_features(r["hits"])]
        res = r["result"]
        rows.append(
            result_features(
                res.hits,
                probs,
                res.names,
                bool(res.expansions),
                res.candidates,
                res.sections,
                res.frame_features,
            )
        )
        labels.append(r["label"])
    return rows, labels


def expected_calibration_error(labels, probs, bins: int = 10) -> float:
    """Σ_bins (n_bin / n) · |mean label - mean probability| over equal-width probability bins."""
    n = len(labels)
    if not n:
        return 0.0
    total = 0.0
    for b in range(bins):
        idx = [i for i, p in enumerate(probs) if min(int(p * bins), bins - 1) == b]
        if idx:
            gap = sum(labels[i] for i in idx) / len(idx) - sum(probs[i] for i in idx) / len(idx)
            total += len(idx) / n * abs(gap)
    return total


def calibration_report(model: RelevanceModel, data: Labelled, threshold: float = 0.7) -> dict:
    """Brier, ECE and AUC of both evaluators on `data`, and how the result probability routes at `threshold`."""
    from sklearn.metrics import brier_score_loss, roc_auc_score

    doc_p = [model.doc(x) for x in data.doc_x]
    res_p = [model.grade_result(r["result"]).result for r in data.results]
    res_y = [r["label"] for r in data.results]

    def auc(y, p):
        return round(float(roc_auc_score(y, p)), 4) if 0 < sum(y) < len(y) else None

    misses = [p for p, y in zip(res_p, res_y, strict=True) if not y]
    found = [p for p, y in zip(res_p, res_y, strict=True) if y]
    return {
        "documents": {
            "n": len(doc_p),
            "positive_rate": round(sum(data.doc_y) / max(len(doc_p), 1), 4),
            "brier": round(float(brier_score_loss(data.doc_y, doc_p)), 4),
            "ece": round(expected_calibration_error(data.doc_y, doc_p), 4),
            "auc": auc(data.doc_y, doc_p),
        },
        "results": {
            "n": len(res_p),
            "positive_rate": round(sum(res_y) / max(len(res_y), 1), 4),
            "brier": round(float(brier_score_loss(res_y, res_p)), 4) if res_p else None,
            "ece": round(expected_calibration_error(res_y, res_p), 4),
            "auc": auc(res_y, res_p),
            "threshold": threshold,
            "misses": len(misses),
            "misses_routed_corrective": sum(p < threshold for p in misses),
            "found": len(found),
            "found_routed_corrective": sum(p < threshold for p in found),
        },
        "_points": {"doc": (data.doc_y, doc_p), "result": (res_y, res_p)},
    }


def reliability_plot(report: dict, path) -> None:
    """Write a reliability diagram (mean predicted vs observed rate per bin) of both evaluators as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], "k--", lw=1, label="perfect calibration")
    for name, (y, p) in report["_points"].items():
        xs, ys = [], []
        for b in range(10):
            idx = [i for i, v in enumerate(p) if min(int(v * 10), 9) == b]
            if idx:
                xs.append(sum(p[i] for i in idx) / len(idx))
                ys.append(sum(y[i] for i in idx) / len(idx))
        ece = report["documents" if name == "doc" else "results"]["ece"]
        ax.plot(xs, ys, "o-", label=f"{name} (ECE {ece:.3f}, n={len(y)})")
    ax.set_xlabel("predicted relevance")
    ax.set_ylabel("observed rate")
    ax.set_title("retrieval evaluator reliability")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
