"""The lines an answer opens or closes with, in one place: how it was made (no LM, the LM failed, a budget ran
out), what it could not do (no document, too little information, a failed check), how the question's names were
read, and the safety line every answer ends with (docs/seeds/pharmacist-rag-pipeline.md, 프롬프트 핵심 지침 5).
"""

from __future__ import annotations

from difflib import SequenceMatcher

from programs.citations import short_product
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
UNKNOWN_NAME_NOTICE = (
    "※ 질문의 {words}은(는) 문서에서 찾지 못한 이름입니다: 아래 내용은 다른 의약품에 대한 것일 수 있습니다. "
    "한글 제품명이나 성분명으로 다시 물어봐 주세요."
)
READ_AS_NOTICE = "※ 질문의 {pairs}(으)로 보고 찾았습니다."
NONE_ALLOWED = "검색된 제품은 모두 사용자에게 해당하는 규칙(DUR 규칙 또는 제품 설명서)에 걸려 권하지 않습니다."
INSUFFICIENT_NOTICE = "※ 정보 부족: 검색된 문서에 이 질문에 답할 정보가 충분하지 않습니다."
FAILED_NOTICE = "※ 이 답변은 자동 검증을 통과하지 못했습니다. 반드시 전문가와 꼭 상담하세요."
LM_FAILED_NOTICE = "※ 언어 모델 호출이 실패해, 검색된 문서의 문장을 그대로 옮긴 답변입니다."
GROUNDING_REMOVED_NOTICE = "※ 근거 확인: 인용한 문서로 확인되지 않는 문장 {n}개를 답변에서 뺐습니다."
GROUNDING_FALLBACK_NOTICE = (
    "※ 근거 확인: 답변의 문장이 인용한 문서로 확인되지 않아, 검색된 문서의 문장을 그대로 옮긴 답변으로 바꿨습니다."
)
ANSWER_CHECK_NOTICE = (
    "※ 답변 확인: LM의 답변이 질문에 답하지 않아, 검색된 문서의 문장을 그대로 옮긴 답변으로 바꿨습니다."
)
BUDGET_NOTICES = {
    "passed": "※ LM 호출 한도를 모두 써서, 검증을 통과한 마지막 답변을 보여 드립니다.",
    "best": "※ 이 질문에 쓸 수 있는 LM 호출 횟수를 모두 써서, 지금까지의 가장 나은 답변을 보여 드립니다.",
    "extractive": "※ LM 호출 한도를 모두 써서, 검색된 문서의 문장을 그대로 옮긴 답변을 보여 드립니다.",
    "unverified": "※ LM 호출 한도를 모두 써서, 아직 검증하지 못한 답변을 보여 드립니다.",
}
TIME_NOTICES = {
    "passed": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 검증을 통과한 마지막 답변을 보여 드립니다.",
    "best": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 지금까지의 가장 나은 답변을 보여 드립니다.",
    "extractive": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 검색된 문서의 문장을 그대로 옮긴 답변을 보여 드립니다.",
    "unverified": "※ 이 질문에 쓸 수 있는 시간을 모두 써서, 아직 검증하지 못한 답변을 보여 드립니다.",
}
READ_AS_RATIO = 0.6  # similarity at which an unknown word reads as the start of a found product's name


def read_as(word: str, docs: list[Document]) -> str:
    """The product of `docs` whose name starts like `word` (a misspelling: 부루팬 → 부루펜), or ""."""
    best, best_ratio = "", 0.0
    for doc in docs:
        name = "".join(short_product(doc).split())
        for n in dict.fromkeys((len(word), len(word) + 1, max(len(word) - 1, 2))):
            blocks = SequenceMatcher(None, word, name[:n], autojunk=False).get_matching_blocks()
            ratio = sum(b.size for b in blocks) / max(len(word), n)
            if ratio > best_ratio:
                best, best_ratio = name[:n], ratio
    return best if best_ratio >= READ_AS_RATIO else ""


def read_as_notice(pairs: dict[str, str]) -> str:
    """The opening line for names the question wrote otherwise and retrieval read as a known name ("" for none).

    >>> read_as_notice({"부루팬": "부루펜"})
    "※ 질문의 '부루팬'을(를) '부루펜'(으)로 보고 찾았습니다."
    """
    return READ_AS_NOTICE.format(pairs=", ".join(f"'{w}'을(를) '{r}'" for w, r in pairs.items())) if pairs else ""


def unknown_name_notice(words: list[str], docs: list[Document]) -> str:
    """The opening line for an answer to a question with names nobody knows ("" without words): the product a
    misspelt name was read as, or a warning that the documents may be about other medicines.

    >>> from retrievers.documents import Document
    >>> docs = [Document("easydrug:1:se", "x", {"item_name": "부루펜정200밀리그램"})]
    >>> unknown_name_notice(["부루팬"], docs)
    "※ 질문의 '부루팬'을(를) '부루펜'(으)로 보고 찾았습니다."
    >>> unknown_name_notice(["lexapro"], docs).split(":")[0]
    "※ 질문의 'lexapro'은(는) 문서에서 찾지 못한 이름입니다"
    """
    read = {w: read_as(w, docs) for w in words[:3]}
    unknown = [w for w, r in read.items() if not r]
    if unknown:
        return UNKNOWN_NAME_NOTICE.format(words=", ".join(f"'{w}'" for w in unknown))
    return read_as_notice(read)


def ensure_safety_line(answer: str) -> str:
    """Append the safety line when the answer lacks it (docs/seeds/pharmacist-rag-pipeline.md, 프롬프트 핵심 지침 5)."""
    return answer if SAFETY_LINE.rstrip(".") in answer else f"{answer.rstrip()}\n\n{SAFETY_LINE}"
