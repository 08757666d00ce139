"""The nodes of the CRAG graph: one small function per step, each reading and writing the question's state and
returning what the trace records for it. Each node receives the question's `Parts` (programs/parts.py: the
settings, the backend, the predictors) and its state; which node runs next is decided in programs/routing.py
(`EDGES` below); the loop that runs them is `CRAG.forward` (programs/crag.py).

```
retrieve -> optimize_query -> retrieve -> grade -> rewrite -> retrieve -> grade -> ... (<= 2 rewrites)
grade -> generate -> verify -> correct -> verify ... (<= 3 rounds) | research -> retrieve -> generate -> verify
verify -> evaluate -> requery -> retrieve -> grade -> generate ... | stop
```

Example:
    >>> sorted(EDGES)[:3]
    ['correct', 'evaluate', 'generate']
"""

from __future__ import annotations

import time

from programs import answer_check, class_aspect, extractive, query_check, routing, sentences, spans
from programs.answer_context import asker_groups, context_documents
from programs.answer_ending import answer_target
from programs.answer_policies import add_rules, ground, keep_best, unanswered
from programs.asked_rules import asked_rules
from programs.fallback import FallBack
from programs.general_question import asks_in_general, general_answer, names_nothing
from programs.generator import format_context
from programs.hit_merge import merge_hits
from programs.name_mentions import naming
from programs.notices import FAILED_NOTICE, INSUFFICIENT_NOTICE, SAFETY_LINE
from programs.outcome import DUR_NO_RULE, NOT_IN_CORPUS, NOT_IN_LEAFLETS, not_in_corpus_answer, with_rules
from programs.parts import Parts
from programs.profile import with_asker_age
from programs.quality_evaluator import QualityFeedback
from programs.question_reading import dur_only_read, prescription_kinds, question_frame, uncovered, uncovered_rules
from programs.routing import (
    ACCEPT,
    CORRECT,
    EXTRACTIVE,
    GENERATE,
    GIVE_UP,
    INSUFFICIENT,
    LOW_RELEVANCE,
    NO_CONTEXT,
    jaccard,
)
from programs.state import QuestionState
from retrievers.oos_guard import OOS_MESSAGE

# the no-LM evaluator also reads whether the cited leaflets are of the products, class or names the question asks
# about (programs/answer_target.on_target): a re-search that drifted to another class scores below the first answer
OFF_TARGET_CHECK = True


def hashes(docs) -> list[str]:
    return [d.content_hash for d in docs]


def retrieve(p: Parts, st: QuestionState) -> dict:
    """Search `st.query`; keep the result unless a later search came back out of scope or empty."""
    t = time.perf_counter()
    result = spans.search(  # a RETRIEVER span holding the documents when an MLflow trace is active
        p.backend.retrieve, st.query, k=p.settings.k, extra_terms=st.terms or None, avoid_terms=st.avoid or None
    )
    ms = round((time.perf_counter() - t) * 1000, 2)
    st.trace.timings["retrieval_ms"] = st.trace.timings.get("retrieval_ms", 0.0) + ms
    st.trace.doc_history.append([h.id for h in result.hits])
    st.searched.append(st.query)
    st.warnings.extend(w for w in result.warnings if w not in st.warnings)
    usable = bool(result.hits) and not result.out_of_scope
    st.search_failed = not usable
    merged = usable and st.merge_own and st.own_result is not None and st.purpose in ("optimized", "relevance")
    if merged:
        result = merge_hits(st.own_result, result, p.settings.k)
    if st.purpose == "question":
        st.own_result = result if usable else None
        st.result, st.out_of_scope = result, result.out_of_scope
        st.general = asks_in_general(question_frame(p.backend, st))
        if st.general:  # 전문의약품이랑 일반의약품 차이: about medicine, so never out of scope; no leaflet says it
            st.out_of_scope = False
        if usable:
            st.uncovered, st.uncovered_alone = uncovered(p.backend, st)
            # 마취 안 풀렸는데 밥 먹어도: no medicine, kind or symptom named or spoken of, none the corpus lacks
            # either; whatever leaflet retrieval found would be quoted as if it were the one asked about
            frame = question_frame(p.backend, st)
            # 머리가 너무 아파요: a rule reads 두통; a symptom the frame read is no medicine (열 내리면 어린이집 보내도)
            read = bool(result.names) or (bool(result.expansions) and not frame.targets.symptoms)
            nothing = names_nothing(frame)
            st.general = st.general or (not st.uncovered and not read and nothing)
        if usable and p.settings.web_references:
            st.web = p.start_web(st.question)
    elif st.purpose == "research":
        # a query searched before finds nothing new (a rewrite that gave the question back): no answer is regenerated
        repeated = st.searched.count(st.query) > 1
        st.found_new = (
            usable
            and not repeated
            and jaccard(hashes(result.documents), hashes(st.docs)) < p.settings.duplicate_threshold
        )
        if st.found_new:
            st.result, st.docs, st.route = result, result.documents, GENERATE
        else:
            st.answer, st.verification = f"{st.answer.rstrip()}\n\n{INSUFFICIENT_NOTICE}", "insufficient_information"
    elif usable:
        st.result = result
    return {
        "query": st.query,
        "purpose": st.purpose,
        "scorer": result.scorer,
        "top_score": round(result.top_score, 4),
        "out_of_scope": result.out_of_scope,
        "oos_reason": result.oos_reason,
        "hits": [{"id": h.id, "score": round(float(h.score), 4)} for h in result.hits],
        "ms": ms,
        **({"merged_with_question": True} if merged else {}),
        **({"query_lm": "not asked: the question names its targets"} if _skips_query_lm(p, st) else {}),
    }


