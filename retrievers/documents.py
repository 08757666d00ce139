"""The two value types every retriever speaks: a corpus `Document` and a ranked `Hit`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Document:
    """One retrievable passage.

    Example:
        >>> d = Document("easydrug:1:se", "게보린정 ...", {"section": "se"})
        >>> d.source
        'easydrug'
    """

    id: str
    text: str
    metadata: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def source(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def content_hash(self) -> str:
        """MD5 of the text; the index re-embeds a document only when this changes."""
        return hashlib.md5(self.text.encode("utf-8")).hexdigest()

    @property
    def title(self) -> str:
        """A human title: product and section for leaflets, rule type and ingredient for DUR rows."""
        meta = self.metadata
        if self.source == "easydrug":
            return f"{meta.get('item_name', '')} · {meta.get('section_label', meta.get('section', ''))}"
        return f"DUR {meta.get('dur_type', '')} · {meta.get('ingredient', '')}"


@dataclass
class Hit:
    """A document with the score one retrieval stage gave it.

    `scores` keeps every stage's score (bm25, dense, fused, rerank) so traces can show them.
    """

    doc: Document
    score: float
    scores: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.doc.id

    def to_json(self) -> dict:
        return {"id": self.doc.id, "score": round(float(self.score), 6), "metadata": self.doc.metadata}
