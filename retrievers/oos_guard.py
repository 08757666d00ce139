"""The out-of-scope guard as a pure function: block before any LM call when nothing relevant was found.

With a reranker the seed's checks apply: the top rerank score < 0.01 blocks, and so does a dense similarity (the
relevance of the query to its nearest passage) < 0.55 when no drug name or symptom rule was recognised; the rerank
score itself is never read as relevance (the seed's own example 눈에 도움되는 약 passes at a top score of 0.026).
For the fused scorer the evidence is layered: a recognised product or ingredient name or a matched symptom rule keeps
a question in scope. What is left is decided by the scope model (`retrievers.scope_model`: `about_medicine`, its
probability that the question is about medicines, symptoms or the body) when one is given. Without it (the setting
``scope_model = false``), the older cuts: a condition the 효능 sections name with no noun the leaflets never use
(`retrievers.condition_words`) keeps the question; one that only names a section-like word (하루에, 효과, 몇 시간)
needs a dense top-1 cosine of at least `min_dense`; one with no drug signal at all needs `rescue_dense` (both cuts set
on trainsets/retrieval/dev.jsonl, README "Retrieval quality").

Example:
    >>> guard("fused", top_score=0.9, relevance=0.85, has_names=False, has_rules=False, has_sections=True)
    (True, 'dense similarity 0.850 < 0.87 and no drug name or symptom recognised')
    >>> guard("fused", top_score=0.9, relevance=0.95, has_names=False, has_rules=False, about_medicine=0.12)
    (True, 'no drug name or symptom recognised, and the scope model reads it as about something else (0.12 < 0.5)')
"""

from __future__ import annotations

from retrievers.scope_model import ABOUT_MEDICINE

OOS_MESSAGE = (
    "범위 밖 질문입니다. 의약품(효능, 복용법, 부작용, 상호작용, 보관법, 병용·임부·노인 금기)에 대해 물어봐 주세요."
)


def guard(
    scorer: str,
    top_score: float,
    relevance: float,
    has_names: bool,
    has_rules: bool,
    min_top_score: float = 0.01,
    min_relevance: float = 0.55,
    min_dense: float = 0.87,
    has_hits: bool = True,
    has_sections: bool = False,
    rescue_dense: float = 0.885,
    elsewhere: bool = False,
    about_medicine: float | None = None,
) -> tuple[bool, str]:
    """Return (blocked, reason). `elsewhere`: every noun of the question is one no leaflet uses (강아지 배변훈련):
    with no name and no rule it is about something else, however near its nearest passage (the dense path only).
    `about_medicine`: the scope model's probability; given, it decides the fused scorer's questions with no name and
    no rule, and the dense cuts are not read."""
    decided = scorer == "fused" and not (has_names or has_rules) and about_medicine is not None
    if decided and about_medicine < ABOUT_MEDICINE:  # whatever was found: no passage was searched by meaning
        return True, (
            "no drug name or symptom recognised, and the scope model reads it as about something else "
            f"({about_medicine:.2f} < {ABOUT_MEDICINE})"
        )
    if not has_hits:
        return True, "no document matched"
    if scorer != "fused":
        if top_score < min_top_score:
            return True, f"top rerank score {top_score:.3f} < {min_top_score}"
        if relevance < min_relevance and not (has_names or has_rules):
            return True, f"relevance {relevance:.3f} < {min_relevance}"
        return False, ""
    if has_names or has_rules:
        return False, ""
    if decided:
        return False, ""
    cut = min_dense if has_sections else rescue_dense
    if relevance < cut:
        return True, f"dense similarity {relevance:.3f} < {cut} and no drug name or symptom recognised"
    if elsewhere:  # near enough by the dense cut, but about nothing the leaflets speak of
        return True, "no drug name or symptom recognised, and every noun is one the leaflets never use"
    return False, ""
