"""The documents an answer is written from: the chosen ones plus the DUR rules of who asks (the profile and the
population the question states), each forbidden product marked (programs/offer_guard.py), cut to relevant strips
when an LM writes the answer (programs/lm_context.py).
"""

from __future__ import annotations

import dataclasses

from programs import forbidden, leaflet_pair_limit, offer_guard, safety_rules, two_medicines, user_rules
from programs.lm_context import MAX_DOCS as CONTEXT_DOCS
from programs.lm_context import ranked_context
from programs.question_reading import question_frame
from programs.routing import LOW_RELEVANCE
from programs.settings import CragSettings
from programs.state import QuestionState
from programs.taken_in_question import taken_beside
from retrievers.documents import Document

MAX_DUR_DOCS = 3


def context_documents(settings: CragSettings, backend, st: QuestionState, docs: list[Document]) -> list[Document]:
    """The documents the generator sees: the chosen ones plus the DUR rules of the user's profile and of who the
    question says it is for (임산부, 아이, 어르신), cut to relevant strips; a product those rules forbid carries
    the verdict (programs/offer_guard.py), so no answer offers it. For a question about two medicines, a 병용금기
    row that pairs one of them with a third drug is left out (`programs/two_medicines.py`)."""
    ingredients = safety_rules.answer_ingredients(st.question, docs)
    stray = user_rules.stray_rules(docs, ingredients, st.question, same_ingredient(backend))
    # a rule that binds none of the products holding its ingredient (the 서방정 rule beside a syrup, a combination's
    # limit beside a single-ingredient tablet) is not about what the answer is about, whoever asks
    stray |= user_rules.unbound_rules(docs, same_ingredient(backend))
    who = asker(settings, st, backend)
    # an asker who is someone (임신 7개월인데 케토톱): a rule retrieval found for another group (the 15세미만 rule) is
    # not theirs, and quoted first it would read as theirs
    stray |= user_rules.others_rules(docs, who)
    # an asker nobody in particular, asking about no group: a group's rule is no answer (a pair asked about)
    stray |= user_rules.unasked_group_rules(docs, who, question_frame(backend, st).aspects)
    out = [d for d in docs if d.id not in stray]
    if stray:  # 16개월 → the 16세미만 rules of other drugs: not the user's rules
        st.trace.step("stray_rules", dropped=sorted(stray))
    rules: list[Document] = []
    types = who.dur_types()
    if (types or who.groups or who.kinds or who.conditions) and out:
        try:
            rules, verdicts = user_rules.gather(
                out, ingredients, who, backend.dur_rules, same_ingredient(backend), MAX_DUR_DOCS, backend.get
            )
        except Exception as e:  # a backend without DUR rules must not stop the answer
            rules, verdicts = [], {}
            st.trace.fallback("dur_rules", f"{type(e).__name__}: {str(e)[:100]}", "backend_error", "no DUR rules")
        seen = {d.id for d in out}
        added = [r for r in rules if r.id not in seen]
        out = offer_guard.mark(added + out, verdicts)  # the user's safety rules first (programs/safety_rules.py)
        st.trace.step(
            "dur_rules",
            types=types,
            ingredients=ingredients[:10],
            added=[d.id for d in added],
            forbidden={seq: [r.id for r in rules] for seq, rules in verdicts.items()},
        )
    names = st.result.names if st.result else ()
    sides = two_medicines.pair_sides(
        question_frame(backend, st), out, names, lambda words: kind_ingredients(backend, words)
    )
    off_pair = two_medicines.off_pair_rules(out, sides, keep={r.id for r in rules})
    if off_pair:  # 와파린 먹는데 아스피린: a 병용금기 row of 와파린 with a third drug answers neither
        out = [d for d in out if d.id not in off_pair]
        st.trace.step("pair_rules", dropped=sorted(off_pair))
    if settings.knowledge_refinement and out and not st.run.has_lm("generate"):
        st.trace.step("refine_knowledge", skipped="no generating LM: the extractive answer ranks every sentence")
    elif settings.knowledge_refinement and out:
        sections, names = (st.result.sections, st.result.names) if st.result else ((), ())
        # the user's rules lead (also those retrieval had found itself), and the rules a withheld product's
        # warning cites stay in the context
        first = {r.id for r in rules} | {d.id for d in out if d.metadata.get(offer_guard.VERDICT_ONLY)}
        out = [d for d in out if d.id in first] + [d for d in out if d.id not in first]
        most = settings.low_relevance_top if st.route == LOW_RELEVANCE else CONTEXT_DOCS
        n_rules = sum(d.id in first for d in out)
        out, stats = ranked_context(
            st.question, out, len(st.docs), st.terms, sections, names, n_rules, most, question_frame(backend, st)
        )
        st.trace.step("refine_knowledge", **stats)
    return out


