"""A medicine already used before the asker knew she was pregnant (임신인 줄 모르고 탁센 두 알 먹었어요, 임신 초긴데
모르고 파스 붙였어요, 감기약 먹었는데 임신이래요): what she asks is what the use did, not whether to start it. The
tablets taken, the days and the way it was used are told, not asked (no dose, no overdose); what the leaflets say
of pregnancy is what they can give, and they never say what a use already made did to a pregnancy
(`programs/pregnancy_exposure.py` says so).

Example:
    >>> used_unknowing("임신인줄 모르고 생리통인줄 알고 탁센 두알 먹었어요 지금 5주래요 어떡하죠")
    True
    >>> used_unknowing("임신 초긴데 모르고 허리에 파스 붙였어요 괜찮은건가요?")
    True
    >>> used_unknowing("감기약 사흘 먹었는데 오늘 테스트기 해보니 임신이래요")
    True
    >>> used_unknowing("임산부인데 변비약 먹다가 나중에 임신 알았어요 괜찮나요")  # a use, then the pregnancy learnt
    True
    >>> used_unknowing("임신 중인데 타이레놀 먹어도 되나요?"), used_unknowing("임신 테스트 전에 먹어도 돼요?")
    (False, False)
"""

from __future__ import annotations

import re

# a use the question says was already made: taken, put on, sprayed, drunk, injected (먹었, 발랐, 붙였, 넣었, 뿌렸, 마셨)
_USED = (
    r"(?:먹었|먹은|먹고|먹다가|드셨|복용했|복용한|복용하다가|발랐|바른|바르다가|붙였|붙인|넣었|넣은|뿌렸|마셨|맞았"
    r"|썼|사용했)"
)
UNKNOWING = re.compile(
    # 임신인 줄 모르고, 임신초기인지 모르고, 임신한 걸 몰랐어요
    r"임신[^?？.!]{0,12}?(?:모르고|몰랐|몰라서|모른\s*채)(?!\s*\S{0,4}면)"
    # 임신 초긴데 모르고 파스 붙였어요: not knowing, then the use
    r"|(?:모르고|몰랐|몰라서|모른\s*채)[^?？.!]{0,25}?"
    + _USED
    # 감기약 먹었는데 임신이래요, 먹고 나서 임신인 걸 알았어요: the use, then the pregnancy found
    + r"|"
    + _USED
    + r"[^?？.!]{0,30}?임신\s*(?:이래|이라|인\s*걸|인\s*거|이더라|이었|확인|(?:사실)?을?\s*알(?:았|게)|양성"
    + r"|두\s*줄|된\s*걸)"
)
# what the use already made tells rather than asks: how much, how long, how it was taken
TOLD_ASPECTS = frozenset({"dosage", "overdose", "duration", "how_to_take", "missed_dose", "timing_food"})


def used_unknowing(question: str) -> bool:
    """Whether the question says a medicine was used before the pregnancy was known (the caller checks that the
    question is about a pregnant woman)."""
    return bool(UNKNOWING.search(question))


def exposure_aspects(aspects) -> list[str]:
    """The aspects of a question about a use made before the pregnancy was known: pregnancy first, then what else
    it asks, less what the use tells (`TOLD_ASPECTS`).

    >>> exposure_aspects(["pregnancy", "dosage", "overdose"]), exposure_aspects(["duration", "alcohol"])
    (['pregnancy'], ['pregnancy', 'alcohol'])
    """
    return ["pregnancy", *(a for a in aspects if a != "pregnancy" and a not in TOLD_ASPECTS)]
