"""Short codes for what went wrong in a step, each with a message of ours: what an HTTP client is told instead of
the error's own text (an LM server's error body can name hosts, paths or secrets; it stays in the trace's
``errors`` / ``fallbacks`` lines, which only the server log and the local CLI show).

Example:
    >>> code_for(ConnectionRefusedError(111, "Connection refused"))
    'lm_unreachable'
    >>> code_for(ValueError("expected 3 yes/no verdicts"))
    'bad_reply'
    >>> MESSAGES["lm_error"]
    'the LM server answered with an error'
"""

from __future__ import annotations

MESSAGES = {
    "lm_unreachable": "the LM server could not be reached",
    "lm_timeout": "the LM server did not answer in time",
    "lm_auth": "the LM server refused the credentials",
    "lm_error": "the LM server answered with an error",
    "lm_off": "no LM for this step (none configured, or switched off after an earlier failure)",
    "parse_failed": "the LM's reply could not be parsed",
    "bad_reply": "the LM's reply could not be used",
    "lm_budget": "the LM-call budget was used up",
    "time_budget": "the question's time budget was used up",
    "backend_error": "the search backend failed",
    "ungrounded": "sentences the documents do not support were removed",
    "step_failed": "this step failed",
}


class LMUnavailable(RuntimeError):
    """A role has no LM: none is configured, or it was switched off after a connection failure or a stall."""


def code_for(error: BaseException) -> str:
    """The code of an error raised in an LM step (one of `MESSAGES`), looking through its causes."""
    from dspy.utils.exceptions import AdapterParseError

    from programs.budget import BudgetExhausted
    from programs.lm_call import LMCallCut, TimeBudgetExhausted

    if isinstance(error, TimeBudgetExhausted):
        return "time_budget"
    if isinstance(error, BudgetExhausted):
        return "lm_budget"
    if isinstance(error, LMCallCut):
        return "lm_unreachable" if error.kind == "unreachable" else "lm_timeout"
    if isinstance(error, LMUnavailable):
        return "lm_off"
    if isinstance(error, AdapterParseError):
        return "parse_failed"
    timeouts, auth, unreachable, server = _classes()
    for e in _chain(error):
        if isinstance(e, timeouts):
            return "lm_timeout"
        if isinstance(e, auth):
            return "lm_auth"
        if isinstance(e, unreachable):
            return "lm_unreachable"
    if any(isinstance(e, server) for e in _chain(error)):
        return "lm_error"
    return "bad_reply" if isinstance(error, ValueError | KeyError | TypeError) else "step_failed"


def _chain(error: BaseException | None, depth: int = 6):
    while error is not None and depth > 0:
        yield error
        error, depth = error.__cause__ or error.__context__, depth - 1


def _classes() -> tuple[tuple[type[BaseException], ...], ...]:
    """(timeouts, auth failures, connection failures, other LM-server errors) of httpx, openai, litellm and DSPy."""
    import httpx
    import openai
    from dspy.utils import exceptions as dspy_errors

    timeouts = [TimeoutError, httpx.TimeoutException, openai.APITimeoutError, dspy_errors.LMTimeoutError]
    auth = [openai.AuthenticationError, openai.PermissionDeniedError, dspy_errors.LMAuthError]
    server = [openai.APIError, httpx.HTTPError, dspy_errors.LMError]
    try:
        from dspy._vendor.lm15 import errors as lm15  # DSPy's engine, where it raises its own errors

        timeouts += [lm15.TimeoutError, lm15.RequestTimeoutError]
        auth += [lm15.AuthError]
        server += [lm15.LM15Error]
    except (ImportError, AttributeError):
        pass
    return tuple(timeouts), tuple(auth), unreachable_errors(), tuple(server)


def unreachable_errors() -> tuple[type[BaseException], ...]:
    """The exception classes that mean a server cannot be reached or refused us: a connection failure, a timeout,
    an authentication or configuration error (from the standard library, httpx, openai, litellm and DSPy)."""
    import httpx
    import openai
    from dspy.utils import exceptions as dspy_errors

    classes: list[type[BaseException]] = [
        ConnectionError,  # ConnectionRefusedError, ConnectionResetError, ...
        TimeoutError,
        httpx.ConnectError,
        httpx.TimeoutException,
        openai.APIConnectionError,  # litellm's APIConnectionError and Timeout subclass these
        openai.AuthenticationError,
        dspy_errors.LMTransportError,
        dspy_errors.LMTimeoutError,
        dspy_errors.LMAuthError,
        dspy_errors.LMConfigurationError,
    ]
    try:
        from dspy._vendor.lm15 import errors as lm15_errors  # DSPy's engine, where it raises its own errors

        classes += [lm15_errors.TransportError, lm15_errors.AuthError, lm15_errors.ConfigurationError]
    except ImportError:
        pass
    return tuple(classes)
