"""The notice for a question asking how long after a medicine a mother may nurse (retrievers/nursing_gap.py): the
leaflets say whether a nursing mother may take it, never how long to wait before feeding, so the answer says so
before what they do say of nursing; its outcome is ``not_in_leaflets`` (programs/outcome.py).

Example:
    >>> notice("타이레놀 먹고나서 몇시간 지나야 젖 물려도 되는거에요?") == NOTICE, notice("수유중 타이레놀 먹어도 돼요")
    (True, '')
"""

from __future__ import annotations

from retrievers.nursing_gap import asks_nursing_gap

NOTICE = (
    "※ 설명서(e약은요)에는 약을 쓴 뒤 얼마나 지나 수유해도 되는지는 나와 있지 않습니다: 아래는 설명서가 수유부에 "
    "대해 적은 내용입니다. 수유할 시간은 의사나 약사와 상의하세요."
)


def notice(question: str) -> str:
    """`NOTICE` when the question asks how long to wait before nursing; "" otherwise."""
    return NOTICE if asks_nursing_gap(question) else ""
