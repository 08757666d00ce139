"""What a question asks for, and whether an answer addresses it — without an LM.

A question asks for sections (부작용, 용법, 보관 …, as retrieval's section intent found them), raises slots by its
words (술, 임신, 아이, 운전 …), and the user's profile adds its own (pregnant, elderly, a child, medicines,
conditions). `requirements` lists them; `check` says which the answer covers — a section by a cited document of
that section, a slot or profile item by its words in the answer — so the heuristic quality evaluator can name
what is missing and the quality loop can search for it.

Example:
    >>> reqs = requirements("게보린 먹고 술 마셔도 돼?", sections=["intrc"])
    >>> [r.label for r in reqs]
    ['상호작용', '음주']
    >>> [r.label for r in missing(reqs, "게보린은 두통에 씁니다. [문서 1]", {1: "easydrug:1:efcy"})]
    ['상호작용', '음주']
"""

from __future__ import annotations

from dataclasses import dataclass

from programs.citations import cite_numbers
from retrievers.population import a_nursed_baby, read_population, says_word, stated_ages, without_places

# slot: (question words that raise it, answer words that cover it)
SLOTS = {
    "음주": (("술", "음주", "알코올", "소주", "맥주", "와인", "막걸리", "숙취"), ("술", "음주", "알코올")),
    "임신": (("임신", "임산부", "임부", "배속", "뱃속", "태아"), ("임부", "임신", "임산부", "태아")),
    "수유": (("수유", "모유", "젖먹"), ("수유", "모유")),
    "소아": (
        ("아이", "애기", "아기", "어린이", "소아", "유아", "영아", "애한테", "살짜리", "초등"),  # and a child's age
        ("소아", "어린이", "유아", "영아", "세 미만", "세미만", "개월", "어린이"),
    ),
    "고령": (("노인", "어르신", "고령", "할머니", "할아버지", "부모님"), ("고령", "노인", "65세")),
    "운전": (("운전", "기계조작", "기계 조작"), ("운전", "기계")),
}
CHILD_UNDER = 12  # a stated age under this raises the 소아 slot, as a profile's age does (`requirements`)
# the DUR rule type a slot raised by the question's own words calls for (programs/profile.py uses the same names)
SLOT_DUR_TYPES = {"소아": "특정연령대금기", "임신": "임부금기", "고령": "노인주의"}
SECTION_WORDS = {
    "efcy": "효능",
    "useMethod": "복용법",
    "atpnWarn": "경고",
    "atpn": "주의사항",
    "intrc": "상호작용",
    "se": "부작용",
    "depositMethod": "보관법",
    "dur:ac": "병용금기",
    "dur:bc": "연령금기",
    "dur:cc": "임부금기",
    "dur:dc": "용량주의",
    "dur:ec": "투여기간주의",
    "dur:fc": "노인주의",
    "dur:gc": "효능군중복",
    "dur:ic": "첨가제주의",
}
# words a search query gets for a section it should find (the keyword rewrite)
QUERY_WORDS = {
    "efcy": "효능 효과",
    "useMethod": "용법 용량",
    "atpnWarn": "경고",
    "atpn": "주의사항",
    "intrc": "상호작용 함께 복용",
    "se": "이상반응 부작용",
    "depositMethod": "보관 방법",
}


@dataclass(frozen=True)
class Requirement:
    """One thing the answer must address: a section (``kind`` section), a slot or a profile item (``safety``)."""

    label: str
    kind: str
    key: str
    words: tuple[str, ...] = ()


