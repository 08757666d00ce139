"""A DummyLM that answers by signature: it recognises which of the program's predictors is calling (from the output
fields in the system prompt) and replies from that predictor's script.

A script entry is a dict of output fields, a raw string (to test malformed output), an Exception instance (raised),
or a callable ``messages -> any of those``. When a script runs dry the last entry repeats.

Example:
    lm = ScriptedLM(generate=[{"answer": "... [문서 1] 전문가와 꼭 상담하세요."}], verify=[PASS])
    program = CRAG(backend=real_searcher(), lms={"query": lm, "generate": lm, "verify": lm, "judge": lm})
    lm.calls  # ['optimize', 'generate', 'verify', 'evaluate']
"""

from __future__ import annotations

from dspy.clients.engines.dummy_engine import DummyEngine
from dspy.utils import DummyLM

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

# output field that identifies each predictor, most specific first
SIGNATURES = (
    ("verify", "`verdict`"),
    ("correct", "`corrected_answer`"),
    ("rewrite", "`rewritten_query`"),
    ("optimize", "`rerank_query`"),
    ("grade", "`verdicts`"),
    ("evaluate", "`grounding`"),
    ("generate_low_relevance", "may not be directly relevant"),
    ("generate_no_context", "No relevant documents were found"),
    ("generate", "`answer`"),
)
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


def which(messages) -> str:
    system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
    for name, marker in SIGNATURES:
        if marker in system:
            return name
    return "unknown"


class _Engine(DummyEngine):
    def _complete_messages(self, messages):
        owner = self.owner
        name = which(messages)
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
        if isinstance(entry, str):  # raw text, e.g. malformed output
            from dspy.lm15 import Message, Response, TextPart, Usage

            return Response(
                id=None,
                model="dummy",
                message=Message.assistant([TextPart(entry)]),
                finish_reason="stop",
                usage=Usage(input_tokens=0, output_tokens=0, total_tokens=0),
            )
        saved = owner.answers
        owner.answers = iter([entry])
        try:
            return super()._complete_messages(messages)
        finally:
            owner.answers = saved


class ScriptedLM(DummyLM):
    """Scripted replies per predictor; `calls` lists which predictors called, in order."""

    def __init__(self, **scripts):
        super().__init__([])
        self.scripts = {name: list(v) if isinstance(v, list | tuple) else [v] for name, v in scripts.items()}
        self.calls: list[str] = []
        self.prompts: list[tuple[str, list]] = []
        from dspy.clients.engines.dummy_engine import AsyncDummyEngine

        self._engine_spec = _Engine(self)
        self._async_engine_spec = AsyncDummyEngine(self._engine_spec)

    def roles(self) -> dict:
        """The same LM for every role."""
        return {role: self for role in ("query", "generate", "verify", "judge")}