def _skips_query_lm(p: Parts, st: QuestionState) -> bool:
    return st.result is not None and routing.first_query_lm(st, p.settings) == "skip"


def optimize_query(p: Parts, st: QuestionState) -> dict:
    """Ask the query LM for core / recall / avoid terms and a cleaner query (nothing to search when it failed)."""
    opt = p.query_optimizer(question=st.question, profile_summary=st.profile.summary(), run=st.run)
    st.query, st.purpose = (opt.query, "optimized") if opt.method == "lm" else ("", "question")
    info = {"method": opt.method, "query": opt.query, "extra_terms": opt.extra_terms, "avoid_terms": opt.avoid_terms}
    if opt.method == "lm":
        checked = _check_query(p, st, opt.query, opt.extra_terms, opt.avoid_terms)
        st.query, st.terms, st.avoid, st.merge_own = checked.query, list(checked.terms), list(checked.avoid), True
        info.update(checked_query=checked.query, query_check=checked.to_dict())
    return info


def _check_query(p: Parts, st: QuestionState, query: str, terms=(), avoid=()) -> query_check.QueryCheck:
    """The query LM's output checked against the question's frame (programs/query_check.py)."""
    vocabulary = p.cache.get("vocabulary")
    if vocabulary is None:
        vocabulary = p.cache["vocabulary"] = query_check.CorpusVocabulary(p.names, p.lexicon)
    frame = question_frame(p.backend, st)
    summary = st.profile.summary()
    return query_check.check_query(frame, query, terms, avoid, vocabulary, summary, st.morphemes, p.lexicon)


def grade(p: Parts, st: QuestionState) -> dict:
    """Grade the current result (once per distinct result) and pick the relevance route and the documents."""
    s, result = p.settings, st.result
    key = tuple(h.id for h in result.hits)
    grades = st.graded.get(key)
    cached = grades is not None
    if not cached:
        grades = p.retrieval_evaluator.grade(result)
        if s.llm_grading and st.run.has_lm("judge"):
            grades = p.lm_grader(question=st.question, hits=result.hits, base=grades, run=st.run).grades
        st.graded[key] = grades
    st.relevance_history.append(grades.relevance)
    if st.best_graded is None or _keeps(st.purpose, grades.relevance, st.best_graded[0], s.min_gain):
        st.best_graded = (grades.relevance, result, grades)
    # a rewrite that found nothing better ends the rewriting (the seed's safety stops, applied to relevance); a
    # quality re-search's grade is not a rewrite's
    stalled = s.safety_checks and st.purpose == "relevance" and st.rewrites < s.max_rewrites
    stalled = stalled and routing.rewrite_stalled(st.relevance_history, st.rewrites, s.min_gain)
    if s.relevance_routing:
        best = st.best_graded[2].best_document
        st.route = routing.route_by_relevance(
            grades.relevance,
            s.max_rewrites if stalled else st.rewrites,
            len(result.hits),
            s.relevance_threshold,
            s.max_rewrites,
            best,
            s.low_relevance_floor,
        )
    else:
        st.route = GENERATE if result.hits else NO_CONTEXT
    st.docs = _documents_for(st, result, grades, s)
    return {
        "method": grades.method + (" (cached)" if cached else ""),
        "relevance": grades.relevance,
        "documents": grades.documents,
        "relevant": grades.relevant,
        "route": st.route,
        **({"rewrites_stopped": "the last rewrite found nothing better"} if stalled and s.relevance_routing else {}),
    }


