"""How an answer ends: the notices that open it (a name read as another, a medicine the corpus lacks, an asked
aspect the documents do not speak to), those that close it when a budget ran out, its citations and web links, and
the `Answer` (a `dspy.Prediction`) apps read.
"""

from __future__ import annotations

import time

import dspy

from programs import (
    answer_doubt,
    answer_requirements,
    comparison,
    condition_check,
    contents_check,
    efficacy_only,
    fever_threshold,
    nursing_gap_notice,
    pregnancy_exposure,
)
from programs.answer_target import on_target
from programs.aspect_check import answer_quotes, self_check
from programs.budget import BudgetExhausted
from programs.citations import citation
from programs.claim_check import asked_effect, claim_notice, claim_word, effect_notice, effect_word, heard_claim
from programs.extractive import PRODUCT_LIST
from programs.general_question import DOCTOR_NOTICE, asks_a_doctors_call
from programs.lm_call import TimeBudgetExhausted
from programs.name_mentions import naming
from programs.notices import (
    BUDGET_NOTICES,
    LOW_RELEVANCE_NOTICE,
    TIME_NOTICES,
    read_as_notice,
    unknown_name_notice,
)
from programs.outcome import NOT_IN_CORPUS, dur_only_notice, not_in_corpus_notice, outcome
from programs.parts import Parts
from programs.question_reading import dur_only_read, prescription_kinds, question_frame, question_names, unknown_names
from programs.state import QuestionState
from programs.why_check import asks_why, why_notice
from programs.without_medicine import without_medicine_notice
from retrievers.stem_nouns import nominal


class Answer(dspy.Prediction):
    """The program's prediction: ``answer``, ``citations``, ``contexts``, ``web_refs``, ``out_of_scope``, ``mode``,
    and ``run_log``, the run's record (`programs.run.RunLog.to_dict`: steps, LM calls, stop reason). ``trace`` is a
    deprecated alias of ``run_log`` kept for apps that read it; it is not DSPy's ``trace`` (the predictor calls an
    optimizer hands a metric).

    >>> a = Answer(answer="네", run_log={"stop_reason": "done"})
    >>> a.trace is a.run_log, a.get("trace"), a["trace"]["stop_reason"], "trace" in a
    (True, {'stop_reason': 'done'}, 'done', True)
    """

    def __getattr__(self, key):
        return super().__getattr__("run_log" if key == "trace" else key)

    def __getitem__(self, key):
        return super().__getitem__("run_log" if key == "trace" else key)

    def __contains__(self, key):
        return super().__contains__("run_log" if key == "trace" else key)

    def get(self, key, default=None):
        return super().get("run_log" if key == "trace" else key, default)


def budget_notices(error: BudgetExhausted) -> dict:
    """The notices of the budget that ran out: LM calls, or time (`TimeBudgetExhausted`)."""
    return TIME_NOTICES if isinstance(error, TimeBudgetExhausted) else BUDGET_NOTICES


