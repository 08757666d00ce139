"""An answer that quotes only what its products are for, to a question asking something else, says it found no
sentence that answers (programs/efficacy_only.py), over the real mini index."""

import pytest

from programs import efficacy_only, extractive
from programs.crag import CRAG


def flagged(pred) -> list[str]:
    return [s["step"] for s in pred.trace["steps"] if s.get("flagged")]


@pytest.mark.parametrize("question", ["감기약 먹고 헬스해도 돼요?", "소화제 먹고 헬스해도 되나요?"])
def test_a_may_i_question_answered_by_efficacy_alone_says_no_sentence_answers_it(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(efficacy_only.NOTICE)
    assert "[효능·효과]" in pred.answer  # what was found is still shown, after the notice
    assert pred.trace["outcome"] == "not_in_leaflets"
    assert flagged(pred) == ["efficacy_only"]


@pytest.mark.parametrize(
    "question",
    [
        "감기약 추천해주세요",  # which medicine: efficacy is the answer (추천 is a word no leaflet uses)
        "머리 아픈데 게보린 먹어도 돼요?",  # the efficacy line names 두통, the asker's symptom (머리 아픈 → 두통)
        "훼스탈플러스 효능",  # the efficacy asked for by the section's own name
        "베아제 효과가 뭐예요",
    ],
)
def test_efficacy_that_names_what_is_asked_or_lists_products_is_an_answer(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert "[효능·효과]" in pred.answer or extractive.PRODUCT_LIST in pred.answer
    assert efficacy_only.NOTICE not in pred.answer
    assert pred.trace["outcome"] == "answered"


def test_without_the_lay_word_for_a_headache_the_efficacy_line_would_not_name_it(monkeypatch):
    from programs import sentences
    from retrievers.question_frame import QuestionFrame, Targets

    frame = QuestionFrame("머리 아픈데 게보린 먹어도 돼요?", Targets(products=("게보린",)))
    assert "두통" in efficacy_only.asked_words(frame)
    monkeypatch.setattr(sentences, "said_as_leaflets", dict)
    assert "두통" not in efficacy_only.asked_words(frame)


def test_a_product_list_is_never_flagged_though_nothing_asked_is_in_it():
    """감기약 추천해주세요: the purpose of the class is no asked word and 추천 no leaflet word, so efficacy alone would
    be flagged; a product list is what the question asks for."""
    from programs.aspect_check import Quoted
    from retrievers.question_frame import QuestionFrame, Targets

    frame = QuestionFrame("감기약 추천해주세요", Targets(classes=("감기약",)))
    efficacy = [Quoted("이 약은 감기의 여러 증상(콧물, 코막힘)의 완화에 사용합니다.", "efcy")]
    assert efficacy_only.answers_something_else(frame, efficacy)
    assert not efficacy_only.answers_something_else(frame, efficacy, which_medicine=True)
    named = QuestionFrame("게보린 먹어도 돼요?", Targets(products=("게보린",)))
    assert not efficacy_only.answers_something_else(named, efficacy)  # nothing asked beyond the medicine
