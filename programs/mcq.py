"""MCQ: answer a multiple-choice question, optionally with the top retrieved documents as context (for the
KorMedMCQA benchmark: accuracy with and without retrieval).

Example:
    >>> import dspy
    >>> from dspy.utils import DummyLM
    >>> with dspy.context(lm=DummyLM([{"answer": "B"}])):
    ...     MCQ()(question="?", options={"A": "a", "B": "b"}).answer
    'B'
"""

from __future__ import annotations

import dspy

from programs.citations import numbered
from signatures.mcq import AnswerMCQ


class MCQ(dspy.Module):
    """Choose one option; with a backend, the top `k` documents for the question go in as context."""

    def __init__(self, backend=None, k: int = 3, doc_chars: int = 400):
        super().__init__()
        self.answer = dspy.Predict(AnswerMCQ)
        self.backend = backend
        self.k = k
        self.doc_chars = doc_chars

    def context(self, question: str) -> tuple[str, list[str]]:
        if self.backend is None:
            return "", []
        result = self.backend.retrieve(question, k=self.k)
        if result.out_of_scope or not result.hits:
            return "", []
        docs = [h.doc for h in result.hits[: self.k]]
        return numbered(docs, self.doc_chars, titled=False), [d.id for d in docs]

    def forward(self, question: str, options: dict) -> dspy.Prediction:
        context, ids = self.context(question)
        text = "\n".join(f"{k}. {v}" for k, v in options.items())
        try:
            answer = str(self.answer(question=question, options=text, context=context).answer).strip()[:1].upper()
        except Exception as e:  # an unparsable reply counts as no answer, not a crash
            return dspy.Prediction(answer="", error=f"{type(e).__name__}: {str(e)[:120]}", doc_ids=ids)
        return dspy.Prediction(answer=answer, error="", doc_ids=ids)
