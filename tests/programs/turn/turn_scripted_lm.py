"""A scripted LM for the turn evaluator's tests: a custom dspy engine that answers by what the request asks for,
optionally sleeping, and records when each call started and ended (to prove evaluations overlap)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import dspy
from dspy.lm15 import response_to_events

from yaksa.testing.scripted_lm import text_response

RUBRIC_KEYS = ("clarity", "problem_relevance", "examples", "rules", "context")


def rubrics(score: float, reason: str = "scripted") -> dict:
    return {key: {"score": score, "reason": f"{reason} {key}"} for key in RUBRIC_KEYS}


def evaluation(score: float, reasoning: str = "scripted reasoning") -> dict:
    return {"rubrics": rubrics(score), "final_reasoning": reasoning, "score": score}


def chat_format(fields: dict) -> str:
    """Format output fields the way dspy's ChatAdapter expects them back."""
    parts = []
    for name, value in fields.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        parts.append(f"[[ ## {name} ## ]]\n{text}")
    return "\n\n".join(parts + ["[[ ## completed ## ]]"])


class ScriptedEngine:
    """Answer each request with ``reply(last user message)`` (a dict of output fields, or raw text)."""

    def __init__(self, reply: Callable[[str], dict | str], delay: float = 0.0):
        self.reply = reply
        self.delay = delay
        self.calls: list[dict] = []
        self._lock = threading.Lock()

    def complete(self, request):
        prompt = request.messages[-1].text or ""
        start = time.monotonic()
        time.sleep(self.delay)
        answer = self.reply(prompt)
        end = time.monotonic()
        with self._lock:
            self.calls.append({"prompt": prompt, "start": start, "end": end})
        return text_response(answer if isinstance(answer, str) else chat_format(answer))

    def stream(self, request):
        return response_to_events(self.complete(request))

    def close(self):
        pass


def scripted_lm(reply: Callable[[str], dict | str], delay: float = 0.0) -> tuple[dspy.LM, ScriptedEngine]:
    engine = ScriptedEngine(reply, delay)
    return dspy.LM("scripted/judge", engine=engine, cache=False, num_retries=0), engine


def by_request(intents: list[str], evaluations: dict[str, dict | str]) -> Callable[[str], dict | str]:
    """Answer intent analysis with ``intents`` and each evaluation by the eval-type label it carries."""

    def reply(prompt: str) -> dict | str:
        if "[[ ## eval_type ## ]]" not in prompt:
            return {"intents": intents}
        for label, answer in evaluations.items():
            if label in prompt:
                return answer
        raise AssertionError("no scripted answer for this evaluation")

    return reply
