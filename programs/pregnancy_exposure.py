"""A medicine used before the asker knew she was pregnant (임신인 줄 모르고 감기약 며칠 먹었어요, 먹고 나서 임신인 걸
알았어요; retrievers/unknowing_use.py): the leaflets and DUR say whether a pregnant woman may use a medicine, never
what a use already made did to the pregnancy. The answer says so before what they do say of pregnancy, and tells
her to bring what she used, how much and when, to her obstetrician or a pharmacist.

Example:
    >>> from retrievers.population import Population
    >>> from retrievers.question_frame import QuestionFrame
    >>> pregnant = Population("pregnant", "임신 초기")
    >>> notice(QuestionFrame("임신인줄 모르고 감기약 며칠 먹었어요", population=pregnant)) == NOTICE
    True
    >>> notice(QuestionFrame("임신 중인데 감기약 먹어도 돼요", population=pregnant))
    ''
    >>> notice(QuestionFrame("모르고 두 번 먹었어요"))  # no pregnancy stated
    ''
"""

from __future__ import annotations

from retrievers.unknowing_use import used_unknowing

NOTICE = (
    "※ 설명서(e약은요)와 DUR은 임신 중에 써도 되는지를 적을 뿐, 임신인 줄 모르고 이미 쓴 약이 태아에게 어떤 영향을 "
    "주는지는 적지 않습니다: 아래는 설명서와 DUR이 임신에 대해 적은 내용입니다. 쓴 약의 이름과 양, 시기를 "
    "산부인과 의사나 약사에게 알리고 상담하세요."
)


def notice(frame) -> str:
    """The notice for a question (its `QuestionFrame`) about a use made before a pregnancy was known; "" otherwise."""
    return NOTICE if frame.population.group == "pregnant" and used_unknowing(frame.question) else ""
