"""Signatures that write the answer: from good documents, from weak ones, from none, and a correction of a failed
answer (docs/seeds/pharmacist-rag-pipeline.md 5단계 and 7단계; docs/seeds/document-grading-and-rewriting.md
§3.5-3.6)."""

import dspy


class GenerateAnswer(dspy.Signature):
    """You are a pharmacist answering a drug question from the MFDS leaflets and DUR rules given as documents.

    Rules:
    1. Use only what the documents say; do not guess.
    2. Do not use prior knowledge or web information.
    3. Do not grade the severity of side effects on your own.
    4. Cite the source once, at the end of each paragraph, as [문서 N].
    5. Always include the sentence "전문가와 꼭 상담하세요".
    6. Quote the relevant document text as it is written.
    7. Echo the question's key terms in the first sentence.
    Answer in the language of the question. When a user profile is given, point out what applies to that user.
    """

    question: str = dspy.InputField()
    context: str = dspy.InputField(desc="numbered documents: [문서 N] title, then text")
    profile_summary: str = dspy.InputField(desc="the user's age, sex, conditions and medicines; empty when unknown")
    answer: str = dspy.OutputField(desc="paragraphs, each ending with its [문서 N] citation")


class GenerateWithLowRelevance(dspy.Signature):
    """The documents may not be directly relevant to the user's question. Give the best answer the available
    information allows, but clearly indicate uncertainty.

    Begin by acknowledging that the available information may not be complete. Answer only from the documents and
    cite them once per paragraph as [문서 N]; say what additional information would help; stay helpful. Always
    include "전문가와 꼭 상담하세요". Answer in the language of the question.
    """

    question: str = dspy.InputField()
    context: str = dspy.InputField(desc="the top numbered documents, possibly only partly relevant")
    profile_summary: str = dspy.InputField(desc="the user's profile in one line; empty when unknown")
    answer: str = dspy.OutputField()


class GenerateNoContext(dspy.Signature):
    """No relevant documents were found for the user's question.

    Politely say that no relevant documents were found. Do not give drug facts from memory. Suggest rephrasing the
    question, using different keywords (the product or ingredient name), or checking whether the information exists
    in the leaflets. Always include "전문가와 꼭 상담하세요". Match the language of the user's question.
    """

    question: str = dspy.InputField()
    profile_summary: str = dspy.InputField(desc="the user's profile in one line; empty when unknown")
    answer: str = dspy.OutputField()


class CorrectAnswer(dspy.Signature):
    """A verifier found a problem in a drug answer. Rewrite the answer so that it fixes exactly what the feedback
    says, using only the documents.

    Remove any claim the documents do not support; keep the [문서 N] citation once per paragraph; keep
    "전문가와 꼭 상담하세요"; answer in the language of the question.
    """

    question: str = dspy.InputField()
    context: str = dspy.InputField(desc="the numbered documents the answer must rest on")
    answer: str = dspy.InputField(desc="the answer that failed verification")
    feedback: str = dspy.InputField(desc="the verifier's feedback")
    corrected_answer: str = dspy.OutputField()
