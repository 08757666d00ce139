"""The turn evaluator end to end with scripted LMs: the seed's two scenarios, failures, and the no-LM path."""

import threading

import dspy
import pytest
from dspy.utils import DummyLM
from turn_scripted_lm import by_request, evaluation, rubrics, scripted_lm

from programs.turn import TurnEvaluator

GENERATION_PROMPT = "투 포인터로 두 수의 합 코드 작성해줘. N <= 10^5, 예시: 입력: 1 2 3 / 5 → 출력: 2 3"
BOTH_PROMPT = "두 수의 합 코드 작성해줘. 그리고 시간 초과가 나지 않게 O(n log n)으로 최적화해줘."


def test_scenario_1_single_generation_intent_gives_one_evaluation():
    lm = DummyLM(
        {
            "(Generation)": {"rubrics": rubrics(85), "final_reasoning": "조건과 예시가 구체적", "score": 85},
            "[[ ## user_prompt ## ]]": {"intents": ["GENERATION"]},
        }
    )
    with dspy.context(lm=lm):
        result = TurnEvaluator()(prompt=GENERATION_PROMPT, problem_title="두 수의 합", algorithms=["two pointers"])
    log = result.turn_log
    assert result.intents == ["GENERATION"]
    assert log.intent_source == "lm"
    assert [e.node for e in log.evaluations] == ["eval_generation"]
    evaluation_ = log.evaluations[0]
    assert (evaluation_.status, evaluation_.score, evaluation_.scored_by) == ("ok", 85.0, "lm")
    assert evaluation_.rubrics["rules"].score == 85.0
    assert evaluation_.final_reasoning == "조건과 예시가 구체적"
    assert result.score == log.turn_score == 85.0
    assert len(lm.history) == 2  # intent analysis + one evaluation
    request = lm.history[1]["messages"][-1]["content"]
    for expected in (
        "코드 생성 요청 (Generation)",
        "원하는 기능의 입출력 예시를 제공하고, 구현 조건을 상세히 기술했는가?",
        "두 수의 합",
        "two pointers",
        '"word_count": 18',
        "90-100점: 단어 수 20-200개",
        GENERATION_PROMPT,
    ):
        assert expected in request
    assert "prompt-engineering expert" in lm.history[1]["messages"][0]["content"]


def test_scenario_2_generation_and_optimization_run_concurrently_and_average():
    answer = by_request(
        ["GENERATION", "OPTIMIZATION"],
        {"(Generation)": evaluation(85), "(Optimization)": evaluation(70)},
    )
    both_in_flight = threading.Barrier(2, timeout=30)

    def reply(prompt):
        if "[[ ## eval_type ## ]]" in prompt:
            both_in_flight.wait()  # passes only when the two evaluations run at once; run one by one, it breaks
        return answer(prompt)

    lm, engine = scripted_lm(reply)
    with dspy.context(lm=lm):
        result = TurnEvaluator()(prompt=BOTH_PROMPT)
    log = result.turn_log
    assert [(e.intent, e.score) for e in log.evaluations] == [("GENERATION", 85.0), ("OPTIMIZATION", 70.0)]
    assert log.turn_score == (85 + 70) / 2 == 77.5
    assert len(engine.calls) == 3  # intent analysis + two evaluations
    first, second = [c for c in engine.calls if "[[ ## eval_type ## ]]" in c["prompt"]]
    assert max(first["start"], second["start"]) < min(first["end"], second["end"])  # the two calls overlap
    assert "최적화 전략" in next(c["prompt"] for c in engine.calls if "(Optimization)" in c["prompt"])


