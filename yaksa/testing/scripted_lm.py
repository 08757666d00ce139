"""A scripted `dspy.LM` that answers by signature: it recognises which of the program's predictors is calling from
the fields of its signature (names, types and descriptions of the inputs and outputs, as the adapter lists them in
the system prompt), never from the instructions, so an edited docstring or an optimizer rewriting instructions still
sends each reply to its predictor.

It is a plain ``dspy.LM`` with a custom engine (DSPy's public ``engine=`` contract: ``complete(Request) ->
Response``), so DSPy's own call path (callbacks, usage, streaming) runs as it does for a real model.

A script entry is a dict of output fields, a raw string (to test malformed output), an Exception instance (raised),
or a callable ``messages -> any of those``. When a script runs dry the last entry repeats.

Example:
    lm = ScriptedLM(generate=[{"answer": "... [문서 1] 전문가와 꼭 상담하세요."}], verify=[PASS])
    program = CRAG(backend=real_searcher(), lms={"query": lm, "generate": lm, "verify": lm, "judge": lm})
    lm.calls  # ['optimize', 'generate', 'verify', 'evaluate']
"""

from __future__ import annotations

import re
import threading

import dspy
from dspy.adapters.chat_adapter import ChatAdapter, FieldInfoWithName
from dspy.lm15 import Message, Response, TextPart, Usage, response_to_events

from programs.budget import ROLES
from signatures.evaluation import EvaluateQuality, VerifyAnswer
from signatures.generation import CorrectAnswer, GenerateAnswer, GenerateNoContext, GenerateWithLowRelevance
from signatures.grading import GradeDocuments
from signatures.query import OptimizeQuery, RewriteQuery

PASS = {"verdict": "PASS", "failure_cause": "none", "feedback": ""}
GOOD = {
    "grounding": 0.9,
    "completeness": 0.9,
    "accuracy": 0.9,
    "missing_info": [],
    "improvement_suggestions": [],
    "needs_retrieval": False,
    "reason": "좋음",
}
OPTIMIZED = {
    "core_terms": ["게보린"],
    "recall_terms": ["아세트아미노펜"],
    "avoid_terms": [],
    "rerank_query": "게보린 속쓰림",
}
ANSWER = {
    "answer": "게보린을 먹고 속이 쓰릴 수 있습니다. 위장 장애가 나타날 수 있습니다. [문서 1]\n\n전문가와 꼭 상담하세요."
}

# the program's predictors: script name -> the signature that identifies it
SIGNATURES = {
    "verify": VerifyAnswer,
    "correct": CorrectAnswer,
    "rewrite": RewriteQuery,
    "optimize": OptimizeQuery,
    "grade": GradeDocuments,
    "evaluate": EvaluateQuality,
    "generate": GenerateAnswer,  # before its two siblings: an unknown signature with an `answer` output is 'generate'
    "generate_low_relevance": GenerateWithLowRelevance,
    "generate_no_context": GenerateNoContext,
}
DEFAULTS = {
    "verify": PASS,
    "correct": {"corrected_answer": "교정된 답변입니다. [문서 1] 전문가와 꼭 상담하세요."},
    "rewrite": {"rewritten_query": "게보린 복용 방법"},
    "optimize": OPTIMIZED,
    "grade": lambda messages: {"verdicts": ["yes"] * messages[-1]["content"].count("[문서 "), "reason": "관련 있음"},
    "evaluate": GOOD,
    "generate_low_relevance": {"answer": "정보가 불완전할 수 있습니다. [문서 1] 전문가와 꼭 상담하세요."},
    "generate_no_context": {"answer": "관련 문서를 찾지 못했습니다. 전문가와 꼭 상담하세요."},
    "generate": ANSWER,
}

_ADAPTER = ChatAdapter()
_OUTPUT_NAME = re.compile(r"^\s*\d+\.\s*`([^`]+)`", re.M)


