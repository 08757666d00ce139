"""Fixtures for the CRAG program tests: a fake backend and scripted LMs (yaksa/testing)."""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from yaksa.testing.fake_backend import FakeBackend  # noqa: E402
from yaksa.testing.scripted_lm import ScriptedLM  # noqa: E402


@pytest.fixture
def backend():
    return FakeBackend()


@pytest.fixture
def no_web():
    """A web lookup that records its calls and returns no links."""
    from concurrent.futures import Future

    from retrievers.web import WebReferences

    calls = []

    def start(query):
        calls.append(query)
        done = Future()
        done.set_result(WebReferences([{"title": "식약처", "url": "https://www.mfds.go.kr"}], "1 web references"))
        return done

    start.calls = calls
    return start


@pytest.fixture
def scripted():
    """A factory: scripted(**scripts) -> (lm, lms for every role)."""

    def make(**scripts):
        lm = ScriptedLM(**scripts)
        return lm, lm.roles()

    return make