def aspect_notice(p: Parts, st: QuestionState, best: dict) -> str:
    """The self-check of the quoted answer shown (programs/aspect_check.py): the notice saying which asked aspect
    the documents found do not speak to ("" when the answer speaks to what was asked first, or quotes nothing),
    and for a claim the asker heard (programs/claim_check.py) the notice that no quoted sentence speaks of it; a
    question asking what to do without medicine (programs/without_medicine.py) is told the leaflets do not say, and
    a disease the question states that the named product's leaflet never speaks of is said to be missing from it
    (programs/condition_check.py, a ``condition_check`` step), an answer of efficacy lines alone that name nothing
    asked (programs/efficacy_only.py) says no sentence found
    answers it (an ``efficacy_only`` step), and a question asking why that no quoted sentence gives a reason for
    (programs/why_check.py) is told the leaflets do not say why (a ``why_check`` step).
    An LM's answer, in its own words, is judged by the LM instead. The trace gets an ``aspect_check`` step, and a
    ``claim_check`` step when there is a claim to check."""
    docs = best["context_docs"]
    if st.out_of_scope or not docs or best["method"] == "lm":
        return ""
    frame = question_frame(p.backend, st)
    keep = answer_target(p, st, frame)
    check, notice = self_check(frame, best["answer"], docs, st.morphemes, keep)
    if check.asked:
        st.trace.step("aspect_check", **check.to_dict(), flagged=bool(notice))
    # 고혈압 있으면 슬리펠: a disease the question states that the named product's leaflet never speaks of
    named = naming(st.question, docs, st.result.names if st.result is not None else ())
    unspoken = condition_check.unspoken_conditions(st.question, docs, named)
    # 혈압약 먹는 사람은 타이레놀: a prescription kind taken that the named product's leaflet never speaks of
    unspoken += [k for k in condition_check.unspoken_kinds(st.question, docs, named) if k not in unspoken]
    if unspoken:
        st.trace.step("condition_check", conditions=unspoken, flagged=True)
        said = condition_check.notice(unspoken, condition_check.product_names(docs, named))
        notice = "\n".join(n for n in (said, notice) if n)
    listed = PRODUCT_LIST in best["answer"]  # a "which medicine" answer, as it was written
    if not notice and efficacy_only.answers_something_else(frame, answer_quotes(best["answer"], docs), listed):
        st.trace.step("efficacy_only", flagged=True)  # 파스 붙이고 전기장판 자도: what they are for is no answer
        notice = efficacy_only.NOTICE
    names = p.backend.names
    instead = without_medicine_notice(st.question, (lambda text: bool(names.match(text))) if names else None)
    if instead:  # 약 말고 뭐 먹으면 좋아요: no leaflet says what to do instead of a medicine
        st.trace.step("without_medicine", flagged=True)
        notice = "\n".join(n for n in (instead, notice) if n)
    elif fever_threshold.asks_threshold(st.question):  # 몇도부터 먹여요: no leaflet gives a temperature to start at
        st.trace.step("fever_threshold", flagged=True)
        notice = "\n".join(n for n in (fever_threshold.NOTICE, notice) if n)
    elif comparison.asks_which_is_better(question_frame(p.backend, st)):  # 뭐가 나아요: no leaflet ranks products
        st.trace.step("which_is_better", flagged=True)
        notice = "\n".join(n for n in (comparison.RANKING_NOTICE, notice) if n)
    quoted = [q.text for q in answer_quotes(best["answer"], docs)]
    # what no leaflet says, whatever they found, each said before what they do say (the last one first): what a
    # product is made of (글루텐 들어있나요) or tastes like (무슨 맛이에요), whether to go to hospital (응급실 가야
    # 하나요), how long to wait before nursing (몇 시간 지나야 젖 물려요), what a use made before the pregnancy was
    # known did (임신인 줄 모르고 먹었어요)
    beyond = (
        ("contents_check", contents_check.notice(st.question, quoted)),
        ("taste_check", contents_check.taste_notice(st.question)),
        ("doctor_visit", DOCTOR_NOTICE if asks_a_doctors_call(st.question) else ""),
        ("nursing_gap", nursing_gap_notice.notice(st.question)),
        ("pregnancy_exposure", pregnancy_exposure.notice(frame)),
    )
    for step, said in beyond:
        if said:
            asked = {"substances": contents_check.asked_substances(st.question)} if step == "contents_check" else {}
            st.trace.step(step, **asked, flagged=True)
            notice = "\n".join(n for n in (said, notice) if n)
    if asks_why(st.question) and not heard_claim(st.question):  # 왜 졸려요: a claim's 왜요 is the claim check's
        words = [w for m in st.morphemes if len(m) > 1 for w in (m, nominal(m)) if len(w) > 1]  # 졸리, 졸림
        why = why_notice(st.question, quoted, words)
        st.trace.step("why_check", flagged=bool(why))
        notice = "\n".join(n for n in (why, notice) if n)
    heard, effect, names = heard_claim(st.question), asked_effect(st.question), question_names(p.backend, st)
    word = claim_word(st.question, names) if heard else effect_word(st.question, names) if effect else None
    quotes = quoted if word else []
    if not quotes:
        return notice
    if heard:
        claim = claim_notice(st.question, quotes, word)
        st.trace.step("claim_check", claim=heard, word=word, flagged=bool(claim))
    else:  # 자주 먹으면 내성 생겨요?: an effect asked about, checked like a claim heard
        claim = effect_notice(quotes, word)
        st.trace.step("effect_check", effect=effect, word=word, flagged=bool(claim))
    return "\n".join(n for n in (claim, notice) if n)  # the claim is what was asked: it leads


def doubt_notice(st: QuestionState, best: dict, told: bool) -> str:
    """The answer's doubt (programs/answer_doubt.py): a ``doubt_check`` step with the features of a no-LM answer and,
    when the shipped model flags it, `answer_doubt.NOTICE` — unless the answer already says it may not answer
    (`told`: the aspect check's notice, or the low-relevance notice it opens with)."""
    docs = best["context_docs"]
    if st.out_of_scope or not docs or best["method"] == "lm":
        return ""
    features = answer_doubt.answer_features(st.trace.steps, best["answer"], docs)
    model = answer_doubt.shipped_model()
    p_miss = model.miss_probability(features) if model else None
    flagged = model is not None and p_miss > model.threshold
    st.trace.step(
        "doubt_check",
        p_miss=None if p_miss is None else round(p_miss, 4),
        threshold=model.threshold if model else None,
        flagged=flagged,
        features={k: round(v, 4) for k, v in features.items()},
    )
    if not flagged or told or LOW_RELEVANCE_NOTICE in best["answer"]:
        return ""
    return answer_doubt.NOTICE