def asker(settings: CragSettings, st: QuestionState, backend=None) -> forbidden.Asker:
    """Who the DUR rules are for: the profile and the population the question states (none without
    ``user_context``); with `backend`, also the kinds of the medicines the profile lists (해열진통제 …, read through
    its names and leaflets: programs/leaflet_pair_limit.py)."""
    if not settings.user_context:
        return forbidden.Asker()
    names = st.result.names if st.result else ()
    who = forbidden.asker(st.profile, st.question, names)
    if backend is not None and backend.names is not None:
        # 혈압약 드시는데 … 액티피드, 아스피린 매일 먹는데 이부프로펜: a medicine the question says is being taken
        # beside the one asked about is the asker's, as a profile's is (programs/taken_in_question.py)
        targets = question_frame(backend, st).targets
        taken = taken_beside(st.question, [*targets.products, *targets.ingredients, *targets.classes])
        if taken:
            who = dataclasses.replace(who, medicines=tuple(dict.fromkeys((*who.medicines, *taken))))
    if backend is not None and who.medicines:
        who = dataclasses.replace(who, kinds=leaflet_pair_limit.kinds_taken(who.medicines, backend.names, backend.get))
    return who


def asker_groups(settings: CragSettings, st: QuestionState) -> tuple[str, ...]:
    """Who the asker is, for the leaflets' lines about them (programs/group_lines.py): pregnant, nursing, elderly."""
    who = asker(settings, st)
    return who.groups + (("elderly",) if who.elderly else ())


def mark_forbidden(settings: CragSettings, backend, st: QuestionState, docs: list[Document]) -> list[Document]:
    """`docs` with the verdict on each product (the rules that forbid it appended), for an answer made outside
    `context_documents` (the budget ran out)."""
    who = asker(settings, st, backend)
    try:
        _, verdicts = user_rules.gather(docs, [], who, backend.dur_rules, same_ingredient(backend), leaflet=backend.get)
    except Exception:  # noqa: BLE001 — as in context_documents: no DUR rules, no verdicts
        return list(docs)
    return offer_guard.mark(list(docs), verdicts)


def same_ingredient(backend):
    """Two ingredient names the same by the backend's canonical key (by `forbidden.same_name` without one)."""
    names = backend.names
    if names is None:
        return forbidden.same_name

    def same(a: str, b: str) -> bool:
        ca, cb = names.canonical(a), names.canonical(b)
        return bool(ca) and ca == cb

    return same


def kind_ingredients(backend, words) -> set[str]:
    """The main ingredients of the products a kind of medicine's words name in the corpus (콧물약 → every nasal-
    symptom product's: 클로르페니라민, 슈도에페드린 …; `SearchBackend.class_members`), as their 효능 sections
    list them."""
    out: set[str] = set()
    for seq in backend.class_members(list(words)):
        doc = backend.get(f"easydrug:{seq}:efcy")
        if doc is not None:
            out.update(i.strip() for i in str(doc.metadata.get("main_ingr", "")).split(",") if i.strip())
    return out
