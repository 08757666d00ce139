"""A leaflet saying it is taken for a short time only (게보린정: 이 약은 원칙적으로 단기간 복용합니다) speaks to how
long it may be taken (retrievers/data/aspect_seeds.json, duration): a question about taking it nearly every day
quotes that line and is not told the leaflet is silent on duration; the real `Searcher` on the mini index."""

from programs.crag import CRAG


def test_taking_it_every_day_is_answered_by_the_leaflets_short_term_line(searcher):
    pred = CRAG(backend=searcher)(question="두통땜에 게보린 거의 매일 먹는데 괜찮나요")
    assert "원칙적으로 단기간 복용합니다" in pred.answer
    assert "복용 기간에 대한 내용이 없습니다" not in pred.answer
