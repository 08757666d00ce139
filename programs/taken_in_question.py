"""The medicines a question says are being taken beside the one it asks about (울 아부지 혈압약 드시는데 … 액티피드,
아스피린 매일 먹는데 이부프로펜, 타이레놀 먹었는데 판피린 한 병 더): they are the asker's as a profile's ``medicines``
are, so a leaflet's "다른 해열진통제 … 와 함께 복용하지 마십시오" binds the product asked about
(programs/leaflet_pair_limit.py), and the taken medicine's own products get no verdict (programs/user_rules.py).

A medicine is taken when a verb of taking it now (먹는데, 먹고 있는, 드시는데, 복용 중, 먹었는데) follows its name;
one tried before (타이레놀만 먹여봤어요) or asked about (판피린 먹어도) is not. Only a question naming two medicines
or more says one is taken beside another.

Example:
    >>> taken_beside("울 아부지 혈압약 드시는데 코감기 심해서 액티피드 사다드려도 되나요", ["액티피드", "혈압약"])
    ['혈압약']
    >>> taken_beside("아스피린 매일 먹는데 몸살나서 이부프로펜 먹어도 돼요?", ["이부프로펜", "아스피린"])
    ['아스피린']
    >>> taken_beside("6개월 아기도 부루펜 시럽 먹여도 돼요? 타이레놀만 먹여봤어요", ["타이레놀", "부루펜"])
    []
    >>> taken_beside("타이레놀 먹는데 두통이 안 나아요", ["타이레놀"])  # one medicine: the question is about it
    []
"""

from __future__ import annotations

import re

# a verb of taking it now, right after the name (a particle, a strength or 매일 between): 먹는데, 먹고 있어요,
# 드시는데, 복용 중, 먹었는데 (just taken); not 먹어도 (asked) nor 먹여봤어요 (tried once)
TAKING = re.compile(
    r"^\S{0,6}?\s*(?:(?:매일|계속|꾸준히|아침마다|하루\s*\S+)\s*)?"
    r"(?:먹는데|먹고\s*있|먹는\s*중|먹었는데|드시는데|드시고\s*계|드시는\s*중|복용\s*중|복용하고|복용하는데|복용했는데"
    r"|먹이는데|먹이고\s*있|먹였는데|바르는데|붙이는데|맞는데)"
)


def taken_beside(question: str, medicines) -> list[str]:
    """Those of `medicines` (names, ingredients and kinds the question writes) it says are being taken, when it names
    two or more; [] otherwise."""
    names = [m for m in dict.fromkeys(medicines) if m]
    if len(names) < 2:
        return []
    return [m for m in names if any(TAKING.match(question[x.end() :]) for x in re.finditer(re.escape(m), question))]
