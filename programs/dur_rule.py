"""What one DUR rule's text says (retrievers/corpus.py `dur_sentence` writes it): its statement, the dosage forms it
binds ("대상 제형: 서방정/…") and the age it names ("12세미만 환자에게").

A rule is quoted as its statement with its forms — never the statement alone (an acetaminophen rule that binds
sustained-release tablets would read as forbidding every acetaminophen) and never the forms alone.

Example:
    >>> text = "[특정연령대금기] 가(A)은(는) 12세미만 환자에게 사용하면 안 됩니다. 사유: 없음. 대상 제형: 서방정/시럽."
    >>> print(statement(text))
    [특정연령대금기] 가(A)은(는) 12세미만 환자에게 사용하면 안 됩니다. 대상 제형: 서방정/시럽.
    >>> forms(text), age_limit(text)
    (('서방정', '시럽'), (12.0, '미만', '세'))
"""

from __future__ import annotations

import re

from programs.offer_guard import VERDICT_ONLY
from retrievers.dur_binding import FORMS as _FORMS
from retrievers.dur_binding import rule_forms

forms = rule_forms  # the dosage forms a rule binds ("대상 제형: 서방정/…"), read where retrieval reads them too

RULE_TYPES = ("병용금기", "임부금기", "노인주의", "특정연령대금기", "연령금기")  # the DUR rules that bind a user


def is_user_rule(doc) -> bool:
    """A DUR rule of a kind that applies to the user (by profile or the population the question states); not one
    added only to cite a verdict on a product (programs/offer_guard.py: the marking line cites it where the product
    is named)."""
    kind = doc.metadata.get("dur_type", "")
    return doc.id.startswith("dur:") and kind in RULE_TYPES and not doc.metadata.get(VERDICT_ONLY)


_REST = re.compile(r"\s*(?:사유|대상 제형):")
_AGE = re.compile(r"은\(는\)\s*(\d+)\s*(세|개월|주)\s*(미만|이하|이상|초과)")
_UNIT_YEARS = {"세": 1.0, "개월": 1 / 12, "주": 7 / 365}


_COMBINED = re.compile(r"사유:\s*1일\s*최대\s*용량\s*:\s*([^.]*)")
_NAME = re.compile(r"[가-힣]{2,}")


def combined_with(text: str, ingredient: str) -> tuple[str, ...]:
    """The other ingredients of the combination a 용량주의 row's limit is for, when its 사유 lists several
    ("1일최대용량:아세트아미노펜1,500mg/슈도에페드린180mg/트리프롤리딘염산염/7.5mg"): the limit binds a product
    holding them all, not every product of `ingredient`. () when the 사유 names no other ingredient.

    >>> combined_with("… 사유: 1일최대용량:아세트아미노펜1,500mg/슈도에페드린180mg. 대상 제형: 정제.", "아세트")
    ('슈도에페드린',)
    >>> combined_with("… 사유: 1일최대용량:아세트아미노펜4,000mg. 대상 제형: 정제.", "아세트아미노펜")
    ()
    """
    m = _COMBINED.search(text)
    if not m:
        return ()
    names = [n for n in _NAME.findall(m.group(1)) if n not in ("복합제", "로서", "으로서")]
    return tuple(n for n in dict.fromkeys(names) if n not in ingredient and ingredient not in n)


def statement(text: str) -> str:
    """The rule's statement (its text before 사유 and 대상 제형) and, when it names any, the forms it binds.

    >>> statement("대상 제형: 일반액상분무제.")
    ''
    """
    head = _REST.split(text.strip(), maxsplit=1)[0].strip()
    m = _FORMS.search(text)
    return f"{head} {m.group(0).strip()}" if head and m else head


def age_limit(text: str) -> tuple[float, str, str] | None:
    """(number, 미만/이하/이상/초과, unit) of a 특정연령대금기 rule's age, or None when it names none."""
    m = _AGE.search(text)
    return (float(m.group(1)), m.group(3), m.group(2)) if m else None


def age_binds(limit: tuple[float, str, str] | None, ages: tuple[tuple[float, float], ...]) -> bool:
    """Whether some age in `ages` (ranges in years, [low, high)) falls under the limit; a rule whose age could not
    be read binds every age. "2세이하" holds until the third birthday (whole years, as ages are counted).

    >>> age_binds((12.0, "미만", "세"), ((5.0, 6.0),)), age_binds((2.0, "미만", "세"), ((5.0, 6.0),))
    (True, False)
    >>> age_binds((2.0, "이하", "세"), ((2.0, 3.0),)), age_binds((65.0, "이상", "세"), ((75.0, 76.0),))
    (True, True)
    """
    if not ages:
        return False
    if limit is None:
        return True
    number, op, unit = limit
    step = _UNIT_YEARS[unit]
    bound = number * step
    if op == "미만":
        return any(low < bound for low, _ in ages)
    if op == "이하":
        return any(low < bound + step for low, _ in ages)
    if op == "이상":
        return any(high > bound for _, high in ages)
    return any(high > bound + step for _, high in ages)  # 초과
