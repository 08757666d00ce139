"""The per-question context every module of the program shares: the LM for each role, the LM-call budget, and the
trace that explains the answer.

All LM calls go through `Run.call`, which checks and charges the budget, picks the role's LM and adapter with
``dspy.context(lm=..., adapter=...)``, runs the call under its limits (`programs.lm_call`: first token, inactivity,
the question's wall-clock deadline), times it and records failures. A role whose server cannot be reached
(connection refused, no first token) or that stalled is switched off for the rest of the question; a server that
cannot be reached switches off every role on it (the same ``api_base``), so a dead server costs one first-token
limit per question, not one per role (the trace says so in an ``lm_server_down`` step). Every call is one HTTP
request (the LMs are built without retries), so the budget counts requests. The trace lists each call that was cut
and why (``cut``) and counts the replies that did not parse per role (``parse_failures``).

Example:
    >>> import dspy
    >>> from dspy.utils import DummyLM
    >>> run = Run(lms={"generate": DummyLM([{"answer": "네"}])}, budget_limit=3)
    >>> run.call("generate", dspy.Predict("question -> answer"), question="?").answer
    '네'
    >>> run.trace.lm_calls["generate"]
    1
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dspy
from dspy.utils.exceptions import AdapterParseError

from programs.budget import ROLES, BudgetExhausted, LMBudget
from programs.error_codes import LMUnavailable, code_for, unreachable_errors
from programs.lm_call import LMCallCut, TimeBudgetExhausted, call_with_limits
from programs.structured import adapter_for, reprobe_refused


@dataclass
class RunLog:
    """What happened while answering one question: the run log behind ``pred.trace`` (`to_dict`).

    Not DSPy's ``trace`` (the list of predictor calls an optimizer passes to a metric): this is yaksa's own record
    of steps, LM calls and stops, kept on ``Run.trace`` and returned to apps as the prediction's ``trace`` field.

    Attributes:
        steps: one dict per step, in order, each with at least ``step``.
        doc_history: the document ids of each retrieval.
        lm_calls: LM calls per role (and ``total``).
        fallbacks: where an LM step fell back to its heuristic, and why (the error's own text included).
        errors: LM errors, one line each (the error's own text included).
        error_codes: one ``{"role", "error"}`` per line of `errors`, the error as a code of
            `programs.error_codes` (what the HTTP server shows instead of the lines).
        cut: LM calls cut by a limit: ``{"role", "why", "detail", "seconds", "tokens"}`` with ``why`` one of
            ``unreachable`` (no first token), ``slow`` (tokens stopped), ``time_budget`` (the question's time ran
            out).
        parse_failures: replies that did not parse, per role.
        on_step: called with each step dict as it is recorded (e.g. to stream progress); never part of `to_dict`.
            An exception it raises is ignored, so a listener cannot break an answer.
    """

    steps: list[dict] = field(default_factory=list)
    doc_history: list[list[str]] = field(default_factory=list)
    lm_calls: dict[str, int] = field(default_factory=lambda: {**{r: 0 for r in ROLES}, "total": 0})
    fallbacks: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    error_codes: list[dict] = field(default_factory=list)
    cut: list[dict] = field(default_factory=list)
    parse_failures: dict[str, int] = field(default_factory=lambda: {r: 0 for r in ROLES})
    timings: dict[str, float] = field(default_factory=dict)
    on_step: Callable[[dict], Any] | None = field(default=None, repr=False, compare=False)

    def step(self, name: str, **info: Any) -> dict:
        entry = {"step": name, **info}
        self.steps.append(entry)
        if self.on_step is not None:
            try:
                self.on_step(entry)
            except Exception:  # a listener (a closed stream) must not break the answer
                pass
        return entry

    def fallback(self, where: str, why: str, code: str = "step_failed", then: str = "") -> None:
        """Record that `where` fell back: `why` (details), `code` (one of `programs.error_codes.MESSAGES`) and
        `then`, what it did instead."""
        self.fallbacks.append(f"{where}: {why}")
        self.step("fallback", where=where, why=why, error=code, **({"then": then} if then else {}))

    def lm_error(self, role: str, code: str, detail: str) -> None:
        """Record a failed LM call of `role`: `detail` in `errors`, `code` in `error_codes`."""
        self.errors.append(f"{role}: {detail}")
        self.error_codes.append({"role": role, "error": code})

    def to_dict(self, **loop: Any) -> dict:
        """The log as apps read it (``pred.trace``), with `loop`: the question's loop counters and stop reason as
        the state holds them (`QuestionState.loop_record`)."""
        return {
            "steps": self.steps,
            **loop,
            "doc_history": self.doc_history,
            "lm_calls": dict(self.lm_calls),
            "fallbacks": self.fallbacks,
            "errors": self.errors,
            "error_codes": self.error_codes,
            "cut": self.cut,
            "parse_failures": dict(self.parse_failures),
            "timings": self.timings,
        }


class Run:
    """Budget, trace and per-role LMs for one question.

    Args:
        lms: the LM of each role; a role left out uses ``dspy.settings.lm`` (what ``dspy.configure`` set).
        budget_limit: the most LM calls this question may make.
        trace: an existing trace to append to.
        time_budget_s: the most seconds this question may take from now (None: no limit); an LM call that would
            run past it is cut, and no call starts after it (`TimeBudgetExhausted`, a `BudgetExhausted`).
    """

    def __init__(
        self,
        lms: dict[str, Any] | None = None,
        budget_limit: int | None = 12,
        trace: RunLog | None = None,
        time_budget_s: float | None = None,
    ):
        configured = lms or {}
        self.lms = {role: configured.get(role) or dspy.settings.lm for role in ROLES}
        self.budget = LMBudget(budget_limit)
        self.trace = trace or RunLog()
        self.disabled: dict[str, str] = {}
        self.slow: set[str] = set()
        self.lm_seconds = 0.0
        self.time_budget_s = time_budget_s
        self.deadline = time.monotonic() + time_budget_s if time_budget_s else None

    @property
    def uses_lm(self) -> bool:
        """True when at least one role has an LM."""
        return any(lm is not None for lm in self.lms.values())

    def has_lm(self, role: str) -> bool:
        """True when `role` has an LM that has not been switched off."""
        return self.lms.get(role) is not None and role not in self.disabled

    def call(self, role: str, predictor: dspy.Module, **inputs: Any) -> dspy.Prediction:
        """Call `predictor` with the LM of `role`, charging the budget.

        Raises:
            BudgetExhausted: no LM call is left, or the time budget ran out before or during the call
                (`TimeBudgetExhausted`).
            LMUnavailable: the role has no LM, or it was switched off after a connection failure or a stall (a
                RuntimeError).
            Exception: whatever the LM or the adapter raised (a parse error, a server error); the caller falls back.
        """
        if not self.has_lm(role):
            raise LMUnavailable(self.disabled.get(role) or f"no LM configured for the {role} role")
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self._cut(role, "time_budget", f"no time left for a {role} call", 0.0, 0)
            raise TimeBudgetExhausted(f"wall-clock budget of {self.time_budget_s:g} s used up before a {role} call")
        self.budget.charge(role)
        self.trace.lm_calls[role] = self.trace.lm_calls.get(role, 0) + 1
        self.trace.lm_calls["total"] += 1
        lm = self.lms[role]
        settings = getattr(lm, "yaksa", None)
        start = time.perf_counter()
        try:
            for attempt in (1, 2):
                try:
                    return self._attempt(lm, settings, predictor, inputs)
                except (BudgetExhausted, LMCallCut):
                    raise
                except Exception as e:
                    refused = attempt == 1 and _dialect_hint(e, lm) and not dspy.settings.adapter
                    dialect = refused and reprobe_refused(lm)  # another server took the port: ask it, retry once
                    if not dialect:
                        raise
                    self.trace.step("structured_dialect", role=role, refused=f"{type(e).__name__}", now=dialect)
        except TimeBudgetExhausted as e:
            self._cut(role, "time_budget", str(e), e.waited_s, e.tokens)
            raise
        except BudgetExhausted:
            raise
        except LMCallCut as e:
            verb = "could not be reached" if e.kind == "unreachable" else "was too slow"
            self.disabled[role] = f"the {role} LM {verb} ({e})"
            if e.kind == "slow":
                self.slow.add(role)
            self.trace.lm_error(role, code_for(e), f"{e.kind}: {e}")
            self._cut(role, e.kind, str(e), e.waited_s, e.tokens)
            if e.kind == "unreachable":
                self._server_down(role)
            raise
        except Exception as e:
            if isinstance(e, AdapterParseError):
                self.trace.parse_failures[role] = self.trace.parse_failures.get(role, 0) + 1
            message = f"{type(e).__name__}: {str(e)[:200]}"
            self.trace.lm_error(role, code_for(e), f"{message}{_dialect_hint(e, lm)}")
            if _unreachable(e):
                self.disabled[role] = f"the {role} LM could not be reached ({type(e).__name__})"
                self._cut(role, "unreachable", f"{type(e).__name__}: {str(e)[:120]}", time.perf_counter() - start, 0)
                self._server_down(role)
            raise
        finally:
            self.lm_seconds += time.perf_counter() - start

    def _attempt(self, lm, settings, predictor: dspy.Module, inputs: dict[str, Any]) -> dspy.Prediction:
        """One call of `predictor` with `lm` in its adapter, within the LM's limits and the question's deadline."""
        adapter = dspy.settings.adapter or (  # auto structured outputs ask the server its name (LMCallCut if dead)
            adapter_for(lm) if settings else dspy.ChatAdapter(use_json_adapter_fallback=False)
        )
        with dspy.context(lm=lm, adapter=adapter):
            if settings is None:  # a scripted LM in tests: no HTTP, no limits to watch
                return predictor(**inputs)

            async def acall():
                return await predictor.acall(**inputs)

            return call_with_limits(acall, settings.limits, self.deadline)

    def server(self, role: str) -> str:
        """Where `role`'s LM answers: its ``api_base``, else its model string (a hosted provider); "" for a scripted
        LM, which has no server."""
        lm = self.lms.get(role)
        if getattr(lm, "yaksa", None) is None:
            return ""
        return str((getattr(lm, "kwargs", {}) or {}).get("api_base") or getattr(lm, "model", "") or "")

    def _server_down(self, role: str) -> None:
        """`role`'s server could not be reached: switch off every other role on the same server for the rest of the
        question, so a dead server costs one first-token limit, not one per role."""
        server = self.server(role)
        if not server:
            return
        others = [r for r in ROLES if r != role and r not in self.disabled and self.server(r) == server]
        for other in others:
            self.disabled[other] = f"the {other} LM is on the server of the {role} LM, which could not be reached"
        if others:
            self.trace.step("lm_server_down", role=role, skipped=others)

    def _cut(self, role: str, why: str, detail: str, seconds: float, tokens: int) -> None:
        entry = {"role": role, "why": why, "detail": detail, "seconds": round(seconds, 1), "tokens": tokens}
        self.trace.cut.append(entry)
        self.trace.step("cut", **entry)

    def unreachable(self) -> list[str]:
        """Roles switched off because their server could not be reached (a role that was only slow is not listed:
        its cut is in ``trace.cut``)."""
        return [role for role in self.disabled if role not in self.slow]

    def reasons(self) -> dict[str, str]:
        """Why each switched-off role was switched off (unreachable or too slow), one line each."""
        return dict(self.disabled)


@functools.cache
def _unreachable(error: BaseException) -> bool:
    """True for a connection failure, a timeout or an auth error, looking through the exception's causes."""
    seen = 0
    while error is not None and seen < 6:
        if isinstance(error, unreachable_errors()):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _dialect_hint(error: Exception, lm) -> str:
    """A hint when a server refused the structured-output dialect (e.g. llama-cpp-python answers 500 to
    ``json_schema``)."""
    settings = getattr(lm, "yaksa", None)
    text = str(error)[:2000].lower()
    if settings is None or not any(word in text for word in ("response_format", "json_schema", "schema", "grammar")):
        return ""
    names = type(error).__name__.lower() + text
    if not any(
        code in names for code in ("400", "422", "500", "badrequest", "servererror", "internal", "unprocessable")
    ):
        return ""
    return (
        f" — the server may not take structured outputs in this dialect: set structured for the {settings.role} "
        "role (json_schema, json_object+schema or off) in [lm] of yaksa.toml or with --structured"
    )


__all__ = ["Run", "RunLog", "BudgetExhausted"]
