"""No global state crosses from one test to the next (tests/conftest.py): the first test changes the DSPy cache and
the MLflow tracking URI, the second (pytest runs a module's tests in order) finds them as they were."""

import os

import dspy
import mlflow

CHANGED: dict = {}


def test_a_test_changes_the_dspy_cache_and_the_mlflow_uri(tmp_path):
    CHANGED["before"] = (os.environ.get("MLFLOW_TRACKING_URI"), mlflow.get_tracking_uri())
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True, memory_max_entries=7)
    dspy.cache.put({"q": 1}, "cached by the first test")
    assert dspy.cache.get({"q": 1}) == "cached by the first test"
    mlflow.set_tracking_uri(f"sqlite:///{tmp_path / 'elsewhere.db'}")
    CHANGED["cache"], CHANGED["uri"] = dspy.cache, mlflow.get_tracking_uri()


def test_the_next_test_finds_them_as_they_were():
    assert CHANGED, "runs after the test above"
    assert dspy.cache is not CHANGED["cache"]
    assert dspy.cache.enable_memory_cache
    assert not dspy.cache.enable_disk_cache  # each test's own cache never writes to ~/.dspy_cache
    assert dspy.cache.get({"q": 1}) is None
    assert (os.environ.get("MLFLOW_TRACKING_URI"), mlflow.get_tracking_uri()) == CHANGED["before"]
    assert mlflow.get_tracking_uri() != CHANGED["uri"]


def test_no_test_sees_the_users_home_or_index():
    """The suite runs in an empty home: a test that forgot the mini index meets no index, on any machine."""
    import pwd
    from pathlib import Path

    from retrievers.index_open import open_searcher
    from retrievers.index_store import default_index_dir

    real_home = pwd.getpwuid(os.getuid()).pw_dir
    assert Path.home() != Path(real_home)
    assert not default_index_dir().exists()
    assert not str(default_index_dir()).startswith(real_home)
    try:
        open_searcher()
    except Exception as e:  # IndexMissing: the message names the command that builds one
        assert "yaksa index" in str(e)
    else:
        raise AssertionError("a searcher opened without an index")
