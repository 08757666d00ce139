"""Grade retrieved documents and turn the grades into one relevance score in [0, 1] (document-grading seed §3.1).

The default grader reads the retrieval scores (the CRAG paper's evaluator is a small scorer, and it beat LLM
grading): a document is relevant when its reranker score, or its fused score when no reranker ran, reaches the
threshold for that scorer. `LMGrader` asks the LM about each document instead (flag ``llm_grading``); a document
whose LM grade fails, or that the budget no longer covers, falls back to its score grade.

Example:
    >>> from retrievers.documents import Document, Hit
    >>> hits = [Hit(Document("a", "x"), 0.9), Hit(Document("b", "y"), 0.1)]
    >>> ScoreGrader(threshold=0.5).grade(hits, scorer="fused").relevance
    0.5
"""

from __future__ import annotations

from dataclasses import dataclass, field

import dspy

from programs.budget import BudgetExhausted
from programs.run import Run
from retrievers.documents import Hit
from signatures.grading import GradeDocument


@dataclass
class Grades:
    """Per-document verdicts and their share: relevance = relevant / graded (0 when nothing was retrieved)."""

    relevant: list[bool] = field(default_factory=list)
    method: str = "score"
    reasons: list[str] = field(default_factory=list)

    @property
    def relevance(self) -> float:
        return round(sum(self.relevant) / len(self.relevant), 4) if self.relevant else 0.0


def hit_score(hit: Hit) -> float:
    """The score a grade reads: the reranker's when there is one, else the hit's final score."""
    return float(hit.scores.get("rerank", hit.score))


class ScoreGrader:
    """Grade by retrieval score.

    Args:
        threshold: minimum fused score (min-max normalised per query, so in [0, 1]).
        rerank_threshold: minimum reranker probability (bge-reranker scores of relevant leaflets are often 0.05-0.9).
    """

    def __init__(self, threshold: float = 0.5, rerank_threshold: float = 0.05):
        self.threshold = threshold
        self.rerank_threshold = rerank_threshold

    def grade(self, hits: list[Hit], scorer: str = "fused", names=()) -> Grades:
        """A hit is relevant when its score reaches the scorer's threshold, or when it names a product or ingredient
        the question names (the seed's criterion: 'contains keywords related to the question')."""
        cut = self.threshold if scorer == "fused" else self.rerank_threshold
        relevant, reasons = [], []
        for h in hits:
            named = next((n for n in names if n and n in h.doc.text), "")
            relevant.append(hit_score(h) >= cut or bool(named))
            reasons.append(f"{scorer} score {hit_score(h):.3f} vs {cut}" + (f"; names {named}" if named else ""))
        return Grades(relevant, "score", reasons)


class LMGrader(dspy.Module):
    """Ask the LM, document by document, whether it is relevant (yes/no with a reason)."""

    def __init__(self):
        super().__init__()
        self.grade = dspy.Predict(GradeDocument)

    def forward(
        self,
        question: str,
        hits: list[Hit],
        run: Run | None = None,
        fallback: ScoreGrader | None = None,
        scorer: str = "fused",
        max_chars: int = 1000,
        names=(),
    ) -> Grades:
        run = run or Run(budget_limit=None)
        fallback = fallback or ScoreGrader()
        grades = Grades(method="lm")
        for i, hit in enumerate(hits):
            try:
                out = run.call("judge", self.grade, question=question, document=hit.doc.text[:max_chars])
                verdict = str(out.relevant).strip().lower()
                if verdict not in ("yes", "no"):
                    raise ValueError(f"grade {out.relevant!r} is neither yes nor no")
                grades.relevant.append(verdict == "yes")
                grades.reasons.append(str(out.reason))
            except BudgetExhausted:
                rest = fallback.grade(hits[i:], scorer, names)
                grades.relevant += rest.relevant
                grades.reasons += rest.reasons
                run.trace.fallback("grade", f"LM-call budget used up; {len(hits) - i} documents graded by score")
                grades.method = "lm+score"
                break
            except Exception as e:
                one = fallback.grade([hit], scorer, names)
                grades.relevant += one.relevant
                grades.reasons += one.reasons
                grades.method = "lm+score"
                run.trace.fallback("grade", f"{hit.id}: {type(e).__name__}; graded by score")
        return grades
