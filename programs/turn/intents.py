"""The eight intents of a prompt turn: their evaluation type, their Rules criterion, and keyword rules for no LM.

Each intent is judged by the same five rubrics; only the eval type and rubric 4's (Rules) criterion change. The
seed gives the criteria of SYSTEM_PROMPT, GENERATION and OPTIMIZATION; the other five are written in their spirit:
what a well-formed request of that kind states so the AI can do it without guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class IntentSpec:
    """How one intent is evaluated."""

    name: str
    node: str
    eval_type: str
    criterion: str


INTENTS: dict[str, IntentSpec] = {
    spec.name: spec
    for spec in (
        IntentSpec(
            "SYSTEM_PROMPT",
            "eval_system_prompt",
            "시스템 프롬프트 설정 (System Prompt)",
            "AI에게 구체적인 역할을 부여하고, 임무의 범위와 답변 스타일을 명확히 정의했는가?",
        ),
        IntentSpec(
            "RULE_SETTING",
            "eval_rule_setting",
            "규칙 설정 (Rule Setting)",
            "AI가 지켜야 할 제약 조건(언어, 라이브러리, 복잡도, 출력 형식 등)을 구체적이고 확인 가능한 규칙으로 "
            "나열하고, 규칙이 적용되는 범위를 밝혔는가?",
        ),
        IntentSpec(
            "GENERATION",
            "eval_generation",
            "코드 생성 요청 (Generation)",
            "원하는 기능의 입출력 예시를 제공하고, 구현 조건을 상세히 기술했는가?",
        ),
        IntentSpec(
            "OPTIMIZATION",
            "eval_optimization",
            "최적화 요청 (Optimization)",
            "현재 코드의 문제점을 지적하고, 목표 성능이나 구체적인 최적화 전략을 제시했는가?",
        ),
        IntentSpec(
            "DEBUGGING",
            "eval_debugging",
            "디버깅 요청 (Debugging)",
            "오류 메시지나 실패한 입력을 제시하고, 기대 결과와 실제 결과의 차이와 의심되는 코드 부분을 특정했는가?",
        ),
        IntentSpec(
            "TEST_CASE",
            "eval_test_case",
            "테스트 케이스 요청 (Test Case)",
            "검증하려는 조건과 엣지 케이스의 범위(입력 크기, 경계값, 예외 상황)를 명시하고, "
            "기대 출력의 형식을 정했는가?",
        ),
        IntentSpec(
            "HINT_OR_QUERY",
            "eval_hint_query",
            "힌트 또는 질문 (Hint or Query)",
            "막힌 지점과 지금까지의 접근을 밝히고, 정답 코드 대신 어느 수준의 힌트나 설명을 원하는지 정했는가?",
        ),
        IntentSpec(
            "FOLLOW_UP",
            "eval_follow_up",
            "후속 요청 (Follow-up)",
            "이전 답변의 어느 부분을 이어받는지 가리키고, 무엇을 바꾸거나 더할지 구체적으로 요청했는가?",
        ),
    )
}

_A, _Z = r"(?<![A-Za-z])", r"(?![A-Za-z])"
# Cue words per intent. HINT_OR_QUERY and FOLLOW_UP are weak: they count only when no other intent matched,
# except the explicit word "hint" (힌트), which always counts.
KEYWORDS: dict[str, str] = {
    "SYSTEM_PROMPT": r"(?:너는|넌|당신은)\s[^.?!\n]{0,30}?(?:이야|야|이다|입니다|이에요|예요)(?![가-힣])|"
    r"역할을\s?(?:맡|해)|역할로|전문가로서|처럼\s(?:행동|답)|"
    rf"{_A}(?:you are an?|act as|your role is|persona|as an expert){_Z}",
    "RULE_SETTING": r"규칙|앞으로|지금부터|항상[^.?!\n]{0,20}?(?:줘|주세요|하세요|할 것|하라)|"
    rf"{_A}(?:rules?\s*:|follow (?:these|the|my) rules|from now on|for the rest of (?:this|the) (?:session|chat)|"
    rf"always (?:use|answer|respond|reply|write|explain|give|include)|never (?:use|write|give|show|include)){_Z}",
    "GENERATION": r"구현\s?해|짜\s?줘|짜\s?주|풀어\s?줘|풀어\s?주|"
    r"(?:코드|함수|프로그램|풀이|솔루션)(?:를|을)?\s?(?:작성|만들|짜|줘|주세요|보여)|"
    rf"{_A}(?:implement|solve|write (?:a |an |the )?(?:[\w+-]+ ){{0,3}}?(?:code|function|program|solution|script)|"
    rf"give me (?:the )?code){_Z}",
    "OPTIMIZATION": r"최적화|더 빠르게|빠르게|시간\s?초과|메모리\s?초과|효율|복잡도를?\s?(?:줄|낮)|"
    r"O\([^()]*\)\s?(?:으로|로)\s?(?:줄|낮)|"
    rf"{_A}(?:optimi[sz]e|faster|speed (?:it )?up|time limit|times? out|timed out|TLE|more efficient|"
    rf"reduce the complexity){_Z}",
    "DEBUGGING": r"에러|오류|버그|틀렸|틀린|틀려|(?:작동|실행|동작|컴파일)이?\s?안\s?(?:돼|됨|되)|작동하지|실패|"
    r"예외가|런타임|디버그|고쳐|수정\s?해|"
    rf"{_A}(?:error|bug|fix|debug|exception|traceback|wrong answer|doesn't work|not working|crash(?:es)?){_Z}",
    "TEST_CASE": r"테스트\s?케이스|(?:테스트|엣지\s?케이스)[^.?!\n]{0,10}?(?:만들|작성|짜|추가|찾아)|반례|"
    rf"{_A}(?:test cases?|unit tests?|counterexamples?|(?:write|generate|add) (?:\w+ )?tests){_Z}",
    "HINT": rf"힌트|{_A}(?<!type )hints?{_Z}",
    "HINT_OR_QUERY": r"설명해|알려\s?줘|알려\s?주|왜|무엇|뭐야|뭔가요|뭘까|어떻게|어떤|접근|방법|궁금|"
    rf"{_A}(?:explain|why|what (?:is|are|does)|how (?:do|does|should|can|would)|approach|idea){_Z}",
    "FOLLOW_UP": r"이전|앞서|앞에서|위의|위\s?코드|아까|방금|말씀하신|그럼|그러면|이어서|계속|추가로|똑같이|마찬가지로|"
    rf"{_A}(?:previous|earlier|above|continue|also|instead|as well|follow[- ]up|then|the same|same way){_Z}",
}
_PATTERNS = {name: re.compile(pattern, re.I) for name, pattern in KEYWORDS.items()}
_STRONG = ("SYSTEM_PROMPT", "RULE_SETTING", "GENERATION", "OPTIMIZATION", "DEBUGGING", "TEST_CASE")


def keyword_intents(prompt: str) -> list[str]:
    """Guess a turn's intents from cue words, the no-LM stand-in for ``AnalyzeIntent``.

    Args:
        prompt: The user's prompt (fenced code is ignored).

    Returns:
        One or more intent names in the canonical order of ``INTENTS``; HINT_OR_QUERY when nothing matches.

    Example:
        >>> keyword_intents("투 포인터로 코드 작성해줘. 시간 초과 안 나게 최적화도 해줘")
        ['GENERATION', 'OPTIMIZATION']
    """
    prose = re.sub(r"```.*?(?:```|\Z)", " ", prompt, flags=re.S)
    hits = {name for name, pattern in _PATTERNS.items() if pattern.search(prose)}
    found = [name for name in _STRONG if name in hits]
    if "HINT" in hits:
        found.append("HINT_OR_QUERY")
    if not found:
        found = [name for name in ("HINT_OR_QUERY", "FOLLOW_UP") if name in hits] or ["HINT_OR_QUERY"]
    return [name for name in INTENTS if name in found]
