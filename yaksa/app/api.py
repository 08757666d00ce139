"""The FastAPI app: ``POST /v1/ask``, ``POST /v1/ask/stream`` (server-sent events), ``GET /v1/search``,
``GET /healthz``, the OpenAPI docs (/docs, /openapi.json) and the Korean page at ``/``.

Every error is JSON ``{"error": code, "message": text}``; a stack trace never leaves the server (it is logged).

Example (not run as a doctest: it needs a live server and a search backend):
    >>> from yaksa.testing.fake_backend import FakeBackend                      # doctest: +SKIP
    >>> app = create_app(CRAG(backend=FakeBackend()))                           # doctest: +SKIP
    >>> httpx.post(url + "/v1/ask", json={"question": "게보린 부작용"}).json()["answer"]  # doctest: +SKIP
"""

import logging
import uuid
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException

from programs import citations
from programs.question import fold_whitespace
from yaksa import __version__
from yaksa.app.cancel import Work
from yaksa.app.events import EVENTS
from yaksa.app.limits import Gate, RequestGuard, token_ok
from yaksa.app.schemas import (
    PROFILE_NAMES,
    AskRequest,
    AskResponse,
    ErrorBody,
    FeedbackRequest,
    FeedbackResponse,
    Health,
    SearchResponse,
)
from yaksa.app.scores import make_scorer
from yaksa.app.service import ProgramHost, in_thread
from yaksa.app.settings import ServeSettings
from yaksa.errors import explain
from yaksa.text_input import TextInputError, check_json, clean_text

log = logging.getLogger("yaksa.serve")
STATIC = Path(__file__).parent / "static"
DEFAULT = object()
SSE_EVENT = {
    "type": "object",
    "description": "one server-sent event; `data` is one JSON object (see yaksa/app/events.py)",
    "required": ["event", "data"],
    "properties": {
        "event": {"type": "string", "enum": list(EVENTS)},
        "id": {"type": "string"},
        "data": {"type": "string", "contentMediaType": "application/json"},
    },
}


