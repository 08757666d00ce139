"""Dosage forms in questions and product names: which forms a question names (크림, 시럽, 안약), whether it speaks
of swallowing the medicine, and whether a product is one that is not swallowed.

Example:
    >>> question_forms("클리어틴 크림 바르는 법"), taken_by_mouth("빈속에 먹으면"), external_form("벤지드로션5%")
    (['크림'], True, True)
"""

from __future__ import annotations

import re

from retrievers.name_keys import STRENGTH, squash
from retrievers.name_words import EXTERNAL_FORMS, EXTERNAL_VERBS, ORAL_VERBS, QUESTION_FORMS


def question_forms(query: str) -> list[str]:
    """The dosage forms a question names, as product names write them ("클리어틴 크림" -> ["크림"])."""
    return sorted({name_form for word, name_form in QUESTION_FORMS.items() if word in query})


def taken_by_mouth(query: str) -> bool:
    """Whether the question speaks of swallowing the medicine (먹으면, 복용, 씹어) and of no other way of using it."""
    q = squash(query)
    return any(v in q for v in ORAL_VERBS) and not any(v in q for v in EXTERNAL_VERBS)


def external_form(item_name: str) -> bool:
    """Whether a product name (outside its brackets) ends in a form that is not swallowed: creams, patches, sprays,
    drops, suppositories (이부스타플라스타, 벤지드로션5%; not 겔포스엠현탁액)."""
    name = STRENGTH.sub("", re.sub(r"\(.*?\)|\[.*?\]|\{.*?\}", "", item_name))
    return squash(name).rstrip("0123456789.%").endswith(EXTERNAL_FORMS)
