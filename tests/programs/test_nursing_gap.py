"""How long after a medicine to wait before nursing is in no leaflet (retrievers/nursing_gap.py,
programs/nursing_gap_notice.py): the no-LM answer says so before what the leaflets say of nursing mothers, and the
question is read as asking about breastfeeding, not the dose's interval; the real `Searcher` on the mini index."""

from programs.crag import CRAG
from programs.nursing_gap_notice import NOTICE


def test_the_wait_before_nursing_is_said_not_to_be_in_the_leaflets(searcher):
    pred = CRAG(backend=searcher)(question="게보린 먹고나서 몇시간 지나야 젖 물려도 되는거에요?")
    assert pred.answer.startswith(NOTICE)
    assert next(s for s in pred.trace["steps"] if s["step"] == "nursing_gap")["flagged"]
    assert pred.trace["outcome"] == "not_in_leaflets"
    # how often a nursing mother takes it asks the dose, which the leaflets say: no such notice
    assert NOTICE not in CRAG(backend=searcher)(question="수유중인데 게보린 몇시간마다 먹어요?").answer
