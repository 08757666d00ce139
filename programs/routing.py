"""Routing decisions as pure functions of the state, tested on their own.

* `route_by_relevance`: docs/seeds/document-grading-and-rewriting.md §3.4 (generate / rewrite / low relevance / no
  context): "0.7 이상: 바로 답변 생성 · 0.7 미만 & 재시도 가능: 쿼리 재작성 후 재검색 · 0.7 미만 & 재시도 초과: 상위
  문서로 답변 생성 (graceful degradation)", with at most 2 rewrites.
* `needs_refinement` and `safety_stop`: the quality check of docs/seeds/crag-self-refine-strategy.md §4-5: stop on
  "중복 80% 이상" (Jaccard of the document sets), "개선 < 5%" (stagnation) or a decline.
* `route_verification`: docs/seeds/pharmacist-rag-pipeline.md 7단계 (self-correction) with the adaptive re-search of
  its last section (향후 개선 방향).
* `after_*`: the edges of the CRAG graph (programs/graph.py): which node runs next, read off the question's state.

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
    relevance: float,
    rewrites: int,
    n_docs: int,
    threshold: float = 0.7,
    max_rewrites: int = 2,
    best_doc: float = 1.0,
    floor: float = 0.1,
) -> str:
    """Where to go after grading.

    >= threshold: generate; below it, rewrite while fewer than `max_rewrites` rewrites were made; then generate from
    the top documents with a low-relevance notice when at least one document's relevance reaches `floor`, or
    without context when none does (the question is in scope, but nothing found is about it).

    >>> route_by_relevance(0.3, rewrites=2, n_docs=5, best_doc=0.05)
    'generate_no_context'
    """
    if relevance >= threshold and n_docs > 0:
        return GENERATE
    if rewrites < max_rewrites:
        return REWRITE
    return LOW_RELEVANCE if n_docs > 0 and best_doc >= floor else NO_CONTEXT


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


def replaces_best(score: float, best_score: float | None) -> bool:
    """Whether an evaluated answer replaces the answer kept so far: the first always; a later one (written after a
    re-search) only when it scores higher — an answer no better, written from a query the rewrite changed, does not
    replace the answer to the question as asked.

    >>> replaces_best(0.16, None), replaces_best(0.16, 0.16), replaces_best(0.32, 0.3)
    (True, False, True)
    """
    return best_score is None or score > best_score


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
EXTRACTIVE = "extractive"


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


def route_answer_check(cause: str, rounds: int, max_rounds: int = 3, can_correct: bool = True) -> str:
    """What to do after the deterministic answer check (programs/answer_check.py): "" when it passed (the LM verifier
    decides); for a failed answer, correct it while fewer than `max_rounds` rounds were made and a generating LM can,
    then replace it with the extractive answer (an answer that says nothing is never shipped).

    >>> route_answer_check("", 0), route_answer_check("repeats_question", 0), route_answer_check("no_citation", 3)
    ('', 'correct', 'extractive')
    """
    if not cause:
        return ""
    return CORRECT if can_correct and rounds < max_rounds else EXTRACTIVE


# ---------------------------------------------------------------- the graph's edges (programs/graph.py)
STOP = "stop"


def rewrite_stalled(history: Sequence[float], rewrites: int, min_gain: float = 0.05) -> bool:
    """A relevance rewrite that gained less than `min_gain` over the best grade before it (the same hits graded
    again, or worse ones): another rewrite is not worth its LM call, and the best result so far is answered from.

    >>> rewrite_stalled([0.54, 0.54], rewrites=1), rewrite_stalled([0.32, 0.42], rewrites=1), rewrite_stalled([0.3], 0)
    (True, False, False)
    """
    return rewrites > 0 and len(history) >= 2 and history[-1] < max(history[:-1]) + min_gain


def asks_query_lm(frame, optimize_named: bool = False) -> bool:
    """Whether the first search is worth a query-LM rewrite: when the question names no medicine, ingredient or class
    the corpus has (the no-LM reading found no target to search by), or always with `optimize_named`. An unread
    frame (a backend without one) asks.

    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> asks_query_lm(QuestionFrame("게보린 먹고 술", Targets(products=("게보린정",)))), asks_query_lm(None)
    (False, True)
    >>> asks_query_lm(QuestionFrame("속이 쓰려요", Targets(symptoms=("속쓰림",))))
    True
    """
    if optimize_named or frame is None:
        return True
    t = frame.targets
    return not (t.products or t.ingredients or t.classes)


def first_query_lm(state, settings) -> str:
    """For the question's own search with a query LM set up: "ask" it (`asks_query_lm`) or "skip" it; "" otherwise."""
    if state.purpose != "question" or not settings.query_optimization or not state.run.has_lm("query"):
        return ""
    asks = asks_query_lm(state.result.frame if state.result is not None else None, settings.optimize_named_queries)
    return "ask" if asks else "skip"


