"""The eight intents as data, their Rules criteria, and the keyword rules used when there is no LM."""

import pytest

from programs.turn.evaluate_turn import ENTRY_POINTS
from programs.turn.intents import INTENTS, keyword_intents
from signatures.turn import Intent

SEED_CRITERIA = {
    "SYSTEM_PROMPT": "AI에게 구체적인 역할을 부여하고, 임무의 범위와 답변 스타일을 명확히 정의했는가?",
    "GENERATION": "원하는 기능의 입출력 예시를 제공하고, 구현 조건을 상세히 기술했는가?",
    "OPTIMIZATION": "현재 코드의 문제점을 지적하고, 목표 성능이나 구체적인 최적화 전략을 제시했는가?",
}


def test_eight_intents_match_the_signature_and_each_has_its_own_criterion():
    assert tuple(INTENTS) == Intent.__args__
    criteria = [spec.criterion for spec in INTENTS.values()]
    assert len(set(criteria)) == 8
    assert all(c.endswith("?") for c in criteria)
    for name, criterion in SEED_CRITERIA.items():
        assert INTENTS[name].criterion == criterion
    assert INTENTS["GENERATION"].eval_type == "코드 생성 요청 (Generation)"
    assert INTENTS["OPTIMIZATION"].eval_type == "최적화 요청 (Optimization)"


def test_every_intent_has_a_thin_entry_point():
    assert sorted(ENTRY_POINTS) == sorted(spec.node for spec in INTENTS.values())


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("너는 알고리즘 튜터야. 답은 한국어로 짧게 해줘.", ["SYSTEM_PROMPT"]),
        ("You are a senior C++ reviewer. Keep answers short.", ["SYSTEM_PROMPT"]),
        ("앞으로 모든 답변은 파이썬으로만 해줘. 외부 라이브러리는 쓰지 마.", ["RULE_SETTING"]),
        ("From now on, always use Python 3 and never use recursion.", ["RULE_SETTING"]),
        ("두 수의 합 문제를 해시맵으로 푸는 코드 작성해줘", ["GENERATION"]),
        ("Write a BFS solution for the maze problem.", ["GENERATION"]),
        ("이 코드가 시간 초과가 나요. 더 빠르게 바꿔주세요", ["OPTIMIZATION"]),
        ("런타임 에러가 나는데 왜 그런지 봐줘", ["DEBUGGING"]),
        ("My code gives wrong answer on test 3, can you fix it?", ["DEBUGGING"]),
        ("엣지 케이스 테스트 5개 만들어줘", ["TEST_CASE"]),
        ("힌트만 주세요. 답은 말하지 말고요.", ["HINT_OR_QUERY"]),
        ("이 문제는 어떤 알고리즘으로 접근해야 하나요?", ["HINT_OR_QUERY"]),
        ("그럼 아까 코드에 주석도 추가해줘", ["FOLLOW_UP"]),
        ("ok", ["HINT_OR_QUERY"]),
        ("투 포인터로 코드 작성해줘. 시간 초과 안 나게 최적화도 해줘", ["GENERATION", "OPTIMIZATION"]),
        ("```\nprint('error')\n```\n이게 뭐야?", ["HINT_OR_QUERY"]),
    ],
)
def test_keyword_intents(prompt, expected):
    assert keyword_intents(prompt) == expected


def test_explicit_hint_joins_strong_intents_but_weak_question_words_do_not():
    assert keyword_intents("에러가 나요. 힌트만 주세요") == ["DEBUGGING", "HINT_OR_QUERY"]
    assert keyword_intents("에러가 나요. 왜죠?") == ["DEBUGGING"]
