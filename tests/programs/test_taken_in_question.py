"""A medicine the question says is being taken beside the one it asks about is the asker's, as a profile's is
(programs/taken_in_question.py): the asked product whose leaflet forbids taking it with that kind is withheld; one
only tried before is no such medicine. The real `Searcher` on the mini index (게보린정's 상호작용 forbids 다른
해열진통제 and 소염진통제; 부루펜정 is ibuprofen, both)."""

from programs.crag import CRAG

WITHHELD = "사용자에게 맞지 않는 약이라 권하지 않습니다: 게보린정"


def test_a_painkiller_taken_beside_withholds_the_one_whose_leaflet_forbids_it(searcher):
    pred = CRAG(backend=searcher)(question="부루펜 먹었는데 열이 안 떨어져서 게보린도 먹어도 돼요?")
    assert WITHHELD in pred.answer
    assert "해열진통제" in pred.answer  # the leaflet's own line, cited as the rule
    tried = CRAG(backend=searcher)(question="게보린 먹어도 되나요? 부루펜만 먹어봤어요")  # tried once, not taken now
    assert WITHHELD not in tried.answer
