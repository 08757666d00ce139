"""The parts the CRAG graph's nodes use, handed to each node instead of the module: the settings, the search
backend, the DSPy predictors and the web lookup. `CRAG.parts()` builds one per question; a node reads only the
fields it needs, and nothing a node calls leads back into programs/crag.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from programs.generator import Generator
from programs.grading import LMGrader, RetrievalEvaluator
from programs.quality_evaluator import QualityEvaluator
from programs.query_optimizer import QueryOptimizer
from programs.query_rewriter import QueryRewriter
from programs.settings import CragSettings
from programs.strategies import RefineStrategy
from programs.verifier import Verifier


@dataclass(frozen=True)
class Parts:
    """What one question's nodes work with.

    Attributes:
        settings: the program's settings (the one copy; parts read their limits from it).
        backend: the `retrievers.backend.SearchBackend`.
        query_optimizer, lm_grader, retrieval_evaluator, generator, verifier, quality_evaluator, rewriter: the
            program's parts (`retrieval_evaluator` grades a search, no LM; `lm_grader` is the optional judge LM).
        strategy: how quality is evaluated and when the refinement stops (`programs.strategies`).
        start_web: ``query -> Future`` of web references (never part of the LM context).
        cache: what the program keeps between questions (the query check's corpus vocabulary).
    """

    settings: CragSettings
    backend: Any
    query_optimizer: QueryOptimizer
    lm_grader: LMGrader
    retrieval_evaluator: RetrievalEvaluator
    generator: Generator
    verifier: Verifier
    quality_evaluator: QualityEvaluator
    rewriter: QueryRewriter
    strategy: RefineStrategy
    start_web: Callable[[str], Any]
    cache: dict = field(default_factory=dict)

    @property
    def names(self):
        """The backend's name index (`NameIndex`), or None for a backend without one."""
        return self.backend.names

    @property
    def lexicon(self):
        """The backend's section words (`Lexicon`), or None for a backend without them."""
        return self.backend.lexicon
