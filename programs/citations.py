"""How a document is named to the reader: its product (an e약은요 item name, or a DUR rule's ingredient) and its
section (the leaflet section's label, or the DUR rule type). Answers' citations, ``yaksa search`` and
``/v1/search`` all name documents here.

Example:
    >>> from retrievers.documents import Document
    >>> doc = Document("easydrug:1:se", "게보린정 ...", {"item_name": "게보린정", "section_label": "이상반응(부작용)"})
    >>> product(doc), section(doc)
    ('게보린정', '이상반응(부작용)')
    >>> rule = Document("dur:1:1", "...", {"ingredient": "아세트아미노펜", "dur_type": "병용금기"})
    >>> product(rule), section(rule)
    ('아세트아미노펜', '병용금기')
"""

from __future__ import annotations

from retrievers.documents import Document


def product(doc: Document) -> str:
    """The product a document is about: its item name, or a DUR rule's ingredient ("" when it has neither)."""
    meta = doc.metadata
    return str(meta.get("item_name") or meta.get("ingredient", ""))


def section(doc: Document) -> str:
    """The section a document is: the leaflet section's label, or a DUR rule's type ("" when it has neither)."""
    meta = doc.metadata
    return str(meta.get("section_label") or meta.get("dur_type", ""))


def citation(n: int, doc: Document, cited: bool) -> dict:
    """The citation of document `n` (1-based, as ``[문서 n]`` in the answer)."""
    return {"n": n, "id": doc.id, "title": doc.title, "product": product(doc), "section": section(doc), "cited": cited}
