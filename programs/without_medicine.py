"""A question that asks what to do without medicine (차멀미 약 말고 안 하는 방법 없나요?, 임신 중에 감기 걸리면 약
말고 뭐 먹으면 좋아요?): the leaflets speak of medicines, never of what to do instead, so the answer says so.

It is asked by 약, alone or ending a kind of medicine, then 말고, 없이 or 대신 (약 말고, 변비약 없이, 약 대신), with
no other medicine after it: 감기약 말고 비염약 먹어도 돼요 and 감기 약 말고 코 스프레이 써도 돼요 ask about another
medicine.
The answer keeps what the leaflets found (what they say of pregnancy, of a child) after a notice that they do not say
what to do without medicine; its outcome is ``not_in_leaflets`` (programs/outcome.py).

Example:
    >>> asks_without_medicine("차멀미 약 말고 안 하는 방법 없나요?"), asks_without_medicine("약 없이 낫는 법 있나요")
    (True, True)
    >>> asks_without_medicine("감기약 말고 비염약 먹어도 돼요?"), asks_without_medicine("감기 약 말고 코 스프레이 써도")
    (False, False)
"""

from __future__ import annotations

import re

from retrievers.question_frame import kind_words

# 약 (alone or ending a kind: 변비약 말고 뭐), then what people write for "instead of medicine"; not 이 약, 그 약,
# 병원 약, 처방약 (one medicine, whose alternative is another)
WITHOUT = re.compile(r"(?<!이\s)(?<!그\s)(?<!병원\s)(?<!병원)(?<!처방\s)(?<!처방)약\s*(?:을|은)?\s*(?:말고|없이|대신)")
NOTICE = (
    "※ 설명서(e약은요)는 의약품의 효능·용법·주의사항을 다룬 자료라, 약을 쓰지 않고 하는 방법은 나와 있지 "
    "않습니다. 아래는 찾은 설명서의 내용이니, 다른 방법은 의사나 약사와 상의하세요."
)


def asks_without_medicine(question: str, names_in=None) -> bool:
    """Whether `question` asks what to do without medicine: 약 말고 / 없이 / 대신, and after it no medicine (약 again,
    약국, a kind of medicine) and, with `names_in` (text -> whether a medicine's name is read in it, misspelt ones
    too), no name.

    >>> asks_without_medicine("약 말고 다른 약 있어요?"), asks_without_medicine("이 약 대신 먹을 수 있는 거 있나요")
    (False, False)
    >>> asks_without_medicine("변비약 말고 뭐 먹으면 좋아요?"), asks_without_medicine("처방약 대신 먹을 거 있나요")
    (True, False)
    """
    m = WITHOUT.search(question)
    if m is None:
        return False
    rest = question[m.end() :]
    if "약" in rest or kind_words(rest):
        return False
    return not (names_in is not None and names_in(rest))


def without_medicine_notice(question: str, names_in=None) -> str:
    """The notice that the leaflets do not say what to do without medicine ("" when it is not asked)."""
    return NOTICE if asks_without_medicine(question, names_in) else ""
