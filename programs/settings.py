"""Feature flags and limits of the CRAG program. Every threshold, weight and loop limit comes from the seeds
(docs/seeds/), and any of them can be set in the ``[crag]`` table of yaksa.toml (`CragSettings.load`).

Example:
    >>> s = CragSettings(lm_call_budget=8)
    >>> s.replace(verification=False).verification
    False
    >>> CragSettings.load(path="/nonexistent.toml", lm_call_budget=None).lm_call_budget   # None: the default
    12
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from programs.question import MAX_QUESTION_CHARS

STRATEGIES = ("corrective_rag", "basic_rag")


@dataclass(frozen=True)
class CragSettings:
    """What the program does and how far its loops may go.

    Attributes:
        refine_strategy: ``corrective_rag`` (quality evaluation and re-search) or ``basic_rag`` (generate once).
        query_optimization: ask the query LM for core/recall/avoid terms before the first search.
        optimize_named_queries: ask it also when the question names a medicine, an ingredient or a class the corpus
            has. Off by default: the no-LM reading has found the targets already, and on 56 real-dev questions with
            the local instruct LM the rewrite changed no quoted answer phrase and no first top 5 (README, "LM calls
            where they pay").
        relevance_routing: grade the documents and route (generate / rewrite / low relevance / no context).
        llm_grading: also grade the documents with the judge LM (one call per distinct result), averaged with the
            calibrated retrieval evaluator.
        knowledge_refinement: keep only the query-relevant sentence strips of the documents (CRAG decompose-recompose).
        verification: verify the answer (PASS/FAIL) and self-correct.
        llm_quality: evaluate quality with the judge LM; False uses the seed's heuristic evaluation.
        dynamic_query: rewrite with the LM from quality feedback; False uses the static fallback rewrite.
        safety_checks: the duplicate-document, stagnation and decline stops (the iteration cap always applies).
        user_context: use the user profile in rewriting and generation and pull in the DUR rules that apply.
        web_references: look up web links (Tavily) in parallel; they never enter the LM context.
        lm_call_budget: the most LM calls (HTTP requests) one question may make.
        time_budget_s: the most seconds one question may spend (0: no limit). Like the call budget, when it runs
            out the best answer so far (or the extractive answer) is returned with a notice. 120 s: the seed's
            pipeline took 110-130 s per question on GPUs; past that a user is better served by the cited extract.
    """

    refine_strategy: str = "corrective_rag"
    query_optimization: bool = True
    optimize_named_queries: bool = False
    relevance_routing: bool = True
    llm_grading: bool = False
    knowledge_refinement: bool = True
    verification: bool = True
    llm_quality: bool = True
    dynamic_query: bool = True
    safety_checks: bool = True
    user_context: bool = True
    web_references: bool = True

    k: int = 5
    relevance_threshold: float = 0.7
    grade_threshold: float = 0.5  # a document is kept for generation at this calibrated relevance
    grade_threshold_rerank: float = 0.05
    low_relevance_floor: float = 0.1  # after the rewrites: low-relevance answer if a document reaches this, else none
    max_rewrites: int = 2
    low_relevance_top: int = 3
    quality_threshold: float = 0.5
    quality_weights: tuple[float, float, float] = (0.4, 0.4, 0.2)
    quality_docs: int = 5
    quality_doc_chars: int = 500
    max_iterations: int = 2
    duplicate_threshold: float = 0.8
    min_gain: float = 0.05
    max_verify_rounds: int = 3
    max_research: int = 1
    lm_call_budget: int = 12
    time_budget_s: float = 120.0
    max_question_chars: int = MAX_QUESTION_CHARS
    previous_answer_chars: int = 200
    extractive_quotes: int = 3  # the most answering sentences the extractive answer quotes (the user's rules on top)
    web_timeout_s: float = 5.0
    web_max_results: int = 5

    def __post_init__(self):
        if self.refine_strategy not in STRATEGIES:
            raise ValueError(f"unknown refine_strategy {self.refine_strategy!r}; choose one of {', '.join(STRATEGIES)}")
        if self.lm_call_budget < 0:
            raise ValueError("lm_call_budget must be >= 0")
        if self.time_budget_s < 0:
            raise ValueError("time_budget_s must be >= 0 (0: no wall-clock limit)")

    @classmethod
    def load(cls, path=None, **values) -> CragSettings:
        """The defaults, then the ``[crag]`` table of yaksa.toml (or `path`), then `values` (None: not given).

        Raises:
            ConfigFileError: an unknown key or a bad value in ``[crag]``.
        """
        from retrievers.config_file import load_settings

        return load_settings(cls, "crag", path, **values)

    def replace(self, **changes) -> CragSettings:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)
