"""Knowledge refinement, the CRAG paper's decompose-then-recompose: split the kept documents into sentence strips,
score each strip against the query, and keep the relevant strips, in document order, as the generator's context.

A DUR rule's first strip is its statement with the dosage forms it binds (programs/dur_rule.py), and refinement
always keeps it: "대상 제형: 일반액상분무제." alone says nothing, and a rule without its forms says too much.

No LM is involved: a strip's score is the share of the query's character bigrams (plus expansion terms) it
contains, with a bonus when the document's section is one the question asks about. Every document keeps at least
its best strip, so the ``[문서 N]`` numbering of the context never changes. The no-LM extractive answer picks its
sentences with the same scorer.

Example:
    >>> from retrievers.documents import Document
    >>> text = "게보린정\\n[부작용] 구역, 구토가 나타날 수 있습니다. 보관은 실온에서 합니다."
    >>> doc = Document("easydrug:1:se", text, {"section": "se"})
    >>> docs, stats = KnowledgeRefiner().refine("게보린 구토", [doc])
    >>> docs[0].text
    '게보린정\\n[부작용] 구역, 구토가 나타날 수 있습니다.'
"""

from __future__ import annotations

from dataclasses import dataclass

from programs import dur_rule
from programs.text import bigrams, expansion_terms, gram_share, split_sentences
from retrievers.documents import Document

STRIP_THRESHOLD = 0.2  # the seed's strip relevance cut
MAX_STRIPS = 4

SECTION_BONUS = 0.2


@dataclass
class Strip:
    doc_index: int
    position: int
    text: str
    score: float


def header_and_body(doc: Document) -> tuple[str, str]:
    """Leaflet texts start with a 'product (ingredients)' line; DUR rules have no header."""
    if doc.source == "easydrug" or (doc.metadata.get("item_name") and "\n" in doc.text):
        head, _, body = doc.text.partition("\n")
        return head, body
    return "", doc.text


def _dur_sentences(doc: Document) -> list[str]:
    """A DUR rule's strips: its statement with its forms first, then its reason's sentences.

    >>> _dur_sentences(Document("dur:bc:1", "[특정연령대금기] 가(A)은(는) 2세미만 환자에게 사용하면 안 됩니다. "
    ...                         "사유: 호흡억제. 대상 제형: 시럽."))
    ['[특정연령대금기] 가(A)은(는) 2세미만 환자에게 사용하면 안 됩니다. 대상 제형: 시럽.', '사유: 호흡억제.']
    """
    head = dur_rule.statement(doc.text)
    if not head:
        return split_sentences(doc.text) or [doc.text]
    reason = doc.text.split(" 사유: ", 1)[1] if " 사유: " in doc.text else ""
    reason = reason.split(" 대상 제형:", 1)[0].strip()
    return [head, *(split_sentences(f"사유: {reason}") if reason else [])]


class KnowledgeRefiner:
    """Decompose documents into scored strips and recompose the relevant ones.

    Args:
        threshold: the minimum strip score to keep.
        max_strips: the most strips one document keeps.
    """

    def __init__(self, threshold: float = STRIP_THRESHOLD, max_strips: int = MAX_STRIPS):
        self.threshold = threshold
        self.max_strips = max_strips

    def strips(self, query: str, docs: list[Document], terms=(), sections=()) -> list[list[Strip]]:
        """Every document's strips with their scores, in document order."""
        grams = bigrams(" ".join([query, *terms, *expansion_terms(query)]))
        out = []
        for i, doc in enumerate(docs):
            _, body = header_and_body(doc)
            bonus = SECTION_BONUS if doc.metadata.get("section") in sections else 0.0
            sentences = _dur_sentences(doc) if doc.id.startswith("dur:") else split_sentences(body) or [body]
            out.append([Strip(i, j, s, round(gram_share(grams, s) + bonus, 4)) for j, s in enumerate(sentences)])
        return out

    def select(self, doc_strips: list[Strip], threshold: float | None = None, limit: int | None = None) -> list[Strip]:
        """The strips of one document worth keeping (at least its best one), in document order."""
        if not doc_strips:
            return []
        threshold = self.threshold if threshold is None else threshold
        limit = limit or self.max_strips
        ranked = sorted(doc_strips, key=lambda s: (-s.score, s.position))
        kept = [s for s in ranked if s.score >= threshold][:limit] or ranked[:1]
        return sorted(kept, key=lambda s: s.position)

    def refine(self, query: str, docs: list[Document], terms=(), sections=()) -> tuple[list[Document], dict]:
        """The documents cut down to their relevant strips, and how much shorter that made the context."""
        refined = []
        total = kept = 0
        for doc, doc_strips in zip(docs, self.strips(query, docs, terms, sections), strict=True):
            chosen = self.select(doc_strips)
            if doc.id.startswith("dur:") and doc_strips and doc_strips[0] not in chosen:
                chosen = [doc_strips[0], *chosen]  # a rule is never quoted without its statement
            total += len(doc_strips)
            kept += len(chosen)
            head, _ = header_and_body(doc)
            body = " ".join(s.text for s in chosen)
            refined.append(Document(doc.id, f"{head}\n{body}" if head else body, doc.metadata))
        before = sum(len(d.text) for d in docs)
        after = sum(len(d.text) for d in refined)
        stats = {
            "strips": total,
            "kept_strips": kept,
            "chars_before": before,
            "chars_after": after,
            "reduction": round(1 - after / before, 4) if before else 0.0,
        }
        return refined, stats
