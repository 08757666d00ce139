"""Request limits: the request guard (Host check, early token check, body size 413 and body timeout 408, security
headers), the admission gate (429) and the bearer-token check (401).

Example:
    >>> gate = Gate(2)
    >>> gate.try_enter(), gate.try_enter(), gate.try_enter()
    (True, True, False)
    >>> gate.leave(); gate.in_flight
    1
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import re
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


SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
# the page is one file with inline script and style, and talks only to this server
PAGE_CSP = (
    b"default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


_REG_NAME = re.compile(r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?")  # a DNS name or an IPv4 address
_PORT = re.compile(r":[0-9]{0,5}")


def host_name(header: bytes | None) -> str:
    """The host of a Host header without its port: ``127.0.0.1:8000`` -> ``127.0.0.1``, ``[::1]:80`` -> ``::1``;
    ``""`` for anything that is not ``host[:port]`` (userinfo such as ``127.0.0.1:80@evil.example``, a path, spaces,
    a port that is not digits), so it matches no allowed host.

    Example:
        >>> host_name(b"127.0.0.1:80@evil.example"), host_name(b"LocalHost:8000")
        ('', 'localhost')
    """
    text = (header or b"").decode("latin-1").strip().lower()
    if text.startswith("["):
        inside, bracket, port = text[1:].partition("]")
        return inside if bracket and _ipv6(inside) and (not port or _PORT.fullmatch(port)) else ""
    name, colon, port = text.partition(":")
    if colon and not _PORT.fullmatch(colon + port):
        return text if _ipv6(text) else ""  # a bare IPv6 address (not a valid Host header, but unambiguous)
    return name if _REG_NAME.fullmatch(name) else ""


def _ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


class RequestGuard:
    """ASGI middleware run before the app (and so before any body is parsed or any route runs):

    - a Host header outside `allowed_hosts` gets 400 (a DNS-rebinding page cannot drive a loopback server);
    - with `api_token`, a request to ``/v1/`` without it gets 401 before its body is read;
    - a body over `max_bytes` gets 413 (a declared Content-Length at once; a chunked body while it is read), and a
      body that does not arrive within `body_timeout_s` gets 408, so a slow client cannot hold a connection;
    - every response gets basic security headers, and the page a content security policy.
    """

    def __init__(
        self,
        app,
        max_bytes: int,
        body_timeout_s: float = 10.0,
        api_token: str | None = None,
        allowed_hosts: tuple[str, ...] | None = None,
    ):
        self.app = app
        self.max_bytes = max_bytes
        self.body_timeout_s = body_timeout_s
        self.api_token = api_token
        self.allowed_hosts = {h.lower() for h in allowed_hosts} if allowed_hosts else None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        send = self._with_headers(send, scope.get("path") == "/")
        if self.allowed_hosts is not None and host_name(headers.get(b"host")) not in self.allowed_hosts:
            return await _reply(send, 400, "bad_host", "this server does not answer for that Host header")
        if self.api_token and scope.get("path", "").startswith("/v1/"):
            auth = headers.get(b"authorization")
            if not token_ok(auth.decode("latin-1") if auth else None, self.api_token):
                extra = [(b"www-authenticate", b"Bearer")]
                return await _reply(send, 401, "unauthorized", "a bearer token is required", extra)
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            return await self._too_large(send)
        body, more = b"", True
        deadline = asyncio.get_running_loop().time() + self.body_timeout_s
        while more:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.0))
            except TimeoutError:
                return await _reply(
                    send, 408, "body_timeout", f"the body did not arrive within {self.body_timeout_s:g} s"
                )
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                return await self._too_large(send)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _with_headers(self, send, page: bool):
        async def wrapped(message):
            if message["type"] == "http.response.start":
                extra = SECURITY_HEADERS + ([(b"content-security-policy", PAGE_CSP)] if page else [])
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        return wrapped

    async def _too_large(self, send):
        await _reply(send, 413, "body_too_large", f"the request body is larger than {self.max_bytes} bytes")


async def _reply(send, status: int, code: str, message: str, headers: list | None = None) -> None:
    body = error_body(code, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),  # the body may be unread: the connection cannot serve another request
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
