"""``POST /v1/ask`` (the answer as one JSON object) and ``POST /v1/ask/stream`` (the same question as server-sent
events, yaksa/app/events.py): the question is checked (400 / 422), admitted by the gate (429), and answered by the
app's `ProgramHost`, whose slot is given back when the program has stopped."""

import uuid

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from programs.question import fold_whitespace
from yaksa.app.cancel import Work
from yaksa.app.deps import GateDep, HostDep, SettingsDep, enter
from yaksa.app.events import EVENTS
from yaksa.app.http_errors import ApiError, json_responses, responses
from yaksa.app.schemas import PROFILE_NAMES, AskRequest, AskResponse
from yaksa.app.settings import ServeSettings
from yaksa.text_input import TextInputError, check_json, clean_text

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


def check(body: AskRequest, settings: ServeSettings):
    """(the question, cleaned and folded; the user's `programs.profile.UserProfile`), or the 400 / 422 saying why
    not."""
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


async def ask(body: AskRequest, request: Request, host: HostDep, gate: GateDep, settings: SettingsDep):
    question, user = check(body, settings)
    enter(gate, settings)
    work = Work(release=gate.leave)  # the slot is given back when the program has stopped, not before
    try:
        return await host.ask(question, user, body.profile, work, gone=request.is_disconnected)
    except TimeoutError:
        raise ApiError(504, "timeout", f"no answer within {settings.request_timeout_s:g} s") from None
    except ConnectionAbortedError:
        raise ApiError(499, "client_closed", "the client went away") from None
    finally:
        work.closed()


async def ask_stream(body: AskRequest, host: HostDep, gate: GateDep, settings: SettingsDep):
    question, user = check(body, settings)
    enter(gate, settings)
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


def build_router(heartbeat_s: float) -> APIRouter:
    """The two routes; the stream's description states the heartbeat interval (``heartbeat_s`` of the settings)."""
    router = APIRouter()
    router.add_api_route(
        "/v1/ask",
        ask,
        methods=["POST"],
        response_model=AskResponse,
        summary="answer a question: the answer, citations with document text, web references, the trace",
        responses=responses(400, 401, 413, 422, 429, 500, 504),
    )
    router.add_api_route(
        "/v1/ask/stream",
        ask_stream,
        methods=["POST"],
        response_class=EventStream,
        summary="answer a question as server-sent events",
        description="Events, in order: accepted, status / progress / token (as the pipeline runs), answer, "
        "verification, web, progress and scores (after the answer; never delays it), done. heartbeat every "
        f"{heartbeat_s:g} s; error ends the stream. Each data line is one JSON object.",
        responses={
            200: {"description": "the events", "content": {"text/event-stream": {"schema": SSE_EVENT}}},
            **json_responses(400, 401, 413, 422, 429, 500),
        },
    )
    return router
