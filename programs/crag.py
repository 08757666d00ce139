"""CRAG: the Corrective-RAG program, run as an explicit graph over one state object per question.

The nodes (retrieve, optimize_query, grade, rewrite, generate, verify, correct, research, evaluate, requery, stop)
are small functions in programs/graph.py; which one runs next is a pure function of the state in
programs/routing.py. `forward` runs that table until `stop` and records each node's step in the trace, once.

1. the question as asked is searched; out of scope -> the OOS answer, no LM call;
2. with a query LM, the query is optimised (core/recall/avoid terms) and searched again;
3. the calibrated evaluator grades the result (with ``llm_grading``, one judge call grades all documents) and the
   0.7 route picks: generate, rewrite and search again (<= 2), generate from the top 3 with a low-relevance notice,
   or generate without context when nothing found reaches the floor;
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

import time

import dspy

from programs import coverage, forbidden, graph, offer_guard, safety_rules, spans, user_rules
from programs.ablations import get_profile
from programs.aspect_check import self_check
from programs.budget import BudgetExhausted
from programs.citations import citation
from programs.extractive import read_as_notice, unknown_name_notice
from programs.generator import Generator
from programs.grading import LMGrader, RelevanceGrader
from programs.graph import OUT_OF_SCOPE_ANSWER
from programs.lm_call import TimeBudgetExhausted
from programs.lm_context import MAX_DOCS as CONTEXT_DOCS
from programs.lm_context import ranked_context
from programs.outcome import (
    DUR_CODES,
    NOT_IN_CORPUS,
    dur_only_notice,
    not_in_corpus_notice,
    outcome,
    rules_for_question,
    uncovered_only,
)
from programs.profile import UserProfile
from programs.quality_evaluator import QualityEvaluator
from programs.query_optimizer import QueryOptimizer
from programs.query_rewriter import QueryRewriter
from programs.question import clean_question
from programs.refinement import KnowledgeRefiner
from programs.run import Run, RunLog
from programs.settings import CragSettings
from programs.state import QuestionState
from programs.strategies import create_strategy
from programs.verifier import Verifier
from retrievers.documents import Document

BUDGET_NOTICES = {
    "passed": "※ LM 호출 한도를 모두 써서, 검증을 통과한 마지막 답변을 보여 드립니다.",
    "best": "※ 이 질문에 쓸 수 있는 LM 호출 횟수를 모두 써서, 지금까지의 가장 나은 답변을 보여 드립니다.",
    "extractive": "※ LM 호출 한도를 모두 써서, 검색된 문서의 문장을 그대로 옮긴 답변을 보여 드립니다.",
    "unverified": "※ LM 호출 한도를 모두 써서, 아직 검증하지 못한 답변을 보여 드립니다.",
}
BUDGET_NOTICE = BUDGET_NOTICES["best"]
TIME_NOTICES = {
    "passed": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 검증을 통과한 마지막 답변을 보여 드립니다.",
    "best": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 지금까지의 가장 나은 답변을 보여 드립니다.",
    "extractive": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 검색된 문서의 문장을 그대로 옮긴 답변을 보여 드립니다.",
    "unverified": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 아직 검증하지 못한 답변을 보여 드립니다.",
}


def budget_notices(error: BudgetExhausted) -> dict:
    """The notices of the budget that ran out: LM calls, or time (`TimeBudgetExhausted`)."""
    return TIME_NOTICES if isinstance(error, TimeBudgetExhausted) else BUDGET_NOTICES


MAX_STEPS = 200  # a guard: every loop has its own cap, so a real question takes a few dozen steps at most

__all__ = ["CRAG", "OUT_OF_SCOPE_ANSWER", "BUDGET_NOTICE", "BUDGET_NOTICES"]


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


class CRAG(dspy.Module):
    """Corrective RAG over the MFDS leaflets and DUR rules.

    Args:
        backend: a `retrievers.backend.SearchBackend`; None opens the default searcher on first use.
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
        self.relevance_grader = RelevanceGrader(s.grade_threshold, s.grade_threshold_rerank)
        self.refiner = KnowledgeRefiner(s.strip_threshold, s.max_strips_per_doc)
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

    @property
    def strategy(self):
        return create_strategy(self.settings)

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
        variant = type(self)(settings=(settings or self.settings).replace(**changes))
        variant.shared = self.shared
        variant.load_state(self.dump_state())
        return variant

    def forward(self, question: str, user: UserProfile | dict | None = None, on_step=None) -> dspy.Prediction:
        start = time.perf_counter()
        s = self.settings
        profile = user if isinstance(user, UserProfile) else UserProfile.from_dict(user)
        question, warnings = clean_question(question, s.max_question_chars)
        run = Run(
            self.shared.lms, s.lm_call_budget, trace=RunLog(on_step=on_step), time_budget_s=s.time_budget_s or None
        )
        st = QuestionState(question, profile if s.user_context else UserProfile(), run, warnings)
        try:
            self._run_graph(st)
        except BudgetExhausted as e:  # the LM-call budget, or the wall-clock budget (a subclass)
            reason = e.reason
            st.trace.stop_reason = reason
            st.trace.step("stop", reason=reason, detail=str(e))
            graph.out_of_budget(self, st, budget_notices(e))
        return self._finish(st, start)

    # ------------------------------------------------------------- the graph
    def _run_graph(self, st: QuestionState) -> None:
        node = "retrieve"
        for _ in range(MAX_STEPS):
            with spans.node(node, _node_inputs(st)) as span:  # a no-op unless an MLflow trace is active
                info = graph.NODES[node](self, st)
                st.trace.step(node, **info)
                edge = graph.EDGES[node]
                following = edge(st, self.settings) if edge is not None else None
                span.done({**info, "route": st.route}, following)
            if following is None:
                return
            node = following
        raise RuntimeError(f"the CRAG graph did not stop within {MAX_STEPS} steps (last node {node})")

    def start_web(self, query: str):
        """Start the web-reference lookup (never part of the LM context)."""
        if self.shared.web is not None:
            return self.shared.web(query)
        from retrievers.web import start_web_references

        return start_web_references(query)

    def context_documents(self, st: QuestionState, docs: list[Document]) -> list[Document]:
        """The documents the generator sees: the chosen ones plus the DUR rules of the user's profile and of who the
        question says it is for (임산부, 아이, 어르신), cut to relevant strips; a product those rules forbid carries
        the verdict (programs/offer_guard.py), so no answer offers it."""
        s = self.settings
        out = list(docs)
        rules: list[Document] = []
        who = self.asker(st)
        types = who.dur_types()
        if types and out:
            ingredients = safety_rules.answer_ingredients(st.question, out)
            try:
                rules, verdicts = user_rules.gather(
                    out, ingredients, who, self.backend.dur_rules, self._same_ingredient(), graph.MAX_DUR_DOCS
                )
            except Exception as e:  # a backend without DUR rules must not stop the answer
                rules, verdicts = [], {}
                st.trace.fallback("dur_rules", f"{type(e).__name__}: {str(e)[:100]}", "backend_error", "no DUR rules")
            seen = {d.id for d in out}
            added = [r for r in rules if r.id not in seen]
            # the user's safety rules first (programs/safety_rules.py); a rule that binds none of the products
            # holding its ingredient is left out (the 서방정 rule beside a syrup)
            unbound = user_rules.unbound_rules(out, self._same_ingredient())
            out = offer_guard.mark(added + [d for d in out if d.id not in unbound], verdicts)
            st.trace.step(
                "dur_rules",
                types=types,
                ingredients=ingredients[:10],
                added=[d.id for d in added],
                forbidden={seq: [r.id for r in rules] for seq, rules in verdicts.items()},
            )
        if s.knowledge_refinement and out and not st.run.has_lm("generate"):
            st.trace.step("refine_knowledge", skipped="no generating LM: the extractive answer ranks every sentence")
        elif s.knowledge_refinement and out:
            sections, names = (st.result.sections, st.result.products) if st.result else ((), ())
            # the user's rules lead (also those retrieval had found itself), and the rules a withheld product's
            # warning cites stay in the context
            first = {r.id for r in rules} | {d.id for d in out if d.metadata.get(offer_guard.VERDICT_ONLY)}
            out = [d for d in out if d.id in first] + [d for d in out if d.id not in first]
            low = st.route == graph.LOW_RELEVANCE
            most = self.generator.low_relevance_top if low else CONTEXT_DOCS
            n_rules = sum(d.id in first for d in out)
            out, stats = ranked_context(st.question, out, len(st.docs), st.terms, sections, names, n_rules, most)
            st.trace.step("refine_knowledge", **stats)
        return out

    def asker(self, st: QuestionState) -> forbidden.Asker:
        """Who the DUR rules are for: the profile and the population the question states (none without
        ``user_context``)."""
        if not self.settings.user_context:
            return forbidden.Asker()
        names = st.result.products if st.result else ()
        return forbidden.asker(st.profile, st.question, names)

    def mark_forbidden(self, st: QuestionState, docs: list[Document]) -> list[Document]:
        """`docs` with the verdict on each product (the rules that forbid it appended), for an answer made outside
        `context_documents` (the budget ran out)."""
        who = self.asker(st)
        try:
            _, verdicts = user_rules.gather(docs, [], who, self.backend.dur_rules, self._same_ingredient())
        except Exception:  # noqa: BLE001 — as in context_documents: no DUR rules, no verdicts
            return list(docs)
        return offer_guard.mark(list(docs), verdicts)

    def _same_ingredient(self):
        """Two ingredient names the same by the backend's canonical key (by `forbidden.same_name` without one)."""
        names = self.backend.names
        if names is None:
            return forbidden.same_name

        def same(a: str, b: str) -> bool:
            ca, cb = names.canonical(a), names.canonical(b)
            return bool(ca) and ca == cb

        return same

    def question_frame(self, st: QuestionState):
        """What the question asks (`retrievers.question_frame.QuestionFrame`), read once with the backend's names,
        rules and tokenizer (the shipped rules alone for a backend without them)."""
        if st.frame is None:
            from retrievers.lexicon import Lexicon
            from retrievers.names import NameIndex
            from retrievers.question_frame import read_frame

            backend = self.backend
            st.morphemes = tuple(backend.tokenizer(st.question)) if backend.tokenizer is not None else ()
            names = backend.names if backend.names is not None else NameIndex()
            lexicon = backend.lexicon if backend.lexicon is not None else Lexicon.load()
            st.frame = read_frame(st.question, names, lexicon, st.morphemes)
        return st.frame

    def _aspect_notice(self, st: QuestionState, best: dict) -> str:
        """The self-check of the quoted answer shown (programs/aspect_check.py): the notice saying which asked aspect
        the documents found do not speak to ("" when the answer speaks to what was asked first, or quotes nothing).
        An LM's answer, in its own words, is judged by the LM instead. The trace gets an ``aspect_check`` step."""
        docs = best["context_docs"]
        if st.out_of_scope or not docs or best["method"] == "lm":
            return ""
        check, notice = self_check(self.question_frame(st), best["answer"], docs, st.morphemes)
        if check.asked:
            st.trace.step("aspect_check", **check.to_dict(), flagged=bool(notice))
        return notice

    # ---------------------------------------------------------------- helpers
    def _unknown_names(self, st: QuestionState) -> list[str]:
        """Words of a question without a recognised name that neither the dictionary, the corpus nor the answer's
        documents know (lexapro, 부루팬): the documents are about something else (retrievers/query_coverage.py). The
        question as asked is read, not a rewrite's query (whose added words, 연용 or 연령금기, the user never wrote)."""
        r = st.result
        if r is None or r.out_of_scope or r.products or not r.hits:
            return []
        if st.unknown_names and st.unknown_names[0] is r:
            return list(st.unknown_names[1])
        frame = self.question_frame(st)
        lexicon, names = self.backend.lexicon, self.backend.names
        # a word a rule or the frame reads as a class or a symptom (지사제, 입병) says what is asked: no name
        known = {*frame.targets.classes, *frame.targets.symptoms}
        if lexicon is not None:
            known.update(lexicon.target_words(st.question))
            if names is not None:
                # a rule that reads a brand as its ingredient (리피토 -> 아토르바스타틴) does not make it a leaflet's
                known = {k for k in known if not any(names.match(a).ingredients for a in lexicon.expand(k)[:1])}
        unknown = self.backend.coverage(st.question, [], r.hits)["unknown_words"]
        words = [w for w in unknown if not any(w in k or k in w for k in known if len(k) >= 2)]
        st.unknown_names = (r, tuple(words))
        return words

    def uncovered(self, st: QuestionState) -> tuple[tuple[str, ...], bool]:
        """What the question names that the corpus lacks (supplements, and with no medicine named, words nobody
        knows), and whether it names nothing the corpus has (`programs.outcome.uncovered_only`)."""
        from retrievers.not_covered import supplement_words
        from retrievers.question_frame import classes_and_symptoms

        r, names = st.result, self.backend.names
        if r is None or names is None:
            return (), False
        supplements = tuple(supplement_words(st.question, names))
        unknown = tuple(w for w in self._unknown_names(st) if w not in supplements)
        words = (*supplements, *unknown)
        if not words:
            return (), False
        lexicon = self.backend.lexicon
        rest = st.question
        for w in words:
            rest = rest.replace(w, " ")
        speaks = False
        if lexicon is not None:  # what else the question asks that the leaflets have: a class's products, a symptom
            classes, symptoms = classes_and_symptoms(rest, lexicon)
            speaks = bool(symptoms) or bool(self.backend.class_members(classes))
        alone = uncovered_only(words, bool(r.products), supplements, speaks)
        return words, alone

    def _dur_only(self, st: QuestionState) -> list[str]:
        """The question's ingredients only DUR rules know (졸피뎀), with no product named and no leaflet found that
        mentions them (`retrievers.not_covered.dur_only_ingredients`)."""
        from retrievers.not_covered import dur_only_ingredients

        r, names = st.result, self.backend.names
        if r is None or r.out_of_scope or names is None:
            return []
        leaflets = " ".join(h.doc.text for h in r.hits if h.id.startswith("easydrug:"))
        return [w for w in dur_only_ingredients(names.match(st.question), names) if w not in leaflets]

    def uncovered_rules(self, st: QuestionState) -> list[Document]:
        """The DUR rules of what the uncovered words are made of, when a rule names it (리피토 -> 아토르바스타틴),
        that speak to the question (`programs.outcome.rules_for_question`)."""
        lexicon, names = self.backend.lexicon, self.backend.names
        if not st.uncovered or lexicon is None or names is None:
            return []
        ingredients = [a for a in lexicon.expand(" ".join(st.uncovered)) if names.match(a).ingredients]
        try:
            rows = self.backend.dur_rules(ingredients, list(DUR_CODES))
        except Exception:  # noqa: BLE001 - a backend without DUR rules: the answer without them
            return []
        return rules_for_question(rows, st.question, self.question_frame(st).population.group)

    def _name_notice(self, st: QuestionState) -> tuple[str, bool]:
        """The opening line about the question's names: read as a name that sounds the same (부루팬 -> 부루펜),
        a medicine the corpus lacks beside one it has (오메가3 with 아스피린), or known nowhere (lexapro); "" for
        none; and whether it names a medicine the corpus lacks. The trace gets an ``unknown_names`` step."""
        r = st.result
        heard = dict(r.read_as) if r is not None and r.hits and not r.out_of_scope else {}
        if heard:
            st.trace.step("unknown_names", words=list(heard), read_as=heard)
            return read_as_notice(heard), False
        if st.mode == NOT_IN_CORPUS:
            return "", False
        unknown = self._unknown_names(st)
        supplements = [w for w in st.uncovered if w not in unknown]
        if supplements:
            st.trace.step("unknown_names", words=supplements, not_in_corpus=True)
            return not_in_corpus_notice(supplements), True
        dur_only = self._dur_only(st)
        if dur_only:
            st.trace.step("unknown_names", words=dur_only, dur_only=True)
            return dur_only_notice(dur_only), True
        if unknown:
            st.trace.step("unknown_names", words=unknown)
            notice = unknown_name_notice(unknown, [h.doc for h in r.hits])
            return notice, "찾지 못한 이름" in notice  # not read as a known name: the corpus lacks it
        return "", False

    def _finish(self, st: QuestionState, start: float) -> dspy.Prediction:
        best = st.best or st.snapshot(None)
        answer = best["answer"]
        aspect_notice = "" if best["mode"] == NOT_IN_CORPUS else self._aspect_notice(st, best)
        if aspect_notice:
            answer = f"{aspect_notice}\n\n{answer}"
        notice, uncovered = self._name_notice(st)
        if notice:
            answer = f"{notice}\n\n{answer}"
        cited = set(coverage.cited_numbers(answer))
        citations = [citation(i, d, i in cited) for i, d in enumerate(best["context_docs"], 1)]
        web = _collect_web(st.web, start + self.settings.web_timeout_s - time.perf_counter())
        trace = st.trace
        if st.web is not None or self.settings.web_references:
            trace.step("web_references", note=web.note, links=len(web.links))
        total = (time.perf_counter() - start) * 1000
        trace.timings.update(
            total_ms=round(total, 2),
            lm_ms=round(st.run.lm_seconds * 1000, 2),
            overhead_ms=round(total - st.run.lm_seconds * 1000, 2),
        )
        out = trace.to_dict()
        out.update(
            strategy=self.settings.refine_strategy,
            uses_lm=st.trace.lm_calls["total"] > 0,  # an LM was called (an out-of-scope question calls none)
            unreachable=st.run.unreachable(),
            budget={"limit": st.run.budget.limit, "used": st.run.budget.used},
            warnings=st.warnings,
            mode=best["mode"],
            method=best["method"],
            outcome=outcome(st.out_of_scope, best["mode"], bool(aspect_notice), uncovered),
            verification=best["verification"],
            quality=best["feedback"].to_dict() if best.get("feedback") else None,
        )
        return dspy.Prediction(
            question=st.question,
            answer=answer,
            citations=citations,
            contexts=best["contexts"],
            web_refs=web.links,
            trace=out,
            out_of_scope=st.out_of_scope,
            mode=best["mode"],
        )


def _node_inputs(st: QuestionState) -> dict:
    """What a node's span records as its inputs: the question, the query to search and why, the route so far."""
    return {"question": st.question, "query": st.query, "purpose": st.purpose, "route": st.route}


def _collect_web(future, timeout: float):
    from retrievers.web import WebReferences, collect_web_references

    return collect_web_references(future, timeout) if future is not None else WebReferences([], "web references off")
