"""A search of the query LM's query (its optimised query, or its rewrite) merged with the search of the question as
asked, not swapped for it: the question's own hits stay, the LM's add to them (a rewrite once replaced the question's
hits with unrelated DUR rows).

Example:
    >>> from retrievers.documents import Document, Hit
    >>> from retrievers.result import RetrievalResult
    >>> hit = lambda i: Hit(Document(i, i), 1.0)
    >>> own = RetrievalResult("q", hits=[hit("a"), hit("b"), hit("c")])
    >>> lm = RetrievalResult("q2", hits=[hit("x"), hit("a"), hit("y")])
    >>> [h.id for h in merge_hits(own, lm, k=4).hits]
    ['a', 'x', 'b', 'c']
"""

from __future__ import annotations

from dataclasses import replace
from itertools import chain, zip_longest

from retrievers.result import RetrievalResult


def merge_hits(own: RetrievalResult, other: RetrievalResult, k: int = 5) -> RetrievalResult:
    """`other` with its hits merged with `own`'s: taken in turn, the question's first, each document once, at most
    `k`. Everything else (the query searched, its analysis and scores) is `other`'s."""
    seen: set[str] = set()
    hits = []
    for hit in chain.from_iterable(zip_longest(own.hits, other.hits)):
        if hit is not None and hit.id not in seen:
            seen.add(hit.id)
            hits.append(hit)
    hits = hits[:k]
    top = float(hits[0].score) if hits else 0.0
    return replace(other, hits=hits, top_score=top)
