"""A per-question budget of LM calls shared by every loop of the program.

Each loop keeps its own cap as well (rewrites, verification rounds, refinement iterations); the budget is the outer
bound that holds whatever the loops do.

Example:
    >>> b = LMBudget(2)
    >>> b.charge("generate"); b.charge("verify"); b.remaining
    0
    >>> b.charge("judge")
    Traceback (most recent call last):
    ...
    programs.budget.BudgetExhausted: LM-call budget of 2 used up before a judge call
"""

from __future__ import annotations

ROLES = ("query", "generate", "verify", "judge")


class BudgetExhausted(RuntimeError):
    """The question's LM-call budget is spent; the program returns its best answer so far.

    Attributes:
        reason: the trace's ``stop_reason`` (``lm_budget_exhausted``; the wall-clock budget's subclass,
            `programs.lm_call.TimeBudgetExhausted`, says ``time_budget_exhausted``).
    """

    reason = "lm_budget_exhausted"


class LMBudget:
    """Counts LM calls per role against a limit.

    Args:
        limit: the most LM calls one question may make (``None``: unlimited).
    """

    def __init__(self, limit: int | None = 12):
        self.limit = limit
        self.used = 0
        self.by_role: dict[str, int] = {role: 0 for role in ROLES}

    @property
    def remaining(self) -> float:
        return float("inf") if self.limit is None else max(self.limit - self.used, 0)

    def charge(self, role: str) -> None:
        """Record one call for `role`, or raise `BudgetExhausted` when none is left."""
        if self.limit is not None and self.used >= self.limit:
            raise BudgetExhausted(f"LM-call budget of {self.limit} used up before a {role} call")
        self.used += 1
        self.by_role[role] = self.by_role.get(role, 0) + 1
