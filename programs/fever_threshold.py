"""A question asking at what body temperature to start a medicine (아기 열이 몇도부터 해열제를 먹여야 되나요?,
37.8도인데 먹여야 돼요?): no leaflet gives a temperature to start from (a grep of every e약은요 section finds one
"38도 이상 고열" among an antidiarrhoeal's contraindications, none saying when to give a fever reducer), so the answer
says so before the dosing lines it found.

It is asked by 몇 도 with 부터 / 이상 / 넘으면 / 면, or by a temperature written as a number with "should I give it"
(먹여야, 먹일까, 써야, 줘야): 38도 넘는데 몇 미리 먹여요 asks a dose, not when to start.

Example:
    >>> asks_threshold("아기 열이 몇도부터 해열제를 먹여야 되나요?"), asks_threshold("37.8도인데 먹여야 돼요?")
    (True, True)
    >>> asks_threshold("38도 넘는데 해열제 몇 미리 먹여요?"), asks_threshold("해열제 몇 시간 간격으로 먹여요")
    (False, False)
"""

from __future__ import annotations

import re

# 몇 도부터, 몇도 이상이면, 몇 도 넘으면; or 37.8도 / 38℃ … then "should I give it" (먹여야, 먹일까, 써야, 줘야)
THRESHOLD = re.compile(
    r"몇\s*도\s*(?:부터|이상|넘으면|넘어야|면|일\s*때)"
    r"|\d{2}(?:[.,]\d)?\s*(?:도|℃)[^?？.!]{0,20}?(?:먹여야|먹어야|먹일까|먹을까|써야|쓸까|줘야|줄까|넣어야)"
)
NOTICE = (
    "※ 설명서(e약은요)에는 체온이 몇 도일 때부터 약을 쓰는지는 나와 있지 않습니다: 아래는 찾은 설명서의 용법과 "
    "주의사항입니다. 열이 높거나 오래가면 의사의 진료를 받으세요."
)


def asks_threshold(question: str) -> bool:
    """Whether `question` asks at what temperature to start a medicine (`THRESHOLD`)."""
    return bool(THRESHOLD.search(question))
