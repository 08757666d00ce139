"""The out-of-scope guard as a pure function: block before any LM call when nothing relevant was found.

Seed thresholds apply to a reranker's scores (top < 0.01, relevance < 0.55). For the fused scorer, the
dense top-1 cosine is the signal (it separated out-of-scope from in-scope questions on the dev set; BM25
scores did not), with a threshold calibrated on trainsets/retrieval/dev.jsonl, and a recognised product or
ingredient name, or a matched expansion rule, keeps the question in scope.

Example:
    >>> guard("fused", top_score=0.9, relevance=0.75, has_names=False, has_rules=False, min_dense=0.8)
    (True, 'dense similarity 0.750 < 0.8 and no drug name or symptom recognised')
"""

from __future__ import annotations

OOS_MESSAGE = "범위 밖 질문입니다. 의약품(효능, 복용법, 부작용, 상호작용, 보관법, 병용·임부·노인 금기)에 대해 물어봐 주세요."


def guard(
    scorer: str,
    top_score: float,
    relevance: float,
    has_names: bool,
    has_rules: bool,
    min_top_score: float = 0.01,
    min_relevance: float = 0.55,
    min_dense: float = 0.80,
    has_hits: bool = True,
) -> tuple[bool, str]:
    """Return (blocked, reason)."""
    if not has_hits:
        return True, "no document matched"
    if scorer != "fused":
        if top_score < min_top_score:
            return True, f"top rerank score {top_score:.3f} < {min_top_score}"
        if relevance < min_relevance and not has_names:
            return True, f"relevance {relevance:.3f} < {min_relevance}"
        return False, ""
    if has_names or has_rules:
        return False, ""
    if relevance < min_dense:
        return True, f"dense similarity {relevance:.3f} < {min_dense} and no drug name or symptom recognised"
    return False, ""
