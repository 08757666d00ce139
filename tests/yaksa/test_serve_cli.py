"""`yaksa serve` command: loads the program once (fresh, or a JSON state), passes host/port/limits to uvicorn,
warns about other hosts without a token, and turns user mistakes into one-line errors."""

import sys

import pytest

from programs.crag import CRAG
from tests.helpers.shared_mlflow_server import *  # noqa: F403
from yaksa import cli
from yaksa.app import ServeSettings
from yaksa.commands import _backend
from yaksa.testing.mini_index import real_searcher


@pytest.fixture
def served(monkeypatch):
    """Replace the index with the fake backend and uvicorn.run with a recorder."""
    import uvicorn

    calls = []
    monkeypatch.setattr(_backend, "open_backend", real_searcher)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "YAKSA_API_TOKEN", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return calls


def test_defaults_serve_a_fresh_program_on_loopback(served, capsys):
    assert cli.main(["serve"]) == 0
    app, kw = served[0]
    assert kw["host"] == "127.0.0.1"
    assert kw["port"] == 8000
    host = app.state.host
    assert isinstance(host.program, CRAG)
    assert host.scores_mode == "quality"
    assert app.state.settings.api_token is None
    assert host.tracer is None  # no MLFLOW_TRACKING_URI: no traces
    assert "serving on http://127.0.0.1:8000/" in capsys.readouterr().err


def test_limits_and_profile_flags_reach_the_app(served):
    argv = ["serve", "--port", "9001", "--max-concurrent", "3", "--workers", "2", "--timeout", "7"]
    assert cli.main([*argv, "--profile", "baseline", "--no-web", "--scores", "off"]) == 0
    app, kw = served[0]
    s = app.state.settings
    assert kw["port"] == 9001
    assert (s.max_concurrent, s.workers, s.request_timeout_s) == (3, 2, 7.0)
    program = app.state.host.program
    assert program.settings.refine_strategy == "basic_rag"
    assert program.settings.web_references is False
    assert app.state.host.scorer is None


def test_loads_a_saved_json_state(served, tmp_path):
    program = CRAG(backend=real_searcher())
    program.generator.generate.demos = [{"question": "q", "context": "c", "answer": "게보린 데모 [문서 1]"}]
    path = tmp_path / "crag.json"
    try:
        from programs.loading import save_state

        save_state(program, path, profile="full_context_engineering")
    except ImportError:
        program.save(str(path))
    assert cli.main(["serve", "--model", str(path)]) == 0
    loaded = served[0][0].state.host.program
    assert loaded.generator.generate.demos[0]["answer"] == "게보린 데모 [문서 1]"
    plain = tmp_path / "plain.json"
    program.save(str(plain))  # a state saved by dspy itself, with no yaksa header
    assert cli.main(["serve", "--model", str(plain)]) == 0
    assert served[1][0].state.host.program.generator.generate.demos[0]["answer"] == "게보린 데모 [문서 1]"


def test_other_hosts_need_a_token_or_insecure(served, capsys, monkeypatch):
    assert cli.main(["serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "YAKSA_API_TOKEN" in err
    assert "--insecure" in err
    assert err.count("\n") == 1
    assert not served
    assert cli.main(["serve", "--host", "0.0.0.0", "--insecure"]) == 0
    assert "without YAKSA_API_TOKEN" in capsys.readouterr().err
    assert served[0][0].state.settings.allowed_hosts is None
    monkeypatch.setenv("YAKSA_API_TOKEN", "t0ken")
    assert cli.main(["serve", "--host", "0.0.0.0"]) == 0
    assert "without YAKSA_API_TOKEN" not in capsys.readouterr().err
    assert served[1][0].state.settings.api_token == "t0ken"


def test_loopback_serves_only_loopback_host_names_with_a_header_timeout(served):
    assert cli.main(["serve"]) == 0
    app, kw = served[0]
    assert app.state.settings.allowed_hosts == ("127.0.0.1", "localhost", "::1")
    assert kw["http"].__name__ == "TimedH11Protocol"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["serve", "--model", "/nonexistent/crag.json"], "cannot load /nonexistent/crag.json"),
        (["serve", "--profile", "magic"], "unknown profile 'magic'"),
        (["serve", "--port", "0"], "--port must be between 1 and 65535"),
        (["serve", "--max-concurrent", "0"], "max_concurrent and workers must be at least 1"),
        (["serve", "--scores", "ragas"], "RAGAS scores need a judge LM"),
        (["serve", "--trace-sample", "1.5"], "trace_sample must be between 0 and 1, not 1.5"),
    ],
)
def test_user_mistakes_are_one_line_errors(served, capsys, argv, message):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert not served


def test_mlflow_uris_need_the_loader(served, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "programs.loading", None)  # as if programs/loading.py were absent
    assert cli.main(["serve", "--model", "models:/yaksa-crag@champion"]) == 2
    assert "needs programs/loading.py" in capsys.readouterr().err


@pytest.mark.parametrize("token", ["   ", "\t", " s3cret", "s3cret\n"])
def test_a_token_no_request_could_send_is_refused_at_startup(served, capsys, monkeypatch, token):
    monkeypatch.setenv("YAKSA_API_TOKEN", token)
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yaksa: error: the API token (YAKSA_API_TOKEN / api_token) is ")
    assert "every client would get 401" in err
    assert err.count("\n") == 1
    assert not served
    with pytest.raises(ValueError, match="whitespace"):
        ServeSettings(api_token=token)


def test_a_trace_sample_from_the_environment_that_is_not_a_number_is_one_line(served, capsys, monkeypatch):
    monkeypatch.setenv("YAKSA_TRACE_SAMPLE", "often")
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "trace_sample must be a number between 0 and 1, not 'often'" in err
    assert err.count("\n") == 1


def test_a_tracking_uri_turns_tracing_on_at_the_sample_given(served, capsys, shared_mlflow_server, monkeypatch):
    monkeypatch.setenv("MLFLOW_EXPERIMENT_NAME", "serve-cli-traces")
    assert cli.main(["serve", "--trace-sample", "0.25"]) == 0
    app, _ = served[0]
    tracer = app.state.host.tracer
    assert (tracer.sample, tracer.experiment) == (0.25, "serve-cli-traces")
    assert f"tracing 25% of questions to {shared_mlflow_server}" in capsys.readouterr().err


def test_a_tracking_server_that_is_down_is_one_line_before_serving(served, capsys, monkeypatch):
    from yaksa.testing.ports import free_port

    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"http://127.0.0.1:{free_port()}")  # nothing listens there
    assert cli.main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "does not answer" in err and "unset MLFLOW_TRACKING_URI" in err
    assert err.count("\n") == 1
    assert not served
