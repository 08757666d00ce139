import os
import shutil
import sys
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
def ask_on_mini_index(monkeypatch):
    """`yaksa ask` answers from the real searcher over the mini corpus (never an index in the user's cache), with no
    LM, config file or web key from the environment, run from a folder with no yaksa.toml."""
    from yaksa.commands import _backend
    from yaksa.testing.mini_index import real_searcher

    monkeypatch.setattr(_backend, "open_backend", real_searcher)
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "YAKSA_CONFIG", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(Path(__file__).parent)


@pytest.fixture(scope="session")
def mlflow_server_url(tmp_path_factory):
    """A real ``mlflow server`` on 127.0.0.1 (sqlite backend, local artifacts), started once per session (it takes
    seconds); tests keep apart by experiment."""
    from yaksa.testing.ports import start_process_server, stop

    if shutil.which("mlflow") is None and not os.path.exists(os.path.join(os.path.dirname(sys.executable), "mlflow")):
        pytest.skip("the mlflow command is not installed")
    store = tmp_path_factory.mktemp("mlflow_server")

    def command(port: int) -> list[str]:
        return [
            sys.executable, "-m", "mlflow", "server", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
            "--backend-store-uri", f"sqlite:///{store / 'mlflow.db'}",
            "--artifacts-destination", str(store / "artifacts"),
        ]  # fmt: skip

    try:
        process, port = start_process_server(command, lambda port: f"http://127.0.0.1:{port}/health", timeout_s=90)
    except RuntimeError as e:
        pytest.fail(f"mlflow server did not start: {e}")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process, 15)


@pytest.fixture
def mlflow_server(mlflow_server_url, monkeypatch):
    """The session's MLflow server as this test's tracking URI (``$MLFLOW_TRACKING_URI``); autolog is turned off
    and queued traces are sent after the test."""
    import mlflow

    monkeypatch.setenv("MLFLOW_TRACKING_URI", mlflow_server_url)
    mlflow.set_tracking_uri(mlflow_server_url)
    try:
        yield mlflow_server_url
    finally:
        if mlflow.active_run():
            mlflow.end_run()
        mlflow.dspy.autolog(disable=True)
        mlflow.flush_trace_async_logging()  # traces still queued for this server must go before it stops
