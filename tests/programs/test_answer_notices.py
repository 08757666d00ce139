"""A disease the question states that the named product's leaflet never speaks of is said to be missing from it
(programs/condition_check.py, read by `answer_ending.aspect_notice`), on the real Searcher over the mini index."""

from programs.condition_check import NOTICE
from programs.crag import CRAG

OPENING = NOTICE.split("{products}")[1].split("{conditions}")[0]  # "의 설명서에는 "


def steps(pred, name):
    return [s for s in pred.trace["steps"] if s["step"] == name]


def test_a_stated_disease_the_named_leaflet_is_silent_on_is_said_to_be_missing(searcher):
    """베아제정's leaflet names no 녹내장: what it quotes must not read as leave to take it."""
    pred = CRAG(backend=searcher)(question="녹내장 있는데 베아제 먹어도 되나요")
    assert steps(pred, "condition_check") and steps(pred, "condition_check")[0]["conditions"] == ["녹내장"]
    assert "베아제정" + OPENING + "녹내장에 대한 내용이 없습니다" in pred.answer


def test_a_stated_disease_the_leaflet_names_gets_no_such_notice(searcher):
    """판콜에이내복액's cautions name 녹내장: its line answers, and nothing is said to be missing."""
    pred = CRAG(backend=searcher)(question="녹내장 있는데 판콜에이 먹어도 되나요")
    assert not steps(pred, "condition_check")
    assert OPENING not in pred.answer
