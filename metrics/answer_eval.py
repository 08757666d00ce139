"""Answer-level evaluation of the CRAG program over questions with gold document ids: does the answer cite a gold
document, quote a gold answer phrase, which routes did it take, did the corrective loop correct a bad first
retrieval, what did it cost, and what did it do with a question the corpus cannot answer.

Rows come from `answer_row` (one prediction), `summarise` groups them per question kind and adds the retrieval
evaluator's AUC (first relevance vs "a gold document is in the first top 5"), the unanswerable questions' outcomes
(`metrics/unanswerable.py`) and the gold-phrase figures per first aspect and per population group.

A row of the real-question sets (``trainsets/real_questions``) has no ``kind``: its kind is ``answerable`` or its
``unanswerable_kind`` (``not_in_corpus``, ``not_in_leaflets``), and it is in scope when ``answerable`` (a
``not_in_corpus`` question can still have gold DUR rows). Other rows are in scope when they have gold documents.

Example:
    >>> pred = {"answer": "... [문서 1]", "citations": [{"id": "a", "cited": True}], "trace": {"steps": [
    ...     {"step": "retrieve", "hits": [{"id": "a", "score": 3.0}]}, {"step": "grade", "relevance": 0.9,
    ...     "route": "generate"}], "stop_reason": "quality_ok", "rewrites": 0, "lm_calls": {"total": 0}}}
    >>> row = answer_row({"id": "q1", "kind": "product", "gold": ["a"]}, pred, 12.0)
    >>> row["cites_gold"], row["first_route"], row["gold_in_first_top5"]
    (True, 'generate', True)
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict

from metrics.gold_phrases import phrase_in_any, quotes_phrase
from metrics.unanswerable import outcome

CORRECTIVE = ("rewrite", "generate_low_relevance", "generate_no_context")
# no-LM self-checks: a flag says the answer misses what was asked
SELF_CHECKS = (
    "aspect_check",
    "claim_check",
    "effect_check",
    "efficacy_only",
    "why_check",
    "fever_threshold",
    "doubt_check",
    "contents_check",
    "taste_check",
    "doctor_visit",
    "nursing_gap",
    "pregnancy_exposure",
)
NOTICE_PREFIX = "※"
RESERVED = (
    "all",
    "out_of_scope",
    "unanswerable",
    "by_aspect",
    "by_population",
    "frame",
    "self_check",
)  # summary keys that are not kinds


def answer_text(answer: str) -> str:
    """The answer without its notice lines (those starting with ※) and the safety line."""
    lines = [ln for ln in answer.splitlines() if not ln.strip().startswith(NOTICE_PREFIX)]
    return "\n".join(lines).replace("전문가와 꼭 상담하세요.", "").strip()


def slot_sentences(question: str, gold_texts: list[str]) -> list[str]:
    """The sentences of the gold documents that carry a slot word the question raises (술, 임신, 아이, 운전 …)."""
    from programs.answer_requirements import SLOTS
    from programs.text import split_sentences

    compact = "".join(question.split())
    words = [w for asks, says in SLOTS.values() if any(a in compact for a in asks) for w in (*asks, *says)]
    if not words:
        return []
    return [s for t in gold_texts for s in split_sentences(t) if any(w in s for w in words)]


def has_sentence(answer: str, sentences: list[str]) -> bool:
    """The answer quotes one of the sentences (spacing aside) or one the same up to a few characters."""
    from programs.text import same

    flat = "".join(answer.split())
    return any("".join(s.split()) in flat or any(same(s, a) for a in answer.splitlines()) for s in sentences)


def question_kind(example: dict) -> str:
    """The row's ``kind``, else (a real question) ``answerable`` or its ``unanswerable_kind``.

    >>> question_kind({"answerable": False, "unanswerable_kind": "not_in_corpus"}), question_kind({"kind": "vague"})
    ('not_in_corpus', 'vague')
    """
    if example.get("kind") or "answerable" not in example:
        return example.get("kind", "")
    return "answerable" if example["answerable"] else example.get("unanswerable_kind") or "unanswerable"


def is_in_scope(example: dict) -> bool:
    """Answerable (real questions), else has gold documents."""
    return bool(example["answerable"]) if "answerable" in example else bool(example.get("gold"))


def phrase_figures(example: dict, pred: dict, doc_text=None) -> dict:
    """Whether a gold phrase is quoted in the answer (notice lines and the safety line ignored), is in the contexts
    the generator saw, and is in the full text of the documents the answer was written from (its citations, cited or
    not; needs `doc_text`). A phrase in the documents but not the answer is a sentence-choice miss; one in none of
    them a retrieval miss."""
    phrases = example.get("gold_phrases") or []
    docs = [doc_text(c["id"]) for c in pred.get("citations") or []] if doc_text else []
    return {
        "phrase_gold": bool(phrases),
        "phrase_quoted": quotes_phrase(answer_text(pred.get("answer", "")), phrases),
        "phrase_in_context": phrase_in_any(pred.get("contexts") or [], phrases),
        "phrase_in_documents": phrase_in_any(docs, phrases),
    }


def answer_row(example: dict, pred: dict, ms: float, doc_text=None) -> dict:
    """One question's figures from a prediction dict (``yaksa ask --json`` fields); `doc_text` (id -> text) lets
    the row say whether the answer quotes a gold sentence carrying the question's slot word, whether a gold phrase
    is in the documents it was written from, and name the products of the documents it cites."""
    trace = pred.get("trace") or {}
    gold = set(example.get("gold") or [])
    steps = trace.get("steps", [])
    retrieves = [s for s in steps if s.get("step") == "retrieve"]
    grades = [s for s in steps if s.get("step") == "grade"]
    first_hits = [h["id"] for h in retrieves[0]["hits"]] if retrieves else []
    later_hits = [[h["id"] for h in s["hits"]] for s in retrieves[1:] if s.get("purpose") == "relevance"]
    cited = [c["id"] for c in pred.get("citations", []) if c.get("cited")]
    first_has_gold = bool(gold & set(first_hits[:5]))
    checks = [s["grounding_check"] for s in steps if s.get("grounding_check")]
    slot = slot_sentences(example.get("question", ""), [doc_text(g) for g in sorted(gold)]) if doc_text else []
    rewrote = any(s.get("step") == "rewrite" for s in steps)
    population = (example.get("population") or {}).get("group") or "none"
    return {
        "id": example.get("id", ""),
        "kind": question_kind(example),
        "question": example.get("question", ""),
        "aspect": (example.get("aspects") or [""])[0],
        "population": population if "population" in example else "",
        "in_scope": is_in_scope(example),
        "out_of_scope": bool(pred.get("out_of_scope")),
        "cites_gold": bool(gold & set(cited)),
        "gold_in_first_top5": first_has_gold,
        "relevance": grades[0]["relevance"] if grades else None,
        "first_route": grades[0]["route"] if grades else ("out_of_scope" if pred.get("out_of_scope") else ""),
        "routes": sorted({s["route"] for s in grades}),
        "corrective": bool(grades) and grades[0]["route"] in CORRECTIVE,
        "corrected": (not first_has_gold) and rewrote and any(gold & set(h[:5]) for h in later_hits),
        "stop_reason": trace.get("stop_reason", ""),
        "outcome": trace.get("outcome", ""),
        "rewrites": trace.get("rewrites", 0),
        "lm_calls": (trace.get("lm_calls") or {}).get("total", 0),
        "parse_failures": sum((trace.get("parse_failures") or {}).values()),
        "chars": len(answer_text(pred.get("answer", ""))),
        "slot_gold": bool(slot),
        "slot_quoted": bool(slot) and has_sentence(pred.get("answer", ""), slot),
        "sentences_checked": sum(c.get("checked", 0) for c in checks),
        "sentences_removed": sum(len(c.get("removed", [])) for c in checks),
        "grounding_fallback": any(c.get("fallback") for c in checks),
        "duplicate_quotes": duplicate_quotes(pred.get("answer", "")),
        "self_check_flagged": any(s.get("flagged") for s in steps if s.get("step") in SELF_CHECKS),
        **phrase_figures(example, pred, doc_text),
        **outcome(example, pred, doc_text),
        "ms": round(ms, 1),
    }


def duplicate_quotes(answer: str) -> int:
    """Lines of the answer that quote the same sentence as an earlier line (near-duplicates count)."""
    from programs.grounding import CITE
    from programs.text import same

    lines = [CITE.sub("", ln).strip() for ln in answer_text(answer).splitlines() if CITE.search(ln)]
    lines = [ln.split(": ", 1)[-1] for ln in lines]
    return sum(any(same(ln, earlier) for earlier in lines[:i]) for i, ln in enumerate(lines))


def _share(rows, key) -> float | None:
    return _rate(rows, lambda r: r[key])


def _rate(rows, test) -> float | None:
    return round(sum(bool(test(r)) for r in rows) / len(rows), 4) if rows else None


def _group(rows: list[dict]) -> dict:
    misses = [r for r in rows if r["relevance"] is not None and not r["gold_in_first_top5"]]
    found = [r for r in rows if r["relevance"] is not None and r["gold_in_first_top5"]]
    return {
        "n": len(rows),
        "cites_gold": _share(rows, "cites_gold"),
        "gold_in_first_top5": _share(rows, "gold_in_first_top5"),
        "first_route": dict(Counter(r["first_route"] for r in rows)),
        "routes_taken": dict(Counter(route for r in rows for route in r["routes"])),
        "stop_reasons": dict(Counter(r["stop_reason"] for r in rows)),
        "outcomes": dict(Counter(r.get("outcome", "") for r in rows)),
        "misses": len(misses),
        "misses_corrective": _share(misses, "corrective"),
        "misses_corrected": _share(misses, "corrected"),
        "found_corrective": _share(found, "corrective"),
        "rewrites_mean": round(statistics.fmean(r["rewrites"] for r in rows), 3) if rows else None,
        "lm_calls_mean": round(statistics.fmean(r["lm_calls"] for r in rows), 3) if rows else None,
        "parse_failures": sum(r["parse_failures"] for r in rows),
        "chars_median": statistics.median(r["chars"] for r in rows) if rows else None,
        "slot_questions": sum(r["slot_gold"] for r in rows),
        "slot_quoted": _share([r for r in rows if r["slot_gold"]], "slot_quoted"),
        "sentences_checked": sum(r["sentences_checked"] for r in rows),
        "sentences_removed": sum(r["sentences_removed"] for r in rows),
        "answers_with_removals": _share(rows, "sentences_removed"),
        "grounding_fallbacks": sum(r["grounding_fallback"] for r in rows),
        "duplicate_quotes": sum(r["duplicate_quotes"] for r in rows),
        **_phrases(rows),
        "ms_p50": round(statistics.median(r["ms"] for r in rows), 1) if rows else None,
    }


def _phrases(rows: list[dict]) -> dict:
    """Gold-phrase figures over the rows that have gold phrases; `context_not_quoted`: a phrase in the generator's
    context but not in the answer (the sentence was there to choose)."""
    with_phrases = [r for r in rows if r["phrase_gold"]]
    return {
        "phrase_questions": len(with_phrases),
        "phrase_quoted": _share(with_phrases, "phrase_quoted"),
        "phrase_in_context": _share(with_phrases, "phrase_in_context"),
        "phrase_in_documents": _share(with_phrases, "phrase_in_documents"),
        "context_not_quoted": sum(r["phrase_in_context"] and not r["phrase_quoted"] for r in with_phrases),
    }


def _outcomes(rows: list[dict]) -> dict:
    """Out-of-scope / unanswerable rows: blocked, and the shares of `metrics.unanswerable` outcomes."""
    return {
        "n": len(rows),
        "blocked": _share(rows, "out_of_scope"),
        "declined": _share(rows, "declined"),
        "said_not_covered": _share(rows, "said_not_covered"),
        "declined_or_not_covered": _rate(rows, lambda r: r["declined"] or r["said_not_covered"]),
        "quoted_unrelated": _share(rows, "quoted_unrelated"),
        # the honest outcome (issue 23): blocked, declined or said not covered, with no unrelated product quoted
        "honest": _rate(rows, lambda r: (r["declined"] or r["said_not_covered"]) and not r["quoted_unrelated"]),
        "outcomes": dict(Counter(r.get("outcome", "") for r in rows)),
    }


def self_check(rows: list[dict]) -> dict:
    """How the no-LM self-check's notice (programs/aspect_check.py: the answer misses the aspect asked first) falls
    on answerable questions with gold phrases: the share flagged among answers quoting none (`flags_missing`, high is
    good) and among the others (`flags_others`, low is good).

    >>> rows = [{"phrase_gold": True, "phrase_quoted": q, "self_check_flagged": f} for q, f in
    ...         ((False, True), (False, False), (True, False), (True, False))]
    >>> self_check(rows)
    {'missing': 2, 'flags_missing': 0.5, 'others': 2, 'flags_others': 0.0}
    """
    with_phrases = [r for r in rows if r["phrase_gold"]]
    missing = [r for r in with_phrases if not r["phrase_quoted"]]
    others = [r for r in with_phrases if r["phrase_quoted"]]
    return {
        "missing": len(missing),
        "flags_missing": _share(missing, "self_check_flagged"),
        "others": len(others),
        "flags_others": _share(others, "self_check_flagged"),
    }


def breakdown(rows: list[dict], key: str) -> dict:
    """Gold-phrase figures and gold citations per value of `key` (``aspect``, ``population``), over rows with gold
    phrases, largest groups first."""
    groups = defaultdict(list)
    for r in rows:
        if r["phrase_gold"]:
            groups[r[key]].append(r)
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return {value: {**_phrases(rs), "cites_gold": _share(rs, "cites_gold")} for value, rs in ordered}


def auc(labels: list[bool], scores: list[float]) -> float | None:
    """Area under the ROC curve (ties count half); None when one class is missing."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def summarise(rows: list[dict]) -> dict:
    """Per kind and overall (in-scope questions), plus the evaluator's AUC; the out-of-scope rows' outcomes, overall
    and per kind (``unanswerable``); gold-phrase figures of in-scope rows per first aspect and population group."""
    in_scope = [r for r in rows if r["in_scope"]]
    by_kind = defaultdict(list)
    for r in in_scope:
        by_kind[r["kind"]].append(r)
    graded = [r for r in in_scope if r["relevance"] is not None]
    out = {kind: _group(rs) for kind, rs in sorted(by_kind.items())}
    out["all"] = _group(in_scope)
    out["all"]["evaluator_auc"] = auc([r["gold_in_first_top5"] for r in graded], [r["relevance"] for r in graded])
    oos = [r for r in rows if not r["in_scope"]]
    out["out_of_scope"] = _outcomes(oos)
    oos_kinds = defaultdict(list)
    for r in oos:
        oos_kinds[r["kind"]].append(r)
    out["unanswerable"] = {kind: _outcomes(rs) for kind, rs in sorted(oos_kinds.items())}
    if any(r["phrase_gold"] for r in in_scope):
        out["self_check"] = self_check(in_scope)
    out["by_aspect"] = breakdown(in_scope, "aspect")
    out["by_population"] = breakdown(in_scope, "population")
    return out
