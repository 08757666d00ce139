"""One LM call under limits that fit how LMs stream: a time-to-first-token limit, an inactivity limit while tokens
flow, and the question's wall-clock deadline.

A whole-response timeout cannot tell a dead server from a slow one: a small model on a CPU writes 10-20 tokens/s,
so a 400-token answer takes half a minute and is still healthy. Here the call streams (where the server supports
it), and a watchdog in the calling thread waits for the first token, then for each next one:

* no first token within ``first_token_s``: **unreachable** (connection refused, or nothing sent at all);
* tokens stopped for ``idle_s``: **slow** (the model stalled mid-answer);
* the question's deadline passed: **deadline** (the wall-clock budget ends the question, `TimeBudgetExhausted`).

The call itself is a task on the process's LM event loop (`programs.lm_loop`: one loop, one HTTP session, reused);
DSPy's LM sends each streamed chunk to a small sink here, which notes the time and forwards the chunk to the
caller's stream when there is one (``dspy.streamify`` in ``yaksa ask`` and the HTTP app). With streaming off
(``--no-lm-stream``) the call makes one plain request and no stream is set, whatever the caller streams. A call
that is cut is cancelled: its HTTP request is closed, and the server stops generating.

Example:
    >>> limits = CallLimits(first_token_s=5, idle_s=5)
    >>> call_with_limits(lambda: "done", limits)
    'done'
    >>> async def reply():
    ...     return "async done"
    >>> call_with_limits(reply, limits)
    'async done'
"""

from __future__ import annotations

import inspect
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import dspy

from programs import lm_loop
from programs.budget import BudgetExhausted
from programs.call_limits import CallLimits


class LMCallCut(RuntimeError):
    """An LM call was cut by a limit; ``kind`` is ``unreachable`` or ``slow``.

    Attributes:
        kind: ``unreachable`` (no first token) or ``slow`` (tokens stopped).
        waited_s: seconds the call ran before it was cut.
        tokens: streamed chunks received before the cut.
    """

    def __init__(self, kind: str, message: str, waited_s: float, tokens: int):
        super().__init__(message)
        self.kind = kind
        self.waited_s = waited_s
        self.tokens = tokens


class TimeBudgetExhausted(BudgetExhausted):
    """The question's wall-clock budget ran out; the program returns its best answer so far (`programs.crag` picks
    its notices by `reason`)."""

    reason = "time_budget_exhausted"

    def __init__(self, message: str, waited_s: float = 0.0, tokens: int = 0):
        super().__init__(message)
        self.waited_s = waited_s
        self.tokens = tokens


class _Sink:
    """The ``send_stream`` DSPy's LM writes chunks to: counts them, wakes the watchdog, forwards them on."""

    def __init__(self, events: queue.Queue, forward):
        self.events = events
        self.forward = forward
        self.cancelled = False

    async def send(self, chunk) -> None:
        if self.cancelled:  # the watchdog gave up: stop reading, so the server stops writing
            raise RuntimeError("LM call cut by its time limit")
        self.events.put(("chunk", chunk))


def call_with_limits(fn: Callable[[], Any], limits: CallLimits, deadline: float | None = None) -> Any:
    """Run ``fn`` (a predictor call) on the LM loop and wait for it under `limits` and `deadline`.

    Args:
        fn: the call: a coroutine function (``predictor.acall``: a task on the loop, cancelled when cut) or a plain
            function (run in one of the loop's worker threads); it runs with a copy of the caller's context
            (``dspy.context`` settings travel).
        limits: first-token and inactivity limits, and whether to stream.
        deadline: a ``time.monotonic()`` instant after which the question must stop (None: no deadline).

    Returns:
        What ``fn`` returned.

    Raises:
        LMCallCut: the call was cut (unreachable or slow).
        TimeBudgetExhausted: the deadline passed first.
        Exception: whatever ``fn`` raised.
    """
    _warm_client()
    events: queue.Queue = queue.Queue()
    outer = dspy.settings.send_stream
    listened = {id(getattr(listener, "predict", None)) for listener in dspy.settings.stream_listeners or []}
    sink = _Sink(events, outer)

    async def work():
        # the call streams to the sink (or, with streaming off, makes a plain request: no stream may be set then)
        with dspy.context(send_stream=sink if limits.stream else None, stream_listeners=[]):
            if inspect.iscoroutinefunction(fn):
                return await fn()
            import anyio

            return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)

    call = lm_loop.submit(work)
    call.future.add_done_callback(lambda f: events.put(("done", f)))
    start = last = time.monotonic()
    tokens = 0
    while True:
        now = time.monotonic()
        limit = limits.first_token_s if tokens == 0 else limits.idle_s
        wait = last + limit - now
        if deadline is not None:
            wait = min(wait, deadline - now)
        try:
            kind, value = events.get(timeout=max(wait, 0.0))
        except queue.Empty:
            sink.cancelled = True
            call.cancel()  # the request is closed, so the server stops generating
            waited = round(time.monotonic() - start, 1)
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeBudgetExhausted(
                    f"wall-clock budget used up during an LM call ({waited} s, {tokens} tokens)", waited, tokens
                ) from None
            if tokens == 0:
                raise LMCallCut(
                    "unreachable", f"no first token within {limits.first_token_s:g} s", waited, tokens
                ) from None
            raise LMCallCut(
                "slow", f"no token for {limits.idle_s:g} s after {tokens} tokens ({waited} s)", waited, tokens
            ) from None
        if kind == "chunk":
            tokens += 1
            last = time.monotonic()
            # the caller's stream gets what it would have got: every chunk, or those of the predictors it listens to
            if outer is not None and (not listened or getattr(value, "predict_id", None) in listened):
                _forward(outer, value)
            continue
        return value.result()


_warm = threading.Lock()
_warmed = False


def _warm_client() -> None:
    """Import the HTTP client stack once, before any clock starts: litellm's first import takes seconds on a busy
    machine, which is not the server's time to first token."""
    global _warmed
    if _warmed:
        return
    with _warm:
        try:
            import litellm  # noqa: F401
        except Exception:
            pass
        _warmed = True


def _forward(outer, chunk) -> None:
    """Pass a chunk on to the caller's stream (from its AnyIO worker thread); a closed stream is ignored."""
    import anyio

    try:
        anyio.from_thread.run(outer.send, chunk)
    except Exception:  # the caller's stream is gone (client left): the answer still completes
        pass
