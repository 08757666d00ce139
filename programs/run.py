"""The per-question context every module of the program shares: the LM for each role, the LM-call budget, and the
trace that explains the answer.

All LM calls go through `Run.call`, which checks and charges the budget, picks the role's LM with
``dspy.context(lm=...)``, times the call and records failures. A role whose server cannot be reached (connection
error or timeout) is switched off for the rest of the question, so one dead server costs one timeout, not ten.

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

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dspy

from programs.budget import ROLES, BudgetExhausted, LMBudget

UNREACHABLE_ERRORS = (
    "APIConnectionError",
    "Timeout",
    "ConnectError",
    "ConnectionError",
    "ReadTimeout",
    "LMConfigurationError",
    "LMNotConfiguredError",
    "AuthenticationError",
    "LMTransportError",
    "LMTimeoutError",
    "LMAuthError",
)


@dataclass
class Trace:
    """What happened while answering one question.

    Attributes:
        steps: one dict per step, in order, each with at least ``step``.
        iterations: generation passes after the first (refinement re-searches).
        rewrites: relevance-driven query rewrites.
        relevance_history: the relevance score of each retrieval.
        score_history: the overall quality score of each evaluated answer.
        doc_history: the document ids of each retrieval.
        lm_calls: LM calls per role (and ``total``).
        stop_reason: why the program stopped.
        fallbacks: where an LM step fell back to its heuristic, and why.
        errors: LM errors, one line each.
        on_step: called with each step dict as it is recorded (e.g. to stream progress); never part of `to_dict`.
            An exception it raises is ignored, so a listener cannot break an answer.
    """

    steps: list[dict] = field(default_factory=list)
    iterations: int = 0
    rewrites: int = 0
    relevance_history: list[float] = field(default_factory=list)
    score_history: list[float] = field(default_factory=list)
    doc_history: list[list[str]] = field(default_factory=list)
    lm_calls: dict[str, int] = field(default_factory=lambda: {**{r: 0 for r in ROLES}, "total": 0})
    stop_reason: str = ""
    fallbacks: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
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

    def fallback(self, where: str, why: str) -> None:
        self.fallbacks.append(f"{where}: {why}")
        self.step("fallback", where=where, why=why)

    def to_dict(self) -> dict:
        return {
            "steps": self.steps,
            "iterations": self.iterations,
            "rewrites": self.rewrites,
            "relevance_history": self.relevance_history,
            "score_history": self.score_history,
            "doc_history": self.doc_history,
            "lm_calls": dict(self.lm_calls),
            "stop_reason": self.stop_reason,
            "fallbacks": self.fallbacks,
            "errors": self.errors,
            "timings": self.timings,
        }


class Run:
    """Budget, trace and per-role LMs for one question.

    Args:
        lms: the LM of each role; a role left out uses ``dspy.settings.lm`` (what ``dspy.configure`` set).
        budget_limit: the most LM calls this question may make.
        trace: an existing trace to append to.
    """

    def __init__(self, lms: dict[str, Any] | None = None, budget_limit: int | None = 12, trace: Trace | None = None):
        configured = lms or {}
        self.lms = {role: configured.get(role) or dspy.settings.lm for role in ROLES}
        self.budget = LMBudget(budget_limit)
        self.trace = trace or Trace()
        self.disabled: dict[str, str] = {}
        self.lm_seconds = 0.0

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
            BudgetExhausted: no LM call is left (nothing is called).
            RuntimeError: the role has no LM, or it was switched off after a connection failure.
            Exception: whatever the LM or the adapter raised (a parse error, a server error); the caller falls back.
        """
        if not self.has_lm(role):
            raise RuntimeError(self.disabled.get(role) or f"no LM configured for the {role} role")
        self.budget.charge(role)
        self.trace.lm_calls[role] = self.trace.lm_calls.get(role, 0) + 1
        self.trace.lm_calls["total"] += 1
        adapter = dspy.settings.adapter or dspy.ChatAdapter(use_json_adapter_fallback=False)
        start = time.perf_counter()
        try:
            with dspy.context(lm=self.lms[role], adapter=adapter):
                return predictor(**inputs)
        except BudgetExhausted:
            raise
        except Exception as e:
            message = f"{role}: {type(e).__name__}: {str(e)[:200]}"
            self.trace.errors.append(message)
            if any(name in type(e).__name__ or name in str(e)[:300] for name in UNREACHABLE_ERRORS):
                self.disabled[role] = f"the {role} LM could not be reached ({type(e).__name__})"
            raise
        finally:
            self.lm_seconds += time.perf_counter() - start

    def unreachable(self) -> list[str]:
        """Roles switched off because their server could not be reached."""
        return list(self.disabled)


__all__ = ["Run", "Trace", "BudgetExhausted"]
