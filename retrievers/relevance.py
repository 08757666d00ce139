"""The calibrated retrieval evaluator: a relevance probability per retrieved document and per result, without an LM.

The CRAG paper grades retrieval with a small evaluator whose confidence decides Correct / Ambiguous / Incorrect. Here
that evaluator is two logistic regressions over what retrieval already knows — the fused score and its parts (BM25
relative to the best hit, dense cosine, name and section evidence), the rank and the gap to the top hit — fitted on
the retrieval dev split (a document is relevant when it is gold; a result is relevant when its top 5 holds a gold
document). Logistic regression outputs calibrated probabilities, so the seed's thresholds mean what they say:
relevance >= 0.7 generates, below it the program rewrites. `yaksa fit-relevance` refits the shipped coefficients
(`retrievers/data/relevance_model.json`) whenever fusion changes and reports Brier score, ECE and a reliability plot.

With a reranker configured, each document's probability is its reranker score (a sigmoid cross-encoder score, the
paper's own kind of evaluator) and the result's the best of them: no reranker weights can be had to fit on here.

Example:
    >>> from retrievers.documents import Document, Hit
    >>> model = RelevanceModel.load()
    >>> hits = [Hit(Document("easydrug:1:se", "x"), 3.5, {"bm25": 9.0, "dense": 0.9, "product": 1.0,
    ...        "section": 1.0, "fused": 3.5})]
    >>> grade = model.grade_result(RetrievalResult("게보린 부작용", hits, names=["게보린"], sections=["se"]))
    >>> 0.0 <= grade.result <= 1.0 and len(grade.documents) == 1
    True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from retrievers.documents import Hit
from retrievers.frame_features import FITTED, NEUTRAL
from retrievers.result import RetrievalResult

MODEL_PATH = Path(__file__).resolve().parent / "data" / "relevance_model.json"
DOC_FEATURES = ("fused", "dense", "product", "section", "bm25_rel", "log_rank", "gap_top", "is_dur")
RESULT_FEATURES = (
    "logit_best_doc",
    "top_fused",
    "gap_1_2",
    "has_names",
    "top_named",
    "names_unmatched",
    "expanded",
    "top_dense",
    "same_product_share",
    "dense_best_kept",
    "bm25_best_kept",
    "n_names",
    "top_section",
    "asks_section",
    *FITTED,
)


@dataclass
class RelevanceGrade:
    """Probabilities of one retrieval: one per document (in hit order) and one for the result as a whole."""

    documents: list[float] = field(default_factory=list)
    result: float = 0.0
    method: str = "calibrated"


def document_features(hits: list[Hit]) -> list[list[float]]:
    """The per-document feature rows (`DOC_FEATURES`) of ranked hits."""
    if not hits:
        return []
    top = hits[0].scores.get("fused", hits[0].score)
    best_bm25 = max(h.scores.get("bm25", 0.0) for h in hits) or 1.0
    rows = []
    for rank, h in enumerate(hits):
        s = h.scores
        fused = s.get("fused", h.score)
        rows.append(
            [
                fused,
                s.get("dense", 0.0),
                s.get("product", 0.0),
                s.get("section", 0.0),
                s.get("bm25", 0.0) / best_bm25,
                math.log1p(rank),
                top - fused,
                1.0 if h.id.startswith("dur:") else 0.0,
            ]
        )
    return rows


def result_features(
    hits: list[Hit], doc_probs: list[float], names, expanded: bool, candidates=(), sections=(), frame=None
) -> list[float]:
    """The result-level feature row (`RESULT_FEATURES`): the best document's probability, the score shape, whether
    the recognised names led the ranking, whether the product of the top hit dominates the top k, whether the
    best BM25 and the best dense candidates made it into the top k (agreement between the two retrievers), and what
    the question asks against the top hits (`frame`: `retrievers.frame_features`; `NEUTRAL` when not given)."""
    frame = {**NEUTRAL, **(frame or {})}
    best = min(max(doc_probs, default=0.0), 1 - 1e-6)
    fused = [h.scores.get("fused", h.score) for h in hits]
    top = hits[0].scores if hits else {}
    top_named = 1.0 if top.get("product", 0.0) > 0 else 0.0
    has_names = 1.0 if names else 0.0
    products = [h.id.split(":")[1] if h.id.count(":") >= 2 else h.id for h in hits]
    kept = {h.id for h in hits}
    cands = list(candidates) or list(hits)
    dense_best = max(cands, key=lambda h: h.scores.get("dense", 0.0)).id if cands else ""
    bm25_best = max(cands, key=lambda h: h.scores.get("bm25", 0.0)).id if cands else ""
    return [
        math.log(max(best, 1e-6) / (1 - best)),
        fused[0] if fused else 0.0,
        (fused[0] - fused[1]) if len(fused) > 1 else (fused[0] if fused else 0.0),
        has_names,
        top_named,
        has_names * (1.0 - top_named),
        1.0 if expanded else 0.0,
        top.get("dense", 0.0),
        (sum(p == products[0] for p in products) / len(products)) if products else 0.0,
        1.0 if dense_best in kept else 0.0,
        1.0 if bm25_best in kept else 0.0,
        float(len(names)),
        top.get("section", 0.0),
        1.0 if sections else 0.0,
        *(float(frame[name]) for name in FITTED),
    ]


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


@dataclass(frozen=True)
class Logistic:
    """A fitted logistic regression: p = sigmoid(intercept + coef · x)."""

    coef: tuple[float, ...]
    intercept: float

    def __call__(self, row: list[float]) -> float:
        return _sigmoid(self.intercept + sum(c * x for c, x in zip(self.coef, row, strict=True)))


@dataclass(frozen=True)
class RelevanceModel:
    """The document and result evaluators, and what they were fitted on.

    Attributes:
        doc: P(document is relevant | `DOC_FEATURES`).
        result: P(a relevant document is in the top 5 | `RESULT_FEATURES`).
        fusion: the fusion weights the model was fitted under (a refit is due when they change).
        report: fit and calibration figures (Brier, ECE, AUC) on the held-out split.
    """

    doc: Logistic
    result: Logistic
    fusion: dict = field(default_factory=dict)
    report: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path: str | Path | None = None) -> RelevanceModel:
        """Read a model file (default: the shipped one). Raises ValueError naming the file when it is broken."""
        path = Path(path or MODEL_PATH)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            model = cls(
                Logistic(tuple(data["doc"]["coef"]), float(data["doc"]["intercept"])),
                Logistic(tuple(data["result"]["coef"]), float(data["result"]["intercept"])),
                dict(data.get("fusion", {})),
                dict(data.get("report", {})),
            )
            if len(model.doc.coef) != len(DOC_FEATURES) or len(model.result.coef) != len(RESULT_FEATURES):
                raise ValueError("feature count differs from this version")
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: not a relevance model ({e}); run `yaksa fit-relevance`") from None
        return model

    def save(self, path: str | Path | None = None) -> Path:
        path = Path(path or MODEL_PATH)
        data = {
            "doc": {"features": list(DOC_FEATURES), "coef": list(self.doc.coef), "intercept": self.doc.intercept},
            "result": {
                "features": list(RESULT_FEATURES),
                "coef": list(self.result.coef),
                "intercept": self.result.intercept,
            },
            "fusion": self.fusion,
            "report": self.report,
        }
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return path

    def grade(
        self,
        hits: list[Hit],
        scorer: str = "fused",
        names=(),
        expanded: bool = False,
        candidates=(),
        sections=(),
        frame: dict | None = None,
    ) -> RelevanceGrade:
        """Probabilities for ranked `hits` (empty hits: result probability 0); `candidates` are the fused candidates
        the hits were cut from (default: the hits); `frame` the result's frame features."""
        if not hits:
            return RelevanceGrade([], 0.0)
        if scorer != "fused":
            docs = [round(float(h.scores.get("rerank", h.score)), 4) for h in hits]
            return RelevanceGrade(docs, max(docs), "reranker")
        docs = [round(self.doc(row), 4) for row in document_features(hits)]
        result = self.result(result_features(hits, docs, names, expanded, candidates, sections, frame))
        return RelevanceGrade(docs, round(result, 4))

    def grade_result(self, result: RetrievalResult) -> RelevanceGrade:
        """`grade` with everything a `RetrievalResult` knows."""
        return self.grade(
            result.hits,
            result.scorer,
            result.names,
            bool(result.expansions),
            result.candidates,
            result.sections,
            result.frame_features,
        )


_DEFAULT: RelevanceModel | None = None


def default_model() -> RelevanceModel:
    """The shipped model, read once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = RelevanceModel.load()
    return _DEFAULT
