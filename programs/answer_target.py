"""Whether a document is about what the question asks about: a product it names, a product made of an ingredient it
names, a product of a class it names — the test the no-LM self-check applies before it lets a quote answer an
aspect. A sentence about a child in a plaster's leaflet does not say whether a stomach medicine suits a baby.

A DUR row is on target when its ingredient is one the targets are made of (a search may bring an antihistamine's age
rule to a stomach-medicine question); every document is when the question names no medicine and no class the corpus
has (a symptom question: any product for it may answer).

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.names import NameMatch
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> frame = QuestionFrame("위장약 아기한테 먹여도 되나요", Targets(classes=("위장약",)))
    >>> test = on_target(frame, NameMatch(), lambda classes: {"1"})
    >>> [test(Document(f"easydrug:{seq}:atpn", "", {"item_seq": seq})) for seq in ("1", "2")]
    [True, False]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from retrievers.documents import Document
from retrievers.frame_features import document_ingredients
from retrievers.names import NameMatch
from retrievers.question_frame import QuestionFrame


def on_target(
    frame: QuestionFrame,
    named: NameMatch,
    class_members: Callable[[list[str]], Iterable[str]] | None = None,
    canonical: Callable[[str], str] | None = None,
    ingredients_of: Callable[[str], Iterable[str]] | None = None,
) -> Callable[[Document], bool]:
    """``doc -> bool`` for the question's targets: `named` (the names the question writes: products with their brand
    siblings, ingredients as canonical keys), and the products of its classes (`class_members`, the backend's). A
    DUR row is on target when its ingredient or partner is a named ingredient or one a target product is made of
    (`ingredients_of`: item_seq -> its ingredients as a leaflet writes them); `canonical` reads an ingredient as a
    canonical key (default: as written)."""
    products = set(named.products) | set(named.family)
    classes = list(frame.targets.classes)
    members = set(class_members(classes)) if classes and class_members is not None else set()
    if not (products or named.ingredients or members):
        return lambda doc: True
    read = canonical or (lambda s: s)
    chosen = products | members

    @functools.cache  # the targets' ingredients, read once, at the first DUR row (a class has many products)
    def ingredients() -> frozenset[str]:
        found = set(named.ingredients)
        if ingredients_of is not None:
            found |= {read(i) for seq in sorted(chosen) for i in ingredients_of(seq)}
        return frozenset(found - {""})

    def test(doc: Document) -> bool:
        if doc.source == "dur":
            return bool(document_ingredients(doc, read) & ingredients())
        if doc.source != "easydrug":
            return True
        if doc.metadata.get("item_seq") in chosen:
            return True
        return bool(document_ingredients(doc, read) & named.ingredients)

    return test