def _keeps(purpose: str, relevance: float, best: float, min_gain: float) -> bool:
    """Whether a search's grade becomes the one a low-relevance answer falls back to. A relevance rewrite's search
    never does (when it reaches the threshold the answer is generated from it directly): below the threshold,
    calibrated relevances of searches over the same leaflets differ by tenths, and a keyword rewrite's added words
    raise its own grade (its frame then asks what the words added), so the question as asked answers. A quality
    re-search (the question plus what the answer missed) is taken unless clearly worse (by `min_gain`); any other
    search when it is better.

    >>> _keeps("relevance", 0.6, 0.1, 0.05), _keeps("quality", 0.27, 0.3, 0.05), _keeps("question", 0.4, 0.3, 0.05)
    (False, True, True)
    """
    if purpose == "relevance":
        return False
    return relevance > best - min_gain if purpose == "quality" else relevance > best


def _documents_for(st: QuestionState, result, grades, s) -> list:
    if st.route == GENERATE:
        kept = [h.doc for h, ok in zip(result.hits, grades.relevant, strict=True) if ok]
        return kept or result.documents[: s.low_relevance_top]
    if st.route == LOW_RELEVANCE:
        _, st.result, _ = st.best_graded
        return st.result.documents[: s.low_relevance_top]
    return []


def rewrite(p: Parts, st: QuestionState) -> dict:
    """Rewrite the question after a low grade (LM, or the keyword rewrite); a repeated query is not searched."""
    st.rewrites += 1
    rel = st.relevance_history[-1] if st.relevance_history else 0.0
    feedback = QualityFeedback(
        rel,
        rel,
        0.0,
        0.0,
        missing_info=st.terms[:3],
        improvement_suggestions=[f"검색 결과의 관련성이 낮음({rel:.2f}): 제품명·성분명과 궁금한 내용을 분명히 하세요"],
    )
    out = p.rewriter(
        original_query=st.question,
        feedback=feedback,
        profile=st.profile,
        iteration=st.rewrites,
        run=st.run,
        use_lm=True,
        result=st.result,
        names=p.names,
    )
    query, info = out.query, {"reason": "relevance", "method": out.method, "query": out.query}
    st.merge_own = out.method == "lm"
    if st.merge_own:
        checked = _check_query(p, st, out.query)
        query = checked.query
        info.update(checked_query=query, query_check=checked.to_dict())
    repeated = any(_same(query, q) for q in st.searched)
    st.query, st.purpose = ("" if repeated else query), "relevance"
    return {**info, "searched": not repeated}


def generate(p: Parts, st: QuestionState) -> dict:
    """Write the answer for the route from the chosen documents plus the user's DUR rules."""
    mode = st.route if st.route in (GENERATE, LOW_RELEVANCE, NO_CONTEXT) else GENERATE
    context_docs = (
        context_documents(
            p.settings,
            p.backend,
            st,
            extractive_pool(
                st,
                p.backend.get,
                ranked=p.settings.knowledge_refinement,
                members=p.backend.class_members,
                names=p.backend.names,
                dur_rules=p.backend.dur_rules,
            ),
        )
        if mode != NO_CONTEXT
        else []
    )
    out = p.generator(
        question=st.question,
        docs=context_docs,
        mode=mode,
        profile_summary=st.profile.summary(),
        run=st.run,
        terms=st.terms,
        sections=st.result.sections if st.result else (),
        cut_low_relevance=False,
        names=st.result.names if st.result else (),
        frame=question_frame(p.backend, st),
        taking=tuple(st.profile.medicines) if st.profile else (),
        groups=asker_groups(p.settings, st),
        conditions=tuple(st.profile.conditions) if st.profile else (),
        quoted_for=with_asker_age(st.question, st.profile),
    )
    st.answer, st.contexts, st.context_docs, st.mode, st.method = (
        out.answer,
        out.contexts,
        out.docs,
        out.mode,
        out.method,
    )
    st.verification, st.verify_action, st.verify_rounds, st.check_cause = "off", "", 0, ""
    st.doc_hashes.append(hashes(st.result.documents if st.result and mode != NO_CONTEXT else st.docs))
    checked = ground(p, st)
    rules = add_rules(st)
    return {
        "rules_added": rules,
        "mode": out.mode,
        "method": st.method,
        "documents": [d.id for d in out.docs],
        "chars": len(st.answer),
        "grounding_check": checked,
    }


