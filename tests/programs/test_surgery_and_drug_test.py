"""An operation ahead and a drug test are asked of a product whose leaflet says nothing of them: the no-LM answer
says so (retrievers/data/aspect_seeds.json surgery and drug_test, programs/aspect_check.WORDS) rather than quote its
other cautions as if they answered; the real `Searcher` on the mini index (게보린정's leaflet names neither)."""

import pytest

from programs.crag import CRAG


@pytest.mark.parametrize(
    "question, words",
    [
        ("다음주에 수술 잡혔는데 게보린 수술 며칠전부터 끊어야되나요?", "수술·시술 전 복용"),
        ("게보린 먹고 있는데 입사 전 소변검사에서 양성 나와요?", "약물(도핑) 검사"),
    ],
)
def test_what_the_leaflet_does_not_say_of_an_operation_or_a_drug_test_is_said(searcher, question, words):
    pred = CRAG(backend=searcher)(question=question)
    assert f"찾은 설명서에는 {words}" in pred.answer
    assert pred.trace["outcome"] == "not_in_leaflets"
