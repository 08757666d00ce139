"""A question that asks why (약은 왜 식후 30분에 먹어요?, 감기약 먹으면 왜 졸려요?): the leaflets say what to do and
what may happen, and seldom why. When no quoted sentence gives a reason for a word of the question (…할 수 있으므로
운전하지 마십시오 explains 운전: the word comes after the reason), the answer says plainly that the leaflets found do
not say why, before what they do say; its outcome is ``not_in_leaflets`` (programs/outcome.py). A claim the asker
heard (…다는데 왜요?) is the claim check's (programs/claim_check.py), not this one's.

Example:
    >>> asks_why("약은 왜 식후 30분에 먹어요?"), asks_why("왜곡된 정보가 많아요"), asks_why("타이레놀 먹어도 돼요?")
    (True, False, False)
    >>> asks_why("해열제 먹으면 열이 어떻게 내려가요? 원리가 궁금"), asks_why("자기전에 어떻게 먹어요?")
    (True, False)
    >>> drowsy = ["졸음이 나타날 수 있으므로 운전하지 마십시오."]
    >>> why_notice("감기약 먹으면 왜 졸려요?", drowsy, ["감기", "졸리"]) == NOTICE  # drowsiness is the reason there
    True
    >>> why_notice("감기약 먹고 왜 운전하면 안 돼요?", drowsy, ["감기", "운전"])
    ''
"""

from __future__ import annotations

import re

# 왜 as a word (왜요, 왜 졸려요), not the first syllable of another (왜곡, 왜소); 어째서; 이유 asked (이유가 뭐예요);
# how it works (원리가 궁금해요, 작용 기전, 열이 어떻게 내려가요): a mechanism is a why the leaflets do not give either
ASKS_WHY = re.compile(
    r"(?<![가-힣])왜(?![곡소])|어째서|이유가?\s*(?:뭐|무엇|있|궁금)|무슨\s*이유"
    r"|원리|작용\s*기전|어떻게\s*(?:작용|내려가|떨어지|듣는|효과가\s*나)"
)
# how a leaflet sentence gives a reason: …하므로, …때문에, …을 위하여 / 위해
REASON = re.compile(r"므로|때문|위하여|위해")
NOTICE = (
    "※ 찾은 설명서에는 그 이유나 원리가 나와 있지 않습니다: 설명서는 어떻게 쓰는지와 무엇을 조심할지를 적을 뿐이라, "
    "아래는 설명서가 적은 내용입니다. 이유는 약사에게 물어보세요."
)


def asks_why(question: str) -> bool:
    """Whether `question` asks why."""
    return bool(ASKS_WHY.search(question))


def gives_reason(sentence: str, words) -> bool:
    """Whether `sentence` gives a reason for one of `words` (the question's words as the leaflets write them): one
    of them written after a reason it states."""
    return any(any(w in sentence[m.end() :] for w in words) for m in REASON.finditer(sentence))


def why_notice(question: str, quoted: list[str], words) -> str:
    """The notice that the leaflets found do not say why ("" when the question does not ask why, nothing is quoted,
    or a quoted sentence gives a reason for one of the question's `words`)."""
    if not asks_why(question) or not quoted:
        return ""
    return "" if any(gives_reason(q, words) for q in quoted) else NOTICE
