"""Grade retrieved documents: a relevance probability per document and one for the result (document-grading seed
§3.1, with the CRAG paper's small calibrated evaluator as the default).

`RetrievalEvaluator` reads the calibrated retrieval evaluator (`retrievers.relevance`): no LM, probabilities that mean
what they say, so the seed's 0.7 threshold routes. `LMGrader` (flag ``llm_grading``) asks the judge LM about all
documents in one call and averages its verdicts with the calibrated probabilities; when the LM fails or the budget
is spent, the calibrated grade stands alone.

Example:
    >>> from retrievers.documents import Document, Hit
    >>> hits = [Hit(Document("easydrug:1:se", "x"), 3.4, {"bm25": 8.0, "dense": 0.9, "product": 1.0,
    ...        "section": 1.0, "fused": 3.4})]
    >>> from retrievers.result import RetrievalResult
    >>> g = RetrievalEvaluator().grade(RetrievalResult("게보린 부작용", hits, names=["게보린"]))
    >>> g.method, len(g.documents), g.relevant == [g.documents[0] >= 0.5]
    ('calibrated', 1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import dspy

from programs import citations
from programs.budget import BudgetExhausted
from programs.error_codes import code_for
from programs.run import Run
from retrievers.documents import Hit
from retrievers.relevance import RelevanceModel, default_model
from retrievers.result import RetrievalResult
from signatures.grading import GradeDocuments


@dataclass
class Grades:
    """One grading of a retrieval.

    Attributes:
        relevance: the result's relevance in [0, 1] (what the 0.7 route reads; 0 when nothing was retrieved).
        documents: each document's relevance in [0, 1], in hit order.
        relevant: each document kept for generation (its relevance reaches the grade threshold).
        method: ``calibrated``, ``reranker``, ``lm`` (verdicts combined with the calibrated grade).
    """

    relevance: float = 0.0
    documents: list[float] = field(default_factory=list)
    relevant: list[bool] = field(default_factory=list)
    method: str = "calibrated"
    reasons: list[str] = field(default_factory=list)

    @property
    def best_document(self) -> float:
        return max(self.documents, default=0.0)


class RetrievalEvaluator:
    """Grade with the calibrated retrieval evaluator.

    Args:
        threshold: a document is kept for generation when its calibrated relevance reaches this.
        rerank_threshold: the same for reranker probabilities.
        model: the evaluator (default: the shipped `retrievers/data/relevance_model.json`).
    """

    def __init__(self, threshold: float = 0.5, rerank_threshold: float = 0.05, model: RelevanceModel | None = None):
        self.threshold = threshold
        self.rerank_threshold = rerank_threshold
        self.model = model

    def grade(self, result: RetrievalResult) -> Grades:
        g = (self.model or default_model()).grade_result(result)
        cut = self.threshold if g.method == "calibrated" else self.rerank_threshold
        return Grades(g.result, g.documents, [p >= cut for p in g.documents], g.method)


def numbered(hits: list[Hit], max_chars: int = 600) -> str:
    """'[문서 N] title' and the start of each document, as the grader sees them."""
    return citations.numbered([h.doc for h in hits], max_chars)


class LMGrader(dspy.Module):
    """One judge call grades every document; its verdicts are averaged with the calibrated probabilities.

    A document's relevance is (calibrated + verdict) / 2 with verdict 1 for 'yes', and it is kept when the LM said
    'yes'; the result's relevance is (calibrated result + 1 if any 'yes' else 0) / 2.
    """

    def __init__(self):
        super().__init__()
        self.grade = dspy.Predict(GradeDocuments)

    def forward(self, question: str, hits: list[Hit], base: Grades, run: Run | None = None) -> dspy.Prediction:
        """``grades``: the LM's grades averaged with `base`, or `base` itself when the judge is out or fails."""
        return dspy.Prediction(grades=self.judge(question, hits, base, run or Run(budget_limit=None)))

    def judge(self, question: str, hits: list[Hit], base: Grades, run: Run) -> Grades:
        if not hits:
            return base
        try:
            out = run.call("judge", self.grade, question=question, documents=numbered(hits))
            verdicts = [str(v).strip().lower() for v in (out.verdicts or [])]
            if len(verdicts) != len(hits) or any(v not in ("yes", "no") for v in verdicts):
                raise ValueError(f"expected {len(hits)} yes/no verdicts, got {out.verdicts!r}")
        except BudgetExhausted:
            run.trace.fallback("grade", "LM-call budget used up; calibrated grade", "lm_budget", "calibrated grade")
            return base
        except Exception as e:
            why = f"{type(e).__name__}: {str(e)[:120]}; calibrated grade"
            run.trace.fallback("grade", why, code_for(e), "calibrated grade")
            return base
        yes = [v == "yes" for v in verdicts]
        docs = [round((p + y) / 2, 4) for p, y in zip(base.documents, yes, strict=True)]
        relevance = round((base.relevance + (1.0 if any(yes) else 0.0)) / 2, 4)
        return Grades(relevance, docs, yes, "lm", [str(out.reason or "")])
