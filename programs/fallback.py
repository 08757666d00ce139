"""The one rule for an LM step that fails: a spent budget (`BudgetExhausted`, the LM calls or the time) stops the
question and passes through; any other error is recorded in the run log (``fallbacks`` and a ``fallback`` step) and
the step falls back to its heuristic.

Example:
    >>> from programs.run import RunLog
    >>> log = RunLog()
    >>> with FallBack(log, "rewrite", "keyword rewrite") as step:
    ...     raise ValueError("empty rewrite")
    >>> step.failed, log.fallbacks
    (True, ['rewrite: ValueError: empty rewrite; keyword rewrite'])
    >>> from programs.budget import BudgetExhausted
    >>> with FallBack(log, "rewrite", "keyword rewrite"):
    ...     raise BudgetExhausted("LM-call budget of 0 used up before a query call")
    Traceback (most recent call last):
    ...
    programs.budget.BudgetExhausted: LM-call budget of 0 used up before a query call
"""

from __future__ import annotations

from programs.budget import BudgetExhausted
from programs.error_codes import code_for


class FallBack:
    """A ``with`` block whose errors, other than a spent budget, are logged and swallowed.

    Args:
        log: the question's `programs.run.RunLog` (anything with ``fallback(where, why, code, then)``).
        where: the step that fell back (``rewrite``, ``generate``, ...).
        then: what the step does instead, appended to the logged reason.

    Attributes:
        failed: True once the block raised (and the error was logged).
        error: the error the block raised, or None.
    """

    def __init__(self, log, where: str, then: str):
        self.log, self.where, self.then = log, where, then
        self.failed = False
        self.error: Exception | None = None

    def __enter__(self) -> FallBack:
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        if error is None or isinstance(error, BudgetExhausted) or not isinstance(error, Exception):
            return False
        self.failed, self.error = True, error
        why = f"{type(error).__name__}: {str(error)[:120]}; {self.then}"
        self.log.fallback(self.where, why, code_for(error), self.then)
        return True