def after_retrieve(state, settings) -> str:
    """After a search: stop when `retrieval_stop` says so; optimise the first query once with a query LM when
    `asks_query_lm`; after a research search, generate from what it found (or evaluate the annotated answer);
    otherwise grade."""
    if retrieval_stop(state, settings):
        return STOP
    if first_query_lm(state, settings) == "ask":
        return "optimize_query"
    if state.purpose == "research":
        return "generate" if state.found_new else "evaluate"
    return "grade"


def retrieval_stop(state, settings) -> str:
    """Why a search ends the question ("" when it does not): ``not_in_leaflets`` for a question about medicines in
    general (programs/general_question.py: never out of scope); ``out_of_scope`` for the question as asked;
    ``not_in_corpus`` when it names medicines the corpus lacks and none it has (`programs.outcome`);
    ``no_documents_on_research`` or ``duplicate_documents`` (docs/seeds/crag-self-refine-strategy.md §5) for a
    quality re-search."""
    if state.purpose == "question" and state.general:
        return "not_in_leaflets"  # about medicines in general (programs/general_question.py)
    if state.purpose == "question" and state.out_of_scope:
        return "out_of_scope"
    if state.purpose == "question" and state.uncovered_alone:
        return "not_in_corpus"
    if state.purpose == "quality":
        if state.search_failed:
            return "no_documents_on_research"
        new = [d.content_hash for d in state.result.documents]
        if settings.safety_checks and duplicate_documents([*state.doc_hashes[-1:], new], settings.duplicate_threshold):
            return "duplicate_documents"
    return ""


def after_optimize(state, settings) -> str:
    """Search the optimised query when the LM gave one; grade the first search otherwise."""
    return "retrieve" if state.query else "grade"


def after_grade(state, settings) -> str:
    """Rewrite while the relevance route says so; generate otherwise (the route picks the mode)."""
    return "rewrite" if state.route == REWRITE else "generate"


def after_rewrite(state, settings) -> str:
    """Search a new query; a rewrite that repeats a searched query goes back to the (cached) grade."""
    return "retrieve" if state.query else "grade"


def after_generate(state, settings) -> str:
    """Verify an LM answer when verification is on (the deterministic answer check always, the LM verifier when
    there is one); evaluate otherwise."""
    if settings.verification and state.method == "lm":
        return "verify"
    return "evaluate"


def after_verify(state, settings) -> str:
    """CORRECT -> correct, RESEARCH -> research, anything else -> evaluate."""
    return {CORRECT: "correct", RESEARCH: "research"}.get(state.verify_action, "evaluate")


def after_correct(state, settings) -> str:
    """Verify the corrected answer again; a correction that failed ends verification."""
    return "verify" if state.verify_action == CORRECT else "evaluate"


def after_evaluate(state, settings) -> str:
    """Stop when the strategy is satisfied or a safety stop applies (`stop_reason` says which); re-search otherwise."""
    return STOP if state.stop_reason else "requery"


def duplicate_documents(doc_hashes, threshold: float = 0.8) -> bool:
    """True when the last two document sets overlap by Jaccard >= `threshold`
    (docs/seeds/crag-self-refine-strategy.md §5.1: "similarity ≥ 0.8 → 중복 감지, 조기 종료")."""
    return len(doc_hashes) >= 2 and jaccard(doc_hashes[-1], doc_hashes[-2]) >= threshold


def refine_stop(
    strategy: str,
    needs_retrieval: bool,
    score_history: Sequence[float],
    doc_hash_history: Sequence[Sequence[str]],
    iteration: int,
    settings,
) -> str:
    """Why the quality loop stops after an evaluation ("" to re-search): ``basic_rag``, ``quality_ok`` or a
    `safety_stop` reason."""
    if strategy == "basic_rag":
        return "basic_rag"
    if not needs_retrieval:
        return "quality_ok"
    return (
        safety_stop(
            score_history,
            doc_hash_history,
            iteration,
            settings.max_iterations,
            settings.duplicate_threshold,
            settings.min_gain,
            settings.safety_checks,
        )
        or ""
    )
