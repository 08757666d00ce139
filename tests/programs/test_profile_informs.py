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


def test_a_disease_in_the_profile_is_neither_searched_for_nor_required_unless_the_question_names_it():
    """천식 in the profile of someone asking about 인데놀: a query with 천식 finds products for asthma, and an answer
    required to mention it is searched again with it; the disease chooses the leaflet limits that forbid a product
    (programs/leaflet_condition_limit.py) and prompts still say it. Pregnancy stays in the query: it is who asks."""
    user = UserProfile.from_dict({"age": 27, "conditions": ["천식"]})
    assert enhance_with_profile("인데놀 먹어도 되나요", user) == "인데놀 먹어도 되나요 (27세)"
    assert "천식" not in fallback_rewrite("인데놀 먹어도 되나요", None, user)
    assert [r.label for r in requirements("인데놀 먹어도 되나요", profile=user)] == []
    assert "천식" in [r.label for r in requirements("천식 있는데 감기약 먹어도 되나요", profile=user)]
    assert user.summary() == "27세, 질환: 천식"
    pregnant = UserProfile.from_dict({"pregnant": True, "conditions": ["천식"]})
    assert enhance_with_profile("감기약", pregnant) == "감기약 (질환: 임신 중)"


def _offered(pred) -> set[str]:
    return {c["product"] for c in pred.citations if c["cited"] and c["id"].startswith("easydrug:")}


def test_a_medicine_in_the_profile_keeps_the_answers_products_less_those_it_forbids(searcher):
    program = CRAG(backend=searcher)
    plain = program(question="두통약 추천해 주세요")
    taking = program(question="두통약 추천해 주세요", user={"medicines": ["와파린"]})
    assert _offered(plain) and _offered(taking) == _offered(plain)  # 와파린 forbids none of the mini corpus's
    assert not any(s["step"] == "rewrite" and "와파린" in s.get("query", "") for s in taking.trace["steps"])
