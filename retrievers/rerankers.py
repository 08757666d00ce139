"""Cross-encoder rerankers: FlagEmbedding's FlagReranker (bge-reranker-v2-m3, FP16 on CUDA) or a
sentence-transformers CrossEncoder. Scores are normalised to [0, 1] (sigmoid) so the seed's thresholds
(MIN_RERANK_SCORE 0.005, OOS top < 0.01) apply to either.

Both need the gpu extra (``pip install 'yaksa[gpu]'``) and weights on disk or in the HF cache; nothing is
downloaded. With none configured the fused score passes through and results say ``scorer="fused"``.

Example:
    >>> rr = load_reranker("cross-encoder:/models/tiny-ce")
    >>> rr.score("두통", ["두통에 먹는 약", "보관법"])
    [0.51, 0.49]
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from retrievers.embedders import model_folder


class RerankerUnavailable(RuntimeError):
    """The reranker cannot be loaded here."""


class Reranker(Protocol):
    name: str

    def score(self, query: str, passages: list[str]) -> list[float]: ...


def _unavailable(model_path: str, error: Exception) -> RerankerUnavailable:
    return RerankerUnavailable(
        f"cannot load reranker {model_path!r} (a local folder or the HF cache; nothing is downloaded): {error}"
    )


def _device(device: str | None) -> str:
    if device:
        return device
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except ImportError:
        return "cpu"


class FlagReranker:
    """bge-reranker-v2-m3 (or any FlagEmbedding reranker) with FP16 on CUDA."""

    def __init__(self, model_path: str, device: str | None = None, max_length: int = 512, batch_size: int = 32):
        try:
            from FlagEmbedding import FlagReranker as _Flag
        except ImportError as e:
            raise RerankerUnavailable("FlagReranker needs the gpu extra: pip install 'yaksa[gpu]'") from e
        self.device = _device(device)
        self.use_fp16 = self.device.startswith("cuda")
        self.name = f"flag:{model_path}"
        self.max_length = max_length
        self.batch_size = batch_size
        try:
            self._model = _Flag(model_folder(model_path), use_fp16=self.use_fp16, devices=self.device)
        except (OSError, ValueError) as e:
            raise _unavailable(model_path, e) from e

    def score(self, query: str, passages: list[str]) -> list[float]:
        if not passages:
            return []
        out = self._model.compute_score(
            [[query, p] for p in passages], normalize=True, max_length=self.max_length, batch_size=self.batch_size
        )
        # a list from one device, an ndarray from FlagEmbedding's multi-device pool, a bare float for one pair
        return [float(x) for x in np.atleast_1d(np.asarray(out, dtype=np.float64))]


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder with a sigmoid on its logits; FP16 on CUDA."""

    def __init__(self, model_path: str, device: str | None = None, max_length: int = 512, batch_size: int = 32):
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as e:
            raise RerankerUnavailable("CrossEncoder needs the gpu extra: pip install 'yaksa[gpu]'") from e
        self.device = _device(device)
        self.name = f"cross-encoder:{model_path}"
        self.batch_size = batch_size
        try:
            self._model = CrossEncoder(model_folder(model_path), device=self.device, max_length=max_length)
        except (OSError, ValueError) as e:
            raise _unavailable(model_path, e) from e
        if self.device.startswith("cuda"):
            self._model.model.half()

    def score(self, query: str, passages: list[str]) -> list[float]:
        import torch

        if not passages:
            return []
        out = self._model.predict(
            [(query, p) for p in passages],
            batch_size=self.batch_size,
            activation_fn=torch.nn.Sigmoid(),
            show_progress_bar=False,
        )
        return [float(x) for x in out]


def load_reranker(spec: str, device: str | None = None) -> Reranker | None:
    """``""`` -> None; ``flag:<path>`` -> FlagReranker; ``cross-encoder:<path>`` -> CrossEncoderReranker."""
    if not spec:
        return None
    kind, _, path = spec.partition(":")
    if not path:
        raise RerankerUnavailable(f"reranker spec {spec!r} must be flag:<path> or cross-encoder:<path>")
    if kind == "flag":
        return FlagReranker(path, device=device)
    if kind in {"cross-encoder", "ce"}:
        return CrossEncoderReranker(path, device=device)
    raise RerankerUnavailable(f"unknown reranker kind {kind!r}: use flag:<path> or cross-encoder:<path>")