def answer_target(p: Parts, st: QuestionState, frame):
    """The test of a document being about what the question asks about (`programs/answer_target.on_target`): the
    names the question itself writes and its classes' products, read with the backend's index (None without one)."""
    names = p.backend.names
    if names is None:
        return None
    return on_target(frame, names.match(st.question), p.backend.class_members, names.canonical, _ingredients_of(p))


def _ingredients_of(p: Parts):
    """item_seq -> the ingredients its leaflet lists (none for a product the backend lacks)."""

    def ingredients(seq: str) -> list[str]:
        doc = p.backend.get(f"easydrug:{seq}:efcy")
        return [i.strip() for i in (doc.metadata.get("main_ingr") or "").split(",")] if doc else []

    return ingredients


MIN_NAME_BESIDE = 3  # beside a recognised name, an unknown word this long is a medicine's name (리피토), a shorter
# one more often a word Kiwi split oddly (가스가 차요 → 차요)


def name_notice(p: Parts, st: QuestionState) -> tuple[str, bool]:
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
    unknown = unknown_names(p.backend, st)
    only_dur = dur_only_read(p.backend, st) if r is not None and r.names else []
    supplements = [w for w in st.uncovered if w not in unknown and w not in only_dur]
    if supplements:
        st.trace.step("unknown_names", words=supplements, not_in_corpus=True)
        return not_in_corpus_notice(supplements, prescription_kinds(p.backend, st)), True
    if only_dur:
        st.trace.step("unknown_names", words=only_dur, dur_only=True)
        return dur_only_notice(only_dur), True
    if unknown and r.names:  # 리피토 beside 타이레놀: the answer is about the one the corpus has
        beside = [w for w in unknown if len(w) >= MIN_NAME_BESIDE]
        if beside:
            st.trace.step("unknown_names", words=beside, not_in_corpus=True)
            return not_in_corpus_notice(beside), True
    elif unknown:
        st.trace.step("unknown_names", words=unknown)
        notice = unknown_name_notice(unknown, [h.doc for h in r.hits])
        return notice, "찾지 못한 이름" in notice  # not read as a known name: the corpus lacks it
    return "", False


def finish(p: Parts, st: QuestionState, start: float) -> Answer:
    """The prediction of the best answer: its opening notices, numbered citations, web links and the trace."""
    best = st.best or st.snapshot(None)
    answer = best["answer"]
    aspect = "" if best["mode"] == NOT_IN_CORPUS else aspect_notice(p, st, best)
    doubt = "" if best["mode"] == NOT_IN_CORPUS else doubt_notice(st, best, told=bool(aspect))
    for opening in (doubt, aspect):
        if opening:
            answer = f"{opening}\n\n{answer}"
    notice, uncovered = name_notice(p, st)
    if notice:
        answer = f"{notice}\n\n{answer}"
    cited = set(answer_requirements.cited_numbers(answer))
    citations = [citation(i, d, i in cited) for i, d in enumerate(best["context_docs"], 1)]
    web = collect_web(st.web, start + p.settings.web_timeout_s - time.perf_counter())
    log = st.trace
    if st.web is not None or p.settings.web_references:
        log.step("web_references", note=web.note, links=len(web.links))
    total = (time.perf_counter() - start) * 1000
    log.timings.update(
        total_ms=round(total, 2),
        lm_ms=round(st.run.lm_seconds * 1000, 2),
        overhead_ms=round(total - st.run.lm_seconds * 1000, 2),
    )
    out = log.to_dict(**st.loop_record())
    out.update(
        strategy=p.settings.refine_strategy,
        uses_lm=log.lm_calls["total"] > 0,  # an LM was called (an out-of-scope question calls none)
        unreachable=st.run.unreachable(),
        budget={"limit": st.run.budget.limit, "used": st.run.budget.used},
        warnings=st.warnings,
        mode=best["mode"],
        method=best["method"],
        outcome=outcome(st.out_of_scope, best["mode"], bool(aspect), uncovered),
        verification=best["verification"],
        quality=best["feedback"].to_dict() if best.get("feedback") else None,
    )
    return Answer(
        question=st.question,
        answer=answer,
        citations=citations,
        contexts=best["contexts"],
        web_refs=web.links,
        run_log=out,
        out_of_scope=st.out_of_scope,
        mode=best["mode"],
    )


def collect_web(future, timeout: float):
    """The web references a lookup found within `timeout` seconds (none when the lookup is off)."""
    from retrievers.web import WebReferences, collect_web_references

    return collect_web_references(future, timeout) if future is not None else WebReferences([], "web references off")
