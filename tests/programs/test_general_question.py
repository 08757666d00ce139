"""A question about medicines in general (programs/general_question.py) is in scope, quotes no product's leaflet and
says the leaflets do not cover it, with no LM call: the real `Searcher` on the mini index."""

import pytest

from programs.crag import CRAG
from programs.general_question import ANSWER
from programs.outcome import NOT_IN_LEAFLETS


@pytest.mark.parametrize(
    "question",
    [
        "전문의약품이랑 일반의약품 차이가 뭐에요? 왜 어떤건 처방전 있어야돼요",
        "처방약이랑 약국약 차이",
        "먹다남은 약 어떻게 버려요? 그냥 쓰레기통에 버려도 됨?",
    ],
)
def test_a_question_about_medicines_in_general_is_told_the_leaflets_do_not_cover_it(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert not pred.out_of_scope
    assert pred.answer.startswith(ANSWER)
    assert not [c for c in pred.citations if c["cited"]] and "[문서" not in pred.answer
    assert pred.trace["outcome"] == NOT_IN_LEAFLETS and pred.trace["lm_calls"]["total"] == 0


def test_a_question_naming_a_medicine_is_answered_about_it(searcher):
    pred = CRAG(backend=searcher)(question="게보린 남은 거 버려야 하나요?")
    assert not pred.answer.startswith(ANSWER)
