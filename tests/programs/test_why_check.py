"""A question asking why (programs/why_check.py): read alone, and through the CRAG program over the real mini index,
where 판콜에이내복액's leaflet gives a reason for not driving (졸음이 나타날 수 있으므로 운전 …) and none for
drowsiness itself."""

import pytest

from metrics.answer_eval import answer_row
from programs.crag import CRAG
from programs.why_check import NOTICE, asks_why, gives_reason, why_notice
from yaksa.prediction_json import prediction_json


@pytest.mark.parametrize(
    "question, why",
    [
        ("약은 왜 식후 30분에 먹어요?", True),
        ("판콜 먹으면 왜 졸려요", True),
        ("게보린을 빈속에 먹으면 안 되는 이유가 뭐예요?", True),
        ("어째서 술이랑 먹으면 안 되나요", True),
        ("왜곡된 정보가 많은데 게보린 먹어도 돼요?", False),  # 왜 begins another word
        ("판콜 먹고 운전해도 돼요?", False),
        ("해열제 먹으면 열이 어떻게 내려가는 거예요? 원리가 궁금해요", True),  # how it works is a why
        ("판콜 작용 기전이 뭐예요", True),
        ("식이섬유 변비약 자기전에 먹어도 돼요", False),  # 기전 inside 자기전에
        ("판콜 어떻게 먹어요?", False),  # how to take it is not how it works
    ],
)
def test_a_question_asks_why_by_its_own_words(question, why):
    assert asks_why(question) is why


def test_a_reason_counts_for_the_word_it_explains_not_the_one_it_gives():
    sentence = "복용 후 졸음이 나타날 수 있으므로 운전 및 기계조작 시 주의하십시오."
    assert gives_reason(sentence, ["운전"])  # why not drive: because of drowsiness
    assert not gives_reason(sentence, ["졸음"])  # why drowsy: the sentence does not say
    assert why_notice("판콜 먹고 왜 운전하면 안 돼요?", [sentence], ["판콜", "운전"]) == ""
    assert why_notice("판콜 먹으면 왜 졸려요?", [sentence], ["판콜", "졸리", "졸음"]) == NOTICE
    assert why_notice("판콜 먹고 운전해도 돼요?", [sentence], ["운전"]) == ""  # no why asked


def _why_steps(pred):
    return [s for s in pred.trace["steps"] if s["step"] == "why_check"]


def test_a_why_the_leaflet_does_not_answer_is_said_so(searcher):
    question = "판콜에이 먹으면 왜 졸려요?"
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(NOTICE)
    assert "[문서" in pred.answer  # what the leaflet does say is still quoted
    assert _why_steps(pred) == [{"step": "why_check", "flagged": True}]
    assert pred.trace["outcome"] == "not_in_leaflets"
    row = answer_row({"question": question, "gold": [], "answerable": False}, prediction_json(pred), 1.0)
    assert row["self_check_flagged"] and row["said_not_covered"]


def test_a_why_the_quoted_sentence_answers_gets_no_notice(searcher):
    pred = CRAG(backend=searcher)(question="판콜에이 먹고 왜 운전하면 안 돼요?")
    assert "있으므로 운전" in pred.answer
    assert NOTICE not in pred.answer
    assert _why_steps(pred) == [{"step": "why_check", "flagged": False}]
