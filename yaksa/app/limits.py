"""Request limits: the body-size guard (413), the admission gate (429) and the bearer-token check (401).

Example:
    >>> gate = Gate(2)
    >>> gate.try_enter(), gate.try_enter(), gate.try_enter()
    (True, True, False)
    >>> gate.leave(); gate.in_flight
    1
"""

from __future__ import annotations

import hmac
import json
import threading


class Gate:
    """At most `limit` requests in flight; `try_enter` never waits (the caller answers 429)."""

    def __init__(self, limit: int):
        self.limit = limit
        self.in_flight = 0
        self._lock = threading.Lock()

    def try_enter(self) -> bool:
        with self._lock:
            if self.in_flight >= self.limit:
                return False
            self.in_flight += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self.in_flight = max(0, self.in_flight - 1)


def token_ok(header: str | None, token: str | None) -> bool:
    """True when no token is required, or `header` is ``Bearer <token>`` (compared in constant time)."""
    if not token:
        return True
    scheme, _, value = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), token.encode())


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}, ensure_ascii=False).encode()


class BodySizeLimit:
    """ASGI middleware: a body over `max_bytes` gets 413 with a JSON message.

    A declared Content-Length is checked first; a chunked body is read (up to the limit) before the app sees it,
    then replayed, so the limit holds whatever the client declares.
    """

    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            return await self._reject(send)
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                return await self._reject(send)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _reject(self, send):
        body = error_body("body_too_large", f"the request body is larger than {self.max_bytes} bytes")
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