class ApiError(Exception):
    """An error answered as ``{"error": code, "message": message}`` with `status`."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


class EventStream(StreamingResponse):
    """A text/event-stream response that calls `on_close` however it ends (sent, failed, client gone)."""

    media_type = "text/event-stream"

    def __init__(self, content, status_code: int = 200, on_close=None, **kwargs):
        super().__init__(content, status_code=status_code, media_type=self.media_type, **kwargs)
        self.on_close = on_close

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.on_close is not None:
                self.on_close()


def _errors(*codes: int) -> dict:
    text = {
        400: "the body could not be read (not UTF-8 JSON), or a text holds invalid bytes or lone surrogates",
        401: "missing or wrong bearer token (YAKSA_API_TOKEN)",
        404: "unknown trace: this server did not answer a traced question with this trace_id",
        409: "tracing is off on this server (no MLFLOW_TRACKING_URI): no trace to give feedback on",
        413: "request body too large",
        422: "invalid request (question too long or blank, unknown profile, bad user profile)",
        429: "too many questions in flight; retry later",
        500: "internal error (details in the server log only)",
        502: "the MLflow tracking store did not take the feedback",
        504: "the question took longer than the request timeout",
    }
    return {c: {"model": ErrorBody, "description": text[c]} for c in codes}


def _json_errors(*codes: int) -> dict:
    """Error responses of a route whose own media type is not JSON (the stream): point at ErrorBody by hand."""
    schema = {"schema": {"$ref": "#/components/schemas/ErrorBody"}}
    return {
        c: {"description": r["description"], "content": {"application/json": schema}}
        for c, r in _errors(*codes).items()
    }


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
    host = ProgramHost(program, settings, scorer, mode, tracer)
    gate = Gate(settings.max_concurrent)
    page = (STATIC / "index.html").read_text(encoding="utf-8")

    app = FastAPI(
        title="yaksa",
        version=__version__,
        description="약사(yaksa): 식약처 e약은요 의약품 설명서와 DUR 규칙으로 답하는 Corrective RAG. "
        "Answers Korean drug questions with cited MFDS documents; `/v1/ask/stream` streams server-sent events.",
    )
    app.state.host, app.state.gate, app.state.settings = host, gate, settings
    app.add_middleware(
        RequestGuard,
        max_bytes=settings.max_body_bytes,
        body_timeout_s=settings.body_timeout_s,
        api_token=settings.api_token,
        allowed_hosts=settings.allowed_hosts,
    )
    bearer = HTTPBearer(auto_error=False, description="only when the server sets YAKSA_API_TOKEN")

    def authorised(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> None:
        header = f"{creds.scheme} {creds.credentials}" if creds else None
        if not token_ok(header, settings.api_token):
            raise ApiError(401, "unauthorized", "a bearer token is required", {"WWW-Authenticate": "Bearer"})

    # the bearer scheme is in the spec (and checked) only when a token is set
    guard = [Depends(authorised)] if settings.api_token else []

    # ------------------------------------------------------------------ errors
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse({"error": exc.code, "message": exc.message}, exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))
        return JSONResponse({"error": "invalid_request", "message": message}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse({"error": code, "message": str(exc.detail)}, exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception):
        known = explain(exc)  # a damaged index or file: one line in the log (it names paths: not sent)
        if known is None:
            log.exception("unhandled error on %s", request.url.path)
        else:
            log.error("%s: %s", request.url.path, known)
        return JSONResponse({"error": "internal", "message": "internal error; see the server log"}, 500)

    # ------------------------------------------------------------------ helpers
    def check(body: AskRequest):
        try:
            question = fold_whitespace(clean_text(body.question, "question"))
            user_data = check_json(body.user.model_dump(), "user") if body.user else None
        except TextInputError as e:
            raise ApiError(400, "bad_text", str(e)) from None
        if not question:
            raise ApiError(422, "empty_question", "the question is empty")
        if len(body.question) > settings.max_question_chars:
            raise ApiError(
                422, "question_too_long", f"the question is longer than {settings.max_question_chars} characters"
            )
        if body.profile is not None and body.profile not in PROFILE_NAMES:
            names = ", ".join(PROFILE_NAMES)
            raise ApiError(422, "unknown_profile", f"unknown profile {body.profile!r}; one of {names}")
        from programs.profile import ProfileError, UserProfile

        try:
            user = UserProfile.from_dict(user_data)
        except ProfileError as e:
            raise ApiError(422, "bad_user_profile", str(e)) from None
        return question, user

    def enter():
        if not gate.try_enter():
            raise ApiError(
                429, "busy", f"{settings.max_concurrent} questions are in flight; retry shortly", {"Retry-After": "1"}
            )

    # ------------------------------------------------------------------ routes
    @app.get("/", include_in_schema=False)
    async def index():
        return HTMLResponse(page)

    @app.get("/healthz", response_model=Health, summary="liveness, the loaded program and its LMs")
    async def healthz():
        roles = host.lm_roles()
        return {
            "status": "ok",
            "version": __version__,
            "program": host.describe(),
            "lm": roles,
            "uses_lm": any(roles.values()),
            "in_flight": gate.in_flight,
            "max_concurrent": settings.max_concurrent,
            "auth": bool(settings.api_token),
            "scores": host.scores_mode,
        }

    @app.post(
        "/v1/ask",
        response_model=AskResponse,
        summary="answer a question: the answer, citations with document text, web references, the trace",
        responses=_errors(400, 401, 413, 422, 429, 500, 504),
        dependencies=guard,
    )
    async def ask(body: AskRequest, request: Request):
        question, user = check(body)
        enter()
        work = Work(release=gate.leave)  # the slot is given back when the program has stopped, not before
        try:
            return await host.ask(question, user, body.profile, work, gone=request.is_disconnected)
        except TimeoutError:
            raise ApiError(504, "timeout", f"no answer within {settings.request_timeout_s:g} s") from None
        except ConnectionAbortedError:
            raise ApiError(499, "client_closed", "the client went away") from None
        finally:
            work.closed()

    @app.post(
        "/v1/ask/stream",
        response_class=EventStream,
        summary="answer a question as server-sent events",
        description="Events, in order: accepted, status / progress / token (as the pipeline runs), answer, "
        "verification, web, progress and scores (after the answer; never delays it), done. heartbeat every "
        f"{settings.heartbeat_s:g} s; error ends the stream. Each data line is one JSON object.",
        responses={
            200: {"description": "the events", "content": {"text/event-stream": {"schema": SSE_EVENT}}},
            **_json_errors(400, 401, 413, 422, 429, 500),
        },
        dependencies=guard,
    )
    async def ask_stream(body: AskRequest):
        question, user = check(body)
        enter()
        request_id = uuid.uuid4().hex[:12]
        work = Work(release=gate.leave)  # the slot is given back when the program has stopped, not before
        try:
            stream = host.stream(question, user, body.profile, request_id, work)
        except BaseException:
            work.closed()
            raise
        return EventStream(
            stream,
            on_close=work.closed,
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "X-Request-ID": request_id},
        )

    @app.post(
        "/v1/feedback",
        response_model=FeedbackResponse,
        summary="a reader's 👍 / 👎 (and comment) on an answer, logged as MLflow feedback on its trace",
        responses=_errors(400, 401, 404, 409, 413, 422, 502),
        dependencies=guard,
    )
    async def feedback(body: FeedbackRequest):
        tracer = host.tracer
        if tracer is None:
            raise ApiError(409, "tracing_off", "this server records no traces (start it with MLFLOW_TRACKING_URI set)")
        try:
            comment = clean_text(body.comment, "comment") if body.comment else None
        except TextInputError as e:
            raise ApiError(400, "bad_text", str(e)) from None
        if not tracer.issued(body.trace_id):
            raise ApiError(404, "unknown_trace", f"this server answered no traced question {body.trace_id}")
        from yaksa.traces import FeedbackError, log_feedback

        try:
            assessment_id = await in_thread(
                lambda: log_feedback(body.trace_id, body.value, comment), host.limiter("scores")
            )
        except FeedbackError as e:
            log.error("feedback on %s: %s", body.trace_id, e.__cause__ or e)
            raise ApiError(502, "tracking_unavailable", str(e)) from None
        return {"trace_id": body.trace_id, "assessment_id": assessment_id}

    @app.get(
        "/v1/search",
        response_model=SearchResponse,
        summary="the ranked documents for a query (no LM)",
        responses=_errors(400, 401, 422, 429, 500, 504),
        dependencies=guard,
    )
    async def search(
        q: Annotated[
            str, Query(min_length=1, max_length=settings.max_question_chars, pattern=r"\S", description="the query")
        ],
        k: Annotated[
            int | None, Query(ge=1, le=20, description="how many documents (default: the retrieval settings' top_k)")
        ] = None,
    ):
        try:
            q = clean_text(q, "q")
        except TextInputError as e:
            raise ApiError(400, "bad_text", str(e)) from None
        enter()
        try:
            import asyncio

            result = await asyncio.wait_for(
                in_thread(lambda: host.backend.retrieve(fold_whitespace(q), k=k), host.limiter()),
                settings.request_timeout_s,
            )
        except TimeoutError:
            raise ApiError(504, "timeout", f"no result within {settings.request_timeout_s:g} s") from None
        finally:
            gate.leave()
        return {
            "query": result.query,
            "out_of_scope": result.out_of_scope,
            "oos_reason": result.oos_reason,
            "scorer": result.scorer,
            "top_score": float(result.top_score),
            "hits": [
                {
                    "id": h.id,
                    "title": h.doc.title,
                    "score": float(h.score),
                    "product": citations.product(h.doc),
                    "section": citations.section(h.doc),
                    "text": h.doc.text,
                }
                for h in result.hits
            ],
        }

    return app
