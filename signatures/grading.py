"""Signature for grading all retrieved documents against the question in one call
(docs/seeds/document-grading-and-rewriting.md §3.1)."""

from typing import Literal

import dspy


class GradeDocuments(dspy.Signature):
    """You are a grader assessing the relevance of retrieved documents to a user question.

    For each numbered document, in order, answer 'yes' if it contains keywords or semantic meaning related to the
    question and 'no' otherwise. Give exactly one verdict per document, and a one-sentence reason in the question's
    language.
    """

    question: str = dspy.InputField()
    documents: str = dspy.InputField(desc="numbered leaflet sections or DUR rules: [문서 1] ... [문서 N]")
    verdicts: list[Literal["yes", "no"]] = dspy.OutputField(desc="one 'yes' or 'no' per document, in order")
    reason: str = dspy.OutputField(desc="one sentence")
