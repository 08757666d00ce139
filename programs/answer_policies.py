"""What happens to an answer between the nodes: the grounding check's cuts, the user's rules quoted, the fall back
to the extractive answer, the best answer kept, and what ships when the budget runs out.
"""

from __future__ import annotations

from programs import answer_requirements, grounding, offer_guard, routing, safety_rules
from programs.answer_context import mark_forbidden
from programs.extractive import extractive_answer
from programs.notices import ANSWER_CHECK_NOTICE, GROUNDING_FALLBACK_NOTICE, GROUNDING_REMOVED_NOTICE
from programs.parts import Parts
from programs.profile import with_asker_age
from programs.question_reading import question_frame
from programs.routing import EXTRACTIVE, GENERATE, NO_CONTEXT
from programs.state import QuestionState

FAILED = ("fail", "failed")


def add_rules(st: QuestionState) -> list[str]:
    """Quote and cite, at the top of the answer, every DUR rule of the user's profile the answer does not quote (a
    rule cited without saying what it says is recorded as ``safety_rules`` in the trace, and quoted); then
    take out every sentence offering a product those rules forbid (programs/offer_guard.py)."""
    unquoted = safety_rules.cited_unquoted(st.answer, st.context_docs)
    if unquoted:
        st.trace.step("safety_rules", cited_not_quoted=unquoted)
    st.answer, added = safety_rules.add_missing_rules(st.answer, st.context_docs)
    st.answer, completed = safety_rules.with_forms(st.answer, st.context_docs)
    if completed:
        st.trace.step("rule_forms", lines=completed)  # an LM's rule line without the forms the rule binds
    st.answer, withheld = offer_guard.withhold(st.answer, st.context_docs, st.question)
    if withheld:
        st.trace.step("offers_withheld", products=withheld)
    return added


def ground(p: Parts, st: QuestionState) -> dict:
    """The grounding check (programs/grounding.py, no LM): drop every sentence the documents it cites do not support;
    when what remains no longer answers (no cited sentence left, or a requirement the answer met is lost), fall back
    to the extractive answer. Returns what the trace records (sentences removed with their reasons)."""
    user_text = " ".join([st.question, st.profile.summary(), *st.profile.medicines])
    out = grounding.check(st.answer, st.context_docs, user_text, p.names)
    info = {**out.to_dict(), "fallback": False}
    if not out.removed:
        return info
    sections = st.result.sections if st.result else ()
    numbered = {i: d.id for i, d in enumerate(st.context_docs, 1)}
    reqs = answer_requirements.requirements(st.question, sections, st.profile)
    lost = len(answer_requirements.missing(reqs, out.answer, numbered)) > len(
        answer_requirements.missing(reqs, st.answer, numbered)
    )
    if out.kept_cited == 0 or lost or not st.context_docs:
        to_extractive(p, st, GROUNDING_FALLBACK_NOTICE)
        info["fallback"] = True
        why = f"{len(out.removed)} unsupported sentence(s) removed; extractive answer"
        st.trace.fallback("grounding", why, "ungrounded", "extractive answer")
    else:
        notice = GROUNDING_REMOVED_NOTICE.format(n=len(out.removed))
        st.answer = f"{out.answer.rstrip()}\n\n{notice}"
    return info


def quoted_answer(p: Parts, st: QuestionState, docs, mode: str, notice: str) -> str:
    """The extractive answer (programs/extractive.py) from `docs`, closing with `notice`."""
    return extractive_answer(
        with_asker_age(st.question, st.profile),
        docs,
        mode,
        st.terms,
        st.result.sections if st.result else (),
        p.settings.extractive_quotes,
        notice,
        names=st.result.names if st.result else (),
        frame=question_frame(p.backend, st),
    )


def to_extractive(p: Parts, st: QuestionState, notice: str) -> None:
    """Replace the answer with the extractive answer from the generator's documents, closing with `notice`."""
    docs = st.context_docs
    st.answer = quoted_answer(p, st, docs, st.mode if docs else NO_CONTEXT, notice)
    st.method = "extractive"


def unanswered(p: Parts, st: QuestionState, why: str) -> None:
    """An LM answer that failed the answer check and could not be corrected: the extractive answer instead."""
    to_extractive(p, st, ANSWER_CHECK_NOTICE)
    add_rules(st)
    st.verification, st.verify_action = "answer_check_fallback", EXTRACTIVE
    st.trace.fallback("answer_check", why, "unanswered", "extractive answer")


def keep_best(st: QuestionState, score: float | None) -> None:
    """Keep the answer as the best so far when `routing.replaces_best` says so."""
    best = None if st.best is None else (st.best["score"] or 0.0)
    if routing.replaces_best(score or 0.0, best):
        st.best = st.snapshot(score)


def out_of_budget(p: Parts, st: QuestionState, notices: dict) -> None:
    """The budget (calls or time) ran out: ship the last answer that passed verification, else the best evaluated
    answer unless it failed verification, else the current one unless it failed, else the extractive answer — and
    say which."""
    current_ok = st.answer and st.verification not in FAILED
    if st.last_passed is not None:
        st.best, which = dict(st.last_passed), "passed"
    elif st.best is not None and st.best["verification"] not in FAILED:
        which = "best"
    elif current_ok:
        st.best, which = (
            st.snapshot(None),
            ("unverified" if st.verification == "off" and "unverified" in notices else "best"),
        )
    else:
        docs = st.docs or (st.result.documents if st.result and not st.out_of_scope else [])
        docs = mark_forbidden(p.settings, p.backend, st, docs) if docs else docs
        st.answer = quoted_answer(p, st, docs, GENERATE if docs else NO_CONTEXT, notices["extractive"])
        st.contexts, st.context_docs, st.method = [d.text for d in docs], list(docs), "extractive"
        st.mode, st.verification = (GENERATE if docs else NO_CONTEXT), "skipped (budget)"
        st.best = st.snapshot(None)
        return
    # an answer the budget cut short of the safety step keeps its rule lines whole too (no forms alone, none lost)
    kept, _ = safety_rules.with_forms(st.best["answer"], st.best.get("context_docs") or st.context_docs)
    st.best["answer"] = f"{kept.rstrip()}\n\n{notices[which]}"