def extractive_pool(
    st: QuestionState, get=None, ranked: bool = False, members=None, names=None, dur_rules=None
) -> list:
    """The documents to generate from: the graded ones; with no generating LM (the sentence-level extractive answer
    picks its own sentences), also the rest of retrieval's top 5, after them, so a gold document the grade left out
    can still be quoted, and then the other sections of the candidate products' leaflets (`get`: the backend's
    document by id), where the sentence that answers often is (렌즈 in 주의사항, 우유 in 용법). A low-relevance
    answer reads the same pool (its notice says the documents may not be the ones asked about). With a generating
    LM the pool is read only when its context is `ranked` (programs/lm_context.py picks its documents and sentences).
    `members` (the backend's `class_members`): a class question that asks a situation also reads the sections of the
    class's other products that speak of it (`programs/class_aspect.py`); `names` (the backend's `NameIndex`): a
    question naming an ingredient alone reads its other single products' sections on an asked situation that the
    pool's leaflets leave out (`ingredient_sections`); `dur_rules` (the backend's): a question asking how long of a
    product it names reads the DUR 투여기간주의 rows binding it (`programs/asked_rules.py`)."""
    lm_reads_all = st.run.has_lm("generate") and not ranked
    if st.route not in (GENERATE, LOW_RELEVANCE) or lm_reads_all or st.result is None:
        return st.docs
    kept = {d.id for d in st.docs}
    pool = st.docs + [d for d in st.result.documents[: extractive.POOL] if d.id not in kept]
    frame = st.result.frame
    if members is not None and frame is not None and not st.result.names:
        # a symptom noticed after taking something (먹고 어지러워요) is an effect, not what the products are for
        symptoms = () if frame.aspects[:1] == ("side_effects",) else frame.targets.symptoms
        pool = class_aspect.within_asked(pool, members, frame.targets.classes, symptoms)
    if get is None:
        return pool
    leaflets_found = any(d.id.startswith("easydrug:") for d in pool)
    if members is not None and frame is not None and not frame.targets.products and not leaflets_found:
        # 케토프로펜 파스: only the ingredient's DUR rows were found; the class's products holding it are asked about
        targets = frame.targets
        held = class_aspect.ingredient_members(members, list(targets.classes), list(targets.ingredients), get)
        if held:
            st.trace.step("ingredient_members", added=[d.id for d in held])
            pool = pool + held
    named = naming(st.question, pool, st.result.names, get)  # a child's: the brand's product dosing the child
    pool = sentences.leaflet_documents(pool, get, named, extractive.POOL)
    pool = pool + ingredient_sections(st, pool, get, names)
    if dur_rules is not None and frame is not None:  # 오트리빈 며칠까지: the named spray's 투여기간주의 row
        have = {d.id for d in pool}
        rows = [r for r in asked_rules(frame.aspects, [d for d in pool if named(d)], dur_rules) if r.id not in have]
        if rows:
            st.trace.step("asked_rules", added=[r.id for r in rows])
            pool = pool + rows
    classes = list(st.result.frame.targets.classes) if st.result.frame else []
    if members is None or not classes or st.result.names:
        return pool
    ranker = sentences.SentenceRanker(st.question, (), st.result.frame.vocabulary_aspects)
    chosen = class_aspect.products_asked(members, classes, list(st.result.frame.targets.symptoms))
    order = class_aspect.member_order(chosen, st.result.documents)
    added = class_aspect.aspect_documents(ranker, order, {d.id for d in pool}, get)
    if added:
        st.trace.step("class_sections", classes=classes, situations=ranker.situations, added=[d.id for d in added])
    return pool + added


