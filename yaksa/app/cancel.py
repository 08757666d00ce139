"""Stopping a question whose client has gone: a cancel event checked between the program's steps and before each
LM call, and a ticket that gives the admission slot back only when the work has really ended.

The program is not restructured for this. The worker thread runs it with two hooks that raise `QuestionCancelled`
once the question's event is set:

- the trace's ``on_step`` listener (every step of the CRAG flow reports through it), and
- a DSPy callback whose ``on_lm_start`` runs before every LM request.

`QuestionCancelled` derives from `BaseException`, like `KeyboardInterrupt`, so the program's own fallbacks
(``except Exception``) and DSPy's callback guard do not swallow it. An LM call already sent finishes; no new step
and no new LM call starts.

Example:
    >>> work = Work(release=lambda: print("released"))
    >>> work.start()          # a worker thread takes the question
    True
    >>> work.closed()         # the client went away: the event is set, the slot still taken
    >>> work.finished()       # the thread stopped at its next step
    released
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from dspy.utils.callback import BaseCallback


class QuestionCancelled(BaseException):
    """The question's client went away (or its time ran out): stop before the next step or LM call."""


class CancelOnLM(BaseCallback):
    """A DSPy callback that stops a cancelled question before it sends another LM request."""

    def __init__(self, event: threading.Event):
        self.event = event

    def on_lm_start(self, call_id, instance, inputs):
        if self.event.is_set():
            raise QuestionCancelled("the client went away")


def step_guard(event: threading.Event, on_step: Callable[[dict], object] | None = None) -> Callable[[dict], None]:
    """An ``on_step`` listener that raises `QuestionCancelled` once `event` is set, else passes the step on."""

    def listener(step: dict) -> None:
        if event.is_set():
            raise QuestionCancelled("the client went away")
        if on_step is not None:
            on_step(step)

    return listener


class Work:
    """One admitted question: its cancel event, and `release` called once when both its response is closed and
    its work has ended (so the in-flight count and the workers reflect work actually running).

    Args:
        release: called once at the end (e.g. the admission gate's ``leave``).
    """

    def __init__(self, release: Callable[[], None] | None = None):
        self.event = threading.Event()
        self._release = release
        self._open = 1  # the response; `start` adds the work
        self._released = False
        self._lock = threading.Lock()
        self.trace_id: str | None = None  # the question's MLflow trace, when it was traced

    def start(self) -> bool:
        """The work starts in a worker thread; False (do not start) when everything was already released."""
        with self._lock:
            if self._released or self.event.is_set():
                return False
            self._open += 1
            return True

    def cancel(self) -> None:
        """Stop the work at its next step or LM call."""
        self.event.set()

    def finished(self) -> None:
        """The work has ended (answered, failed or stopped)."""
        self._done()

    def closed(self) -> None:
        """The response is closed (sent, failed or the client went away): the work is not needed any more."""
        self.event.set()
        self._done()

    def _done(self) -> None:
        with self._lock:
            self._open -= 1
            last = self._open == 0 and not self._released
            self._released = self._released or last
        if last and self._release is not None:
            self._release()
