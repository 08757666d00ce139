"""What a question names that the corpus does not cover: a supplement (루테인, 오메가3), a kind of medicine sold only
on prescription (혈압약, 당뇨약), an ingredient only the DUR rules know (졸피뎀: a prescription drug, no e약은요
leaflet), a name nobody knows (리피토, 자낙스).

These decide the honest outcome of `programs/outcome.py`: a question about a medicine the corpus lacks is told so
(with what DUR says of its ingredient), never answered with another product's leaflet.

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.names import NameIndex
    >>> leaflet = {"item_name": "게보린정", "item_seq": "1", "main_ingr": "아세트아미노펜"}
    >>> docs = [Document("easydrug:1:efcy", "x", leaflet), Document("dur:cc:1", "x", {"ingredient": "졸피뎀"})]
    >>> names = NameIndex.from_documents(docs)
    >>> supplement_words("루테인이랑 오메가3 같이 먹어도 돼요", names)
    ['루테인', '오메가3']
    >>> dur_only_ingredients(names.match("졸피뎀 먹고 술"), names), dur_only_ingredients(names.match("게보린"), names)
    (['졸피뎀'], [])
    >>> prescription_kinds("혈압 약 먹는데 부작용이 뭐예요", names)
    {'혈압 약': ()}
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from retrievers.names import NameIndex, NameMatch, squash

DATA = Path(__file__).resolve().parent / "data" / "supplement_words.json"
KINDS = Path(__file__).resolve().parent / "data" / "prescription_classes.json"


@lru_cache(maxsize=1)
def _supplements() -> tuple[str, ...]:
    words = json.loads(DATA.read_text(encoding="utf-8"))["words"]
    return tuple(sorted({squash(w).lower() for w in words}, key=len, reverse=True))


def supplement_words(question: str, names: NameIndex) -> list[str]:
    """The supplement words of `question` that no leaflet names as its product or ingredient (longest first, a
    word inside a longer one found counts once)."""
    q = squash(question).lower()
    found: list[str] = []
    for word in _supplements():
        if word in q and not any(word in f for f in found) and not names.match(word):
            found.append(word)
    return sorted(found, key=q.find)


def dur_only_ingredients(found: NameMatch, names: NameIndex) -> list[str]:
    """The question's ingredients that no leaflet contains (only DUR rules name them), when it names no product:
    졸피뎀, 알프라졸람. Display names where the index has them."""
    if found.products:
        return []
    return [names.display.get(c, c) for c in sorted(found.ingredients) if not names.ingredient_products.get(c)]


@lru_cache(maxsize=1)
def _kinds() -> tuple[tuple[re.Pattern, tuple[str, ...]], ...]:
    """Each prescription kind's word as a pattern that allows spaces between its letters (혈압 약), longest first."""
    rows = json.loads(KINDS.read_text(encoding="utf-8"))["classes"]
    words = sorted(((w, tuple(r["ingredients"])) for r in rows for w in r["words"]), key=lambda p: -len(p[0]))
    return tuple((re.compile(r"\s*".join(map(re.escape, w)), re.IGNORECASE), ing) for w, ing in words)


def prescription_kinds(question: str, names: NameIndex) -> dict[str, tuple[str, ...]]:
    """The kinds of prescription-only medicine `question` names (혈압약, 당뇨약; a word inside a longer one found
    counts once), as written, with those of their ingredients the index knows (for their DUR rules); a kind any of
    whose ingredients a leaflet contains is left out (the corpus has the last word)."""
    found: dict[str, tuple[str, ...]] = {}
    for pattern, ingredients in _kinds():
        m = pattern.search(question)
        if m is None or any(m.group(0) in w for w in found):
            continue
        keys = [k for i in ingredients for k in sorted(names.match(i).ingredients)]
        if any(names.ingredient_products.get(k) for k in keys):
            continue
        found[m.group(0)] = tuple(names.display.get(k, k) for k in keys)
    return dict(sorted(found.items(), key=lambda p: question.find(p[0])))
