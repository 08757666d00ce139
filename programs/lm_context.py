"""The generating LM's context from ranked sentences: the same sentence ranking the no-LM answer quotes from
(`programs/extractive.choose`: the question's words, its frame's aspects, who it is for) picks the documents and the
sentences the LM sees, so the sentence that answers is in its context, not only the strips that share the most
characters with the question.

Documents: the user's DUR rules first (as `CRAG.context_documents` put them), then the documents the best sentences
come from, in their order, then the other graded documents, at most `MAX_DOCS`. Each document keeps its header and
its `PER_DOC` best sentences (a quoted sentence always), in document order.

Example:
    >>> from retrievers.documents import Document
    >>> meta = lambda s: {"item_name": "게보린정", "section": s, "item_seq": "1"}
    >>> efcy = Document("easydrug:1:efcy", "게보린정\\n두통, 치통에 사용합니다.", meta("efcy"))
    >>> se = Document("easydrug:1:se", "게보린정\\n구역, 구토, 속쓰림이 나타날 수 있습니다. 드물게 발진.", meta("se"))
    >>> docs, stats = ranked_context("게보린 먹고 속쓰림", [efcy, se], graded=1)
    >>> [d.id for d in docs], stats["from_leaflets"]
    (['easydrug:1:se', 'easydrug:1:efcy'], 1)
"""

from __future__ import annotations

from programs import extractive
from programs.refinement import header_and_body
from programs.sentences import SentenceRanker
from programs.text import split_sentences
from retrievers.documents import Document

MAX_DOCS = 6  # documents in the LM's context (the seed's top 5, plus one the ranking brought in)
PER_DOC = 3  # sentences kept of each document
MAX_QUOTES = 4  # the best sentences whose documents lead the context


def ranked_context(
    question: str,
    pool: list[Document],
    graded: int,
    terms=(),
    sections=(),
    names=(),
    rules: int = 0,
    max_docs: int = MAX_DOCS,
    frame=None,
) -> tuple[list[Document], dict]:
    """(context documents, stats) from `pool`: its first `rules` documents are the user's DUR rules, the next
    `graded` the graded documents, the rest the candidate products' other leaflet sections; at most `max_docs`
    documents beside the rules (a low-relevance answer reads its top 3)."""
    quotes = extractive.choose(question, pool, terms, sections, MAX_QUOTES, names, frame)
    quoted: dict[int, list[str]] = {}
    for q in quotes:
        for n in q.sources:
            quoted.setdefault(n - 1, []).append(q.text)
    lead = [i for i in dict.fromkeys(n - 1 for q in quotes for n in q.sources) if i >= rules]
    order = list(range(rules)) + lead + [i for i in range(rules, rules + graded) if i not in lead]
    order = list(dict.fromkeys(order))[: rules + max_docs]
    ranker = SentenceRanker(question, names)
    docs = [_keep_best(pool[i], ranker, quoted.get(i, [])) for i in order]
    before = sum(len(pool[i].text) for i in order)
    stats = {
        "method": "ranked_sentences",
        "documents": len(docs),
        "from_leaflets": sum(i >= rules + graded for i in order),
        "chars_before": before,
        "chars_after": sum(len(d.text) for d in docs),
    }
    return docs, stats


def _keep_best(doc: Document, ranker: SentenceRanker, quoted: list[str]) -> Document:
    """The document with its header and its best sentences (those quoted always), in document order."""
    head, body = header_and_body(doc)
    sentences = split_sentences(body) or [body]
    if len(sentences) <= PER_DOC:
        return doc
    ranked = sorted(range(len(sentences)), key=lambda j: (-_score(ranker, sentences[j], quoted), j))
    keep = sorted(ranked[:PER_DOC])
    text = " ".join(sentences[j] for j in keep)
    return Document(doc.id, f"{head}\n{text}" if head else text, doc.metadata)


def _score(ranker: SentenceRanker, sentence: str, quoted: list[str]) -> float:
    excerpt = any(q in sentence or sentence in q or _same_start(q, sentence) for q in quoted)
    return ranker.score(sentence) + (10.0 if excerpt else 0.0)


def _same_start(quote: str, sentence: str) -> bool:
    """A long sentence is quoted as an excerpt ("A, … C"): its first words are the sentence's."""
    head = quote.split("…")[0].strip().rstrip(",")
    return len(head) >= 8 and sentence.startswith(head)
