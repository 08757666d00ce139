"""Signature for grading one retrieved document against the question (document-grading seed, §3.1)."""

from typing import Literal

import dspy


class GradeDocument(dspy.Signature):
    """You are a grader assessing the relevance of a retrieved document to a user question.

    If the document contains keywords or semantic meaning related to the question, grade it as relevant. Give a
    binary score 'yes' or 'no', and a one-sentence reason in the question's language.
    """

    question: str = dspy.InputField()
    document: str = dspy.InputField(desc="one leaflet section or DUR rule")
    relevant: Literal["yes", "no"] = dspy.OutputField()
    reason: str = dspy.OutputField(desc="one sentence")