def ingredient_sections(st: QuestionState, pool: list, get, names) -> list:
    """The sections `class_aspect.ingredient_documents` adds for a question naming an ingredient alone (an
    ``ingredient_sections`` step when it adds any)."""
    r = st.result
    if r is None or r.frame is None:
        return []
    ranker = sentences.SentenceRanker(st.question, (), r.frame.vocabulary_aspects)
    added, unspoken = class_aspect.ingredient_documents(ranker, r.names, pool, get, names, r.documents)
    if added:
        st.trace.step("ingredient_sections", situations=unspoken, added=[d.id for d in added])
    return added


def verify(p: Parts, st: QuestionState) -> dict:
    """Check the answer (programs/answer_check.py, no LM), then verify it with the LM verifier (PASS/FAIL with a
    cause) and decide: accept, correct, re-search, or end with a notice. An answer failing the check is corrected,
    then replaced by the extractive answer; with no verifier an answer that passes the check is accepted as it is."""
    s = p.settings
    checked = answer_check.check_answer(
        st.answer, st.question, st.context_docs, question_frame(p.backend, st), st.morphemes, p.lexicon
    )
    action = routing.route_answer_check(checked.cause, st.verify_rounds, s.max_verify_rounds, st.run.has_lm("generate"))
    st.check_cause = checked.cause
    if action:
        st.verify_action, st.verify_feedback, st.verification = action, checked.feedback, "fail"
        if action == EXTRACTIVE:
            unanswered(p, st, f"{checked.cause}: {checked.detail}")
        info = {"verdict": "FAIL", "cause": checked.cause, "by": "answer_check", "action": action}
        return {**info, "round": st.verify_rounds, "check": checked.to_dict()}
    if not st.run.has_lm("verify"):
        st.verify_action = ACCEPT
        return {"verdict": "none", "action": "checked", "check": checked.to_dict()}
    with FallBack(st.trace, "verify", "answer not verified") as step:
        verdict, cause, feedback = p.verifier.check(st.question, format_context(st.context_docs), st.answer, st.run)
    if step.failed:
        st.verification, st.verify_action = "unverified", ACCEPT
        return {"verdict": "none", "action": "unverified", "check": checked.to_dict()}
    action = routing.route_verification(
        verdict, cause, st.verify_rounds, st.researched, s.max_verify_rounds, s.max_research
    )
    st.verify_action, st.verify_feedback = action, feedback
    if action == ACCEPT:
        st.verification = "pass"
        st.last_passed = st.snapshot(None)
    elif action == INSUFFICIENT:
        st.answer, st.verification = f"{st.answer.rstrip()}\n\n{INSUFFICIENT_NOTICE}", "insufficient_information"
    elif action == GIVE_UP:
        st.answer, st.verification = f"{st.answer.rstrip()}\n\n{FAILED_NOTICE}", "failed"
    else:
        st.verification = "fail"
    info = {"verdict": verdict, "cause": cause, "by": "verifier", "action": action, "round": st.verify_rounds}
    return {**info, "feedback": feedback[:200], "check": checked.to_dict()}


def correct(p: Parts, st: QuestionState) -> dict:
    """Rewrite a failed answer from the verifier's feedback; a failed correction keeps the answer with a notice."""
    st.verify_rounds += 1
    with FallBack(st.trace, "correct", "kept the failed answer") as step:
        st.answer = p.verifier.fix(st.question, format_context(st.context_docs), st.answer, st.verify_feedback, st.run)
        st.verify_action = CORRECT
        checked = ground(p, st)
        if checked["fallback"]:
            st.verification, st.verify_action = "grounding_fallback", GIVE_UP
        rules = add_rules(st)
        return {"round": st.verify_rounds, "chars": len(st.answer), "grounding_check": checked, "rules_added": rules}
    if step.failed and st.check_cause:
        unanswered(p, st, f"{st.check_cause}: the correction failed")
    elif step.failed:
        st.answer, st.verification, st.verify_action = f"{st.answer.rstrip()}\n\n{FAILED_NOTICE}", "failed", GIVE_UP
    return {"round": st.verify_rounds, "chars": len(st.answer)}


def research(p: Parts, st: QuestionState) -> dict:
    """A FAIL for missing information: rewrite the question with what the verifier said is missing."""
    st.researched += 1
    feedback = QualityFeedback(
        0.0,
        0.0,
        0.0,
        0.0,
        missing_info=[st.verify_feedback[:120]] if st.verify_feedback else [],
        improvement_suggestions=["검증에서 부족하다고 한 정보를 찾도록 질의를 구체화"],
    )
    out = p.rewriter(
        original_query=st.question,
        feedback=feedback,
        previous_answer=st.answer,
        profile=st.profile,
        iteration=1,
        run=st.run,
        use_lm=p.settings.dynamic_query,
    )
    st.query, st.purpose = out.query, "research"
    return {"reason": "verification: missing information", "method": out.method, "query": out.query}


