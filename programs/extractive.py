"""The no-LM answer: the best-matching sentences of the top documents, quoted with ``[문서 N]`` markers, the safety
line, and a plain statement that no language model was used.

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_name": "게보린정", "section_label": "이상반응(부작용)"}
    >>> doc = Document("easydrug:1:se", "게보린정\\n[이상반응] 구역, 구토가 나타날 수 있습니다.", meta)
    >>> print(extractive_answer("게보린 구토", [doc], notice="※ LM 없이 만든 답변입니다."))
    '게보린 구토'에 관해 문서에 적힌 내용입니다.
    <BLANKLINE>
    게보린정 · 이상반응(부작용): [이상반응] 구역, 구토가 나타날 수 있습니다. [문서 1]
    <BLANKLINE>
    전문가와 꼭 상담하세요.
    <BLANKLINE>
    ※ LM 없이 만든 답변입니다.
"""

from __future__ import annotations

from programs.refinement import KnowledgeRefiner
from retrievers.documents import Document

SAFETY_LINE = "전문가와 꼭 상담하세요."
NO_LM_NOTICE = (
    "※ 언어 모델(LM) 없이 만든 답변입니다: 검색된 문서의 문장을 그대로 옮겼습니다. "
    "LM을 설정하면(--lm) 문장으로 다듬은 답변을 받을 수 있습니다."
)
LOW_RELEVANCE_NOTICE = "검색된 문서가 질문과 직접 관련되지 않을 수 있어, 아래 정보는 불완전할 수 있습니다."
NO_CONTEXT_ANSWER = (
    "질문과 관련된 의약품 문서를 찾지 못했습니다. 제품명이나 성분명, 궁금한 내용(효능, 용법, 부작용, 상호작용 등)을 "
    "넣어 다시 질문해 보세요."
)
INSUFFICIENT_NOTICE = "※ 정보 부족: 검색된 문서에 이 질문에 답할 정보가 충분하지 않습니다."


def ensure_safety_line(answer: str) -> str:
    """Append the safety line when the answer lacks it (pharmacist-rag-pipeline rule 5)."""
    return answer if "전문가와 꼭 상담하세요" in answer else f"{answer.rstrip()}\n\n{SAFETY_LINE}"


def extractive_answer(
    question: str,
    docs: list[Document],
    mode: str = "generate",
    terms=(),
    sections=(),
    max_docs: int = 3,
    max_sentences: int = 2,
    notice: str = NO_LM_NOTICE,
) -> str:
    """Quote the best sentences of the first `max_docs` documents, citing each as ``[문서 N]`` (N = its position).

    Args:
        mode: ``generate``, ``generate_low_relevance`` (adds the low-relevance notice) or ``generate_no_context``.
        notice: the closing line saying how the answer was made.
    """
    if mode == "generate_no_context" or not docs:
        return f"{NO_CONTEXT_ANSWER}\n\n{SAFETY_LINE}\n\n{notice}"
    refiner = KnowledgeRefiner(threshold=0.0, max_strips=max_sentences)
    paragraphs = []
    for n, (doc, strips) in enumerate(zip(docs, refiner.strips(question, docs, terms, sections), strict=True), 1):
        if n > max_docs:
            break
        chosen = refiner.select(strips, threshold=0.0, limit=max_sentences)
        if chosen:
            paragraphs.append(f"{doc.title}: {' '.join(s.text for s in chosen)} [문서 {n}]")
    opening = f"'{question}'에 관해 문서에 적힌 내용입니다."
    if mode == "generate_low_relevance":
        opening = f"{LOW_RELEVANCE_NOTICE}\n\n{opening}"
    return "\n\n".join([opening, *paragraphs, SAFETY_LINE, notice])
