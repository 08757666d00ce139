"""One real MLflow tracking server on 127.0.0.1 for a whole test session (sqlite backend, local artifacts; starting
one takes seconds): ``shared_mlflow_server`` points MLFLOW_TRACKING_URI at it for a test. Tests sharing it keep apart
by experiment. Import the fixtures with ``from tests.helpers.shared_mlflow_server import *  # noqa: F403``."""

from __future__ import annotations

import mlflow
import pytest

from tests.helpers.mlflow_server import end_mlflow_use, running_mlflow_server


@pytest.fixture(scope="session")
def shared_mlflow_server_url(tmp_path_factory):
    with running_mlflow_server(tmp_path_factory.mktemp("shared_mlflow_server")) as url:
        yield url


@pytest.fixture
def shared_mlflow_server(shared_mlflow_server_url, monkeypatch):
    """The session's server as this test's tracking URI; autolog is turned off and queued traces sent after it."""
    monkeypatch.setenv("MLFLOW_TRACKING_URI", shared_mlflow_server_url)
    mlflow.set_tracking_uri(shared_mlflow_server_url)
    try:
        yield shared_mlflow_server_url
    finally:
        end_mlflow_use()


__all__ = ["shared_mlflow_server", "shared_mlflow_server_url"]
