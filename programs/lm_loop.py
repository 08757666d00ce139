"""One event loop per process for every LM call, in a daemon thread of its own.

litellm keeps one HTTP client (an aiohttp session and its connection pool) per event loop. An event loop per call,
as `anyio.run` in a fresh thread gives, opens a session per call that nobody closes ("Unclosed client session"),
holds idle connections to the LM server and leaves a thread behind for each cut call. Here every call is a task on
one long-lived loop: the session and its connections are reused, a cut call is cancelled (its request closed), and
the clients are closed when the process exits.

Example:
    >>> async def two():
    ...     return 2
    >>> submit(two).future.result(timeout=5)
    2
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextvars
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any

THREAD_NAME = "yaksa-lm-loop"

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None
_pid = 0
_registered = False


def loop() -> asyncio.AbstractEventLoop:
    """The running LM loop, started on first use (and again in a forked child, whose thread did not survive)."""
    global _loop, _thread, _pid, _registered
    with _lock:
        if _loop is None or _pid != os.getpid() or _thread is None or not _thread.is_alive():
            _loop = asyncio.new_event_loop()
            _thread = threading.Thread(target=_loop.run_forever, daemon=True, name=THREAD_NAME)
            _thread.start()
            _pid = os.getpid()
            if not _registered:
                atexit.register(close)
                _registered = True
        return _loop


class LoopCall:
    """A coroutine submitted to the LM loop: ``future`` holds its result; `cancel` ends it wherever it is."""

    def __init__(self, target: asyncio.AbstractEventLoop):
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self._loop = target
        self._task: asyncio.Task | None = None
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True
        self._loop.call_soon_threadsafe(self._cancel_task)

    def _cancel_task(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def _start(self, make: Callable[[], Awaitable[Any]], context: contextvars.Context) -> None:
        if self._cancelled:
            self.future.set_exception(asyncio.CancelledError())
            return
        self._task = self._loop.create_task(_run(make), context=context)
        self._task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        if task.cancelled():
            self.future.set_exception(asyncio.CancelledError())
        elif task.exception() is not None:
            self.future.set_exception(task.exception())
        else:
            self.future.set_result(task.result())


async def _run(make: Callable[[], Awaitable[Any]]) -> Any:
    return await make()


def submit(make: Callable[[], Awaitable[Any]], context: contextvars.Context | None = None) -> LoopCall:
    """Run the coroutine ``make()`` as a task on the LM loop, in `context` (default: a copy of the caller's)."""
    target = loop()
    call = LoopCall(target)
    target.call_soon_threadsafe(call._start, make, context or contextvars.copy_context())
    return call


def close(timeout: float = 5.0) -> None:
    """Close litellm's cached async clients on the loop, then stop it (registered at exit)."""
    global _loop
    with _lock:
        target, _loop = _loop, None
    if target is None or not target.is_running():
        return

    async def shutdown():
        try:
            from litellm import close_litellm_async_clients

            await close_litellm_async_clients()
        except Exception:
            pass

    try:
        asyncio.run_coroutine_threadsafe(shutdown(), target).result(timeout)
    except Exception:
        pass
    target.call_soon_threadsafe(target.stop)
