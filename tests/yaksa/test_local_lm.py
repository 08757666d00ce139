"""Every role on a real local LM: llama-cpp-python's server with Qwen2.5-Coder-0.5B-Instruct on 127.0.0.1, over the
real searcher on the mini index. Asserts what a real model guarantees, not content: exit 0, a cited answer
(LM-generated or the documented fallback), LM calls within the budget, zero parse failures with structured outputs on
and a counted number with them off, answer tokens streamed out of the JSON replies before the pipeline ends, the
wall-clock budget kept.

Skipped only when the ``local`` extra is not installed (``pip install -e ".[local]"``; CI installs it)."""

import contextlib
import io
import json
import time

import httpx
import pytest

from programs.budget import ROLES
from tests.helpers.lab import *  # noqa: F403
from yaksa import cli
from yaksa.testing.hash_embedder import HashEmbedder
from yaksa.testing.local_lm import MISSING, LlamaServer, local_extra_installed
from yaksa.testing.mini_index import build_mini_index
from yaksa.testing.serve_app import LiveServer, parse_sse

pytestmark = pytest.mark.skipif(not local_extra_installed(), reason=MISSING)

# bounded so one question takes well under a minute on two busy cores (10-20 tokens/s)
SMALL = ["--max-tokens", "48", "--max-tokens", "generate=96", "--time-budget", "45", "--no-web"]


@pytest.fixture(scope="module")
def llama():
    with LlamaServer() as server:
        yield server


@pytest.fixture(autouse=True)
def idle_llama(llama):
    """Each test starts on an idle server: a reply an earlier test's time budget cut is still being written there."""
    llama.wait_idle()
    return llama


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    from retrievers.index_open import open_searcher

    index_dir = tmp_path_factory.mktemp("local-lm") / "index"
    build_mini_index(index_dir)
    return open_searcher(index_dir, embedder=HashEmbedder(), shared=False)


@pytest.fixture
def real_backend(searcher, monkeypatch):
    from yaksa.commands import _backend

    monkeypatch.setattr(_backend, "open_backend", lambda: searcher)
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "TAVILY_API_KEY", "YAKSA_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    return searcher


def ask_json(llama, question, *extra):
    out = io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out):
        code = cli.main(["ask", question, "--lm", llama.model, "--api-base", llama.url, "--json", *extra])
    return code, json.loads(out.getvalue()), time.monotonic() - start


def cited(pred) -> bool:
    """An answer with its sources: the cited documents listed, and the extractive fallback quoting them by number
    (a base model's own text need not carry [문서 N]; what it was given is still listed)."""
    if not pred["citations"] or not pred["answer"].strip():
        return False
    return pred["trace"]["method"] == "lm" or "[문서 " in pred["answer"]


def test_ask_a_product_question_with_every_role_on_the_real_server(llama, real_backend):
    code, pred, took = ask_json(llama, "게보린 먹고 속이 쓰려요", *SMALL)
    trace = pred["trace"]
    assert code == 0
    assert cited(pred)
    assert took < 60
    assert 1 <= trace["lm_calls"]["total"] <= trace["budget"]["limit"]
    assert trace["uses_lm"]
    assert trace["parse_failures"] == {role: 0 for role in ROLES}
    assert all(pred["lm"]["models"][role] == llama.model for role in ROLES)
    assert pred["lm"]["structured"] == {role: "auto" for role in ROLES}  # resolved to json_object+schema (owned_by)


def test_an_out_of_scope_question_makes_no_lm_call(llama, real_backend):
    code, pred, _ = ask_json(llama, "삼성전자 주가 어때요", *SMALL)
    assert code == 0
    assert pred["out_of_scope"]
    assert pred["trace"]["lm_calls"]["total"] == 0


def test_parse_failures_are_counted_with_structured_outputs_off(llama, real_backend):
    code, pred, _ = ask_json(llama, "게보린 먹고 속이 쓰려요", *SMALL, "--structured", "off")
    trace = pred["trace"]
    parse_errors = sum("AdapterParseError" in e for e in trace["errors"])
    assert code == 0
    assert cited(pred)
    assert sum(trace["parse_failures"].values()) == parse_errors


