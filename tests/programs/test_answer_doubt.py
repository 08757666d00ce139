"""The answer's doubt (programs/answer_doubt.py) over the real searcher on the mini index: the features it records,
the shipped model's ordering of an answer about another product below one quoting the asked section, the notice a
flagged answer opens with, and a model file fitted on other features refused."""

import json

import pytest

from programs import answer_doubt
from programs.answer_doubt import FEATURES, NOTICE, DoubtModel
from programs.crag import CRAG
from programs.notices import LOW_RELEVANCE_NOTICE

RIGHT = "게보린 부작용 알려줘"  # the side-effect section of the product named
WRONG = "수면유도제 먹을 때 조심할 거"  # no sleep aid in the mini corpus: an antacid's cautions come back


def doubt(pred) -> dict:
    return next(s for s in pred.trace["steps"] if s["step"] == "doubt_check")


def test_the_step_records_every_feature_and_the_shipped_model_doubts_the_wrong_product_more(searcher):
    program = CRAG(backend=searcher)
    right, wrong = doubt(program(question=RIGHT)), doubt(program(question=WRONG))
    assert list(right["features"]) == list(FEATURES)
    assert right["features"]["documents_cited"] == 1 and right["features"]["rewrites"] == 0
    assert (
        wrong["features"]["rewrites"] >= 1
        and wrong["features"]["relevance_first"] < right["features"]["relevance_first"]
    )
    assert wrong["p_miss"] > right["p_miss"]
    assert right["threshold"] == answer_doubt.shipped_model().threshold


def test_a_flagged_answer_opens_with_the_notice_unless_it_already_says_it_may_not_answer(searcher, monkeypatch):
    shipped = answer_doubt.shipped_model()
    program = CRAG(backend=searcher)
    between = (doubt(program(question=RIGHT))["p_miss"] + doubt(program(question=WRONG))["p_miss"]) / 2
    monkeypatch.setattr(answer_doubt, "shipped_model", lambda: DoubtModel(shipped.model, between))
    wrong, right = program(question=WRONG), program(question=RIGHT)
    assert doubt(wrong)["flagged"] and wrong.answer.startswith(NOTICE)
    assert wrong.trace["outcome"] == "answered"  # a doubt is no statement that the leaflets lack it
    assert not doubt(right)["flagged"] and NOTICE not in right.answer
    monkeypatch.setattr(answer_doubt, "shipped_model", lambda: DoubtModel(shipped.model, 0.0))
    hedged = program(question="감기약 먹고 운전해도 돼요?")
    assert LOW_RELEVANCE_NOTICE in hedged.answer and doubt(hedged)["flagged"]
    assert NOTICE not in hedged.answer  # one notice that the answer may not fit is enough


def test_without_a_model_the_features_are_recorded_and_nothing_is_flagged(searcher, monkeypatch):
    monkeypatch.setattr(answer_doubt, "shipped_model", lambda: None)
    pred = CRAG(backend=searcher)(question=WRONG)
    step = doubt(pred)
    assert (step["flagged"], step["p_miss"]) == (False, None) and len(step["features"]) == len(FEATURES)
    assert NOTICE not in pred.answer


def test_a_model_fitted_on_other_features_is_refused_by_name(tmp_path):
    path = tmp_path / "doubt.json"
    data = json.loads(answer_doubt.MODEL_PATH.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "features": data["features"][:-1]}), encoding="utf-8")
    with pytest.raises(ValueError, match="doubt.json.*yaksa fit-self-check"):
        DoubtModel.load(path)
    shipped = DoubtModel.load()
    assert DoubtModel.load(shipped.save(tmp_path / "copy.json")) == shipped
