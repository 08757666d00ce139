"""QualityEvaluator: grounding, completeness and accuracy in [0, 1], overall = 0.4 g + 0.4 c + 0.2 a, with missing
information and suggestions that drive the next rewrite (quality-evaluator seed §1-4).

The LM sees the top 5 documents cut to 500 characters each. When the LM is off, fails, or answers something the
adapter cannot parse, the seed's heuristic evaluation answers instead (base 0.5, plus length and document presence)
and the trace says so.

Example:
    >>> fb = QualityEvaluator()(question="q", answer="짧음", documents=[], use_lm=False)
    >>> fb.method, fb.overall
    ('heuristic', 0.2613)
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

import dspy

from programs.budget import BudgetExhausted
from programs.routing import clamp, needs_refinement, overall_score
from programs.run import Run
from retrievers.documents import Document
from signatures.evaluation import EvaluateQuality

CITATION = re.compile(r"\[문서\s*\d+\]")


@dataclass
class QualityFeedback:
    """One evaluation of an answer (the seed's EvaluationResult)."""

    overall: float
    grounding: float
    completeness: float
    accuracy: float
    missing_info: list[str] = field(default_factory=list)
    improvement_suggestions: list[str] = field(default_factory=list)
    needs_retrieval: bool = False
    reason: str = ""
    method: str = "lm"

    def to_dict(self) -> dict:
        return asdict(self)

    def as_prompt(self) -> str:
        """The feedback as the rewrite and evaluation prompts read it."""
        lines = [f"품질 점수: {self.overall:.2f}"]
        if self.missing_info:
            lines.append("부족한 정보: " + "; ".join(self.missing_info))
        if self.improvement_suggestions:
            lines.append("개선 제안: " + "; ".join(self.improvement_suggestions))
        if self.reason:
            lines.append("사유: " + self.reason)
        return "\n".join(lines)


def format_documents(docs: list[Document], limit: int = 5, chars: int = 500) -> str:
    """The top `limit` documents, each cut to `chars` characters, numbered as in the answer."""
    return "\n\n".join(f"[문서 {i}] {d.title}\n{d.text[:chars]}" for i, d in enumerate(docs[:limit], 1))


def heuristic_evaluation(
    question: str,
    answer: str,
    docs: list[Document],
    weights=(0.4, 0.4, 0.2),
    threshold: float = 0.5,
    why: str = "no LM",
) -> QualityFeedback:
    """The seed's fallback: a base score of 0.5 raised by document presence, citations, length and the safety line."""
    has_docs = bool(docs)
    cites = bool(CITATION.search(answer))
    length = min(len(answer.strip()) / 300, 1.0)
    grounding = 0.5 + (0.3 if has_docs else -0.2) + (0.2 if cites and has_docs else 0.0)
    completeness = (0.3 if has_docs else 0.1) + 0.5 * length + (0.2 if has_docs and cites else 0.0)
    accuracy = 0.5 + (0.2 if "전문가와 꼭 상담하세요" in answer else 0.0) + (0.1 if has_docs else 0.0)
    g, c, a = (round(clamp(x), 4) for x in (grounding, completeness, accuracy))
    overall = overall_score(g, c, a, weights)
    missing = [] if has_docs else ["관련 문서"]
    return QualityFeedback(
        overall,
        g,
        c,
        a,
        missing,
        [] if has_docs else ["제품명이나 성분명을 넣어 다시 검색"],
        needs_refinement(overall, threshold),
        f"heuristic evaluation ({why})",
        "heuristic",
    )


class QualityEvaluator(dspy.Module):
    """Judge an answer against its documents; fall back to the heuristic on any LM failure."""

    def __init__(self, weights=(0.4, 0.4, 0.2), threshold: float = 0.5, max_docs: int = 5, doc_chars: int = 500):
        super().__init__()
        self.evaluate = dspy.Predict(EvaluateQuality)
        self.weights = tuple(weights)
        self.threshold = threshold
        self.max_docs = max_docs
        self.doc_chars = doc_chars

    def forward(
        self,
        question: str,
        answer: str,
        documents: list[Document],
        profile_summary: str = "",
        previous_feedback: QualityFeedback | None = None,
        run: Run | None = None,
        use_lm: bool = True,
    ) -> QualityFeedback:
        run = run or Run(budget_limit=None)
        if not use_lm or not run.has_lm("judge"):
            return heuristic_evaluation(
                question,
                answer,
                documents,
                self.weights,
                self.threshold,
                "LLM evaluation off" if not use_lm else "no LM",
            )
        try:
            out = run.call(
                "judge",
                self.evaluate,
                question=question,
                answer=answer,
                documents=format_documents(documents, self.max_docs, self.doc_chars),
                profile_summary=profile_summary,
                previous_feedback=previous_feedback.as_prompt() if previous_feedback else "",
            )
            g, c, a = (clamp(_number(out[name])) for name in ("grounding", "completeness", "accuracy"))
        except BudgetExhausted:
            raise
        except Exception as e:
            run.trace.fallback("evaluate", f"{type(e).__name__}: {str(e)[:120]}; heuristic evaluation")
            return heuristic_evaluation(
                question, answer, documents, self.weights, self.threshold, f"LM evaluation failed: {type(e).__name__}"
            )
        overall = overall_score(g, c, a, self.weights)
        return QualityFeedback(
            overall,
            g,
            c,
            a,
            _strings(out.missing_info),
            _strings(out.improvement_suggestions),
            needs_refinement(overall, self.threshold),
            str(out.reason or ""),
            "lm",
        )


def _number(value) -> float:
    if isinstance(value, bool) or value is None:
        raise ValueError(f"score {value!r} is not a number")
    return float(value)


def _strings(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    return [str(v) for v in value if str(v).strip()]
