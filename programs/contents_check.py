"""A question asking whether a medicine holds some substance (돼지 성분이나 젤라틴 들어있나요, 할랄 괜찮은지, 글루텐
들어가 있나요, 비건도 먹어도 돼요): the leaflets name the active ingredients and warn of a few additives (황색5호,
유당, 대두유, 돼지고기에 과민증), never the full list of what a product is made of. When no quoted sentence names the
substance asked (in any of the ways the leaflets write it: 돼지고기, 돼지기원; 유당, 갈락토오스), the answer says the
leaflets found do not say whether it is in it, and where to look (the pack's full list, a pharmacist); its outcome
is ``not_in_leaflets`` (programs/outcome.py). 노자임 asked of by a user allergic to pork quotes 돼지고기에 과민증 …
복용하지 마십시오, and no such notice. What it tastes like (무슨 맛이에요) is in no leaflet either (`taste_notice`).

Example:
    >>> asked_substances("무슬림 친구한테 훼스탈 주려는데 돼지 성분이나 젤라틴 들어있나요? 할랄 괜찮은지")
    ['돼지', '젤라틴', '할랄']
    >>> asked_substances("타이레놀 먹어도 되나요"), asked_substances("돼지고기 먹고 체했어요 소화제 뭐 먹어요")
    ([], [])
    >>> notice("셀리악병 있어서 글루텐 들어가 있나요?", ["이 약에 과민증 환자는 복용하지 마십시오."]) == NOTICE
    True
    >>> notice("돼지고기 알러지 있는데 노자임 먹어도 되나요?", ["돼지고기에 과민증 겸험자는 복용하지 마십시오."])
    ''
"""

from __future__ import annotations

import re

# a substance a product may be made with (an animal's, a grain's, a food's, a dye), and the ways the leaflets write
# it; domain knowledge, reviewed
SUBSTANCES = {
    "돼지": ("돼지",),
    "소고기": ("소고기", "소 또는 돼지", "소, 돼지"),
    "젤라틴": ("젤라틴",),
    "글루텐": ("글루텐", "밀가루", "밀전분", "밀 전분", "소맥"),
    "밀가루": ("밀가루", "밀전분", "밀 전분", "소맥"),
    "할랄": ("돼지",),
    "비건": ("돼지", "소고기", "젤라틴"),
    "동물성": ("돼지", "소고기", "젤라틴"),
    "유당": ("유당", "갈락토오스"),
    "땅콩": ("땅콩",),
    "대두": ("대두",),
    "색소": ("황색", "적색", "청색", "타르트라진"),
}
# asked as something the product holds (들어있나요, 들어가 있나요, 함유, 성분, 포함, 괜찮은지): not 돼지고기 먹고
# 체했어요
HOLDS = re.compile(r"들어\s*(?:있|가|갔|간)|함유|성분|포함|유래|원료|괜찮|먹어도|먹을\s*수|드셔도|써도|되나|돼요|되요")
_WORD = re.compile("|".join(sorted(SUBSTANCES, key=len, reverse=True)))
NOTICE = (
    "※ 찾은 설명서에는 질문한 원료나 첨가물이 들어 있는지는 나와 있지 않습니다: 설명서는 주성분과 일부 첨가물의 "
    "주의만 적습니다. 무엇으로 만들었는지는 제품 포장의 전성분 표시나 약사에게 확인하세요."
)


# what it tastes like (무슨 맛이에요, 맛이 써요?, 딸기맛 있어요): no leaflet says; a flavour a product's name carries
# (딸기향) is its name, not a line
TASTE = re.compile(
    r"무슨\s*맛|어떤\s*맛|맛이\s*(?:어때|어떤|나|있|없|써|쓴|달|단|이상)|맛\s*(?:있어|없어|나요|괜찮)"
    r"|(?:딸기|포도|오렌지|바나나|체리|사과)\s*맛"
)
TASTE_NOTICE = (
    "※ 설명서(e약은요)에는 약의 맛은 나와 있지 않습니다: 아래는 찾은 설명서의 내용입니다. 맛이나 향은 제품 포장이나 "
    "약사에게 확인하세요."
)


def taste_notice(question: str) -> str:
    """`TASTE_NOTICE` when the question asks what a medicine tastes like; "" otherwise.

    >>> taste_notice("어린이 타이레놀 현탁액 무슨 맛이에요?") == TASTE_NOTICE
    True
    >>> taste_notice("맛있는 거 먹고 먹어도 돼요")
    ''
    """
    return TASTE_NOTICE if TASTE.search(question) else ""


def asked_substances(question: str) -> list[str]:
    """The substances (`SUBSTANCES`) the question asks whether the product holds, in the order written; [] when it
    asks of none (a substance eaten, 돼지고기 먹고 체했어요, is no question of what the product holds)."""
    found = list(dict.fromkeys(m.group(0) for m in _WORD.finditer(question)))
    if not found or not HOLDS.search(question):
        return []
    eaten = re.compile(r"(?:" + "|".join(found) + r")\S*\s*(?:먹고|먹었|먹은|먹다가|먹어서)")
    return [] if eaten.search(question) else found


def notice(question: str, quoted: list[str]) -> str:
    """The notice that the leaflets found do not say whether the asked substances are in it ("" when none is asked,
    nothing is quoted, or a quoted sentence names one as the leaflets write it)."""
    asked = asked_substances(question)
    if not asked or not quoted:
        return ""
    text = " ".join(quoted)
    return "" if any(f in text for s in asked for f in SUBSTANCES[s]) else NOTICE
