"""The intent router is a pure function from intent names to evaluations."""

from programs.turn.router import normalize_intent, route_intents


def test_one_evaluation_per_intent_in_the_given_order():
    specs = route_intents(["OPTIMIZATION", "GENERATION"])
    assert [s.node for s in specs] == ["eval_optimization", "eval_generation"]
    assert specs[1].eval_type == "코드 생성 요청 (Generation)"


def test_single_intent_routes_to_a_single_evaluation():
    assert [s.node for s in route_intents(["GENERATION"])] == ["eval_generation"]


def test_repeats_are_merged_and_spellings_normalized():
    assert [s.name for s in route_intents(["follow-up", " FOLLOW_UP", "hint or query"])] == [
        "FOLLOW_UP",
        "HINT_OR_QUERY",
    ]
    assert normalize_intent(" test case ") == "TEST_CASE"


def test_unknown_or_no_intents_fall_back_to_hint_or_query():
    assert [s.name for s in route_intents(["CHITCHAT"])] == ["HINT_OR_QUERY"]
    assert [s.name for s in route_intents([])] == ["HINT_OR_QUERY"]
    assert [s.name for s in route_intents(["CHITCHAT", "DEBUGGING"])] == ["DEBUGGING"]
