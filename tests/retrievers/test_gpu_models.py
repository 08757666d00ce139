"""The gpu extra's model paths (FlagEmbedding, sentence-transformers) run for real on CPU.

No hub is reachable, so the tests build tiny random BERT models (hidden size 32, 2 layers) with a
WordPiece vocabulary of the Hangul syllables they use, save them the way a hub download would lay them
out, and load them through the same code that loads bge-reranker-v2-m3 and BGE-M3. The FP16 wiring
for CUDA is checked with recording fakes in place of the libraries' classes.
"""

from __future__ import annotations

import os
import re
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")
FlagEmbedding = pytest.importorskip("FlagEmbedding")
sentence_transformers = pytest.importorskip("sentence_transformers")
transformers = pytest.importorskip("transformers")
huggingface_hub_constants = pytest.importorskip("huggingface_hub.constants")

from retrievers.embedders import BGEM3Embedder, EmbedderUnavailable, get_embedder  # noqa: E402
from retrievers.rerankers import (  # noqa: E402
    CrossEncoderReranker,
    FlagReranker,
    RerankerUnavailable,
    load_reranker,
)

QUERY = "두통에 먹는 약"
PASSAGES = ["타이레놀은 두통과 발열에 먹는다", "실온에 보관하고 습기를 피한다", "졸음이 올 수 있으니 운전을 피한다"]
HIDDEN = 32


def _build_tiny_models(root):
    """Write a WordPiece vocab, a tokenizer and two random BERTs (a 1-label cross-encoder, an encoder)."""
    chars = sorted({c for text in [QUERY, *PASSAGES] for c in text if not c.isspace()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars, *(f"##{c}" for c in chars)]
    vocab_file = root / "vocab.txt"
    vocab_file.write_text("\n".join(vocab) + "\n", encoding="utf-8")
    # No lower-casing: BERT's accent stripping would decompose Hangul syllables into jamo.
    tokenizer = transformers.BertTokenizerFast(
        str(vocab_file), do_lower_case=False, strip_accents=False, tokenize_chinese_chars=False
    )
    config = transformers.BertConfig(
        vocab_size=len(vocab),
        hidden_size=HIDDEN,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        num_labels=1,
        initializer_range=0.5,  # wide random weights, so different passages get clearly different scores
    )
    torch.manual_seed(0)
    paths = {}
    for name, auto in [("reranker", transformers.AutoModelForSequenceClassification), ("m3", transformers.AutoModel)]:
        folder = root / name
        auto.from_config(config).eval().save_pretrained(folder)
        tokenizer.save_pretrained(folder)
        paths[name] = str(folder)
    # BGE-M3 ships its ColBERT and sparse heads beside the encoder; BGEM3FlagModel loads them when present.
    torch.save(torch.nn.Linear(HIDDEN, HIDDEN).state_dict(), root / "m3" / "colbert_linear.pt")
    torch.save(torch.nn.Linear(HIDDEN, 1).state_dict(), root / "m3" / "sparse_linear.pt")
    return paths


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return _build_tiny_models(tmp_path_factory.mktemp("tiny-models"))


@pytest.fixture(scope="module")
def rerankers(tiny):
    return {
        "flag": load_reranker(f"flag:{tiny['reranker']}"),
        "cross-encoder": load_reranker(f"cross-encoder:{tiny['reranker']}"),
    }


@pytest.fixture(scope="module")
def bge_m3(tiny):
    return get_embedder("bge-m3", tiny["m3"])


@pytest.fixture
def hub_cache(tiny, tmp_path, monkeypatch):
    """An HF cache holding the tiny models under hub ids, as a past download would have left it."""
    cache = tmp_path / "hub"
    revision = "0" * 40
    for repo, name in [("yaksa-test/tiny-reranker", "reranker"), ("yaksa-test/tiny-bge-m3", "m3")]:
        entry = cache / f"models--{repo.replace('/', '--')}"
        (entry / "refs").mkdir(parents=True)
        (entry / "refs" / "main").write_text(revision)
        shutil.copytree(tiny[name], entry / "snapshots" / revision)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))  # FlagEmbedding's M3 reads the variable
    monkeypatch.setattr(huggingface_hub_constants, "HF_HUB_CACHE", str(cache))  # read at import by the hub client
    return cache


