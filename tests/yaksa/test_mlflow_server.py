"""A real MLflow tracking server on 127.0.0.1 (sqlite backend, local artifact root): a compile against the stub LM
logs to it over HTTP and registers ``yaksa-crag``, and ``yaksa ask --model models:/yaksa-crag@champion`` loads it back
through the server."""

import contextlib
import io
import json

from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from tests.helpers.mlflow_server import *  # noqa: F403
from yaksa import cli


def test_compile_logs_over_http_and_ask_loads_the_champion_through_the_server(  # noqa: F405
    mlflow_server, fresh_cache, backend, stub, qa_dir, monkeypatch, tmp_path
):
    monkeypatch.chdir(tmp_path)
    argv = [
        "compile", "--optimizer", "bootstrap", "--train", "2", "--dev", "1", "--profile", "baseline", "--promote",
        "--data", str(qa_dir), "--experiment", "server", "--lm", "openai/stub", "--api-base", stub.url,
    ]  # fmt: skip
    assert cli.main(argv) == 0
    client = MlflowClient(mlflow_server)
    version = client.get_model_version_by_alias("yaksa-crag", "champion")
    run = client.get_run(version.run_id)
    assert run.data.params["optimizer"] == "bootstrap"
    assert "dev_score_after" in run.data.metrics
    assert [a.path for a in client.list_artifacts(run.info.run_id, "program")] == ["program/yaksa_state.json"]
    assert not (tmp_path / "mlruns").exists()  # nothing went to the local default store

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["ask", "게보린 부작용", "--model", "models:/yaksa-crag@champion", "--json", "--no-web"])
    pred = json.loads(out.getvalue())
    assert code == 0
    assert pred["citations"]
    assert pred["answer"]
