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


def test_a_prescription_kind_taken_that_the_named_leaflet_is_silent_on_is_said_to_be_missing(searcher):
    """베아제정's leaflet names no blood-pressure medicine (혈압강하제, 고혈압 or any of its ingredients): its lines
    must not read as leave to take it beside one; 판콜에이내복액's cautions name 고혈압, so it is not said to be
    missing there."""
    pred = CRAG(backend=searcher)(question="혈압약 먹는 사람은 베아제 먹어도 문제없나요?")
    assert "혈압약" in steps(pred, "condition_check")[0]["conditions"]
    assert "베아제정" + OPENING + "혈압약에 대한 내용이 없습니다" in pred.answer
    spoken = CRAG(backend=searcher)(question="혈압약 먹는 사람은 판콜에이 먹어도 문제없나요?")
    assert OPENING + "혈압약" not in spoken.answer
