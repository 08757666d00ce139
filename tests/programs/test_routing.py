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
    assert clamp("x") == 0.0 and needs_refinement(0.42) and not needs_refinement(0.5)


def test_jaccard():
    assert jaccard(["a", "b"], ["a", "b"]) == 1.0 and jaccard(["a"], ["b"]) == 0.0 and jaccard([], []) == 1.0
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
