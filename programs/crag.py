"""CRAG: the Corrective-RAG program, run as an explicit graph over one state object per question.

The nodes (retrieve, optimize_query, grade, rewrite, generate, verify, correct, research, evaluate, requery, stop)
are small functions in programs/graph.py; which one runs next is a pure function of the state in
programs/routing.py. `forward` runs that table until `stop` and records each node's step in the trace, once.

1. the question as asked is searched; out of scope -> the OOS answer, no LM call;
2. with a query LM, the query is optimised (core/recall/avoid terms) and searched again;
3. the retrieval evaluator (calibrated, no LM) grades the result (with ``llm_grading``, one judge call grades all
   documents) and the 0.7 route picks: generate, rewrite and search again (<= 2), generate from the top 3 with a
   low-relevance notice, or generate without context when nothing found reaches the floor;
4. the DUR rules that apply to the user are added, the documents cut to their relevant strips, the answer written;
5. verified and self-corrected (<= 3 rounds; missing information searches again once);
6. the strategy evaluates quality and, while it stays low and the safety stops allow, rewrites and searches again.

Every LM call goes through one per-question `Run`, which charges a shared budget (default 12). When it runs out,
the last answer that passed verification (or the best one, or the extractive answer) is returned and says so.

Example (not run as a doctest: it needs a search backend; tests/programs/test_crag.py runs it over the mini index):
    >>> program = CRAG(backend=my_backend)                    # doctest: +SKIP
    >>> pred = program(question="게보린 먹고 속이 쓰려요")    # doctest: +SKIP
    >>> pred.answer, pred.citations, pred.trace["lm_calls"]   # doctest: +SKIP
"""

from __future__ import annotations

import copy
import time

import dspy

from programs import graph, spans
from programs.ablations import ablation_settings
from programs.answer_ending import budget_notices, finish
from programs.answer_policies import out_of_budget
from programs.budget import BudgetExhausted
from programs.generator import Generator
from programs.grading import LMGrader, RetrievalEvaluator
from programs.parts import Parts
from programs.profile import UserProfile
from programs.quality_evaluator import QualityEvaluator
from programs.query_optimizer import QueryOptimizer
from programs.query_rewriter import QueryRewriter
from programs.question import clean_question
from programs.run import Run, RunLog
from programs.settings import CragSettings
from programs.state import QuestionState
from programs.strategies import create_strategy
from programs.verifier import Verifier
from retrievers.oos_guard import OOS_MESSAGE

MAX_STEPS = 200  # a guard: every loop has its own cap, so a real question takes a few dozen steps at most

__all__ = ["CRAG", "OOS_MESSAGE"]


class Shared:
    """Holds what a copy of the program must share, not copy: the search backend, the LMs, the web lookup and the
    cache of what is read once from the backend (the query check's corpus vocabulary).

    DSPy optimizers deep-copy programs; the index behind a backend is large and an LM client is not worth copying.
    """

    def __init__(self, backend=None, lms: dict | None = None, web=None):
        self.backend = backend
        self.lms = dict(lms or {})
        self.web = web
        self.cache: dict = {}

    def __deepcopy__(self, memo):
        return self