def field_listing(signature) -> str:
    """The signature's fields as the adapter lists them in the system prompt (no instructions in it)."""
    return _ADAPTER.format_field_description(signature)


def output_names(system: str) -> tuple[str, ...]:
    """The output field names listed in a system prompt."""
    block = system.split("Your output fields are:", 1)
    if len(block) < 2:
        return ()
    return tuple(_OUTPUT_NAME.findall(block[1].split("All interactions will be structured", 1)[0]))


def which(messages) -> str:
    """The script name of the predictor that wrote `messages`: the signature whose whole field listing is in the
    system prompt (the longest, should one listing contain another); failing that, the first signature with the same
    output field names; else 'unknown'."""
    system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
    matches = [(len(field_listing(sig)), name) for name, sig in SIGNATURES.items() if field_listing(sig) in system]
    if matches:
        return max(matches)[1]
    names = output_names(system)
    return next((name for name, sig in SIGNATURES.items() if names and tuple(sig.output_fields) == names), "unknown")


def chat_reply(fields: dict) -> str:
    """Output fields in the ChatAdapter's ``[[ ## name ## ]]`` format."""
    with_values = {FieldInfoWithName(name=k, info=dspy.OutputField()): v for k, v in fields.items()}
    return _ADAPTER.format_field_with_value(with_values) + "\n\n[[ ## completed ## ]]"


def text_response(text: str) -> Response:
    """A finished engine response carrying `text`, as a scripted engine returns it."""
    return Response(
        id=None,
        model="scripted",
        message=Message.assistant([TextPart(text)]),
        finish_reason="stop",
        usage=Usage(input_tokens=0, output_tokens=0, total_tokens=0),
    )


class ScriptedEngine:
    """The engine behind a `ScriptedLM`: picks the predictor, takes the next script entry, records the call."""

    def __init__(self, owner: ScriptedLM):
        self.owner = owner
        self._lock = threading.Lock()

    def complete(self, request) -> Response:
        messages = []
        if request.system is not None:
            system = request.system if isinstance(request.system, str) else "".join(p.text for p in request.system)
            messages.append({"role": "system", "content": system})
        messages.extend({"role": m.role, "content": m.text or ""} for m in request.messages)
        owner, name = self.owner, which(messages)
        with self._lock:
            owner.calls.append(name)
            owner.prompts.append((name, messages))
            script = owner.scripts.get(name)
            if script:
                entry = script.pop(0) if len(script) > 1 else script[0]
            else:
                entry = DEFAULTS.get(name, {"answer": "?"})
        if callable(entry) and not isinstance(entry, dict):
            entry = entry(messages)
        if isinstance(entry, BaseException):
            raise entry
        return text_response(entry if isinstance(entry, str) else chat_reply(entry))  # a str is raw text

    def __deepcopy__(self, memo):  # a deep-copied program still reports to the one script and call list
        return self

    def stream(self, request):
        return response_to_events(self.complete(request))

    def close(self) -> None:
        pass


class ScriptedLM(dspy.LM):
    """Scripted replies per predictor; `calls` lists which predictors called, in order, `prompts` what they sent.

    Copies (``lm.copy(temperature=...)``) share the engine, so their calls land in the same `calls`."""

    def __init__(self, **scripts):
        names = {*SIGNATURES, "unknown"}  # 'unknown': any other signature (a RAGAS prompt, a test's own)
        if set(scripts) - names:
            raise ValueError(f"no predictor named {sorted(set(scripts) - names)}; choose from {sorted(names)}")
        self.scripts = {name: list(v) if isinstance(v, list | tuple) else [v] for name, v in scripts.items()}
        self.calls: list[str] = []
        self.prompts: list[tuple[str, list]] = []
        super().__init__("scripted/lm", engine=ScriptedEngine(self), cache=False, num_retries=0)

    def roles(self) -> dict:
        """The same LM for every role."""
        return dict.fromkeys(ROLES, self)
