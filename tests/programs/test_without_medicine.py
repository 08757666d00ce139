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
        ("약 말고 다른 약 있어요?", False),  # another medicine
        ("이 약 대신 먹을 수 있는 거 있나요", False),  # this one's alternative
        ("병원 약 말고 약국에서 살 수 있는 거", False),
        ("변비약 말고 뭐 먹으면 좋아요?", True),  # a kind of medicine, and nothing after it
        ("처방약 대신 먹을 거 있나요", False),  # a prescription's alternative is another medicine
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


def test_a_name_after_it_even_misspelt_asks_for_that_medicine(searcher):
    def names_in(text):
        return bool(searcher.names.match(text))

    assert asks_without_medicine("약 말고 개보린 먹어도 돼요?", names_in) is False  # 개보린: 게보린 a syllable off
    assert asks_without_medicine("두통 약 말고 뭐 하면 좋아요?", names_in) is True