def test_defaults_end_within_the_wall_clock_budget_with_a_cited_answer(llama, real_backend):
    # issue 15: the default limits, nothing bounded by flags; the question must end within its 120 s budget
    code, pred, took = ask_json(llama, "게보린 먹고 속이 쓰려요", "--no-web")
    trace = pred["trace"]
    assert code == 0
    assert cited(pred)
    assert took < 120 + 15
    assert trace["lm_calls"]["total"] <= trace["budget"]["limit"]
    assert trace["parse_failures"] == {role: 0 for role in ROLES}
    for cut in trace["cut"]:  # every cut call says which role and why
        assert cut["role"] in ROLES
        assert cut["why"] in ("unreachable", "slow", "time_budget")
        assert cut["detail"]
    if trace["stop_reason"] == "time_budget_exhausted":
        assert trace["cut"]
        assert "시간을 모두 써서" in pred["answer"]


def test_serve_streams_answer_tokens_from_the_real_model_before_the_pipeline_ends(llama, real_backend, monkeypatch):
    import uvicorn

    servers = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: servers.append(LiveServer(app)) or 0)
    assert cli.main(["serve", "--lm", llama.model, "--api-base", llama.url, "--scores", "off", *SMALL]) == 0
    with servers[0] as server, httpx.Client(timeout=90) as client:
        arrivals = []  # (time, event name) as each event reaches the client
        with client.stream("POST", server.url + "/v1/ask/stream", json={"question": "게보린 부작용 알려줘"}) as r:
            assert r.status_code == 200
            text = ""
            for chunk in r.iter_text():
                text += chunk
                whole = parse_sse(text[: text.rfind("\n\n") + 2]) if "\n\n" in text else []
                arrivals += [(time.monotonic(), n) for n, _ in whole[len(arrivals) :]]
    events = parse_sse(text)
    names = [n for n, _ in events]
    tokens = [d for n, d in events if n == "token"]
    answer = next(d for n, d in events if n == "answer")
    assert names[-1] == "done"
    lm_tokens = [t for t in tokens if t["source"] == "lm"]  # structured outputs are on (auto: JSON replies)
    assert len(lm_tokens) > 3, f"the answer should stream token by token out of the JSON reply: {answer['trace']}"
    assert names.index("token") < names.index("answer")
    draft = "".join(t["text"] for t in lm_tokens if t["generation"] == 1)
    assert draft.strip() and "{" not in draft[:1] and '"answer"' not in draft  # the field's text, not the JSON
    first_token = next(t for t, n in arrivals if n == "token")
    answer_at = next(t for t, n in arrivals if n == "answer")
    assert answer_at - first_token > 0.5  # tokens came while the model wrote, not in one burst at the end


def test_compile_bootstrap_registers_a_model_that_loads_and_answers(
    llama, real_backend, mlflow_db, fresh_cache, qa_dir, monkeypatch, tmp_path
):  # noqa: E501, F405
    monkeypatch.chdir(tmp_path)
    (tmp_path / "yaksa.toml").write_text("[crag]\ntime_budget_s = 30\n")  # an instruct model writes to its limits
    argv = [
        "compile", "--optimizer", "bootstrap", "--train", "2", "--dev", "1", "--profile", "baseline", "--promote",
        "--data", str(qa_dir), "--lm", llama.model, "--api-base", llama.url, "--max-tokens", "48",
        "--max-tokens", "generate=80",
    ]  # fmt: skip
    assert cli.main(argv) == 0
    code, pred, _ = ask_json(llama, "게보린 먹고 속이 쓰려요", "--model", "models:/yaksa-crag@champion", *SMALL)
    assert code == 0
    assert cited(pred)
    assert pred["trace"]["parse_failures"] == {role: 0 for role in ROLES}
