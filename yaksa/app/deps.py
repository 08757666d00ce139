"""What the routes share, as FastAPI dependencies: the app's `ProgramHost`, admission `Gate` and `ServeSettings`
(set on ``app.state`` by `yaksa.app.api.create_app`), the bearer-token check, and taking a slot of the gate.

The state getters are coroutines: FastAPI would run a plain function in a worker thread on every request."""

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from yaksa.app.http_errors import ApiError
from yaksa.app.limits import Gate, token_ok
from yaksa.app.service import ProgramHost
from yaksa.app.settings import ServeSettings


async def get_host(request: Request) -> ProgramHost:
    return request.app.state.host


async def get_gate(request: Request) -> Gate:
    return request.app.state.gate


async def get_settings(request: Request) -> ServeSettings:
    return request.app.state.settings


HostDep = Annotated[ProgramHost, Depends(get_host)]
GateDep = Annotated[Gate, Depends(get_gate)]
SettingsDep = Annotated[ServeSettings, Depends(get_settings)]

bearer = HTTPBearer(auto_error=False, description="only when the server sets YAKSA_API_TOKEN")


def authorised(settings: SettingsDep, creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> None:
    """401 unless the request carries the server's bearer token (``settings.api_token``)."""
    header = f"{creds.scheme} {creds.credentials}" if creds else None
    if not token_ok(header, settings.api_token):
        raise ApiError(401, "unauthorized", "a bearer token is required", {"WWW-Authenticate": "Bearer"})


def guard(settings: ServeSettings) -> list:
    """The dependencies of the /v1 routes: the token check, in the spec (and checked) only when a token is set."""
    return [Depends(authorised)] if settings.api_token else []


def enter(gate: Gate, settings: ServeSettings) -> None:
    """Take a slot of `gate` (the caller gives it back), or 429 when ``max_concurrent`` questions are in flight."""
    if not gate.try_enter():
        raise ApiError(
            429, "busy", f"{settings.max_concurrent} questions are in flight; retry shortly", {"Retry-After": "1"}
        )