def _reference_scores(model_dir, query, passages):
    """sigmoid(logit) straight from transformers: what both rerankers must reproduce."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(model_dir)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(model_dir).eval()
    with torch.no_grad():
        batch = tokenizer([query] * len(passages), passages, padding=True, return_tensors="pt")
        return torch.sigmoid(model(**batch).logits[:, 0]).tolist()


# --- rerankers on CPU ---------------------------------------------------------------------------------------


def test_empty_spec_means_no_reranker():
    assert load_reranker("") is None


@pytest.mark.parametrize("kind", ["flag", "cross-encoder"])
def test_reranker_runs_in_fp32_on_cpu(rerankers, tiny, kind):
    rr = rerankers[kind]
    assert isinstance(rr, FlagReranker if kind == "flag" else CrossEncoderReranker)
    assert rr.device == "cpu"
    assert rr.name == f"{kind}:{tiny['reranker']}"
    if kind == "flag":
        assert rr.use_fp16 is False
        assert rr._model.use_fp16 is False
        assert next(rr._model.model.parameters()).dtype == torch.float32
    else:
        assert next(rr._model.model.parameters()).dtype == torch.float32
        assert str(next(rr._model.model.parameters()).device) == "cpu"


@pytest.mark.parametrize("kind", ["flag", "cross-encoder"])
def test_reranker_scores_one_probability_per_passage(rerankers, kind):
    rr = rerankers[kind]
    scores = rr.score(QUERY, PASSAGES)
    assert len(scores) == len(PASSAGES)
    assert all(type(s) is float and 0.0 <= s <= 1.0 for s in scores)
    assert rr.score(QUERY, PASSAGES) == scores  # deterministic
    assert max(scores) - min(scores) > 1e-3  # the passage matters
    assert rr.score(QUERY, PASSAGES[::-1]) == pytest.approx(scores[::-1], abs=1e-6)  # scores follow their passage
    assert [rr.score(QUERY, [p])[0] for p in PASSAGES] == pytest.approx(scores, abs=1e-6)  # batching changes nothing
    assert rr.score(PASSAGES[1], PASSAGES) != pytest.approx(scores, abs=1e-3)  # the query matters too
    assert rr.score(QUERY, []) == []


@pytest.mark.parametrize("kind", ["flag", "cross-encoder"])
def test_reranker_scores_are_the_sigmoid_of_the_model_logit(rerankers, tiny, kind):
    expected = _reference_scores(tiny["reranker"], QUERY, PASSAGES)
    assert rerankers[kind].score(QUERY, PASSAGES) == pytest.approx(expected, abs=1e-5)


def test_ce_alias_loads_a_cross_encoder(tiny):
    assert isinstance(load_reranker(f"ce:{tiny['reranker']}"), CrossEncoderReranker)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bogus:/models/x", "unknown reranker kind 'bogus'"),
        ("flag", "must be flag:<path> or cross-encoder:<path>"),
        ("flag:{missing}", "no model folder at"),
        ("cross-encoder:{missing}", "no model folder at"),
        ("flag:yaksa-test/not-in-cache", "HF cache; nothing is downloaded"),
        ("cross-encoder:yaksa-test/not-in-cache", "HF cache; nothing is downloaded"),
    ],
)
def test_unloadable_reranker_says_why(spec, message, tmp_path):
    with pytest.raises(RerankerUnavailable, match=re.escape(message)) as info:
        load_reranker(spec.format(missing=tmp_path / "absent"))
    assert "Repo id must be" not in str(info.value)


@pytest.mark.parametrize("kind", ["flag", "cross-encoder"])
def test_reranker_loads_a_hub_id_from_the_hf_cache_offline(hub_cache, rerankers, kind):
    rr = load_reranker(f"{kind}:yaksa-test/tiny-reranker")
    assert rr.name == f"{kind}:yaksa-test/tiny-reranker"
    assert rr.score(QUERY, PASSAGES) == pytest.approx(rerankers[kind].score(QUERY, PASSAGES), abs=1e-6)


# --- BGE-M3 on CPU ------------------------------------------------------------------------------------------


def test_bge_m3_runs_in_fp32_on_cpu(bge_m3):
    assert isinstance(bge_m3, BGEM3Embedder)
    assert bge_m3.name == "bge-m3"
    assert bge_m3.dim == HIDDEN
    assert bge_m3.device == "cpu"
    assert bge_m3.use_fp16 is False
    assert next(bge_m3._model.model.parameters()).dtype == torch.float32


def test_bge_m3_returns_unit_rows_of_the_hidden_size(bge_m3):
    vecs = bge_m3.passage(PASSAGES)
    assert vecs.shape == (len(PASSAGES), HIDDEN)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(bge_m3.passage(PASSAGES), vecs)  # deterministic
    assert not np.allclose(vecs[0], vecs[1], atol=1e-3)  # different texts, different vectors
    np.testing.assert_allclose(bge_m3.query([QUERY]), bge_m3.passage([QUERY]), atol=1e-6)  # BGE-M3 has no prefixes
    np.testing.assert_allclose(bge_m3.query([PASSAGES[2]])[0], vecs[2], atol=1e-5)  # batching changes nothing
    assert bge_m3.query([]).shape == (0, HIDDEN)


def test_bge_m3_dense_vector_is_the_normalised_cls_state(bge_m3, tiny):
    tokenizer = transformers.AutoTokenizer.from_pretrained(tiny["m3"])
    encoder = transformers.AutoModel.from_pretrained(tiny["m3"]).eval()
    with torch.no_grad():
        cls = encoder(**tokenizer(PASSAGES, padding=True, return_tensors="pt")).last_hidden_state[:, 0].numpy()
    expected = cls / np.linalg.norm(cls, axis=1, keepdims=True)
    np.testing.assert_allclose(bge_m3.passage(PASSAGES), expected, atol=1e-5)


def test_bge_m3_loads_its_colbert_and_sparse_heads(bge_m3, tiny):
    saved = torch.load(os.path.join(tiny["m3"], "sparse_linear.pt"), weights_only=True)
    torch.testing.assert_close(bge_m3._model.model.sparse_linear.weight, saved["weight"])
    saved = torch.load(os.path.join(tiny["m3"], "colbert_linear.pt"), weights_only=True)
    torch.testing.assert_close(bge_m3._model.model.colbert_linear.weight, saved["weight"])


def test_bge_m3_loads_a_hub_id_from_the_hf_cache_offline(hub_cache, bge_m3):
    emb = get_embedder("bge-m3", "yaksa-test/tiny-bge-m3")
    np.testing.assert_allclose(emb.passage(PASSAGES), bge_m3.passage(PASSAGES), atol=1e-6)


@pytest.mark.parametrize(
    ("path", "message"),
    [("{missing}", "no model folder at"), ("yaksa-test/not-in-cache", "HF cache; nothing is downloaded")],
)
def test_unloadable_bge_m3_says_why(path, message, tmp_path):
    with pytest.raises(EmbedderUnavailable, match=re.escape(message)):
        get_embedder("bge-m3", path.format(missing=tmp_path / "absent"))


# --- the CUDA wiring, with recording fakes ------------------------------------------------------------------


class _Recorder:
    """Stands in for a library model class: records how it was built and what it was asked."""

    calls: list

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs
        self.halved = False
        self.model = self  # CrossEncoder.model, and BGEM3FlagModel.model.model.config
        self.config = type("Config", (), {"hidden_size": 8})()
        type(self).calls.append(self)

    def half(self):
        self.halved = True
        return self

    def compute_score(self, pairs, **kwargs):
        self.score_kwargs = kwargs
        return [0.25] * len(pairs)

    def predict(self, pairs, **kwargs):
        self.predict_kwargs = kwargs
        return np.full(len(pairs), 0.75, dtype=np.float32)


@pytest.fixture
def fake_cuda(monkeypatch, tmp_path):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)

    class Fake(_Recorder):
        calls = []

    for module, name in [
        (FlagEmbedding, "FlagReranker"),
        (FlagEmbedding, "BGEM3FlagModel"),
        (sentence_transformers, "CrossEncoder"),
    ]:
        monkeypatch.setattr(module, name, Fake)
    return Fake, str(tmp_path)


def test_flag_reranker_uses_fp16_on_cuda(fake_cuda):
    fake, folder = fake_cuda
    rr = FlagReranker(folder)
    (model,) = fake.calls
    assert model.args == (folder,)
    assert model.kwargs["use_fp16"] is True
    assert model.kwargs["devices"] == "cuda"
    assert (rr.device, rr.use_fp16) == ("cuda", True)
    assert rr.score(QUERY, PASSAGES) == [0.25] * 3
    assert model.score_kwargs["normalize"] is True  # sigmoid, so the seed's thresholds apply


def test_cross_encoder_is_halved_on_cuda(fake_cuda):
    fake, folder = fake_cuda
    rr = load_reranker(f"cross-encoder:{folder}")
    (model,) = fake.calls
    assert model.kwargs["device"] == "cuda"
    assert rr.device == "cuda"
    assert model.halved is True
    assert rr.score(QUERY, PASSAGES) == [0.75] * 3
    assert isinstance(model.predict_kwargs["activation_fn"], torch.nn.Sigmoid)


def test_bge_m3_uses_fp16_on_cuda(fake_cuda):
    fake, folder = fake_cuda
    emb = BGEM3Embedder(folder)
    (model,) = fake.calls
    assert model.kwargs["use_fp16"] is True
    assert model.kwargs["devices"] == "cuda"
    assert (emb.device, emb.use_fp16, emb.dim) == ("cuda", True, 8)


def test_an_explicit_cpu_device_keeps_fp32_even_with_cuda(fake_cuda):
    fake, folder = fake_cuda
    flag = FlagReranker(folder, device="cpu")
    ce = CrossEncoderReranker(folder, device="cpu")
    emb = BGEM3Embedder(folder, device="cpu")
    assert [m.kwargs.get("use_fp16") for m in fake.calls] == [False, None, False]
    assert [m.halved for m in fake.calls] == [False, False, False]
    assert (flag.use_fp16, emb.use_fp16, ce.device) == (False, False, "cpu")
