"""How long after a medicine a mother may nurse (타이레놀 먹고 몇 시간 지나야 젖 물려도 돼요, 수유는 약 먹고 언제
해요): the leaflets say whether a nursing mother may take it (수유부는 … 상의하십시오), never how long to wait before
feeding; a dose's interval (4~6시간 간격) is no answer to it. The frame asks about breastfeeding first and drops the
dose's timing (its hours are the wait asked, not when the next dose goes); `programs/nursing_gap_notice.py` says
what the leaflets do not.

Example:
    >>> asks_nursing_gap("타이레놀 먹고나서 몇시간 지나야 젖 물려도 되는거에요?")
    True
    >>> asks_nursing_gap("수유중인데 약 먹고 언제 모유 먹여도 돼요")
    True
    >>> asks_nursing_gap("수유중인데 타이레놀 몇시간마다 먹어요")
    False
    >>> gap_aspects(["timing_food", "breastfeeding", "dosage"])
    ['breastfeeding', 'dosage']
"""

from __future__ import annotations

import re

# feeding the baby: nursing, giving the breast or breast milk, pumping (수유, 젖 물려도, 모유 먹여도, 유축)
_FEEDING = r"(?:수유(?!\s*중|부)|젖\s*(?:을\s*)?(?:물|먹|줘|주)|모유\s*(?:를\s*)?(?:먹|줘|주|수유)|유축)"
# a wait asked (몇 시간, 몇 분, 얼마나, 언제), then or before the feeding
GAP = re.compile(
    r"(?:몇\s*시간|몇\s*분|얼마나|얼마\s*(?:후|뒤|있다)|언제)[^?？.!]{0,20}?"
    + _FEEDING
    + r"|"
    + _FEEDING
    + r"[^?？.!]{0,12}?(?:몇\s*시간|몇\s*분|얼마나|언제)"
)


def asks_nursing_gap(question: str) -> bool:
    """Whether `question` asks how long after the medicine to wait before feeding the baby (`GAP`)."""
    return bool(GAP.search(question))


def gap_aspects(aspects) -> list[str]:
    """Breastfeeding first, then what else the question asks, less the dose's timing (the hours are the wait)."""
    return ["breastfeeding", *(a for a in aspects if a not in ("breastfeeding", "timing_food"))]
