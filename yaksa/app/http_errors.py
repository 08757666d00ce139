"""The app's errors: every one is answered as JSON ``{"error": code, "message": text}``, and a stack trace never
leaves the server (it is logged). `ApiError` is what a route raises; `add_handlers` answers it, invalid requests
(422), HTTP errors (404, 405 ...) and crashes (500); `responses` documents a route's error codes in the OpenAPI spec.
"""

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from yaksa.app.schemas import ErrorBody
from yaksa.errors import explain

log = logging.getLogger("yaksa.serve")

DESCRIPTIONS = {
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


class ApiError(Exception):
    """An error answered as ``{"error": code, "message": message}`` with `status`."""

    def __init__(self, status: int, code: str, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def responses(*codes: int) -> dict:
    """The OpenAPI ``responses`` of a JSON route's error `codes`."""
    return {c: {"model": ErrorBody, "description": DESCRIPTIONS[c]} for c in codes}


def json_responses(*codes: int) -> dict:
    """Error responses of a route whose own media type is not JSON (the stream): point at ErrorBody by hand."""
    schema = {"schema": {"$ref": "#/components/schemas/ErrorBody"}}
    return {
        c: {"description": r["description"], "content": {"application/json": schema}}
        for c, r in responses(*codes).items()
    }


async def api_error(request: Request, exc: ApiError):
    return JSONResponse({"error": exc.code, "message": exc.message}, exc.status, headers=exc.headers)


async def invalid(request: Request, exc: RequestValidationError):
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))
    return JSONResponse({"error": "invalid_request", "message": message}, 422)


async def http_error(request: Request, exc: StarletteHTTPException):
    code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return JSONResponse({"error": code, "message": str(exc.detail)}, exc.status_code, headers=exc.headers)


async def crashed(request: Request, exc: Exception):
    known = explain(exc)  # a damaged index or file: one line in the log (it names paths: not sent)
    if known is None:
        log.exception("unhandled error on %s", request.url.path)
    else:
        log.error("%s: %s", request.url.path, known)
    return JSONResponse({"error": "internal", "message": "internal error; see the server log"}, 500)


def add_handlers(app: FastAPI) -> None:
    """Answer `ApiError`, invalid requests, HTTP errors and anything unhandled as ``{"error", "message"}``."""
    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, crashed)
