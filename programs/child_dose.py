"""An adult's dose is never quoted as if it applied to a child.

How ages are read (a child's oldest possible age; a sentence for older people only) lives in
`retrievers/age_doses.py`, re-exported here. This module picks a 용법·용량 section's sentences to leave out of a
child's answer (`older_dose_sentences`); the answer then says the dose it found was for older people
(`OLDER_DOSE_NOTICE`).
"""

from __future__ import annotations

import re

from retrievers.age_doses import (
    CHILD_WORDS,
    adult_maximum,
    dose_ages,
    dose_bands,
    for_older_only,
    oldest_age,
    states_dose,
)
from retrievers.population import CHILD_AGE

__all__ = [
    "ADULT_DOSE_ONLY_NOTICE",
    "child_dose_sentences",
    "OLDER_DOSE_NOTICE",
    "doses_older_only",
    "adult_maximum",
    "dose_ages",
    "for_older_only",
    "older_dose_sentences",
    "oldest_age",
    "states_dose",
]

OLDER_DOSE_NOTICE = (
    "※ 찾은 용법·용량 문장은 더 큰 나이(성인 등)의 용량이라 옮기지 않았습니다: 나이에 맞는 용량은 약사에게 확인하세요."
)


ADULT_DOSE_ONLY_NOTICE = (
    "※ {product}의 설명서 용법·용량에는 더 큰 나이(성인 등)의 용량만 있습니다: 아이에게 써도 되는지와 양은 약사에게 "
    "확인하세요."
)


def doses_older_only(sentences: list[str], oldest: float | None, tables: bool = True) -> bool:
    """A 용법·용량 section gives a dose, and every sentence of it that does is for people older than `oldest`
    (판피린큐액: "성인 1회 1병", for a 10-year-old).

    >>> doses_older_only(["성인 1회 1병(20 mL)을 1일 3회 복용합니다."], 11.0)
    True
    >>> doses_older_only(["만 8세 이상~만 15세 미만은 1회 1정", "성인은 1회 2정"], 11.0), doses_older_only([], 11.0)
    (False, False)
    """
    doses = [i for i, s in enumerate(sentences) if states_dose(s)]
    return bool(doses) and set(doses) <= older_dose_sentences(sentences, oldest, tables)


# a change to the dose just given, with no amount of its own (급성설사시의 초기 3일은 1일 용량을 2배로 증량할 수
# 있습니다, after 성인은 1회 3 g): the same person's dose
DOSE_CHANGE = re.compile(r"용량을?\s*\d*\s*배|증량|감량")


def older_dose_sentences(sentences: list[str], oldest: float | None, tables: bool = True) -> set[int]:
    """The positions of a 용법·용량 section's sentences that dose only older people: those `for_older_only` says so
    of, and the dose sentences right after one that state no age of their own ("단, 1일 4정을 초과하지 않습니다"
    after "성인은 1회 1정"), which go on with the same person's dose; a sentence with an age band of its own (1~6세
    유아는 1일 5~10mL), or a child's with none (소아는 1캡슐), is another person's. `tables`: a children's table
    older than the child counts too (the question states the child's age: `retrievers.age_doses.for_older_only`).

    >>> older_dose_sentences(["성인은 1회 1정 복용합니다.", "단, 1일 4정을 초과하지 않습니다.", "식후에 복용합니다."],
    ...                      oldest_age("아기 해열제"))
    {0, 1}
    >>> older_dose_sentences(["성인은 1일 15~30mL를 복용합니다.", "1~6세 유아는 1일 5~10mL를 복용합니다."], 2.0)
    {0}
    >>> older_dose_sentences(["성인은 1회 2캡슐을 복용합니다.", "소아는 1회 1캡슐을 복용합니다."], 6.0)  # a child's own
    {0}
    >>> doubled = "급성설사시의 초기 3일은 1일 용량을 2배로 증량할 수 있습니다."  # the adult's dose, doubled
    >>> older_dose_sentences(["성인은 1회 3 g을 1일 3회 복용합니다.", doubled, "24개월 이상의 소아는 1일 6 g"], 5.0)
    {0, 1}
    >>> lozenge = ["성인, 12세 이상 어린이 및 청소년은 이 약 1개를 녹여서 복용합니다.", "입안에서 굴리면서 복용합니다.",
    ...            "필요시 3~6시간 간격으로 1일 최대 5개를 복용합니다."]  # a way of taking it between: the same dose
    >>> older_dose_sentences(lozenge, 10.0)
    {0, 2}
    >>> older_dose_sentences(["성인 및 8세 이상의 어린이는 1일 1~2포를 복용하십시오.",
    ...                       "증상에 따라 특히 어린이는 이틀마다 1포를 복용할 수 있습니다."], 7.0)  # those children
    {0, 1}
    """
    if oldest is None:
        return set()
    out, older, older_children = set(), False, False
    for i, sentence in enumerate(sentences):
        if for_older_only(sentence, oldest, tables):
            older = True
            # 성인 및 8세 이상의 어린이는 …: the children a following "특히 어린이는 …" with no age speaks of
            older_children = any(w in sentence for w in CHILD_WORDS)
            out.add(i)
        elif older and (states_dose(sentence) or DOSE_CHANGE.search(sentence)) and not dose_ages(sentence):
            if dose_bands(sentence, children=not older_children):
                older = False  # an age band of its own, or a child's dose after an adult's: another person's
            else:
                out.add(i)
        elif (
            older
            and not (states_dose(sentence) or DOSE_CHANGE.search(sentence) or dose_ages(sentence))
            and not any(w in sentence for w in CHILD_WORDS)
        ):
            continue  # how the same person takes it (입안에서 굴리면서 복용합니다): their dose goes on after it
        else:
            older = False
    return out


def child_dose_sentences(sentences: list[str]) -> set[int]:
    """For a question about no child: the positions of a 용법·용량 section's sentences that dose only children (소아는
    1캡슐, 7~10세는 …; no 성인) and the dose sentences right after one that state no age of their own (the child's
    "1일 최대복용량은 3캡슐입니다", which alone reads as everyone's limit); none when the section doses no one else
    (a children's syrup: its doses are what is asked).

    >>> child_dose_sentences(["성인은 1일 최대 8캡슐입니다.", "소아는 1회 1캡슐 복용합니다.", "1일 최대 3캡슐입니다."])
    {1, 2}
    >>> child_dose_sentences(["만 12세 이하의 소아는 1회 권장용량을 복용합니다.", "1일 5회를 넘지 않습니다."])
    set()
    """
    out, child = set(), False
    for i, sentence in enumerate(sentences):
        bands = dose_bands(sentence)
        young = bool(bands) and all(high <= CHILD_AGE + 1 for _, high in bands)
        if states_dose(sentence) and young and "성인" not in sentence:
            child = True
            out.add(i)
        elif child and states_dose(sentence) and not dose_bands(sentence) and "성인" not in sentence:
            out.add(i)
        else:
            child = False
    doses = {i for i, s in enumerate(sentences) if states_dose(s)}
    return out if doses - out else set()
