"""The reviewed supplement words (`data/supplement_words.json`): health functional foods people take beside medicines,
which e약은요 does not cover unless a leaflet names one as its product or ingredient (`retrievers/not_covered.py`
checks the index's names first). Read by the name matcher too, so it has no import of its own beyond the name keys.

Example:
    >>> supplement_word("크레아틴"), supplement_word("여성청결제"), supplement_word("게보린")
    (True, True, False)
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from retrievers.name_keys import squash

DATA = Path(__file__).resolve().parent / "data" / "supplement_words.json"


@lru_cache(maxsize=1)
def supplements() -> tuple[str, ...]:
    """The supplement words and the quasi-drug ones (의약외품: 여성청결제, 모기기피제) as names are matched (squashed),
    longest first."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    words = [*data["words"], *data.get("quasi_drugs", ())]
    return tuple(sorted({squash(w).lower() for w in words}, key=len, reverse=True))


def supplement_word(word: str) -> bool:
    """Whether `word` (spaces and case ignored) is one of the supplement words."""
    return squash(word).lower() in supplements()
