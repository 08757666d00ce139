"""One real MLflow tracking server on 127.0.0.1 for a whole test session (sqlite backend, local artifacts; starting
one takes seconds): ``shared_mlflow_server`` points MLFLOW_TRACKING_URI at it for a test. Tests sharing it keep apart
by experiment. Import the fixtures with ``from tests.helpers.shared_mlflow_server import *  # noqa: F403``."""

from __future__ import annotations

import os
import shutil
import sys

import mlflow
import pytest

from yaksa.testing.ports import start_process_server, stop


@pytest.fixture(scope="session")
def shared_mlflow_server_url(tmp_path_factory):
    if shutil.which("mlflow") is None and not os.path.exists(os.path.join(os.path.dirname(sys.executable), "mlflow")):
        pytest.skip("the mlflow command is not installed")
    store = tmp_path_factory.mktemp("shared_mlflow_server")

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
def shared_mlflow_server(shared_mlflow_server_url, monkeypatch):
    """The session's server as this test's tracking URI; autolog is turned off and queued traces sent after it."""
    monkeypatch.setenv("MLFLOW_TRACKING_URI", shared_mlflow_server_url)
    mlflow.set_tracking_uri(shared_mlflow_server_url)
    try:
        yield shared_mlflow_server_url
    finally:
        if mlflow.active_run():
            mlflow.end_run()
        mlflow.dspy.autolog(disable=True)
        mlflow.flush_trace_async_logging()  # traces still queued for this server must go before it stops


__all__ = ["shared_mlflow_server", "shared_mlflow_server_url"]
