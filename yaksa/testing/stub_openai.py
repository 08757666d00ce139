"""A tiny OpenAI-compatible chat-completions server on 127.0.0.1 for tests of the real `dspy.LM` / litellm path.

Each request to ``POST /v1/chat/completions`` takes the next scripted reply (the last one repeats). A reply is:

* a string: the assistant message content (streamed as SSE chunks when the request asks for ``stream``);
* ``{"status": 500, "body": "..."}``: that status and raw body;
* ``{"delay": 2.0, "content": "..."}``: wait, then answer (a timeout for a short client timeout);
* ``{"raw": "{not json"}``: a 200 whose body is not valid JSON;
* ``{"drip": 1.0, "content": "..."}``: a streamed reply sent one token (word) every ``drip`` seconds, flushed as it
  goes (a slow but progressing model); without ``stream`` in the request the whole reply comes after all the waits;
* ``{"hang": True}``: accept the request and never send a byte (a dead server that holds the connection);
* ``keep_alive=True``: HTTP/1.1, connections stay open between requests (as llama.cpp's and vLLM's do);
* a callable ``request_json -> reply`` for replies that depend on the prompt.

Like a server that honours structured outputs, a request with a ``response_format`` gets JSON: a reply written with
DSPy's field markers (``[[ ## answer ## ]]``) is sent as the JSON object of those fields, typed by the request's
schema (`in_dialect`); ``StubOpenAI(..., follow_dialect=False)`` sends it as written (a server that ignores the
schema). A stub that names itself llama-cpp-python (``owned_by="me"``) answers 500 to a ``json_schema`` request, as that
server does. Each completion has its own id, as real servers give. Every request body is kept in ``server.requests``.

Example:
    with StubOpenAI(["[[ ## answer ## ]]\\n네\\n\\n[[ ## completed ## ]]"]) as server:
        lm = dspy.LM("openai/stub", api_base=server.url, api_key="x", num_retries=0, cache=False)
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LLAMA_CPP_PYTHON = "me"  # its server's /v1/models "owned_by"
REFUSED_JSON_SCHEMA = json.dumps(  # what llama-cpp-python's server answers to response_format json_schema
    {
        "error": {
            "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
            "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}",
            "type": "internal_server_error",
            "param": None,
            "code": None,
        }
    }
)


class StubOpenAI:
    def __init__(
        self,
        replies=None,
        owned_by: str | None = None,
        follow_dialect: bool = True,
        keep_alive: bool = False,
        port: int = 0,
    ):
        self.replies = list(replies or ["ok"])
        self.keep_alive = keep_alive
        self.owned_by = owned_by
        self.follow_dialect = follow_dialect
        self.requests: list[dict] = []
        self.disconnects = 0
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *replies) -> None:
        with self._lock:
            self.replies = list(replies)

    def _next(self, request: dict):
        with self._lock:
            self.requests.append(request)
            rid = f"chatcmpl-stub-{len(self.requests)}"
            reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        reply = reply(request) if callable(reply) else reply
        if self.follow_dialect and isinstance(reply, str):
            reply = in_dialect(reply, request)
        elif self.follow_dialect and isinstance(reply, dict) and isinstance(reply.get("content"), str):
            reply = {**reply, "content": in_dialect(reply["content"], request)}
        return reply, rid

    def _handler(self):
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if stub.keep_alive else "HTTP/1.0"  # 1.1: connections stay open

            def log_message(self, *args):
                pass

            def _send(self, status: int, body: bytes, ctype: str = "application/json"):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_GET(self):
                model = {"id": "stub", "object": "model", **({"owned_by": stub.owned_by} if stub.owned_by else {})}
                self._send(200, json.dumps({"data": [model]}).encode())

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    request = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    request = {}
                asked = (request.get("response_format") or {}).get("type")
                if stub.owned_by == LLAMA_CPP_PYTHON and asked == "json_schema":
                    with stub._lock:
                        stub.requests.append(request)
                    return self._send(500, REFUSED_JSON_SCHEMA.encode())
                reply, rid = stub._next(request)
                request = {**request, "_id": rid}  # the completion's id, for the replies below
                if isinstance(reply, dict) and reply.get("hang"):
                    stub._closed.wait()
                    return
                if isinstance(reply, dict) and "drip" in reply:
                    return self._drip(str(reply.get("content", "")), float(reply["drip"]), request)
                if isinstance(reply, dict) and "delay" in reply:
                    time.sleep(reply["delay"])
                    reply = reply.get("content", "")
                if isinstance(reply, dict) and "status" in reply:
                    return self._send(reply["status"], str(reply.get("body", "error")).encode())
                if isinstance(reply, dict) and "raw" in reply:
                    return self._send(200, str(reply["raw"]).encode())
                content = str(reply)
                if request.get("stream"):
                    return self._stream(content, request)
                self._send(200, json.dumps(completion(content, request)).encode())

            def _stream(self, content: str, request: dict):
                chunks = [content[i : i + 8] for i in range(0, len(content), 8)] or [""]
                events = [chunk_event(c, request, None) for c in chunks] + [chunk_event("", request, "stop")]
                body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
                self._send(200, body.encode(), "text/event-stream")

            def _drip(self, content: str, every: float, request: dict):
                tokens = [t for t in re.split(r"(?<=\s)", content) if t] or [""]
                if not request.get("stream"):
                    stub._closed.wait(every * len(tokens))
                    return self._send(200, json.dumps(completion(content, request)).encode())
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for token in tokens:
                        if stub._closed.wait(every):
                            return
                        self.wfile.write(f"data: {json.dumps(chunk_event(token, request, None))}\n\n".encode())
                        self.wfile.flush()
                    self.wfile.write(
                        f"data: {json.dumps(chunk_event('', request, 'stop'))}\n\ndata: [DONE]\n\n".encode()
                    )
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    stub.disconnects += 1

        return Handler

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._closed.set()
        self._server.shutdown()
        self._server.server_close()


FIELD_MARK = re.compile(r"\[\[ ## (\w+) ## \]\]\n?(.*?)(?=\s*\[\[ ## |\s*$)", re.S)


def in_dialect(content: str, request: dict) -> str:
    """`content` as the request asked: DSPy field markers become one JSON object when ``response_format`` is set.

    >>> in_dialect("[[ ## ok ## ]]\\nTrue\\n\\n[[ ## n ## ]]\\n2\\n\\n[[ ## completed ## ]]",
    ...            {"response_format": {"type": "json_object", "schema": {"properties": {"ok": {"type": "boolean"},
    ...             "n": {"type": "number"}}}}})
    '{"ok": true, "n": 2.0}'
    """
    fmt = request.get("response_format")
    if not isinstance(fmt, dict) or "[[ ## " not in content:
        return content
    schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema") or {}
    props = schema.get("properties", {})
    fields = {k: v.strip() for k, v in FIELD_MARK.findall(content) if k != "completed"}
    return json.dumps({k: _typed(v, props.get(k, {})) for k, v in fields.items()}, ensure_ascii=False)


def _typed(text: str, prop: dict):
    kind = prop.get("type")
    try:
        if kind in ("number", "integer"):
            return int(float(text)) if kind == "integer" else float(text)
        if kind == "boolean":
            return text.strip().lower() == "true"
        if kind in ("array", "object"):
            return json.loads(text)
    except ValueError:
        pass
    return text


def completion(content: str, request: dict) -> dict:
    return {
        "id": request.get("_id") or "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.get("model", "stub"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chunk_event(text: str, request: dict, finish):
    """One streamed chunk; the last one (with `finish`) reports usage as OpenAI does, 1 + 1 tokens."""
    usage = {"usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}} if finish else {}
    return {
        **usage,
        "id": request.get("_id") or "chatcmpl-stub",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": request.get("model", "stub"),
        "choices": [{"index": 0, "delta": {"content": text} if text else {}, "finish_reason": finish}],
    }
