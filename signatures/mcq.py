"""Signatures for multiple-choice benchmarks (KorMedMCQA pharmacist split)."""

from typing import Literal

import dspy


class AnswerMCQ(dspy.Signature):
    """Answer a Korean pharmacist licensing-exam question by choosing one option letter.

    Use the reference documents when they help; they may be empty or unrelated.
    """

    question: str = dspy.InputField()
    options: str = dspy.InputField(desc="the options, one per line as 'A. ...'")
    context: str = dspy.InputField(desc="numbered reference documents, possibly empty")
    answer: Literal["A", "B", "C", "D", "E"] = dspy.OutputField(desc="the letter of the single best option")
