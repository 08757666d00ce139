"""A silent LM server (accepts connections, never answers) costs one first-token limit per question: the first
call on it is cut, and every other role on the same server is skipped for the rest of the question with a trace
step and a fallback that say why. Roles on another server carry on."""

import time

from programs.ablations import ablation_settings
from programs.budget import ROLES
from programs.crag import CRAG
from programs.lm_config import LMOverrides, load_lm_config
from yaksa.testing.any_signature import any_signature
from yaksa.testing.fake_backend import FakeBackend
from yaksa.testing.silent_server import SilentServer
from yaksa.testing.stub_openai import StubOpenAI

LIMIT = 2.0


def setup_module():
    import litellm  # noqa: F401  - its first import takes seconds here; not the dead server's time


def ask(lms):
    program = CRAG(backend=FakeBackend(), settings=ablation_settings(web_references=False), lms=lms)
    start = time.monotonic()
    pred = program(question="게보린 먹고 속이 쓰려요")
    return pred, time.monotonic() - start


def test_a_silent_server_costs_one_first_token_limit_per_question():
    with SilentServer() as dead:
        config = load_lm_config(
            "/nonexistent", env={}, overrides=LMOverrides(model="openai/dead", api_base=dead.url, timeout=LIMIT)
        )
        pred, took = ask(config.build())
        accepted = dead.accepted
    trace = pred.trace
    assert LIMIT - 0.1 <= took < LIMIT + 8  # one limit (plus the retrieval), not one per role (4 x 2 s)
    assert accepted == 1
    assert trace["lm_calls"]["total"] == 1
    [cut] = trace["cut"]
    assert cut["why"] == "unreachable"
    [down] = [s for s in trace["steps"] if s["step"] == "lm_server_down"]
    assert down["role"] == cut["role"]
    assert set(down["skipped"]) == set(ROLES) - {cut["role"]}
    assert set(trace["unreachable"]) == set(ROLES)  # what `yaksa ask` warns about, with the server's address
    assert "[문서 1]" in pred.answer
    assert trace["method"] == "extractive"


def test_roles_on_another_server_carry_on():
    with SilentServer() as dead, StubOpenAI([any_signature]) as alive:
        config = load_lm_config(
            "/nonexistent",
            env={},
            overrides=LMOverrides(
                model="openai/stub", api_base=alive.url, api_key="x", timeout=LIMIT, role_api_bases={"judge": dead.url}
            ),
        )
        pred, took = ask(config.build())
    trace = pred.trace
    assert [c["role"] for c in trace["cut"]] == ["judge"]
    assert trace["unreachable"] == ["judge"]
    assert not [s for s in trace["steps"] if s["step"] == "lm_server_down"]  # nobody else shares its server
    assert trace["method"] == "lm"
    assert trace["lm_calls"]["generate"] >= 1
    assert took < LIMIT + 8
