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

import re
from collections.abc import Callable, Sequence

from retrievers.documents import Document

CITE = re.compile(r"\[문서\s*([\d,\s]+)\]")  # "[문서 2]", "[문서 1, 3]": the one form an answer cites in


def cite(numbers) -> str:
    """The citation of document positions, as answers write it.

    >>> cite([3, 1])
    '[문서 3, 1]'
    """
    return f"[문서 {', '.join(map(str, numbers))}]"


def quote_line(n: int, doc: Document, text: str) -> str:
    """A sentence of document `n` quoted on a line of its own, said whose it is.

    >>> quote_line(2, Document("easydrug:1:atpn", "x", {"item_name": "게보린정(수출명:돌로린정)"}), "상의하십시오.")
    '게보린정: 상의하십시오. [문서 2]'
    """
    return f"{short_product(doc)}: {text} {cite([n])}"


def cite_numbers(text: str) -> list[int]:
    """Every document number `text` cites, in order, repeats kept.

    >>> cite_numbers("구역 [문서 2]. 두통 [문서 1, 3]")
    [2, 1, 3]
    """
    return [int(n) for group in CITE.findall(text) for n in re.findall(r"\d+", group)]


def numbered(
    docs: Sequence[Document],
    chars: int | None = None,
    titled: bool = True,
    note: Callable[[Document], str] | None = None,
) -> str:
    """Documents as every prompt shows them: "[문서 N] title" (with `note`'s line ending, if any), then the text cut
    to `chars`; the number is what an answer cites.

    >>> meta = {"item_name": "게보린정", "section_label": "이상반응"}
    >>> print(numbered([Document("easydrug:1:se", "게보린정 구역.", meta)], chars=4))
    [문서 1] 게보린정 · 이상반응
    게보린정
    """
    blocks = []
    for i, d in enumerate(docs, 1):
        head = f"{cite([i])} {d.title}{note(d) if note else ''}" if titled else cite([i])
        text = d.text if chars is None else d.text[:chars]
        blocks.append(f"{head}\n{text}" if titled else f"{head} {text}")
    return "\n\n".join(blocks)


def product(doc: Document) -> str:
    """The product a document is about: its item name, or a DUR rule's ingredient ("" when it has neither)."""
    meta = doc.metadata
    return str(meta.get("item_name") or meta.get("ingredient", ""))


def short_product(doc: Document) -> str:
    """The product's name as answers say it: `product` (or the title) without its parenthesised tail.

    >>> short_product(Document("easydrug:1:se", "", {"item_name": "탁센연질캡슐(나프록센)"}))
    '탁센연질캡슐'
    """
    name = product(doc) or doc.title
    return re.sub(r"\(.*", "", str(name)).strip() or str(name)


def section(doc: Document) -> str:
    """The section a document is: the leaflet section's label, or a DUR rule's type ("" when it has neither)."""
    meta = doc.metadata
    return str(meta.get("section_label") or meta.get("dur_type", ""))


def citation(n: int, doc: Document, cited: bool) -> dict:
    """The citation of document `n` (1-based, as ``[문서 n]`` in the answer)."""
    return {"n": n, "id": doc.id, "title": doc.title, "product": product(doc), "section": section(doc), "cited": cited}
