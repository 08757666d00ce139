"""Runs the shared program for the HTTP app: one question at a time per worker thread, with the answer streamed as
server-sent events (yaksa/app/events.py) while the event loop keeps sending heartbeats.

The program is loaded once and shared by every request: a CRAG forward pass keeps its state in per-call objects
(the question, its `Run` and trace), the backend is read-only after loading, and DSPy settings are per thread. A
request for another ablation profile gets a variant built once per ablation that shares the backend, the LMs and the
compiled predictors' state.

Example (not run as a doctest: it needs a running event loop and a search backend):
    >>> host = ProgramHost(CRAG(backend=FakeBackend()), ServeSettings())   # doctest: +SKIP
    >>> [line async for line in host.stream("게보린 부작용", None, None)]   # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio
import dspy

from programs.budget import ROLES
from programs.notices import NO_LM_NOTICE
from retrievers.oos_guard import OOS_MESSAGE
from yaksa.app.cancel import CancelOnLM, QuestionCancelled, Work, step_guard
from yaksa.app.events import STEP_PROGRESS, answer_pieces, encode, status_data
from yaksa.app.public_trace import log_failures, public_trace
from yaksa.app.schemas import AskResponse
from yaksa.app.scores import Scorer
from yaksa.app.settings import ServeSettings
from yaksa.prediction_json import prediction_json

log = logging.getLogger("yaksa.serve")
DISCONNECT_POLL_S = 0.25  # how often /v1/ask checks whether its client is still there


class ProgramError(Exception):
    """The program failed on a question (the message is safe to show)."""


def in_thread(fn: Callable[[], Any], limiter: anyio.CapacityLimiter, cancel: threading.Event | None = None) -> Any:
    """Await `fn()` in a worker thread that sees this task's DSPy settings (as dspy.asyncify does).

    The thread holds a token of `limiter` until `fn` returns, even when the await is cancelled (a cancelled await
    leaves `fn` running: set `cancel` to stop it at its next step or LM call, it then returns None), so the
    limiter bounds the threads really running.
    """
    from dspy.dsp.utils.settings import thread_local_overrides

    parent = thread_local_overrides.get().copy()

    def call():
        overrides = {**thread_local_overrides.get(), **parent}
        if cancel is not None:
            if cancel.is_set():
                return None
            overrides["callbacks"] = [*(overrides.get("callbacks") or dspy.settings.callbacks), CancelOnLM(cancel)]
        token = thread_local_overrides.set(overrides)
        try:
            return fn()
        except QuestionCancelled:
            return None
        finally:
            thread_local_overrides.reset(token)

    task = asyncio.ensure_future(anyio.to_thread.run_sync(call, limiter=limiter))
    task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved, even when nobody awaits it
    return asyncio.shield(task)


class _Threaded:
    """What `dspy.streamify` needs from a program (``named_predictors``, ``acall``), running it in our own pool
    (dspy's default pool holds 8 threads, fewer than the streams we serve) under the question's `work`."""

    def __init__(self, program, limiter: anyio.CapacityLimiter, work: Work, tracer=None):
        self.program = program
        self.limiter = limiter
        self.work = work
        self.tracer = tracer

    def named_predictors(self):
        return self.program.named_predictors()

    async def acall(self, on_step=None, **kwargs):
        return await run_question(self.program, self.limiter, self.work, on_step=on_step, tracer=self.tracer, **kwargs)


async def run_question(program, limiter: anyio.CapacityLimiter, work: Work, on_step=None, tracer=None, **kwargs):
    """Run `program` on one question in a thread of `limiter` under `work`.

    It stops at its next step or LM call once the work is cancelled (returning None), and the work counts as
    running until the thread is done. With a `tracer` (yaksa/traces.py) the question is an MLflow trace (when
    sampled), whose id is set on ``work.trace_id``.
    """

    def answer():
        return program(**kwargs, on_step=step_guard(work.event, on_step))

    def run():
        if not work.start():
            return None
        try:
            if tracer is None:
                return answer()
            with tracer.question(kwargs.get("question", ""), kwargs.get("user"), source="serve") as traced:
                work.trace_id = traced.trace_id
                pred = answer()
                traced.finish(pred)
                return pred
        finally:
            work.finished()

    return await in_thread(run, limiter, work.event)


class ProgramHost:
    """The loaded program, its per-profile variants, and the way questions run on it.

    Args:
        program: a `programs.crag.CRAG` (a loaded compiled state or a fresh one).
        settings: limits and timeouts.
        scorer: ``scorer(question, prediction) -> dict`` run after the answer (None: no scores event).
        scores_mode: what `scorer` is (``quality``, ``ragas``, ``off`` or a custom name), for /healthz.
        tracer: records each (sampled) question as an MLflow trace (yaksa/traces.py); None records none.
    """

    def __init__(
        self, program, settings: ServeSettings, scorer: Scorer | None = None, scores_mode: str = "off", tracer=None
    ):
        self.program = program
        self.tracer = tracer  # a yaksa.traces.QuestionTracer, or None: no MLflow traces
        self.settings = settings
        self.scorer = scorer
        self.scores_mode = scores_mode if scorer is not None else "off"
        self._variants: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._limiters: dict[str, anyio.CapacityLimiter] = {}

    # ------------------------------------------------------------------ program
    def limiter(self, name: str = "program") -> anyio.CapacityLimiter:
        """The threads of `name` (``program``: ``workers``; ``scores``: a quarter of them, at least 2)."""
        if name not in self._limiters:
            size = self.settings.workers if name == "program" else max(2, self.settings.workers // 4)
            self._limiters[name] = anyio.CapacityLimiter(size)
        return self._limiters[name]

    @property
    def backend(self):
        return self.program.backend

    def lm_roles(self) -> dict[str, str | None]:
        lms = getattr(self.program, "lms", None) or {}
        return {r: getattr(lms.get(r) or dspy.settings.lm, "model", None) for r in ROLES}

    def describe(self) -> dict:
        header = dict(getattr(self.program, "yaksa_header", None) or {})
        header.pop("settings", None)
        return {"class": type(self.program).__name__, **header}

    def program_for(self, ablation: str | None):
        """The shared program, or its variant for another ablation profile (`programs.ablations`; built once, then
        reused). The user's own profile is the `user` of `ask` and `stream`, never this."""
        if not ablation:
            return self.program
        with self._lock:
            if ablation not in self._variants:
                from programs.ablations import ablation_settings

                self._variants[ablation] = self.program.with_settings(ablation_settings(ablation))
            return self._variants[ablation]

    # ------------------------------------------------------------------ answers
    def payload(self, pred, program=None, request_id: str | None = None, trace_id: str | None = None) -> dict:
        """The JSON answer: the prediction's JSON object (yaksa/prediction_json.py) with each citation carrying its
        document text, notices, the trace as clients see it (its LM errors and fallbacks as codes: their own text
        goes to the server log, yaksa/app/public_trace.py) and the MLflow `trace_id`; the fields of `AskResponse`,
        in its order (the stream's ``answer`` event is the /v1/ask body)."""
        program = program or self.program
        shared = prediction_json(pred)
        trace = dict(shared["trace"] or {})
        log_failures(trace, log, request_id)
        contexts = list(shared["contexts"] or [])
        backend = program.backend
        citations = []
        for c in shared["citations"] or []:
            n = int(c["n"])
            doc = _get(backend, c["id"])
            citations.append(
                {
                    **{k: c.get(k, "") for k in ("id", "title", "product", "section")},
                    "n": n,
                    "cited": bool(c.get("cited")),
                    "text": contexts[n - 1] if 0 < n <= len(contexts) else "",
                    "document": doc.text if doc is not None else None,
                }
            )
        uses_lm = bool(trace.get("uses_lm"))
        notice = OOS_MESSAGE if pred.out_of_scope else ("" if uses_lm else NO_LM_NOTICE)
        answer = {
            **shared,
            "out_of_scope": bool(shared["out_of_scope"]),
            "mode": str(trace.get("mode") or pred.mode),
            "method": str(trace.get("method") or ""),
            "uses_lm": uses_lm,
            "notice": notice,
            "citations": citations,
            "web_refs": [
                {"title": str(w.get("title", "")), "url": str(w.get("url", ""))} for w in shared["web_refs"] or []
            ],
            "verification": str(trace.get("verification") or "off"),
            "quality": trace.get("quality"),
            "warnings": list(trace.get("warnings") or []),
            "trace": public_trace(trace),
            "trace_id": trace_id,
        }
        return {name: answer[name] for name in AskResponse.model_fields}

    async def ask(
        self,
        question: str,
        user,
        ablation: str | None,
        work: Work | None = None,
        gone: Callable[[], Awaitable[bool]] | None = None,
    ) -> dict:
        """Answer one question.

        Args:
            work: the question's cancel event and release (default: a fresh one).
            gone: ``await gone()`` is True once the client has disconnected; polled while the program runs, and
                the work is then cancelled.

        Raises:
            TimeoutError: no answer within ``request_timeout_s`` (the work is cancelled).
            ConnectionAbortedError: the client went away (the work is cancelled).
        """
        program = self.program_for(ablation)
        work = work or Work()
        task = asyncio.ensure_future(
            run_question(program, self.limiter(), work, tracer=self.tracer, question=question, user=user)
        )
        deadline = time.perf_counter() + self.settings.request_timeout_s
        try:
            while not task.done():
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError
                await asyncio.wait({task}, timeout=min(left, DISCONNECT_POLL_S))
                if not task.done() and gone is not None and await gone():
                    raise ConnectionAbortedError("the client went away")
        finally:
            if not task.done():
                work.cancel()
        pred = task.result()
        if pred is None:
            raise ConnectionAbortedError("the question was cancelled")
        return self.payload(pred, program, trace_id=work.trace_id)

    async def stream(
        self, question: str, user, ablation: str | None, request_id: str | None = None, work: Work | None = None
    ) -> AsyncIterator[str]:
        """The events of one question, as SSE text (see yaksa/app/events.py for the order).

        When the stream is closed early (the client went away, the timeout), `work` is cancelled: the program
        stops at its next step or LM call.
        """
        work = work or Work()
        s = self.settings
        start = time.perf_counter()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()
        counter = iter(range(1, 1_000_000))
        beat = _Beat(start, s.heartbeat_s)

        def event(name: str, data: dict) -> str:
            return encode(name, data, next(counter))

        def on_step(step: dict) -> None:  # called in the worker thread
            loop.call_soon_threadsafe(queue.put_nowait, ("status", status_data(step)))

        program = self.program_for(ablation)
        request_id = request_id or uuid.uuid4().hex[:12]
        yield event("accepted", {"request_id": request_id, "question": question, "profile": ablation or "default"})
        pump = asyncio.create_task(self._pump(program, queue, work, question=question, user=user, on_step=on_step))
        deadline = start + s.request_timeout_s
        percent, tokens, pred = 0, [], None
        try:
            while pred is None:
                now = time.perf_counter()
                if now >= deadline:
                    yield event("error", {"error": "timeout", "message": f"no answer within {s.request_timeout_s:g} s"})
                    return
                try:
                    kind, value = await asyncio.wait_for(queue.get(), min(beat.next, deadline) - now)
                except TimeoutError:
                    if beat.due():
                        yield event("heartbeat", beat.data("answer"))
                    continue
                if kind == "status":
                    yield event("status", value)
                    p = STEP_PROGRESS.get(value["step"], 0)
                    if p > percent:
                        percent = p
                        yield event("progress", {"stage": "answer", "percent": p})
                elif kind == "token":
                    text, generation = value
                    tokens.append(text)
                    yield event("token", {"text": text, "source": "lm", "generation": generation})
                elif kind == "failed":
                    log.error("question failed", exc_info=value)
                    yield event("error", {"error": "program_error", "message": _safe_message(value)})
                    return
                else:
                    pred = value
                if beat.due():
                    yield event("heartbeat", beat.data("answer"))
            data = self.payload(pred, program, request_id, work.trace_id)
            if not tokens:
                for piece in answer_pieces(data["answer"]):
                    yield event("token", {"text": piece, "source": "final"})
            yield event("answer", data)
            yield event("progress", {"stage": "answer", "percent": 100})
            rounds = sum(1 for st in data["trace"].get("steps", []) if st.get("step") == "verify")
            yield event("verification", {"status": data["verification"], "rounds": rounds})
            web_note = next(
                (st.get("note", "") for st in data["trace"].get("steps", []) if st.get("step") == "web_references"), ""
            )
            yield event("web", {"links": data["web_refs"], "note": web_note})
            if self.scorer is not None:
                async for line in self._scores(question, pred, beat, event, work.event):
                    yield line
            yield event("done", {"elapsed_ms": round((time.perf_counter() - start) * 1000, 1)})
        finally:
            if not pump.done():
                work.cancel()
                pump.cancel()

    async def _pump(self, program, queue: asyncio.Queue, work: Work, **kwargs) -> None:
        """Run the program under dspy.streamify and put its tokens and its prediction on `queue`."""
        from dspy.streaming import StreamResponse

        from programs.stream_listener import answer_listeners

        listeners = answer_listeners(program)
        streaming = dspy.streamify(
            _Threaded(program, self.limiter(), work, self.tracer),
            stream_listeners=listeners,
            is_async_program=True,
            async_streaming=True,
        )
        generation = 1  # a draft and its regeneration are separate generations: a client shows one at a time
        try:
            async for chunk in streaming(**kwargs):
                if isinstance(chunk, StreamResponse):
                    if chunk.chunk:
                        await queue.put(("token", (chunk.chunk, generation)))
                    if getattr(chunk, "is_last_chunk", False):
                        generation += 1
                elif isinstance(chunk, dspy.Prediction):
                    await queue.put(("prediction", chunk))
        except asyncio.CancelledError:
            raise
        except Exception as e:
            await queue.put(("failed", e))

    async def _scores(self, question: str, pred, beat: _Beat, event, cancel: threading.Event) -> AsyncIterator[str]:
        """Score in a worker thread; send progress meanwhile, then the scores (or why there are none)."""
        s = self.settings
        expected = s.scores_expected_s or (60.0 if self.scores_mode == "ragas" else 1.0)
        start = time.perf_counter()
        task = asyncio.ensure_future(in_thread(lambda: self.scorer(question, pred), self.limiter("scores"), cancel))
        yield event("progress", {"stage": "scores", "percent": 0})
        percent, next_tick = 0, start + s.progress_interval_s
        try:
            while not task.done():
                now = time.perf_counter()
                if now - start >= s.scores_timeout_s:
                    task.cancel()
                    yield event("scores", _no_scores(f"점수 계산이 {s.scores_timeout_s:g}초 안에 끝나지 않았습니다."))
                    return
                wait = max(0.0, min(next_tick, beat.next, start + s.scores_timeout_s) - now)
                await asyncio.wait({task}, timeout=wait)
                if beat.due():
                    yield event("heartbeat", beat.data("scores"))
                if time.perf_counter() >= next_tick and not task.done():
                    next_tick += s.progress_interval_s
                    p = min(95, int((time.perf_counter() - start) / expected * 95))
                    if p > percent:
                        percent = p
                        yield event("progress", {"stage": "scores", "percent": p})
            try:
                result = task.result()
            except Exception as e:
                log.warning("scores failed: %s", e)
                result = _no_scores(f"점수를 계산하지 못했습니다 ({type(e).__name__}).")
            yield event("progress", {"stage": "scores", "percent": 100})
            yield event("scores", result)
        finally:
            if not task.done():
                task.cancel()


class _Beat:
    """The heartbeat schedule of one stream: every `interval` seconds from `start`."""

    def __init__(self, start: float, interval: float):
        self.start, self.interval = start, interval
        self.next = start + interval

    def due(self) -> bool:
        if time.perf_counter() >= self.next:
            while self.next <= time.perf_counter():
                self.next += self.interval
            return True
        return False

    def data(self, stage: str) -> dict:
        return {"elapsed_s": round(time.perf_counter() - self.start, 1), "stage": stage}


def _no_scores(note: str) -> dict:
    return {"kind": "none", "scores": {}, "method": "none", "note": note}


def _get(backend, doc_id: str):
    try:
        return backend.get(doc_id) if backend is not None else None
    except Exception:
        return None


def _safe_message(error: BaseException) -> str:
    """A one-line message without internals (no traceback, no long reprs)."""
    if isinstance(error, ProgramError):
        return str(error)[:300]
    return f"the program failed on this question ({type(error).__name__}); see the server log"
