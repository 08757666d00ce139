"""Each kind of failure an LM step meets gets its code: the exceptions httpx, openai, litellm and DSPy raise, our
own cuts and budgets, and a reply that could not be used."""

import dspy
import httpx
import openai
import pytest
from dspy.utils.exceptions import AdapterParseError

from programs.budget import BudgetExhausted
from programs.error_codes import MESSAGES, LMUnavailable, code_for
from programs.lm_call import LMCallCut, TimeBudgetExhausted

REQUEST = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")


def status(cls, code: int):
    return cls("password=hunter2", response=httpx.Response(code, request=REQUEST), body=None)


def wrapped(error: BaseException) -> RuntimeError:
    try:
        raise RuntimeError("while calling the LM") from error
    except RuntimeError as e:
        return e


@pytest.mark.parametrize(
    "error, code",
    [
        (status(openai.InternalServerError, 500), "lm_error"),
        (status(openai.BadRequestError, 400), "lm_error"),
        (status(openai.AuthenticationError, 401), "lm_auth"),
        (openai.APITimeoutError(request=REQUEST), "lm_timeout"),
        (openai.APIConnectionError(request=REQUEST), "lm_unreachable"),
        (httpx.ConnectError("refused"), "lm_unreachable"),
        (wrapped(ConnectionRefusedError(111, "Connection refused")), "lm_unreachable"),
        (LMCallCut("unreachable", "no first token within 5 s", 5.0, 0), "lm_unreachable"),
        (LMCallCut("slow", "no token for 30 s", 31.0, 4), "lm_timeout"),
        (TimeBudgetExhausted("time is up"), "time_budget"),
        (BudgetExhausted("no calls left"), "lm_budget"),
        (LMUnavailable("no LM configured for the judge role"), "lm_off"),
        (AdapterParseError("ChatAdapter", dspy.Signature("question -> answer"), "free text"), "parse_failed"),
        (ValueError("expected 3 yes/no verdicts"), "bad_reply"),
        (ZeroDivisionError(), "step_failed"),
    ],
)
def test_code_for(error, code):
    assert code_for(error) == code
    assert code in MESSAGES
    assert "hunter2" not in MESSAGES[code]