def evaluate(p: Parts, st: QuestionState) -> dict:
    """Evaluate quality (the strategy's way), keep the best answer, and say whether the quality loop stops."""
    fb = p.strategy.evaluate(
        p.quality_evaluator,
        question=st.question,
        answer=st.answer,
        documents=st.context_docs,
        profile_summary=st.profile.summary(),
        previous_feedback=st.feedback,
        run=st.run,
        profile=st.profile,
        sections=st.result.sections if st.result else (),
        frame=(frame := question_frame(p.backend, st)),
        morphemes=st.morphemes,
        keep=answer_target(p, st, frame) if OFF_TARGET_CHECK else None,
    )
    st.feedback = fb
    st.score_history.append(fb.overall)
    keep_best(st, fb.overall)
    st.stop_reason = routing.refine_stop(
        p.strategy.name, fb.needs_retrieval, st.score_history, st.doc_hashes, st.iterations, p.settings
    )
    return {
        "strategy": p.strategy.label,
        "method": fb.method,
        "overall": fb.overall,
        "grounding": fb.grounding,
        "completeness": fb.completeness,
        "accuracy": fb.accuracy,
        "missing_info": fb.missing_info,
    }


def requery(p: Parts, st: QuestionState) -> dict:
    """Quality below the threshold: rewrite from the evaluator's feedback, the profile and slots, and search again."""
    st.iterations += 1
    out = p.rewriter(
        original_query=st.question,
        feedback=st.feedback,
        previous_answer=st.answer,
        profile=st.profile,
        iteration=st.iterations,
        run=st.run,
        use_lm=p.settings.dynamic_query,
    )
    st.query, st.purpose = out.query, "quality"
    return {"reason": "quality", "method": out.method, "query": out.query}


def stop(p: Parts, st: QuestionState) -> dict:
    """End the question: say why (the out-of-scope answer needs no LM call)."""
    reason = st.stop_reason or routing.retrieval_stop(st, p.settings) or "done"
    st.stop_reason = reason
    if reason == "out_of_scope":
        st.answer, st.mode, st.method = OOS_MESSAGE, "out_of_scope", "guard"
    elif reason == NOT_IN_LEAFLETS:  # medicines in general: nothing quoted, no LM call
        st.answer, st.mode, st.method = f"{general_answer(st.question)}\n\n{SAFETY_LINE}", NOT_IN_LEAFLETS, "guard"
        st.context_docs, st.contexts = [], []
    elif reason == NOT_IN_CORPUS:
        rules, rules_only = uncovered_rules(p.backend, st), dur_only_read(p.backend, st)
        kinds = prescription_kinds(p.backend, st)
        named_kinds = [w for w in st.uncovered if w in kinds and kinds[w]]  # those with ingredients DUR knows
        st.answer = with_rules(not_in_corpus_answer(st.uncovered, rules_only, kinds), rules, named_kinds)
        if rules_only and not rules:
            st.answer = f"{st.answer}\n{DUR_NO_RULE}"  # DUR has the ingredient, but no rule of it answers
        st.mode, st.method, st.context_docs, st.contexts = NOT_IN_CORPUS, "guard", rules, [d.text for d in rules]
        return {"reason": reason, "words": list(st.uncovered), "rules": [d.id for d in rules]}
    return {"reason": reason}


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


NODES = {
    "retrieve": retrieve,
    "optimize_query": optimize_query,
    "grade": grade,
    "rewrite": rewrite,
    "generate": generate,
    "verify": verify,
    "correct": correct,
    "research": research,
    "evaluate": evaluate,
    "requery": requery,
    "stop": stop,
}
EDGES = {
    "retrieve": routing.after_retrieve,
    "optimize_query": routing.after_optimize,
    "grade": routing.after_grade,
    "rewrite": routing.after_rewrite,
    "generate": routing.after_generate,
    "verify": routing.after_verify,
    "correct": routing.after_correct,
    "research": lambda st, s: "retrieve",
    "evaluate": routing.after_evaluate,
    "requery": lambda st, s: "retrieve",
    "stop": None,
}