class CRAG(dspy.Module):
    """Corrective RAG over the MFDS leaflets and DUR rules.

    Args:
        backend: a `retrievers.backend.SearchBackend`; None opens the default searcher on first use.
        settings: feature flags and limits (default: the ``full_context_engineering`` profile). The one copy: the
            parts read theirs from it.
        lms: a `dspy.LM` per role (``query``, ``generate``, ``verify``, ``judge``); roles left out use
            ``dspy.settings.lm``, and with neither the program runs without an LM.
        web: a function ``query -> Future[WebReferences]`` (default `retrievers.web.start_web_references`).

    ``forward(question, user=None, on_step=None)``: `on_step` is called with each trace step as it happens (the
    HTTP server streams them as status events).
    """

    def __init__(self, backend=None, settings: CragSettings | None = None, lms: dict | None = None, web=None):
        super().__init__()
        self.settings = settings or ablation_settings()
        self.query_optimizer = QueryOptimizer()
        self.lm_grader = LMGrader()
        self.generator = Generator(self.settings)
        self.verifier = Verifier()
        self.quality_evaluator = QualityEvaluator(self.settings)
        self.rewriter = QueryRewriter(self.settings)
        self.shared = Shared(backend, lms, web)

    # ----------------------------------------------------------------- public
    @property
    def backend(self):
        """The search backend (the default searcher is opened on first use)."""
        if self.shared.backend is None:
            from retrievers.index_open import open_searcher  # lazy: the index is heavy and optional in tests

            self.shared.backend = open_searcher()
        return self.shared.backend

    @property
    def lms(self) -> dict:
        """The LM of each configured role (roles left out use ``dspy.settings.lm``)."""
        return dict(self.shared.lms)

    def stream_targets(self) -> list[tuple[dspy.Predict, str]]:
        """(predictor, output field) pairs whose tokens are the answer the user reads: the three generators and the
        correction. Apps build their `dspy.streaming.StreamListener`s from this."""
        g = self.generator
        return [
            (g.generate, "answer"),
            (g.generate_low_relevance, "answer"),
            (g.generate_no_context, "answer"),
            (self.verifier.correct, "corrected_answer"),
        ]

    def with_settings(self, settings: CragSettings | None = None, **changes) -> CRAG:
        """A copy with other settings (a profile, or single changes) that keeps the compiled predictors' state and
        shares the backend, LMs and web lookup."""
        variant = copy.deepcopy(self)  # `Shared` is shared, not copied
        variant.use_settings((settings or self.settings).replace(**changes))
        return variant

    def use_settings(self, settings: CragSettings) -> None:
        """Switch this program and the parts that read settings to `settings`."""
        self.settings = settings
        for part in (self.generator, self.quality_evaluator, self.rewriter):
            part.settings = settings

    def parts(self) -> Parts:
        """What this question's nodes work with (programs/parts.py)."""
        s = self.settings
        return Parts(
            settings=s,
            backend=self.backend,
            query_optimizer=self.query_optimizer,
            lm_grader=self.lm_grader,
            retrieval_evaluator=RetrievalEvaluator(s.grade_threshold, s.grade_threshold_rerank),
            generator=self.generator,
            verifier=self.verifier,
            quality_evaluator=self.quality_evaluator,
            rewriter=self.rewriter,
            strategy=create_strategy(s),
            start_web=self._start_web,
            cache=self.shared.cache,
        )

    def forward(self, question: str, user: UserProfile | dict | None = None, on_step=None) -> dspy.Prediction:
        start = time.perf_counter()
        s = self.settings
        profile = user if isinstance(user, UserProfile) else UserProfile.from_dict(user)
        question, warnings = clean_question(question, s.max_question_chars)
        run = Run(
            self.shared.lms, s.lm_call_budget, trace=RunLog(on_step=on_step), time_budget_s=s.time_budget_s or None
        )
        st = QuestionState(question, profile if s.user_context else UserProfile(), run, warnings)
        parts = self.parts()
        try:
            run_graph(parts, st)
        except BudgetExhausted as e:  # the LM-call budget, or the wall-clock budget (a subclass)
            st.stop_reason = e.reason
            st.trace.step("stop", reason=e.reason, detail=str(e))
            out_of_budget(parts, st, budget_notices(e))
        return finish(parts, st, start)

    def _start_web(self, query: str):
        """Start the web-reference lookup (never part of the LM context)."""
        if self.shared.web is not None:
            return self.shared.web(query)
        from retrievers.web import start_web_references

        return start_web_references(query)


def run_graph(parts: Parts, st: QuestionState) -> None:
    """Run the graph's nodes from ``retrieve`` until ``stop``, recording each node's step in the trace once."""
    node = "retrieve"
    for _ in range(MAX_STEPS):
        with spans.node(node, _node_inputs(st)) as span:  # a no-op unless an MLflow trace is active
            info = graph.NODES[node](parts, st)
            st.trace.step(node, **info)
            edge = graph.EDGES[node]
            following = edge(st, parts.settings) if edge is not None else None
            span.done({**info, "route": st.route}, following)
        if following is None:
            return
        node = following
    raise RuntimeError(f"the CRAG graph did not stop within {MAX_STEPS} steps (last node {node})")


def _node_inputs(st: QuestionState) -> dict:
    """What a node's span records as its inputs: the question, the query to search and why, the route so far."""
    return {"question": st.question, "query": st.query, "purpose": st.purpose, "route": st.route}
