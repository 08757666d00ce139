"""Routing decisions as pure functions of the state, tested on their own.

* `route_by_relevance`: document-grading seed §3.4 (generate / rewrite / low relevance / no context).
* `needs_refinement` and `safety_stop`: the quality check of the crag-self-refine seed §4-5.
* `route_verification`: pharmacist-rag-pipeline stage 7 with the adaptive re-search of its last section.

Example:
    >>> route_by_relevance(0.8, rewrites=0, n_docs=5)
    'generate'
    >>> route_by_relevance(0.4, rewrites=2, n_docs=5)
    'generate_low_relevance'
    >>> safety_stop([0.42, 0.44], [["a"], ["b"]], iteration=1, max_iterations=2)
    'stagnation'
"""

from __future__ import annotations

from collections.abc import Sequence

GENERATE = "generate"
REWRITE = "rewrite"
LOW_RELEVANCE = "generate_low_relevance"
NO_CONTEXT = "generate_no_context"


def route_by_relevance(
    relevance: float, rewrites: int, n_docs: int, threshold: float = 0.7, max_rewrites: int = 2
) -> str:
    """Where to go after grading.

    >= threshold: generate; below it, rewrite while fewer than `max_rewrites` rewrites were made; then generate from
    the top documents with a low-relevance notice, or without context when there are none.
    """
    if relevance >= threshold and n_docs > 0:
        return GENERATE
    if rewrites < max_rewrites:
        return REWRITE
    return LOW_RELEVANCE if n_docs > 0 else NO_CONTEXT


def overall_score(grounding: float, completeness: float, accuracy: float, weights=(0.4, 0.4, 0.2)) -> float:
    """The seed's weighted quality score, each input clamped to [0, 1]."""
    g, c, a = (clamp(x) for x in (grounding, completeness, accuracy))
    return round(weights[0] * g + weights[1] * c + weights[2] * a, 4)


def clamp(x: float, low: float = 0.0, high: float = 1.0) -> float:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return low
    if x != x:  # NaN
        return low
    return min(max(x, low), high)


def needs_refinement(overall: float, threshold: float = 0.5) -> bool:
    """True when the answer's quality is below the threshold (seed: quality_score < 0.5)."""
    return overall < threshold


def jaccard(a: Sequence[str], b: Sequence[str]) -> float:
    """|a ∩ b| / |a ∪ b| of two collections of document hashes (1.0 for two empty ones)."""
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def safety_stop(
    score_history: Sequence[float],
    doc_hash_history: Sequence[Sequence[str]],
    iteration: int,
    max_iterations: int,
    duplicate_threshold: float = 0.8,
    min_gain: float = 0.05,
    safety_checks: bool = True,
) -> str | None:
    """Why the refine loop must stop now, or None to re-search.

    Checked in order: the iteration cap (always), then, with `safety_checks`, duplicate documents (Jaccard of the last
    two retrievals' MD5 hashes >= `duplicate_threshold`), decline (gain < 0) and stagnation (gain < `min_gain`).
    The seed lists stagnation before decline, but a decline is also a gain below 0.05; checking decline first keeps
    the two reasons apart.

    Returns:
        ``"iteration_cap"``, ``"duplicate_documents"``, ``"decline"``, ``"stagnation"`` or None.
    """
    if iteration >= max_iterations:
        return "iteration_cap"
    if not safety_checks:
        return None
    if len(doc_hash_history) >= 2 and jaccard(doc_hash_history[-1], doc_hash_history[-2]) >= duplicate_threshold:
        return "duplicate_documents"
    if len(score_history) >= 2:
        gain = score_history[-1] - score_history[-2]
        if gain < 0:
            return "decline"
        if gain < min_gain:
            return "stagnation"
    return None


ACCEPT = "accept"
CORRECT = "correct"
RESEARCH = "research"
INSUFFICIENT = "insufficient_information"
GIVE_UP = "give_up"


def route_verification(
    verdict: str, cause: str, rounds: int, researched: int, max_rounds: int = 3, max_research: int = 1
) -> str:
    """What to do after a verification.

    PASS: accept. FAIL for missing information: re-search (rewrite, retrieve, regenerate) while fewer than
    `max_research` re-searches were made, then answer with an "정보 부족" notice. Any other FAIL: correct the answer
    while fewer than `max_rounds` rounds were made, then give up (keep the answer, say it failed verification).
    """
    if str(verdict).upper() == "PASS":
        return ACCEPT
    if cause == "missing_information":
        return RESEARCH if researched < max_research else INSUFFICIENT
    return CORRECT if rounds < max_rounds else GIVE_UP
