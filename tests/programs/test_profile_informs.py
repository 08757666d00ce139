"""A medicine the user takes informs the answer (the 병용금기 rows paired with its products), it does not take it
over: the search query, what the answer must mention and the products offered stay those of the question."""

from programs.answer_requirements import requirements
from programs.crag import CRAG
from programs.profile import UserProfile
from programs.query_rewriter import enhance_with_profile, fallback_rewrite


def test_a_rewrite_adds_who_the_user_is_but_not_the_medicines_they_take():
    user = UserProfile.from_dict({"age": 70, "medicines": ["와파린"]})
    assert enhance_with_profile("변비약 추천", user) == "변비약 추천 (70세)"
    assert "와파린" not in fallback_rewrite("변비약 추천", None, user)
    assert user.summary() == "70세, 복용 중: 와파린"  # prompts still say it


def test_a_medicine_taken_is_required_of_an_answer_only_when_the_question_names_it():
    user = UserProfile.from_dict({"medicines": ["메토트렉세이트"]})
    assert [r.label for r in requirements("변비약 추천해 주세요", profile=user)] == []
    assert "메토트렉세이트" in [r.label for r in requirements("메토트렉세이트 먹는데 부루펜 괜찮나요", profile=user)]


def _offered(pred) -> set[str]:
    return {c["product"] for c in pred.citations if c["cited"] and c["id"].startswith("easydrug:")}


def test_a_medicine_in_the_profile_keeps_the_answers_products_less_those_it_forbids(searcher):
    program = CRAG(backend=searcher)
    plain = program(question="두통약 추천해 주세요")
    taking = program(question="두통약 추천해 주세요", user={"medicines": ["와파린"]})
    assert _offered(plain) and _offered(taking) == _offered(plain)  # 와파린 forbids none of the mini corpus's
    assert not any(s["step"] == "rewrite" and "와파린" in s.get("query", "") for s in taking.trace["steps"])
