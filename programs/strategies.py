"""Refine strategies behind one interface (crag-self-refine seed §1-5): CorrectiveRAG evaluates the answer and asks
for another search when quality is low and the safety stops allow it; BasicRAG never does.

Example:
    >>> from programs.settings import CragSettings
    >>> create_strategy(CragSettings(refine_strategy="basic_rag")).name
    'Basic RAG (Baseline)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from programs.profile import UserProfile
from programs.quality_evaluator import QualityEvaluator, QualityFeedback
from programs.routing import safety_stop
from programs.run import Run
from programs.settings import CragSettings
from retrievers.documents import Document


@dataclass
class RefineState:
    """What a strategy reads and writes between generations."""

    question: str
    answer: str
    docs: list[Document]
    run: Run
    profile: UserProfile = field(default_factory=UserProfile)
    iteration: int = 0
    feedback: QualityFeedback | None = None
    score_history: list[float] = field(default_factory=list)
    doc_hash_history: list[list[str]] = field(default_factory=list)
    stop_reason: str = ""


class RefineStrategy(Protocol):
    name: str

    def refine(self, state: RefineState) -> QualityFeedback: ...

    def should_retrieve(self, state: RefineState) -> bool: ...

    def metrics(self, state: RefineState) -> dict: ...


class BasicRAGStrategy:
    """The baseline: quality 1.0, never retrieves again."""

    name = "Basic RAG (Baseline)"

    def refine(self, state: RefineState) -> QualityFeedback:
        state.feedback = QualityFeedback(1.0, 1.0, 1.0, 1.0, needs_retrieval=False, reason="basic_rag", method="bypass")
        return state.feedback

    def should_retrieve(self, state: RefineState) -> bool:
        state.stop_reason = "basic_rag"
        return False

    def metrics(self, state: RefineState) -> dict:
        return {"strategy": self.name, "iterations": state.iteration, "quality": 1.0}


class CorrectiveRAGStrategy:
    """Evaluate quality (LM or heuristic) and decide on another search with the iteration cap and safety stops."""

    name = "Corrective RAG"

    def __init__(self, settings: CragSettings, evaluator: QualityEvaluator | None = None):
        self.settings = settings
        self.evaluator = evaluator or QualityEvaluator(
            settings.quality_weights, settings.quality_threshold, settings.quality_docs, settings.quality_doc_chars
        )

    def refine(self, state: RefineState) -> QualityFeedback:
        feedback = self.evaluator(
            question=state.question,
            answer=state.answer,
            documents=state.docs,
            profile_summary=state.profile.summary(),
            previous_feedback=state.feedback,
            run=state.run,
            use_lm=self.settings.llm_quality,
        )
        state.feedback = feedback
        state.score_history.append(feedback.overall)
        return feedback

    def should_retrieve(self, state: RefineState) -> bool:
        if state.feedback is None or not state.feedback.needs_retrieval:
            state.stop_reason = "quality_ok"
            return False
        s = self.settings
        reason = safety_stop(
            state.score_history,
            state.doc_hash_history,
            state.iteration,
            s.max_iterations,
            s.duplicate_threshold,
            s.min_gain,
            s.safety_checks,
        )
        if reason:
            state.stop_reason = reason
            return False
        return True

    def metrics(self, state: RefineState) -> dict:
        return {
            "strategy": self.name,
            "iterations": state.iteration,
            "quality": state.score_history[-1] if state.score_history else None,
            "score_history": list(state.score_history),
            "stop_reason": state.stop_reason,
        }


def create_strategy(settings: CragSettings, evaluator: QualityEvaluator | None = None) -> RefineStrategy:
    """The factory of the seed: ``refine_strategy`` picks the class."""
    if settings.refine_strategy == "basic_rag":
        return BasicRAGStrategy()
    return CorrectiveRAGStrategy(settings, evaluator)
