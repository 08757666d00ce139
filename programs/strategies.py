"""Refine strategies behind one interface (docs/seeds/crag-self-refine-strategy.md §1-5): CorrectiveRAG evaluates
the answer's quality so the graph can search again while it stays low and the safety stops allow; BasicRAG generates
once.

Whether to search again is `programs.routing.refine_stop`, read off the strategy's name and the evaluation.

Example:
    >>> from programs.settings import CragSettings
    >>> create_strategy(CragSettings(refine_strategy="basic_rag")).name
    'basic_rag'
"""

from __future__ import annotations

from typing import Protocol

from programs.quality_evaluator import QualityEvaluator, QualityFeedback
from programs.settings import CragSettings


class RefineStrategy(Protocol):
    name: str
    label: str

    def evaluate(self, evaluator: QualityEvaluator, **inputs) -> QualityFeedback: ...


class BasicRAGStrategy:
    """The baseline: quality 1.0 by definition, never searches again."""

    name = "basic_rag"
    label = "Basic RAG (Baseline)"

    def evaluate(self, evaluator: QualityEvaluator, **inputs) -> QualityFeedback:
        return QualityFeedback(1.0, 1.0, 1.0, 1.0, needs_retrieval=False, reason="basic_rag", method="bypass")


class CorrectiveRAGStrategy:
    """Evaluate quality with the judge LM, or the heuristic when LM evaluation is off or fails."""

    name = "corrective_rag"
    label = "Corrective RAG"

    def __init__(self, settings: CragSettings):
        self.settings = settings

    def evaluate(self, evaluator: QualityEvaluator, **inputs) -> QualityFeedback:
        return evaluator(**inputs, use_lm=self.settings.llm_quality).feedback


def create_strategy(settings: CragSettings) -> RefineStrategy:
    """The factory of the seed: ``refine_strategy`` picks the class."""
    if settings.refine_strategy == "basic_rag":
        return BasicRAGStrategy()
    return CorrectiveRAGStrategy(settings)
