"""Answer-level evaluation of the CRAG program over questions with gold document ids: does the answer cite a gold
document, which routes did it take, did the corrective loop correct a bad first retrieval, what did it cost.

Rows come from `answer_row` (one prediction), `summarise` groups them per question kind and adds the retrieval
evaluator's AUC (first relevance vs "a gold document is in the first top 5").

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

CORRECTIVE = ("rewrite", "generate_low_relevance", "generate_no_context")
NOTICE_PREFIX = "※"


def answer_text(answer: str) -> str:
    """The answer without its notice lines (those starting with ※) and the safety line."""
    lines = [ln for ln in answer.splitlines() if not ln.strip().startswith(NOTICE_PREFIX)]
    return "\n".join(lines).replace("전문가와 꼭 상담하세요.", "").strip()


def slot_sentences(question: str, gold_texts: list[str]) -> list[str]:
    """The sentences of the gold documents that carry a slot word the question raises (술, 임신, 아이, 운전 …)."""
    from programs.coverage import SLOTS
    from programs.text import split_sentences

    compact = "".join(question.split())
    words = [w for asks, says in SLOTS.values() if any(a in compact for a in asks) for w in (*asks, *says)]
    if not words:
        return []
    return [s for t in gold_texts for s in split_sentences(t) if any(w in s for w in words)]


def has_sentence(answer: str, sentences: list[str]) -> bool:
    """The answer quotes one of the sentences (spacing aside) or one the same up to a few characters."""
    from programs.extractive import same

    flat = "".join(answer.split())
    return any("".join(s.split()) in flat or any(same(s, a) for a in answer.splitlines()) for s in sentences)


def answer_row(example: dict, pred: dict, ms: float, doc_text=None) -> dict:
    """One question's figures from a prediction dict (``yaksa ask --json`` fields); `doc_text` (id -> text) lets
    the row say whether the answer quotes a gold sentence carrying the question's slot word."""
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
    return {
        "id": example.get("id", ""),
        "kind": example.get("kind", ""),
        "question": example.get("question", ""),
        "in_scope": bool(gold),
        "out_of_scope": bool(pred.get("out_of_scope")),
        "cites_gold": bool(gold & set(cited)),
        "gold_in_first_top5": first_has_gold,
        "relevance": grades[0]["relevance"] if grades else None,
        "first_route": grades[0]["route"] if grades else ("out_of_scope" if pred.get("out_of_scope") else ""),
        "routes": sorted({s["route"] for s in grades}),
        "corrective": bool(grades) and grades[0]["route"] in CORRECTIVE,
        "corrected": (not first_has_gold) and rewrote and any(gold & set(h[:5]) for h in later_hits),
        "stop_reason": trace.get("stop_reason", ""),
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
        "ms": round(ms, 1),
    }


def duplicate_quotes(answer: str) -> int:
    """Lines of the answer that quote the same sentence as an earlier line (near-duplicates count)."""
    from programs.extractive import same
    from programs.grounding import CITE

    lines = [CITE.sub("", ln).strip() for ln in answer_text(answer).splitlines() if CITE.search(ln)]
    lines = [ln.split(": ", 1)[-1] for ln in lines]
    return sum(any(same(ln, earlier) for earlier in lines[:i]) for i, ln in enumerate(lines))


def _share(rows, key) -> float | None:
    return round(sum(bool(r[key]) for r in rows) / len(rows), 4) if rows else None


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
        "ms_p50": round(statistics.median(r["ms"] for r in rows), 1) if rows else None,
    }


def auc(labels: list[bool], scores: list[float]) -> float | None:
    """Area under the ROC curve (ties count half); None when one class is missing."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def summarise(rows: list[dict]) -> dict:
    """Per kind and overall (in-scope questions), plus the evaluator's AUC and the out-of-scope rows."""
    in_scope = [r for r in rows if r["in_scope"]]
    by_kind = defaultdict(list)
    for r in in_scope:
        by_kind[r["kind"]].append(r)
    graded = [r for r in in_scope if r["relevance"] is not None]
    out = {kind: _group(rs) for kind, rs in sorted(by_kind.items())}
    out["all"] = _group(in_scope)
    out["all"]["evaluator_auc"] = auc([r["gold_in_first_top5"] for r in graded], [r["relevance"] for r in graded])
    oos = [r for r in rows if not r["in_scope"]]
    out["out_of_scope"] = {"n": len(oos), "blocked": _share(oos, "out_of_scope")}
    return out
