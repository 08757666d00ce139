"""Verification with self-correction (pharmacist-rag-pipeline stages 6-7 and its adaptive re-search).

The verifier answers PASS or FAIL with a cause. A FAIL for hallucination (or any other cause) is corrected from the
verifier's feedback and verified again, at most `max_rounds` times. A FAIL for missing information is not reworded:
the caller's `research` function rewrites the query, searches again and regenerates, once; if the answer still
lacks the information it goes out with an "정보 부족" notice. A verifier that cannot be reached or parsed lets the
answer through, and the trace says it was not verified.

Example:
    >>> from dspy.utils import DummyLM
    >>> run = Run(lms={"verify": DummyLM([{"verdict": "PASS", "failure_cause": "none", "feedback": ""}])})
    >>> Verifier()(question="q", context="[문서 1] ...", answer="a 전문가와 꼭 상담하세요", run=run).status
    'pass'
"""

from __future__ import annotations

from collections.abc import Callable

import dspy

from programs.budget import BudgetExhausted
from programs.extractive import INSUFFICIENT_NOTICE, ensure_safety_line
from programs.routing import ACCEPT, CORRECT, GIVE_UP, INSUFFICIENT, RESEARCH, route_verification
from programs.run import Run
from signatures.evaluation import VerifyAnswer
from signatures.generation import CorrectAnswer

FAILED_NOTICE = "※ 이 답변은 자동 검증을 통과하지 못했습니다. 반드시 전문가와 꼭 상담하세요."
CAUSES = ("none", "hallucination", "missing_information", "other")

# research(feedback) -> (answer, context) after a new search, or None when nothing better was found
Research = Callable[[str], "tuple[str, str] | None"]


class Verifier(dspy.Module):
    """Verify, then correct or re-search until PASS or a cap."""

    def __init__(self, max_rounds: int = 3, max_research: int = 1):
        super().__init__()
        self.verify = dspy.Predict(VerifyAnswer)
        self.correct = dspy.Predict(CorrectAnswer)
        self.max_rounds = max_rounds
        self.max_research = max_research

    def check(self, question: str, context: str, answer: str, run: Run) -> tuple[str, str, str]:
        """(verdict, cause, feedback); raises when the LM fails."""
        out = run.call("verify", self.verify, question=question, context=context, answer=answer)
        verdict = str(out.verdict).strip().upper()
        if verdict not in ("PASS", "FAIL"):
            raise ValueError(f"verdict {out.verdict!r} is neither PASS nor FAIL")
        cause = str(out.failure_cause or "").strip().lower()
        cause = cause if cause in CAUSES else "other"
        return verdict, ("none" if verdict == "PASS" else cause), str(out.feedback or "")

    def forward(
        self, question: str, context: str, answer: str, run: Run | None = None, research: Research | None = None
    ) -> dspy.Prediction:
        run = run or Run(budget_limit=None)
        return self._loop(question, context, answer, run, research)

    def _loop(self, question: str, context: str, answer: str, run: Run, research: Research | None):
        # A BudgetExhausted raised here carries `partial` = (latest answer, its context) for the caller.
        rounds = researched = 0
        while True:
            try:
                verdict, cause, feedback = self.check(question, context, answer, run)
            except BudgetExhausted as e:
                e.partial = (answer, context)
                raise
            except Exception as e:
                run.trace.fallback("verify", f"{type(e).__name__}: {str(e)[:120]}; answer not verified")
                return dspy.Prediction(answer=answer, context=context, status="unverified", rounds=rounds)
            action = route_verification(verdict, cause, rounds, researched, self.max_rounds, self.max_research)
            if action == RESEARCH and research is None:
                action = INSUFFICIENT
            run.trace.step("verify", verdict=verdict, cause=cause, action=action, round=rounds, feedback=feedback[:200])
            if action == ACCEPT:
                return dspy.Prediction(answer=answer, context=context, status="pass", rounds=rounds)
            if action == INSUFFICIENT:
                return dspy.Prediction(
                    answer=f"{answer.rstrip()}\n\n{INSUFFICIENT_NOTICE}",
                    context=context,
                    status="insufficient_information",
                    rounds=rounds,
                )
            if action == GIVE_UP:
                return dspy.Prediction(
                    answer=f"{answer.rstrip()}\n\n{FAILED_NOTICE}", context=context, status="failed", rounds=rounds
                )
            if action == RESEARCH:
                researched += 1
                found = research(feedback)
                if found is None:
                    return dspy.Prediction(
                        answer=f"{answer.rstrip()}\n\n{INSUFFICIENT_NOTICE}",
                        context=context,
                        status="insufficient_information",
                        rounds=rounds,
                    )
                answer, context = found
                continue
            assert action == CORRECT
            rounds += 1
            try:
                out = run.call(
                    "generate", self.correct, question=question, context=context, answer=answer, feedback=feedback
                )
                corrected = str(out.corrected_answer or "").strip()
                if not corrected:
                    raise ValueError("empty correction")
                answer = ensure_safety_line(corrected)
            except BudgetExhausted as e:
                e.partial = (answer, context)
                raise
            except Exception as e:
                run.trace.fallback("correct", f"{type(e).__name__}: {str(e)[:120]}; kept the failed answer")
                return dspy.Prediction(
                    answer=f"{answer.rstrip()}\n\n{FAILED_NOTICE}", context=context, status="failed", rounds=rounds
                )