def raised_slots(question: str) -> list[str]:
    """The slots the question's own words raise (술, 임신, 아이 …, a child's age), in `SLOTS` order.

    >>> raised_slots("임신 7개월인데 파스 붙여도 되나요"), raised_slots("18개월 해열제"), raised_slots("7살 감기약")
    (['임신'], ['소아'], ['소아'])

    A pregnant or nursing asker's child word speaks of the baby she carries or nurses, not of who takes the medicine
    (unless the medicine is fed to the baby):

    >>> raised_slots("뱃속 아기 28주차인데 파스 붙여도 돼요"), raised_slots("임신 중인데 5살 첫째 감기약")
    (['임신'], ['임신', '소아'])
    >>> raised_slots("백일 아기 모유 먹이는 중인데 진통제 먹어도"), raised_slots("수유중인데 6개월 아기 해열제 먹여도")
    (['수유'], ['수유', '소아'])
    >>> raised_slots("설사하는데 아이스크림 먹어도 돼요")  # 아이 in 아이스크림 is no child
    []
    """
    compact = "".join(without_places(question).split())  # 할머니댁 가는데: a place, no elderly asker
    ages = stated_ages(question)  # 18개월 아기, 7살: a child's age; 임신 7개월 is none
    nursed = a_nursed_baby(question)
    carried = nursed or read_population(question).group == "pregnant"
    # a nursed baby's age (백일 아기 모유 먹이는 중) is not the asker's
    child = ages is not None and ages[0] < CHILD_UNDER and not nursed
    return [
        slot
        for slot, (asks, _) in SLOTS.items()
        if (any(says_word(w, compact) for w in asks) and not (slot == "소아" and carried)) or (slot == "소아" and child)
    ]


def question_dur_types(question: str) -> list[str]:
    """DUR rule types the question itself calls for: a pregnant asker 임부금기, a child 특정연령대금기, an elderly
    person 노인주의 — as a profile saying so would.

    >>> question_dur_types("임산부 감기약 뭐 먹어야돼요")
    ['임부금기']
    """
    return [SLOT_DUR_TYPES[slot] for slot in raised_slots(question) if slot in SLOT_DUR_TYPES]


def requirements(question: str, sections=(), profile=None) -> list[Requirement]:
    """Sections asked, slots raised by the question's words, and the profile's items, without repeats."""
    out = [Requirement(SECTION_WORDS[s], "section", s) for s in sections if s in SECTION_WORDS]
    raised = raised_slots(question)
    if profile is not None:
        raised += [s for s, on in (("임신", profile.pregnant), ("고령", profile.elderly)) if on]
        if profile.age is not None and profile.age < CHILD_UNDER:
            raised.append("소아")
    out += [Requirement(slot, "safety", slot, SLOTS[slot][1]) for slot in dict.fromkeys(raised)]
    if profile is not None:
        # the medicines taken and the diseases had are not required of every answer: they choose the 병용금기 rows
        # paired with the answer's products (programs/user_rules.py) and the leaflet limits that forbid a product
        # (programs/leaflet_condition_limit.py); a question that names one raises it by its own words
        out += [Requirement(m, "safety", m, (m,)) for m in profile.medicines if m in question]
        out += [Requirement(c, "safety", c, (c,)) for c in profile.conditions if c not in raised and c in question]
    return list({(r.kind, r.key): r for r in out}.values())


def cited_numbers(answer: str) -> list[int]:
    """The document numbers the answer cites, ``[문서 N]`` and ``[문서 1, 2]`` alike, in order, without repeats."""
    return list(dict.fromkeys(cite_numbers(answer)))


def cited_ids(answer: str, numbered: dict[int, str]) -> list[str]:
    """Ids of the documents the answer cites with ``[문서 N]`` (or ``[문서 1, 2]``) that exist in `numbered`."""
    return [numbered[n] for n in cited_numbers(answer) if n in numbered]


def covered(req: Requirement, answer: str, ids: list[str]) -> bool:
    if req.kind == "section":
        if req.key.startswith("dur:"):
            return any(i.startswith(req.key + ":") for i in ids)
        return any(i.endswith(":" + req.key) for i in ids)
    compact = "".join(answer.split())
    return any("".join(w.split()) in compact for w in req.words)


def missing(reqs: list[Requirement], answer: str, numbered: dict[int, str]) -> list[Requirement]:
    """The requirements the answer does not cover."""
    ids = cited_ids(answer, numbered)
    return [r for r in reqs if not covered(r, answer, ids)]