def test_a_malformed_answer_fails_one_evaluation_and_keeps_the_other():
    reply = by_request(
        ["GENERATION", "OPTIMIZATION"],
        {"(Generation)": evaluation(85), "(Optimization)": "잘 쓴 프롬프트네요. 70점 정도?"},
    )
    lm, engine = scripted_lm(reply)
    with dspy.context(lm=lm):
        log = TurnEvaluator()(prompt=BOTH_PROMPT).turn_log
    generation, optimization = log.evaluations
    assert (generation.status, generation.score) == ("ok", 85.0)
    assert (optimization.status, optimization.score, optimization.rubrics) == ("failed", None, {})
    assert optimization.error.startswith("AdapterParseError")
    assert log.turn_score == 85.0
    assert log.notes == ["1 of 2 evaluations failed (OPTIMIZATION); the mean is over the rest"]
    assert len(engine.calls) == 4  # the malformed answer is retried once by dspy's JSON adapter fallback


def test_an_out_of_range_score_is_a_failed_evaluation():
    lm, _ = scripted_lm(by_request(["DEBUGGING"], {"(Debugging)": evaluation(150)}))
    with dspy.context(lm=lm):
        result = TurnEvaluator()(prompt="에러 나요")
    assert result.turn_log.evaluations[0].status == "failed"
    assert result.score is None
    assert result.turn_log.notes == ["every evaluation failed (DEBUGGING); the turn has no score"]


def test_overall_score_outside_0_100_is_rejected_even_when_rubrics_parse():
    answer = {"rubrics": rubrics(50), "final_reasoning": "x", "score": 101}
    lm, _ = scripted_lm(by_request(["DEBUGGING"], {"(Debugging)": answer}))
    with dspy.context(lm=lm):
        failed = TurnEvaluator()(prompt="에러 나요").turn_log.evaluations[0]
    assert failed.status == "failed"
    assert "outside 0-100" in failed.error


def test_unusable_intent_analysis_falls_back_to_keyword_rules():
    def reply(prompt):
        if "[[ ## eval_type ## ]]" not in prompt:
            return "GENERATION, I suppose"
        return evaluation(60)

    lm, _ = scripted_lm(reply)
    with dspy.context(lm=lm):
        log = TurnEvaluator()(prompt="런타임 에러가 나요, 고쳐줘").turn_log
    assert log.intents == ["DEBUGGING"]
    assert log.intent_source == "keyword rules"
    assert log.notes == ["intent analysis failed (AdapterParseError); intents from keyword rules instead."]
    assert log.evaluations[0].scored_by == "lm"
    assert log.turn_score == 60.0


def test_without_an_lm_intents_come_from_keywords_and_scores_from_bands():
    with dspy.context(lm=None):
        result = TurnEvaluator()(prompt=BOTH_PROMPT)
    log = result.turn_log
    assert log.lm is None
    assert log.intent_source == "keyword rules"
    assert result.intents == ["GENERATION", "OPTIMIZATION"]
    assert {e.scored_by for e in log.evaluations} == {"metric bands"}
    assert "LM 없음 (no LM)" in log.notes[0]
    clarity = log.evaluations[0].rubrics["clarity"]
    assert clarity.score == 80.0
    assert "70-89점 구간" in clarity.reason  # 14 words, no specific value: the 70-89 band
    assert log.turn_score == log.evaluations[0].score == (80 + 80 + 60 + 25 + 25) / 5


def test_empty_prompt_is_refused():
    with pytest.raises(ValueError, match="empty"):
        TurnEvaluator()(prompt="  ")


def test_algorithms_may_be_a_comma_separated_string():
    with dspy.context(lm=None):
        log = TurnEvaluator()(prompt="BFS, DP, 정렬로 풀어줘", algorithms="BFS, DFS").turn_log
    assert "필수 알고리즘 언급 예" in log.evaluations[0].rubrics["problem_relevance"].reason


def test_predictors_are_named_for_compile_and_state_round_trips(tmp_path):
    program = TurnEvaluator()
    assert [name for name, _ in program.named_predictors()] == ["analyze_intent", "evaluate"]
    program.evaluate.demos = [dspy.Example(user_prompt="x", score=50.0)]
    program.save(tmp_path / "turn.json")
    loaded = TurnEvaluator()
    loaded.load(tmp_path / "turn.json")
    assert loaded.evaluate.demos[0]["score"] == 50.0
