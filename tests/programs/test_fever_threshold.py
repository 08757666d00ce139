"""At what temperature to start a fever reducer is in no leaflet (programs/fever_threshold.py): the no-LM answer says
so before the dosing lines it found, and its outcome is not_in_leaflets; the real `Searcher` on the mini index."""

import pytest

from programs.crag import CRAG
from programs.fever_threshold import NOTICE
from programs.outcome import NOT_IN_LEAFLETS


@pytest.mark.parametrize("question", ["아기 열이 몇도부터 해열제를 먹여야 되나요?", "37.8도인데 해열제 먹여야 돼요?"])
def test_a_temperature_to_start_from_is_said_not_to_be_in_the_leaflets(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(NOTICE)
    assert pred.trace["outcome"] == NOT_IN_LEAFLETS
    assert next(s for s in pred.trace["steps"] if s["step"] == "fever_threshold")["flagged"]


@pytest.mark.parametrize("question", ["38도 넘는데 해열제 몇 미리 먹여요?", "해열제 몇 시간 간격으로 먹여요?"])
def test_a_dose_asked_beside_a_temperature_gets_no_such_notice(searcher, question):
    assert NOTICE not in CRAG(backend=searcher)(question=question).answer
