"""Verification and self-correction (docs/seeds/pharmacist-rag-pipeline.md 6-7단계 and its adaptive re-search).

The verifier answers PASS or FAIL with a cause; `check` parses it and `correct` rewrites a failed answer from the
verifier's feedback. The loop around them — correct up to 3 rounds, re-search once for missing information — is
the CRAG graph's (programs/graph.py), decided by `programs.routing.route_verification`.

Example:
    >>> from dspy.utils import DummyLM
    >>> run = Run(lms={"verify": DummyLM([{"verdict": "PASS", "failure_cause": "none", "feedback": ""}])})
    >>> Verifier().check(question="q", context="[문서 1] ...", answer="a 전문가와 꼭 상담하세요", run=run)
    ('PASS', 'none', '')
"""

from __future__ import annotations

import dspy

from programs.notices import ensure_safety_line
from programs.run import Run
from signatures.evaluation import VerifyAnswer
from signatures.generation import CorrectAnswer

CAUSES = ("none", "hallucination", "missing_information", "other")


class Verifier(dspy.Module):
    """The verify and correct predictors."""

    def __init__(self):
        super().__init__()
        self.verify = dspy.Predict(VerifyAnswer)
        self.correct = dspy.Predict(CorrectAnswer)

    def check(self, question: str, context: str, answer: str, run: Run) -> tuple[str, str, str]:
        """(verdict, cause, feedback); raises when the LM fails or answers something else than PASS/FAIL."""
        out = run.call("verify", self.verify, question=question, context=context, answer=answer)
        verdict = str(out.verdict).strip().upper()
        if verdict not in ("PASS", "FAIL"):
            raise ValueError(f"verdict {out.verdict!r} is neither PASS nor FAIL")
        cause = str(out.failure_cause or "").strip().lower()
        cause = cause if cause in CAUSES else "other"
        return verdict, ("none" if verdict == "PASS" else cause), str(out.feedback or "")

    def fix(self, question: str, context: str, answer: str, feedback: str, run: Run) -> str:
        """The corrected answer (with the safety line); raises when the LM fails or returns nothing."""
        out = run.call("generate", self.correct, question=question, context=context, answer=answer, feedback=feedback)
        corrected = str(out.corrected_answer or "").strip()
        if not corrected:
            raise ValueError("empty correction")
        return ensure_safety_line(corrected)

    def forward(self, question: str, context: str, answer: str, run: Run | None = None) -> dspy.Prediction:
        verdict, cause, feedback = self.check(question, context, answer, run or Run(budget_limit=None))
        return dspy.Prediction(verdict=verdict, cause=cause, feedback=feedback)
