"""An adult's dose is never quoted as if it applied to a child.

A question about a child (아기, 5살, 20개월, 중학생: `retrievers.population`) reads the 용법·용량 sentences it could
quote by the ages they state. A sentence is **for older people only** when it doses 성인 (adults) and every age it
gives a dose from ("만 12세 이상 소아 및 성인", "15세 이상") is above the child's oldest possible age — the age the
question states, or the top of its group (an infant is under 2, a child under 12, an adolescent under 19). Such a
sentence is left out of a child's answer, and the answer says the dose it found was for older people
(`OLDER_DOSE_NOTICE`). A sentence with an age band the child is in ("만 3세 이상~만 7세 미만은 1회 6.5 mL") is kept.

Example:
    >>> for_older_only("성인은 1회 1정씩, 1일 3회 복용합니다.", oldest_age("아기 해열제 몇미리"))
    True
    >>> for_older_only("만 12세 이상 소아 및 성인은 1회 1~2정씩 복용합니다.", oldest_age("5살 아이 타이레놀"))
    True
    >>> for_older_only("만 3세 이상~만 7세 미만은 1회 6.5 mL, 성인은 1회 20 mL 복용합니다.", oldest_age("5살 아이"))
    False
    >>> for_older_only("성인은 1회 1정씩 복용합니다.", oldest_age("게보린 몇 알 먹어요"))
    False
"""

from __future__ import annotations

from retrievers.age_doses import dose_ages, for_older_only, oldest_age, states_dose

__all__ = ["OLDER_DOSE_NOTICE", "dose_ages", "for_older_only", "older_dose_sentences", "oldest_age", "states_dose"]

OLDER_DOSE_NOTICE = (
    "※ 찾은 용법·용량 문장은 더 큰 나이(성인 등)의 용량이라 옮기지 않았습니다: 나이에 맞는 용량은 약사에게 확인하세요."
)


def older_dose_sentences(sentences: list[str], oldest: float | None) -> set[int]:
    """The positions of a 용법·용량 section's sentences that dose only older people: those `for_older_only` says so
    of, and the dose sentences right after one that state no age of their own ("단, 1일 4정을 초과하지 않습니다"
    after "성인은 1회 1정"), which go on with the same person's dose.

    >>> older_dose_sentences(["성인은 1회 1정 복용합니다.", "단, 1일 4정을 초과하지 않습니다.", "식후에 복용합니다."],
    ...                      oldest_age("아기 해열제"))
    {0, 1}
    """
    if oldest is None:
        return set()
    out, older = set(), False
    for i, sentence in enumerate(sentences):
        if for_older_only(sentence, oldest):
            older = True
            out.add(i)
        elif older and states_dose(sentence) and not dose_ages(sentence):
            out.add(i)
        else:
            older = False
    return out
