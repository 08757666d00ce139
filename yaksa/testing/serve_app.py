"""Helpers for the `yaksa serve` tests and bench/serve.py: an app over the fake backend, SSE parsing, a live uvicorn
server on 127.0.0.1 in a thread, and a scripted LM that takes a fixed time per call.

Example:
    app = make_app(lms=ScriptedLM().roles())
    with LiveServer(app) as server:
        httpx.post(server.url + "/v1/ask", json={"question": "게보린 부작용"})
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import Future

from programs.ablations import ablation_settings
from programs.crag import CRAG
from retrievers.web import WebReferences
from yaksa.testing.mini_index import real_searcher
from yaksa.testing.ports import bound_socket, free_port
from yaksa.testing.scripted_lm import DEFAULTS, ScriptedLM

__all__ = ["LiveServer", "fixed_web", "free_port", "make_app", "make_program", "parse_sse", "slow_lm", "WEB_LINK"]

WEB_LINK = {"title": "식품의약품안전처", "url": "https://www.mfds.go.kr"}


def fixed_web(query: str) -> Future:
    """A web lookup that answers at once with one link (no network)."""
    done = Future()
    done.set_result(WebReferences([dict(WEB_LINK)], "1 web references"))
    return done


def make_program(backend=None, lms=None, profile: str | None = None, **overrides) -> CRAG:
    return CRAG(
        backend=backend or real_searcher(), settings=ablation_settings(profile, **overrides), lms=lms, web=fixed_web
    )


def make_app(backend=None, lms=None, settings=None, scorer="default", profile=None, **overrides):
    from yaksa.app import ServeSettings, create_app

    program = make_program(backend, lms, profile, **overrides)
    settings = settings or ServeSettings(scores="quality", api_token=None)
    kwargs = {} if scorer == "default" else {"scorer": scorer}
    return create_app(program, settings=settings, **kwargs)


def slow_lm(delay: float, **scripts) -> ScriptedLM:
    """A ScriptedLM whose every reply takes `delay` seconds (the default replies unless scripted)."""

    def later(entry):
        def reply(messages):
            time.sleep(delay)
            return entry

        return reply

    names = ("verify", "optimize", "evaluate", "generate", "correct", "rewrite", "grade")
    return ScriptedLM(**{name: later(scripts.get(name, DEFAULTS[name])) for name in names})


def parse_sse(text: str) -> list[tuple[str, dict]]:
    """(event, data) pairs of an SSE body."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = "message", ""
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data += line[5:].strip()
        if data:
            events.append((name, json.loads(data)))
    return events


class LiveServer:
    """uvicorn serving `app` on 127.0.0.1 in a daemon thread, on a socket bound here (a free port unless `port`),
    so no other process can take the port before uvicorn listens on it. Extra keywords go to `uvicorn.Config`."""

    def __init__(self, app, port: int | None = None, **config):
        import uvicorn

        self.socket = bound_socket(port or 0)
        self.port = self.socket.getsockname()[1]
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off", **config)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()
