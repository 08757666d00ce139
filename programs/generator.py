"""Answer generation in three modes (docs/seeds/document-grading-and-rewriting.md §3.4-3.5): from the graded
documents, from the top 3 documents of a weak retrieval, or with no context. With no LM, or when the LM fails, the
extractive answer stands in.

The generator records the exact document texts it put in the prompt as ``contexts``; a metric scoring faithfulness
must see the same texts.

Example:
    >>> from retrievers.documents import Document
    >>> doc = Document("easydrug:1:se", "게보린정\\n[이상반응] 구역이 나타날 수 있습니다.")
    >>> out = Generator()(question="게보린 부작용", docs=[doc])
    >>> out.method, out.contexts == [doc.text], "[문서 1]" in out.answer
    ('extractive', True, True)
"""

from __future__ import annotations

import dspy

from programs import offer_guard
from programs.citations import numbered
from programs.extractive import extractive_answer
from programs.fallback import FallBack
from programs.notices import LM_FAILED_NOTICE, NO_LM_NOTICE, ensure_safety_line
from programs.routing import GENERATE, LOW_RELEVANCE, NO_CONTEXT
from programs.run import Run
from programs.settings import CragSettings
from retrievers.documents import Document
from signatures.generation import GenerateAnswer, GenerateNoContext, GenerateWithLowRelevance


def format_context(docs: list[Document]) -> str:
    """Numbered documents as the prompt shows them: '[문서 N] title' then the text; a product the user's rules forbid
    says so under its title (programs/offer_guard.py).

    >>> meta = {"item_name": "게보린정", "section_label": "이상반응"}
    >>> print(format_context([Document("easydrug:1:se", "게보린정\\n[이상반응] 구역.", meta)]))
    [문서 1] 게보린정 · 이상반응
    게보린정
    [이상반응] 구역.
    """
    return numbered(docs, note=lambda d: offer_guard.context_note(d, docs))


class Generator(dspy.Module):
    """Write the answer for one of the three routes.

    Args:
        settings: the program's settings (``low_relevance_top``, ``extractive_quotes`` are read from it at each
            call); the defaults without.
    """

    def __init__(self, settings: CragSettings | None = None):
        super().__init__()
        self.generate = dspy.Predict(GenerateAnswer)
        self.generate_low_relevance = dspy.Predict(GenerateWithLowRelevance)
        self.generate_no_context = dspy.Predict(GenerateNoContext)
        self.settings = settings or CragSettings()

    def forward(
        self,
        question: str,
        docs: list[Document],
        mode: str = GENERATE,
        profile_summary: str = "",
        run: Run | None = None,
        terms=(),
        sections=(),
        cut_low_relevance: bool = True,
        names=(),
        frame=None,
        taking=(),
        groups=(),
        conditions=(),
        quoted_for: str = "",
    ) -> dspy.Prediction:
        """`quoted_for`: the question as the extractive answer reads it, a young asker's profile age written after it
        (`programs.profile.with_asker_age`); the question itself when empty."""
        run = run or Run(budget_limit=None)
        if mode == LOW_RELEVANCE and cut_low_relevance:
            docs = docs[: self.settings.low_relevance_top]
        if mode == NO_CONTEXT or not docs:
            mode, docs = NO_CONTEXT, []
        contexts = [d.text for d in docs]
        if run.has_lm("generate"):
            with FallBack(run.trace, "generate", "extractive answer"):
                if mode == NO_CONTEXT:
                    out = run.call(
                        "generate", self.generate_no_context, question=question, profile_summary=profile_summary
                    )
                else:
                    predictor = self.generate if mode == GENERATE else self.generate_low_relevance
                    out = run.call(
                        "generate",
                        predictor,
                        question=question,
                        context=format_context(docs),
                        profile_summary=profile_summary,
                    )
                answer = str(out.answer or "").strip()
                if not answer:
                    raise ValueError("empty answer")
                return dspy.Prediction(
                    answer=ensure_safety_line(answer), contexts=contexts, docs=docs, mode=mode, method="lm"
                )
        notice = LM_FAILED_NOTICE if run.uses_lm else NO_LM_NOTICE
        answer = extractive_answer(
            quoted_for or question,
            docs,
            mode,
            terms,
            sections,
            self.settings.extractive_quotes,
            notice,
            names,
            frame,
            taking,
            groups,
            conditions,
        )
        return dspy.Prediction(answer=answer, contexts=contexts, docs=docs, mode=mode, method="extractive")
