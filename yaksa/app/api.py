"""The FastAPI app: ``POST /v1/ask``, ``POST /v1/ask/stream`` (server-sent events), ``GET /v1/search``,
``POST /v1/feedback``, ``GET /healthz``, the OpenAPI docs (/docs, /openapi.json) and the Korean page at ``/``.

`create_app` builds the app's shared state (the `ProgramHost`, the admission `Gate`, the settings and the page, on
``app.state``), its request guard and error handlers (yaksa/app/http_errors.py), and includes one router per group of
routes (yaksa/app/routes_*.py), which read that state through the dependencies of yaksa/app/deps.py.

Every error is JSON ``{"error": code, "message": text}``; a stack trace never leaves the server (it is logged).

Example (not run as a doctest: it needs a live server and a search backend):
    >>> from yaksa.testing.fake_backend import FakeBackend                      # doctest: +SKIP
    >>> app = create_app(CRAG(backend=FakeBackend()))                           # doctest: +SKIP
    >>> httpx.post(url + "/v1/ask", json={"question": "게보린 부작용"}).json()["answer"]  # doctest: +SKIP
"""

from pathlib import Path

from fastapi import FastAPI

from yaksa import __version__
from yaksa.app import routes_ask, routes_feedback, routes_health, routes_page, routes_search
from yaksa.app.deps import guard
from yaksa.app.http_errors import add_handlers
from yaksa.app.limits import Gate, RequestGuard
from yaksa.app.scores import make_scorer
from yaksa.app.service import ProgramHost
from yaksa.app.settings import ServeSettings

STATIC = Path(__file__).parent / "static"
DEFAULT = object()


def create_app(
    program=None,
    *,
    program_factory=None,
    backend=None,
    settings: ServeSettings | None = None,
    scorer=DEFAULT,
    tracer=DEFAULT,
) -> FastAPI:
    """Build the app over one shared program.

    Args:
        program: a loaded `programs.crag.CRAG`; None builds one with `program_factory()` or ``CRAG(backend=...)``.
        program_factory: called once, here, when `program` is None.
        backend: the search backend for a program built here.
        settings: limits and timeouts (default `ServeSettings()`, token from ``YAKSA_API_TOKEN``).
        scorer: ``scorer(question, prediction) -> dict`` for the ``scores`` event, None for none; by default
            chosen by ``settings.scores`` (see yaksa/app/scores.py).
        tracer: a `yaksa.traces.QuestionTracer` recording questions as MLflow traces, None for none; by default
            one sampling ``settings.trace_sample`` of them when ``$MLFLOW_TRACKING_URI`` is set.
    """
    settings = settings or ServeSettings()
    if program is None:
        if program_factory is not None:
            program = program_factory()
        else:
            from programs.crag import CRAG

            program = CRAG(backend=backend)
    if scorer is DEFAULT:
        judge = (getattr(program, "lms", None) or {}).get("judge")
        scorer, mode = make_scorer(settings.scores, judge)
    else:
        mode = "custom" if scorer is not None else "off"
    if tracer is DEFAULT:
        from yaksa.traces import QuestionTracer

        lms = getattr(program, "lms", None) or {}
        tracer = QuestionTracer.from_environment(settings.trace_sample, autolog_lm=any(lms.values()))
    if tracer is not None:
        tracer.setup()  # here, in the thread that configured DSPy (autolog changes its settings)

    app = FastAPI(
        title="yaksa",
        version=__version__,
        description="약사(yaksa): 식약처 e약은요 의약품 설명서와 DUR 규칙으로 답하는 Corrective RAG. "
        "Answers Korean drug questions with cited MFDS documents; `/v1/ask/stream` streams server-sent events.",
    )
    app.state.host = ProgramHost(program, settings, scorer, mode, tracer)
    app.state.gate = Gate(settings.max_concurrent)
    app.state.settings = settings
    app.state.page = (STATIC / "index.html").read_text(encoding="utf-8")
    app.add_middleware(
        RequestGuard,
        max_bytes=settings.max_body_bytes,
        body_timeout_s=settings.body_timeout_s,
        api_token=settings.api_token,
        allowed_hosts=settings.allowed_hosts,
    )
    add_handlers(app)
    # in this order: the order of the spec's paths
    app.include_router(routes_page.router)
    app.include_router(routes_health.router)
    app.include_router(routes_ask.build_router(settings.heartbeat_s), dependencies=guard(settings))
    app.include_router(routes_feedback.router, dependencies=guard(settings))
    app.include_router(routes_search.build_router(settings.max_question_chars), dependencies=guard(settings))
    return app
