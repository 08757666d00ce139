"""CRAG: the Corrective-RAG program that composes the query optimiser, the retriever, grading and routing,
knowledge refinement, generation, verification with self-correction, and the refine strategy.

Flow for one question (DESIGN.md "The CRAG flow"):

1. search the question as asked (the retriever expands it by rule); out of scope -> the OOS answer, no LM call;
2. with a query LM, optimise the query (core/recall/avoid terms) and search again;
3. grade the documents (retrieval scores, or the LM per document) and route: generate, rewrite and search again
   (at most 2 times), generate from the top 3 with a low-relevance notice, or generate without context;
4. add the DUR rules that apply to the user, cut the documents to their relevant strips, generate;
5. verify and self-correct (at most 3 rounds; missing information searches again once);
6. the strategy evaluates quality and, while it stays low and the safety stops allow, rewrites and searches again.

Every LM call goes through one per-question `Run`, which charges a shared budget (default 12). When it runs out,
the best answer so far is returned and the trace says why.

Example:
    >>> program = CRAG(backend=my_backend)                    # doctest: +SKIP
    >>> pred = program(question="게보린 먹고 속이 쓰려요")    # doctest: +SKIP
    >>> pred.answer, pred.citations, pred.trace["lm_calls"]   # doctest: +SKIP
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import dspy

from programs.budget import BudgetExhausted
from programs.extractive import extractive_answer
from programs.generator import Generator, format_context
from programs.grading import LMGrader, ScoreGrader
from programs.profile import UserProfile
from programs.profiles import get_profile
from programs.quality_evaluator import QualityEvaluator, QualityFeedback
from programs.query_optimizer import QueryOptimizer
from programs.query_rewriter import QueryRewriter
from programs.refinement import KnowledgeRefiner
from programs.routing import GENERATE, LOW_RELEVANCE, NO_CONTEXT, REWRITE, jaccard, route_by_relevance
from programs.run import Run, Trace
from programs.settings import CragSettings
from programs.strategies import RefineState, create_strategy
from programs.verifier import Verifier
from retrievers.documents import Document
from retrievers.result import RetrievalResult

OUT_OF_SCOPE_ANSWER = (
    "범위 밖 질문입니다. 의약품(효능, 복용법, 부작용, 상호작용, 보관법, 병용·임부·노인 금기)에 대해 물어봐 주세요."
)
BUDGET_NOTICE = "※ 이 질문에 쓸 수 있는 LM 호출 횟수를 모두 써서, 지금까지의 가장 나은 답변을 보여 드립니다."
MAX_DUR_DOCS = 3


class Shared:
    """Holds what a copy of the program must share, not copy: the search backend, the LMs, the web lookup.

    DSPy optimizers deep-copy programs; the index behind a backend is large and an LM client is not worth copying.
    """

    def __init__(self, backend=None, lms: dict | None = None, web=None):
        self.backend = backend
        self.lms = dict(lms or {})
        self.web = web

    def __deepcopy__(self, memo):
        return self


@dataclass
class _Question:
    """Mutable state of one forward pass."""

    question: str
    profile: UserProfile
    run: Run
    warnings: list[str] = field(default_factory=list)
    result: RetrievalResult | None = None
    terms: list[str] = field(default_factory=list)
    avoid: list[str] = field(default_factory=list)
    docs: list[Document] = field(default_factory=list)
    mode: str = GENERATE
    answer: str = ""
    method: str = ""
    contexts: list[str] = field(default_factory=list)
    context_docs: list[Document] = field(default_factory=list)
    verification: str = "off"
    feedback: QualityFeedback | None = None
    best: dict | None = None
    out_of_scope: bool = False
    web: Any = None

    @property
    def trace(self):
        return self.run.trace

    def snapshot(self, score: float | None) -> dict:
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


class CRAG(dspy.Module):
    """Corrective RAG over the MFDS leaflets and DUR rules.

    Args:
        backend: a `retrievers.result.SearchBackend`; None opens the default searcher on first use.
        settings: feature flags and limits (default: the ``full_context_engineering`` profile).
        lms: a `dspy.LM` per role (``query``, ``generate``, ``verify``, ``judge``); roles left out use
            ``dspy.settings.lm``, and with neither the program runs without an LM.
        web: a function ``query -> Future[WebReferences]`` (default `retrievers.web.start_web_references`).

    ``forward(question, user=None, on_step=None)``: `on_step` is called with each trace step as it happens (the
    HTTP server streams them as status events).
    """

    def __init__(self, backend=None, settings: CragSettings | None = None, lms: dict | None = None, web=None):
        super().__init__()
        s = settings or get_profile()
        self.settings = s
        self.query_optimizer = QueryOptimizer()
        self.grader = LMGrader()
        self.generator = Generator(s.low_relevance_top, s.extractive_docs, s.extractive_sentences)
        self.verifier = Verifier(s.max_verify_rounds, s.max_research)
        self.evaluator = QualityEvaluator(s.quality_weights, s.quality_threshold, s.quality_docs, s.quality_doc_chars)
        self.rewriter = QueryRewriter(s.previous_answer_chars)
        self.score_grader = ScoreGrader(s.grade_threshold, s.grade_threshold_rerank)
        self.refiner = KnowledgeRefiner(s.strip_threshold, s.max_strips_per_doc)
        self.shared = Shared(backend, lms, web)

    # ----------------------------------------------------------------- public
    @property
    def backend(self):
        if self.shared.backend is None:
            from retrievers.searcher import open_searcher  # lazy: the index is heavy and optional in tests

            self.shared.backend = open_searcher()
        return self.shared.backend

    def forward(self, question: str, user: UserProfile | dict | None = None, on_step=None) -> dspy.Prediction:
        start = time.perf_counter()
        s = self.settings
        profile = user if isinstance(user, UserProfile) else UserProfile.from_dict(user)
        question, warnings = self._clean(question)
        run = Run(
            self.shared.lms, s.lm_call_budget, trace=Trace(on_step=on_step), time_budget_s=s.time_budget_s or None
        )
        q = _Question(question, profile if s.user_context else UserProfile(), run, warnings)
        try:
            self._answer(q)
        except BudgetExhausted as e:
            self._out_of_budget(q, e)
        return self._finish(q, start)

    # ------------------------------------------------------------------ steps
    def _clean(self, question: str) -> tuple[str, list[str]]:
        question = " ".join(str(question or "").split())
        if not question:
            raise ValueError("the question is empty")
        limit = self.settings.max_question_chars
        if len(question) > limit:
            return question[:limit], [f"question cut to {limit} characters"]
        return question, []

    def _answer(self, q: _Question) -> None:
        s, run, trace = self.settings, q.run, q.trace
        result = self._retrieve(q, q.question)
        if result.out_of_scope:
            q.out_of_scope, q.mode, q.method = True, "out_of_scope", "guard"
            q.answer = OUT_OF_SCOPE_ANSWER
            trace.stop_reason = "out_of_scope"
            return
        q.result = result
        if s.web_references:
            q.web = (self.shared.web or _start_web)(q.question)
        if s.query_optimization and run.has_lm("query"):
            opt = self.query_optimizer(question=q.question, profile_summary=q.profile.summary(), run=run)
            trace.step(
                "optimize_query",
                method=opt.method,
                query=opt.query,
                extra_terms=opt.extra_terms,
                avoid_terms=opt.avoid_terms,
            )
            if opt.method == "lm":
                q.terms, q.avoid = list(opt.extra_terms), list(opt.avoid_terms)
                better = self._retrieve(q, opt.query)
                if better.hits and not better.out_of_scope:
                    result = better
        q.result = result
        q.mode, q.docs = self._grade_and_route(q, result)
        hashes = [[d.content_hash for d in q.docs]]
        strategy = create_strategy(s, self.evaluator)
        state = RefineState(q.question, "", [], run, q.profile, doc_hash_history=hashes)
        while True:
            self._generate(q, q.docs, q.mode)
            self._verify(q)
            state.answer, state.docs = q.answer, q.context_docs
            q.feedback = strategy.refine(state)
            trace.score_history.append(q.feedback.overall)
            trace.step(
                "evaluate",
                strategy=strategy.name,
                method=q.feedback.method,
                overall=q.feedback.overall,
                grounding=q.feedback.grounding,
                completeness=q.feedback.completeness,
                accuracy=q.feedback.accuracy,
                missing_info=q.feedback.missing_info,
            )
            self._keep_best(q, q.feedback.overall)
            if not strategy.should_retrieve(state):
                trace.stop_reason = state.stop_reason
                return
            state.iteration += 1
            trace.iterations = state.iteration
            new_query = self.rewriter(
                original_query=q.question,
                feedback=q.feedback,
                previous_answer=q.answer,
                profile=q.profile,
                iteration=state.iteration,
                run=run,
                use_lm=s.dynamic_query,
            ).query
            trace.step("rewrite", reason="quality", query=new_query)
            result = self._retrieve(q, new_query)
            if result.out_of_scope or not result.hits:
                trace.stop_reason = "no_documents_on_research"
                return
            q.result = result
            grades = self.score_grader.grade(result.hits, result.scorer, result.products)
            kept = [h.doc for h, ok in zip(result.hits, grades.relevant, strict=True) if ok]
            q.docs, q.mode = (kept, GENERATE) if kept else (result.documents[: s.low_relevance_top], LOW_RELEVANCE)
            state.doc_hash_history.append([d.content_hash for d in q.docs])
            if (
                s.safety_checks
                and jaccard(state.doc_hash_history[-1], state.doc_hash_history[-2]) >= s.duplicate_threshold
            ):
                trace.stop_reason = state.stop_reason = "duplicate_documents"
                trace.step("stop", reason="duplicate_documents", detail="the new search found the same documents")
                return

    def _retrieve(self, q: _Question, query: str) -> RetrievalResult:
        t = time.perf_counter()
        result = self.backend.retrieve(
            query, k=self.settings.k, extra_terms=q.terms or None, avoid_terms=q.avoid or None
        )
        ms = round((time.perf_counter() - t) * 1000, 2)
        q.trace.timings["retrieval_ms"] = q.trace.timings.get("retrieval_ms", 0.0) + ms
        q.trace.doc_history.append([h.id for h in result.hits])
        q.trace.step(
            "retrieve",
            query=query,
            scorer=result.scorer,
            top_score=round(result.top_score, 4),
            out_of_scope=result.out_of_scope,
            oos_reason=result.oos_reason,
            hits=[{"id": h.id, "score": round(float(h.score), 4)} for h in result.hits],
            ms=ms,
        )
        q.warnings.extend(w for w in result.warnings if w not in q.warnings)
        return result

    def _grade(self, q: _Question, result: RetrievalResult):
        if self.settings.llm_grading and q.run.has_lm("judge"):
            return self.grader(
                question=q.question,
                hits=result.hits,
                run=q.run,
                fallback=self.score_grader,
                scorer=result.scorer,
                names=result.products,
            )
        return self.score_grader.grade(result.hits, result.scorer, result.products)

    def _grade_and_route(self, q: _Question, result: RetrievalResult) -> tuple[str, list[Document]]:
        s, trace = self.settings, q.trace
        if not s.relevance_routing:
            return (GENERATE, result.documents) if result.hits else (NO_CONTEXT, [])
        best = None
        while True:
            grades = self._grade(q, result)
            trace.relevance_history.append(grades.relevance)
            route = route_by_relevance(
                grades.relevance, trace.rewrites, len(result.hits), s.relevance_threshold, s.max_rewrites
            )
            trace.step("grade", method=grades.method, relevance=grades.relevance, relevant=grades.relevant, route=route)
            if best is None or grades.relevance > best[0]:
                best = (grades.relevance, result, grades)
            if route == GENERATE:
                q.result = result
                return GENERATE, [h.doc for h, ok in zip(result.hits, grades.relevant, strict=True) if ok]
            if route != REWRITE:
                _, result, grades = best
                q.result = result
                docs = result.documents[: s.low_relevance_top] if route == LOW_RELEVANCE else []
                return (route if docs or route == NO_CONTEXT else NO_CONTEXT), docs
            trace.rewrites += 1
            feedback = QualityFeedback(
                grades.relevance,
                grades.relevance,
                0.0,
                0.0,
                missing_info=q.terms[:3],
                improvement_suggestions=[
                    f"검색 결과의 관련성이 낮음({grades.relevance:.2f}): 제품명·성분명과 궁금한 내용을 분명히 하세요"
                ],
            )
            new_query = self.rewriter(
                original_query=q.question,
                feedback=feedback,
                profile=q.profile,
                iteration=trace.rewrites,
                run=q.run,
                use_lm=True,
            ).query
            trace.step("rewrite", reason="relevance", query=new_query)
            if _same_query(new_query, q.question) or any(
                _same_query(new_query, st.get("query", "")) for st in trace.steps[:-1] if st["step"] == "rewrite"
            ):
                trace.step("skip_search", reason="the rewrite is the same query")
                continue
            new = self._retrieve(q, new_query)
            if new.hits and not new.out_of_scope:
                result = new

    def _context_docs(self, q: _Question, docs: list[Document]) -> list[Document]:
        s = self.settings
        out = list(docs)
        types = q.profile.dur_types() if s.user_context else []
        if types and out:
            ingredients = sorted(
                {i.strip() for d in out for i in str(d.metadata.get("main_ingr", "")).split(",") if i.strip()}
                | {d.metadata.get("ingredient", "") for d in out} - {""}
            )
            try:
                rules = self.backend.dur_rules(ingredients, types)[:MAX_DUR_DOCS] if ingredients else []
            except Exception as e:  # a backend without DUR rules must not stop the answer
                rules = []
                q.trace.fallback("dur_rules", f"{type(e).__name__}: {str(e)[:100]}")
            seen = {d.id for d in out}
            added = [r for r in rules if r.id not in seen]
            out += added
            q.trace.step("dur_rules", types=types, ingredients=ingredients[:10], added=[d.id for d in added])
        if s.knowledge_refinement and out:
            out, stats = self.refiner.refine(q.question, out, q.terms, q.result.sections if q.result else ())
            q.trace.step("refine_knowledge", **stats)
        return out

    def _generate(self, q: _Question, docs: list[Document], mode: str) -> None:
        if mode == LOW_RELEVANCE:
            docs = docs[: self.settings.low_relevance_top]
        context_docs = self._context_docs(q, docs) if mode != NO_CONTEXT else []
        out = self.generator(
            question=q.question,
            docs=context_docs,
            mode=mode,
            profile_summary=q.profile.summary(),
            run=q.run,
            terms=q.terms,
            sections=q.result.sections if q.result else (),
            cut_low_relevance=False,
        )
        q.answer, q.contexts, q.context_docs, q.mode, q.method = (
            out.answer,
            out.contexts,
            out.docs,
            out.mode,
            out.method,
        )
        q.verification = "off"
        q.trace.step(
            "generate", mode=out.mode, method=out.method, documents=[d.id for d in out.docs], chars=len(out.answer)
        )

    def _verify(self, q: _Question) -> None:
        if not self.settings.verification or q.method != "lm" or not q.run.has_lm("verify"):
            q.verification = "off" if q.method == "lm" or not self.settings.verification else "skipped (no LM answer)"
            return

        def research(feedback: str):
            fb = QualityFeedback(
                0.0,
                0.0,
                0.0,
                0.0,
                missing_info=[feedback[:120]] if feedback else [],
                improvement_suggestions=["검증에서 부족하다고 한 정보를 찾도록 질의를 구체화"],
            )
            query = self.rewriter(
                original_query=q.question,
                feedback=fb,
                previous_answer=q.answer,
                profile=q.profile,
                iteration=1,
                run=q.run,
                use_lm=self.settings.dynamic_query,
            ).query
            q.trace.step("rewrite", reason="verification: missing information", query=query)
            result = self._retrieve(q, query)
            if result.out_of_scope or not result.hits:
                return None
            docs = result.documents
            if jaccard([d.content_hash for d in docs], [d.content_hash for d in q.docs]) >= 0.8:
                q.trace.step("skip_generate", reason="the re-search found the same documents")
                return None
            q.result, q.docs = result, docs
            self._generate(q, docs, GENERATE)
            return q.answer, format_context(q.context_docs)

        try:
            out = self.verifier(
                question=q.question,
                context=format_context(q.context_docs),
                answer=q.answer,
                run=q.run,
                research=research,
            )
        except BudgetExhausted as e:
            if getattr(e, "partial", None):
                q.answer = e.partial[0]
            q.verification = "unfinished (budget)"
            raise
        q.answer, q.verification = out.answer, out.status

    def _keep_best(self, q: _Question, score: float | None) -> None:
        if q.best is None or (score or 0.0) >= (q.best["score"] or 0.0):
            q.best = q.snapshot(score)

    def _out_of_budget(self, q: _Question, error: BudgetExhausted) -> None:
        reason, notice = getattr(error, "reason", "lm_budget_exhausted"), getattr(error, "notice", BUDGET_NOTICE)
        q.trace.stop_reason = reason
        q.trace.step("stop", reason=reason, detail=str(error))
        if q.best is None and q.answer:
            self._keep_best(q, None)
        if q.best is None:  # no answer yet: quote the documents
            docs = q.docs or (q.result.documents if q.result else [])
            q.answer = extractive_answer(
                q.question,
                docs,
                GENERATE if docs else NO_CONTEXT,
                q.terms,
                q.result.sections if q.result else (),
                self.settings.extractive_docs,
                self.settings.extractive_sentences,
                notice,
            )
            q.contexts, q.context_docs, q.method = [d.text for d in docs], list(docs), "extractive"
            q.mode = GENERATE if docs else NO_CONTEXT
            self._keep_best(q, None)
            return
        q.best["answer"] = f"{q.best['answer'].rstrip()}\n\n{notice}"

    def _finish(self, q: _Question, start: float) -> dspy.Prediction:
        best = q.best or q.snapshot(None)
        answer = best["answer"]
        citations = [
            {
                "n": i,
                "id": d.id,
                "title": d.title,
                "product": d.metadata.get("item_name") or d.metadata.get("ingredient", ""),
                "section": d.metadata.get("section_label") or d.metadata.get("dur_type", ""),
                "cited": f"[문서 {i}]" in answer,
            }
            for i, d in enumerate(best["context_docs"], 1)
        ]
        web = _collect_web(q.web, start + self.settings.web_timeout_s - time.perf_counter())
        trace = q.trace
        if q.web is not None or self.settings.web_references:
            trace.step("web_references", note=web.note, links=len(web.links))
        total = (time.perf_counter() - start) * 1000
        trace.timings.update(
            total_ms=round(total, 2),
            lm_ms=round(q.run.lm_seconds * 1000, 2),
            overhead_ms=round(total - q.run.lm_seconds * 1000, 2),
        )
        out = trace.to_dict()
        out.update(
            strategy=self.settings.refine_strategy,
            uses_lm=q.run.uses_lm,
            unreachable=q.run.unreachable(),
            budget={"limit": q.run.budget.limit, "used": q.run.budget.used},
            warnings=q.warnings,
            mode=best["mode"],
            method=best["method"],
            verification=best["verification"],
            quality=best["feedback"].to_dict() if best.get("feedback") else None,
        )
        return dspy.Prediction(
            question=q.question,
            answer=answer,
            citations=citations,
            contexts=best["contexts"],
            web_refs=web.links,
            trace=out,
            out_of_scope=q.out_of_scope,
            mode=best["mode"],
        )


def _same_query(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _start_web(query: str):
    from retrievers.web import start_web_references

    return start_web_references(query)


def _collect_web(future, timeout: float):
    from retrievers.web import WebReferences, collect_web_references

    return collect_web_references(future, timeout) if future is not None else WebReferences([], "web references off")
