"""The state of one question as it moves through the CRAG graph: one object every node reads and writes.

Everything routing reads is here: the working data (the current search, its grade, the answer and its verification)
and the loop's counters, histories and stop reason. The run's `RunLog` (`st.trace`) only records what happened; the
roles still working live on `st.run` (`Run.has_lm`).

Example:
    >>> from programs.run import Run
    >>> st = QuestionState("게보린 부작용", run=Run(budget_limit=0))
    >>> st.query, st.purpose, st.rewrites, st.loop_record()["stop_reason"]
    ('게보린 부작용', 'question', 0, '')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from programs.grading import Grades
from programs.profile import UserProfile
from programs.quality_evaluator import QualityFeedback
from programs.routing import GENERATE
from programs.run import Run
from retrievers.documents import Document
from retrievers.result import RetrievalResult


@dataclass
class QuestionState:
    """Everything the nodes of one forward pass share.

    Attributes:
        query: what the next `retrieve` searches ("" when a rewrite repeated a searched query).
        purpose: why it searches: ``question``, ``optimized``, ``relevance``, ``quality`` or ``research``.
        result: the retrieval being graded or generated from.
        own_result: the search of the question as asked; a search of the query LM's query (`merge_own`) is merged
            with it (programs/hit_merge.py).
        search_failed: the last search was out of scope or empty (the previous result stays).
        found_new: a research search found documents other than those the answer used.
        graded: the grades of each result graded, by its hit ids, so an unchanged result is never re-graded.
        best_graded: the (relevance, result, grades) low-relevance answers fall back to (`graph._keeps` says which).
        route: the relevance route (generate, rewrite, generate_low_relevance, generate_no_context).
        docs: the documents chosen for generation.
        verify_action: what the last verification decided (programs.routing ACCEPT, CORRECT, ...).
        check_cause: why the last answer check failed (programs/answer_check.py; "" when it passed).
        doc_hashes: the content hashes of each generation's documents (the duplicate-documents stop).
        best: a snapshot of the best answer so far, returned when the loop or the budget ends.
        frame: what the question asks (`retrievers.question_frame.QuestionFrame`), read once when first needed;
            `morphemes` are the question's Kiwi morphemes it was read with.
        uncovered, uncovered_alone: what the question names that the corpus lacks, and whether it names nothing
            the corpus has (`programs.outcome`).
        rewrites: relevance-driven query rewrites so far; iterations: quality re-searches so far.
        relevance_history: the relevance of each graded search; score_history: the quality score of each evaluated
            answer.
        stop_reason: why the program stops ("" while it runs).
    """

    question: str
    profile: UserProfile = field(default_factory=UserProfile)
    run: Run = field(default_factory=Run)
    warnings: list[str] = field(default_factory=list)
    query: str = ""
    purpose: str = "question"
    searched: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    avoid: list[str] = field(default_factory=list)
    result: RetrievalResult | None = None
    own_result: RetrievalResult | None = None
    merge_own: bool = False
    out_of_scope: bool = False
    search_failed: bool = False
    found_new: bool = False
    graded: dict[tuple, Grades] = field(default_factory=dict)
    best_graded: tuple | None = None
    route: str = GENERATE
    docs: list[Document] = field(default_factory=list)
    mode: str = GENERATE
    answer: str = ""
    method: str = ""
    contexts: list[str] = field(default_factory=list)
    context_docs: list[Document] = field(default_factory=list)
    verification: str = "off"
    verify_action: str = ""
    verify_feedback: str = ""
    verify_rounds: int = 0
    check_cause: str = ""
    researched: int = 0
    last_passed: dict | None = None
    feedback: QualityFeedback | None = None
    doc_hashes: list[list[str]] = field(default_factory=list)
    best: dict | None = None
    web: Any = None
    frame: Any = None
    morphemes: tuple = ()
    uncovered: tuple = ()  # medicines the question names that the corpus lacks (programs/outcome.py)
    uncovered_alone: bool = False  # ... and nothing it has: the not_in_corpus answer
    general: bool = False  # about medicines in general, not one of them (programs/general_question.py)
    unknown_names: tuple = ()  # (result, words): the question's unknown names against that result's hits, read once
    rewrites: int = 0
    iterations: int = 0
    relevance_history: list[float] = field(default_factory=list)
    score_history: list[float] = field(default_factory=list)
    stop_reason: str = ""

    def __post_init__(self):
        self.query = self.query or self.question

    @property
    def trace(self):
        """The run's log (`programs.run.RunLog`): it records the steps; it decides nothing."""
        return self.run.trace

    def loop_record(self) -> dict:
        """The loop's counters, histories and stop reason, as the trace reports them."""
        return {
            "iterations": self.iterations,
            "rewrites": self.rewrites,
            "relevance_history": list(self.relevance_history),
            "score_history": list(self.score_history),
            "stop_reason": self.stop_reason,
        }

    def snapshot(self, score: float | None) -> dict:
        """The answer as it stands, with what produced it."""
        return {
            "answer": self.answer,
            "contexts": list(self.contexts),
            "context_docs": list(self.context_docs),
            "mode": self.mode,
            "method": self.method,
            "verification": self.verification,
            "score": score,
            "feedback": self.feedback,
        }
