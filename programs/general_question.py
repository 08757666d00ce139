"""A question about medicines in general, not one of them (전문의약품이랑 일반의약품 차이가 뭐예요, 먹다 남은 약
어떻게 버려요, 처방전 없이 살 수 있는 약): the leaflets describe one product each and DUR one ingredient each, so
neither says how medicines are classified, prescribed or thrown away. Such a question is about medicine — never out of
scope — and its answer says the leaflets do not cover it and points to a pharmacist, quoting nothing (another
product's leaflet would read as the answer); its outcome is ``not_in_leaflets`` (programs/outcome.py), with no LM
call.

It is read by the words of the medicine system (reviewed domain vocabulary, `SYSTEM`), in a question that names no
product, ingredient, kind of medicine or symptom of its own (처방약, 약국약, 물약 name none: `ANY_KIND`): 타이레놀
버려도 돼요 asks about 타이레놀.

Example:
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> asks_in_general(QuestionFrame("전문의약품이랑 일반의약품 차이가 뭐에요?"))
    True
    >>> asks_in_general(QuestionFrame("먹다남은 약 어떻게 버려요?")), asks_in_general(QuestionFrame("약 먹고 버스"))
    (True, False)
    >>> asks_in_general(QuestionFrame("타이레놀 남은 거 버려요?", Targets(products=("타이레놀",))))
    False
"""

from __future__ import annotations

import re

# how medicines are classified and sold (전문의약품, 일반의약품, 의약외품, 안전상비의약품, 처방전 없이), and how
# leftover medicine is thrown away (남은 약 버리는 법, 폐의약품 수거): the system, not a product
SYSTEM = re.compile(
    r"전문\s*의약품|일반\s*의약품|의약\s*외품|상비\s*의약품|약국\s*약이랑|처방\s*약이랑|처방전\s*(?:없이|있어야|이\s*필요|필요)"
    r"|(?:일반|전문)\s*약\s*(?:이랑|과|은|는|이|차이)"
    r"|상비\s*약\s*(?:이랑|과|은|는|이|차이)|폐\s*의약품"
    r"|(?:(?:(?<![가-힣])|(?<=물)|(?<=가루)|(?<=알))약(?![속간혼관점])|영양제)[^?？.!]{0,20}?(?:버려|버리|버림|폐기|수거)"
)
# words the class reader takes for kinds that name no kind of medicine, only how it is sold or its form (처방약,
# 약국약, 상비약, 물약, 영양제): beside a word of `SYSTEM` they are what the question says of medicines in general
ANY_KIND = frozenset({"처방약", "약국약", "상비약", "일반약", "전문약", "물약", "가루약", "알약", "영양제"})
ANSWER = (
    "설명서(e약은요)는 제품 하나하나의 효능·용법·주의사항을, DUR은 성분의 사용 규칙을 다룬 자료라, 의약품을 어떻게 "
    "나누고 파는지(전문의약품·일반의약품, 처방전), 남은 약을 어떻게 버리는지 같은 의약품 전반의 내용은 나와 있지 "
    "않습니다. 가까운 약국의 약사에게 물어보세요."
)


def asks_in_general(frame) -> bool:
    """Whether the question (its `QuestionFrame`) asks about medicines in general: a word of `SYSTEM`, and no target
    of its own (product, ingredient, kind of medicine, symptom)."""
    targets = frame.targets
    if targets.products or targets.ingredients or set(targets.classes) - ANY_KIND or targets.symptoms:
        return False
    return bool(SYSTEM.search(frame.question))
