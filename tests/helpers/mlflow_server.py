"""A real MLflow tracking server on 127.0.0.1 for a test (sqlite backend, local artifact root under tmp_path), with
MLFLOW_TRACKING_URI pointing at it; stopped after the test. Import the fixture with
``from tests.helpers.mlflow_server import *  # noqa: F403``."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import mlflow
import pytest

from yaksa.testing.ports import start_process_server, stop


@contextlib.contextmanager
def running_mlflow_server(store: Path) -> Iterator[str]:
    """``mlflow server`` on a free 127.0.0.1 port with its sqlite store and artifacts under `store`; its URL. The test
    is skipped when the mlflow command is missing and fails when the server does not start."""
    if shutil.which("mlflow") is None and not os.path.exists(os.path.join(os.path.dirname(sys.executable), "mlflow")):
        pytest.skip("the mlflow command is not installed")

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


def end_mlflow_use() -> None:
    """After a test: its run ended, autolog off, and traces still queued sent before the server stops."""
    if mlflow.active_run():
        mlflow.end_run()
    mlflow.dspy.autolog(disable=True)
    mlflow.flush_trace_async_logging()


@pytest.fixture
def mlflow_server(tmp_path, monkeypatch):
    store = tmp_path / "server"
    store.mkdir()
    with running_mlflow_server(store) as url:
        monkeypatch.setenv("MLFLOW_TRACKING_URI", url)
        mlflow.set_tracking_uri(url)
        try:
            yield url
        finally:
            end_mlflow_use()


__all__ = ["mlflow_server"]
