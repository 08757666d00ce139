"""Signatures that judge an answer: the verifier (docs/seeds/pharmacist-rag-pipeline.md 6단계) and the three-way quality
evaluation (docs/seeds/quality-evaluator-and-query-rewriter.md §1-4)."""

from typing import Literal

import dspy


class VerifyAnswer(dspy.Signature):
    """You are an MFDS drug-safety reviewer checking an answer against its documents.

    PASS when every claim can be found in or reasonably inferred from the documents and a safety recommendation is
    included. FAIL only for hallucination: content fabricated with no basis in the documents. When you FAIL, name
    the cause: hallucination (claims without basis), missing_information (the documents lack what the question
    needs), or other. Write the feedback in the question's language.
    """

    question: str = dspy.InputField()
    context: str = dspy.InputField(desc="the numbered documents the answer was written from")
    answer: str = dspy.InputField()
    verdict: Literal["PASS", "FAIL"] = dspy.OutputField()
    failure_cause: Literal["none", "hallucination", "missing_information", "other"] = dspy.OutputField()
    feedback: str = dspy.OutputField(desc="what is wrong and how to fix it; empty on PASS")


class EvaluateQuality(dspy.Signature):
    """Evaluate a drug answer on three axes, each a number from 0.0 to 1.0.

    grounding: is every statement supported by the retrieved documents? completeness: does it fully answer the
    question? accuracy: is it medically accurate? List the missing information and concrete improvement
    suggestions (in the question's language), say whether another search is needed, and give a short reason.
    """

    question: str = dspy.InputField()
    answer: str = dspy.InputField()
    documents: str = dspy.InputField(desc="the top numbered documents, each cut short")
    profile_summary: str = dspy.InputField(desc="the user's profile in one line; empty when unknown")
    previous_feedback: str = dspy.InputField(desc="the previous round's feedback; empty on the first round")
    grounding: float = dspy.OutputField(desc="0.0-1.0")
    completeness: float = dspy.OutputField(desc="0.0-1.0")
    accuracy: float = dspy.OutputField(desc="0.0-1.0")
    missing_info: list[str] = dspy.OutputField()
    improvement_suggestions: list[str] = dspy.OutputField()
    needs_retrieval: bool = dspy.OutputField()
    reason: str = dspy.OutputField()
