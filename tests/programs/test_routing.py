"""Pure routing functions: relevance routes, safety stops, verification routes, the quality score."""

import pytest

from programs.routing import (
    clamp,
    jaccard,
    needs_refinement,
    overall_score,
    route_by_relevance,
    route_verification,
    safety_stop,
)


@pytest.mark.parametrize(
    "relevance, rewrites, n_docs, route",
    [
        (0.7, 0, 5, "generate"),
        (0.69, 0, 5, "rewrite"),
        (0.69, 1, 5, "rewrite"),
        (0.2, 2, 5, "generate_low_relevance"),
        (0.0, 2, 0, "generate_no_context"),
        (1.0, 0, 0, "rewrite"),
    ],
)
def test_route_by_relevance(relevance, rewrites, n_docs, route):
    assert route_by_relevance(relevance, rewrites, n_docs) == route


def test_overall_score_is_the_seed_example_and_clamps():
    assert overall_score(0.4, 0.3, 0.7) == 0.42
    assert overall_score(1.7, -3, float("nan")) == 0.4
    assert clamp("x") == 0.0
    assert needs_refinement(0.42)
    assert not needs_refinement(0.5)


def test_jaccard():
    assert jaccard(["a", "b"], ["a", "b"]) == 1.0
    assert jaccard(["a"], ["b"]) == 0.0
    assert jaccard([], []) == 1.0
    assert jaccard(["a", "b", "c", "d", "e"], ["a", "b", "c", "d"]) == 0.8


@pytest.mark.parametrize(
    "scores, docs, iteration, expected",
    [
        ([0.3], [["a"]], 2, "iteration_cap"),
        ([0.3, 0.5], [["a", "b"], ["a", "b"]], 1, "duplicate_documents"),
        ([0.45, 0.4], [["a"], ["b"]], 1, "decline"),
        ([0.45, 0.48], [["a"], ["b"]], 1, "stagnation"),
        ([0.3, 0.4], [["a"], ["b"]], 1, None),
        ([0.3], [["a"]], 0, None),
    ],
)
def test_safety_stop(scores, docs, iteration, expected):
    assert safety_stop(scores, docs, iteration, max_iterations=2) == expected


def test_safety_checks_off_keeps_only_the_iteration_cap():
    assert safety_stop([0.45, 0.4], [["a"], ["a"]], 1, 2, safety_checks=False) is None
    assert safety_stop([0.45, 0.4], [["a"], ["a"]], 2, 2, safety_checks=False) == "iteration_cap"


@pytest.mark.parametrize(
    "verdict, cause, rounds, researched, action",
    [
        ("PASS", "none", 0, 0, "accept"),
        ("pass", "none", 3, 1, "accept"),
        ("FAIL", "hallucination", 0, 0, "correct"),
        ("FAIL", "other", 2, 0, "correct"),
        ("FAIL", "hallucination", 3, 0, "give_up"),
        ("FAIL", "missing_information", 0, 0, "research"),
        ("FAIL", "missing_information", 0, 1, "insufficient_information"),
    ],
)
def test_route_verification(verdict, cause, rounds, researched, action):
    assert route_verification(verdict, cause, rounds, researched) == action


@pytest.mark.parametrize("best_doc, route", [(0.5, "generate_low_relevance"), (0.05, "generate_no_context")])
def test_after_the_rewrites_the_floor_decides_low_relevance_or_no_context(best_doc, route):
    assert route_by_relevance(0.4, rewrites=2, n_docs=5, best_doc=best_doc, floor=0.1) == route


class _Run:
    def __init__(self, roles=()):
        self.roles = set(roles)

    def has_lm(self, role):
        return role in self.roles


def state(**fields):
    """A real `QuestionState` with `fields` set (each must be one of its fields): the edges read nothing else."""
    from programs.state import QuestionState

    st = QuestionState("q", run=fields.pop("run", _Run()))
    st.method = "lm"
    for name, value in fields.items():
        assert hasattr(st, name), name
        setattr(st, name, value)
    return st


def test_graph_edges_read_the_state():
    from types import SimpleNamespace

    from programs.routing import after_generate, after_grade, after_retrieve, after_rewrite, after_verify
    from programs.settings import CragSettings

    s = CragSettings()
    assert after_retrieve(state(out_of_scope=True), s) == "stop"
    assert after_retrieve(state(uncovered_alone=True), s) == "stop"
    assert after_retrieve(state(run=_Run({"query"})), s) == "optimize_query"
    assert after_retrieve(state(), s) == "grade"
    assert after_retrieve(state(purpose="research", found_new=True), s) == "generate"
    assert after_retrieve(state(purpose="research"), s) == "evaluate"
    assert after_retrieve(state(purpose="quality", search_failed=True), s) == "stop"
    docs = [SimpleNamespace(content_hash=h) for h in "abcde"]
    same = state(purpose="quality", doc_hashes=[list("abcde")], result=SimpleNamespace(documents=docs))
    assert after_retrieve(same, s) == "stop"
    assert after_retrieve(same, s.replace(safety_checks=False)) == "grade"
    assert after_grade(state(route="rewrite"), s) == "rewrite"
    assert after_grade(state(), s) == "generate"
    assert after_rewrite(state(query=""), s) == "grade"
    assert after_rewrite(state(), s) == "retrieve"
    assert after_generate(state(run=_Run({"verify"})), s) == "verify"
    assert after_generate(state(run=_Run({"verify"}), method="extractive"), s) == "evaluate"
    assert after_verify(state(verify_action="correct"), s) == "correct"
    assert after_verify(state(verify_action="research"), s) == "research"
    assert after_verify(state(verify_action="accept"), s) == "evaluate"


def test_refine_stop_reasons():
    from programs.routing import refine_stop
    from programs.settings import CragSettings

    s = CragSettings()
    assert refine_stop("basic_rag", True, [0.1], [["a"]], 0, s) == "basic_rag"
    assert refine_stop("corrective_rag", False, [0.9], [["a"]], 0, s) == "quality_ok"
    assert refine_stop("corrective_rag", True, [0.3], [["a"]], 0, s) == ""
    assert refine_stop("corrective_rag", True, [0.3, 0.31], [["a"], ["b"]], 1, s) == "stagnation"
    assert refine_stop("corrective_rag", True, [0.3, 0.4, 0.45], [["a"], ["b"], ["c"]], 2, s) == "iteration_cap"


@pytest.mark.parametrize(
    "score, best, replaces",
    [
        (0.16, None, True),  # the first answer is always kept
        (0.16, 0.16, False),  # a re-search's answer no better keeps the answer to the question as asked
        (0.32, 0.3, True),
        (0.88, 0.16, True),
        (0.5, 0.9, False),
    ],
)
def test_a_re_searched_answer_replaces_the_kept_one_only_when_better(score, best, replaces):
    from programs.routing import replaces_best

    assert replaces_best(score, best) is replaces
