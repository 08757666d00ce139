import numpy as np
import pytest

from retrievers.vector_cache import VectorCache
from yaksa.testing.hash_embedder import HashEmbedder


def test_fill_embeds_only_missing_texts_and_persists(tmp_path):
    emb = HashEmbedder()
    cache = VectorCache.open(tmp_path / "v.npz", dim=emb.dim, model=emb.name)
    assert cache.fill(["두통", "치통", "두통"], emb.passage, batch_size=1) == 2
    again = VectorCache.open(tmp_path / "v.npz", dim=emb.dim, model=emb.name)
    assert len(again) == 2
    assert again.fill(["두통", "치통", "해열"], emb.passage) == 1
    np.testing.assert_allclose(again.get(["두통"])[0], emb.passage(["두통"])[0], atol=1e-3)


def test_interrupted_fill_resumes_from_the_last_flush(tmp_path):
    emb = HashEmbedder()
    texts = [f"문장 {i}" for i in range(10)]
    calls = {"n": 0}

    def flaky(batch):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return emb.passage(batch)

    cache = VectorCache.open(tmp_path / "v.npz", dim=emb.dim, model=emb.name)
    with pytest.raises(KeyboardInterrupt):
        cache.fill(texts, flaky, batch_size=2, flush_every=2)
    resumed = VectorCache.open(tmp_path / "v.npz", dim=emb.dim, model=emb.name)
    assert len(resumed) == 6
    assert resumed.fill(texts, emb.passage, batch_size=2) == 4


def test_foreign_or_torn_files_are_ignored(tmp_path):
    emb = HashEmbedder()
    path = tmp_path / "v.npz"
    VectorCache.open(path, dim=emb.dim, model="other-model").fill(["a"], emb.passage)
    assert len(VectorCache.open(path, dim=emb.dim, model=emb.name)) == 0
    path.write_bytes(b"not a zip")
    assert len(VectorCache.open(path, dim=emb.dim, model=emb.name)) == 0


def test_verify_rejects_vectors_from_another_model(tmp_path):
    emb = HashEmbedder()
    cache = VectorCache.open(tmp_path / "v.npz", dim=emb.dim, model=emb.name)
    cache.fill(["두통", "기침"], emb.passage)
    assert cache.verify(["두통", "기침"], emb.passage) > 0.99
    with pytest.raises(ValueError, match="disagree"):
        cache.verify(["두통", "기침"], lambda b: emb.passage(["완전히 다른 " + t for t in b]))
