"""A question asking what to do without medicine is told the leaflets do not say it (the real Searcher, mini index)."""

import pytest

from programs.crag import CRAG
from programs.without_medicine import NOTICE, asks_without_medicine


@pytest.mark.parametrize(
    "question,asked",
    [
        ("차멀미 약 말고 안 하는 방법 없나요?", True),
        ("임신 중에 감기 걸리면 약 말고 뭐 먹으면 좋아요? 유자차?", True),
        ("약 없이 두통 낫는 법 있나요", True),
        ("두통약 말고 감기약 먹어도 돼요?", False),  # another medicine instead
        ("감기 약 말고 코 스프레이 써도 돼요?", False),  # a kind of medicine after it
        ("물 없이 먹어도 돼요?", False),
    ],
)
def test_what_asks_what_to_do_without_medicine(question, asked):
    assert asks_without_medicine(question) is asked


def test_the_answer_says_the_leaflets_do_not_say_what_to_do_instead(searcher):
    pred = CRAG(backend=searcher)(question="두통 약 말고 뭐 하면 좋아요?")
    assert pred.answer.startswith(NOTICE)
    assert pred.trace["outcome"] == "not_in_leaflets"
    assert any(s["step"] == "without_medicine" for s in pred.trace["steps"])
    other = CRAG(backend=searcher)(question="두통약 말고 감기약 먹어도 돼요?")
    assert NOTICE not in other.answer and other.trace["outcome"] == "answered"
