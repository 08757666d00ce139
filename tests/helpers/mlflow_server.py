"""A real MLflow tracking server on 127.0.0.1 for a test (sqlite backend, local artifact root under tmp_path), with
MLFLOW_TRACKING_URI pointing at it; stopped after the test. Import the fixture with
``from tests.helpers.mlflow_server import *  # noqa: F403``."""

from __future__ import annotations

import os
import shutil
import sys

import mlflow
import pytest

from yaksa.testing.ports import start_process_server, stop


@pytest.fixture
def mlflow_server(tmp_path, monkeypatch):
    if shutil.which("mlflow") is None and not os.path.exists(os.path.join(os.path.dirname(sys.executable), "mlflow")):
        pytest.skip("the mlflow command is not installed")
    store = tmp_path / "server"
    store.mkdir()

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
    url = f"http://127.0.0.1:{port}"
    try:
        monkeypatch.setenv("MLFLOW_TRACKING_URI", url)
        mlflow.set_tracking_uri(url)
        yield url
    finally:
        if mlflow.active_run():
            mlflow.end_run()
        mlflow.dspy.autolog(disable=True)
        mlflow.flush_trace_async_logging()  # traces still queued for this server must go before it stops
        stop(process, 15)


__all__ = ["mlflow_server"]
