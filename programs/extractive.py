"""The no-LM answer, sentence by sentence: the user's DUR rules first, then the sentences that answer the question —
chosen by the asked section, the question's slot words (술, 임신, 아이 …) and their overlap with the question —
leading with the best one; a sentence the same across sibling products is quoted once, citing all its sources
(``[문서 1, 2]``); a "which medicine for X" question lists the products with their efficacy. Every quoted sentence
is verbatim from its document; the opening names the target chosen and why; the safety line and a no-LM notice
close it.

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_name": "게보린정", "section": "se", "section_label": "이상반응(부작용)"}
    >>> doc = Document("easydrug:1:se", "게보린정\\n[이상반응] 구역, 구토가 나타날 수 있습니다.", meta)
    >>> print(extractive_answer("게보린 구토", [doc], sections=["se"], notice="※ LM 없이 만든 답변입니다."))
    게보린정 · 이상반응(부작용)에서 찾은 내용입니다(질문한 부작용).
    <BLANKLINE>
    [이상반응] 구역, 구토가 나타날 수 있습니다. [문서 1]
    <BLANKLINE>
    전문가와 꼭 상담하세요.
    <BLANKLINE>
    ※ LM 없이 만든 답변입니다.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from programs import citations
from programs.coverage import SECTION_WORDS, SLOTS
from programs.refinement import KnowledgeRefiner
from programs.text import bigrams, coverage
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
RULE_TYPES = ("병용금기", "임부금기", "노인주의", "특정연령대금기", "연령금기")
POOL = 5  # documents considered (retrieval's top 5)
TARGET_CHARS = 280  # further sentences are added only while the quotes stay this short
SLOT_BONUS = 0.3
NAMED_BONUS = 0.2  # sentences of the product the question names
OFF_SECTION_PENALTY = 0.2  # sentences of a section the question did not ask, when one it asked was found
LEAD_SHARE = 0.0  # the top document's best sentence leads (a share of the best score it must reach)
MIN_GRAMS = 12  # shorter sentences count as the same only when equal
SAME = 0.85  # bigram Jaccard at which two sentences count as the same
WHICH_MEDICINE = re.compile(r"무슨\s*약|어떤\s*약|뭐\s*먹|약\s*추천|먹을\s*약|약\s*있|약이\s*뭐|뭘\s*먹")


def ensure_safety_line(answer: str) -> str:
    """Append the safety line when the answer lacks it (docs/seeds/pharmacist-rag-pipeline.md, 프롬프트 핵심 지침 5)."""
    return answer if "전문가와 꼭 상담하세요" in answer else f"{answer.rstrip()}\n\n{SAFETY_LINE}"


@dataclass
class Quote:
    """One quoted sentence and every document (1-based) it is quoted from."""

    text: str
    score: float
    sources: list[int] = field(default_factory=list)

    def line(self) -> str:
        return f"{self.text} [문서 {', '.join(map(str, self.sources))}]"


def same(a: str, b: str) -> bool:
    """Two sentences the same up to a few characters (sibling products' leaflets)."""
    if re.sub(r"\W", "", a) == re.sub(r"\W", "", b):
        return True
    ga, gb = bigrams(a), bigrams(b)
    return min(len(ga), len(gb)) >= MIN_GRAMS and len(ga & gb) / len(ga | gb) >= SAME


def _is_rule(doc: Document) -> bool:
    return doc.id.startswith("dur:") and doc.metadata.get("dur_type", "") in RULE_TYPES


def _product(doc: Document) -> str:
    name = citations.product(doc) or doc.title
    return re.sub(r"\(.*", "", str(name)).strip() or str(name)


def _slot_words(question: str) -> list[str]:
    compact = "".join(question.split())
    return [w for asks, says in SLOTS.values() if any(a in compact for a in asks) for w in (*asks, *says)]


def _merge(quotes: list[Quote], text: str, score: float, n: int) -> bool:
    """Add source `n` to a quote of the same sentence; False when there is none."""
    for q in quotes:
        if same(q.text, text):
            if n not in q.sources:
                q.sources.append(n)
            q.score = max(q.score, score)
            return True
    return False


def choose(question: str, docs: list[Document], terms=(), sections=(), max_sentences: int = 3) -> list[Quote]:
    """The user's rules (each once), then the best sentences of the first `POOL` documents, best first, duplicates
    merged, while the quotes stay short."""
    refiner = KnowledgeRefiner(threshold=0.0)
    slots = _slot_words(question)
    asked = bigrams(question)
    rules: list[Quote] = []
    candidates: list[Quote] = []
    strips = refiner.strips(question, docs, terms, sections)
    n_rules = sum(_is_rule(d) for d in docs)
    # a question asking for a section quotes that section first when a document of it was found
    asked_found = any(not _is_rule(d) and d.metadata.get("section") in sections for d in docs[: POOL + n_rules])
    for n, (doc, doc_strips) in enumerate(zip(docs, strips, strict=True), 1):
        if _is_rule(doc):
            if doc_strips and not _merge(rules, doc_strips[0].text, 1.0, n):
                rules.append(Quote(doc_strips[0].text, 1.0, [n]))
            continue
        if n > POOL + n_rules:
            continue
        named = _product(doc)[:2] in question  # a document of the product the question names
        penalty = OFF_SECTION_PENALTY if asked_found and doc.metadata.get("section") not in sections else 0.0
        for s in doc_strips:
            bonus = (SLOT_BONUS if any(w in s.text for w in slots) else 0.0) + (NAMED_BONUS if named else 0.0)
            own = coverage(asked, s.text)  # the user's own words count beyond the expansion terms
            candidates.append(Quote(s.text, round(own + s.score + bonus - penalty - 0.01 * n, 4), [n]))
    chosen: list[Quote] = []
    # retrieval's (and the grade's) best document leads with its best sentence; the others compete by score
    first = min((q.sources[0] for q in candidates), default=0)
    ranked = sorted(candidates, key=lambda q: -q.score)
    lead = next((q for q in ranked if q.sources[0] == first), None)
    if lead is not None and lead.score < LEAD_SHARE * ranked[0].score:
        lead = None  # the top document has nothing close to the question: the best sentence leads
    ranked = ([lead] if lead else []) + [q for q in ranked if q is not lead]
    for q in ranked:
        if _merge(chosen, q.text, q.score, q.sources[0]) or _merge(rules, q.text, q.score, q.sources[0]):
            continue
        if len(chosen) >= max_sentences:
            continue
        length = sum(len(c.text) for c in chosen)
        if chosen and length + len(q.text) > TARGET_CHARS:
            continue
        if chosen and any(q.sources[0] in c.sources for c in chosen) and len(chosen) + 1 >= max_sentences:
            continue  # the last place goes to another document
        chosen.append(q)
    return rules + chosen


def which_medicine(question: str, docs: list[Document], sections=()) -> bool:
    """A "which medicine for X" question: it asks for a medicine (or efficacy) without naming a product."""
    named = any(_product(d) and _product(d)[:2] in question for d in docs if not d.id.startswith("dur:"))
    return not named and (bool(WHICH_MEDICINE.search(question)) or list(sections)[:1] == ["efcy"])


def product_list(question: str, docs: list[Document], terms=(), sections=(), limit: int = 3) -> list[Quote]:
    """One efficacy sentence per product (the best-matching), for up to `limit` products, same sentences merged."""
    refiner = KnowledgeRefiner(threshold=0.0)
    quotes: list[Quote] = []
    seen: set[str] = set()
    for n, (doc, doc_strips) in enumerate(zip(docs, refiner.strips(question, docs, terms, sections), strict=True), 1):
        if n > POOL or not doc_strips or doc.id.startswith("dur:"):
            continue
        best = max(doc_strips, key=lambda s: (s.score, -s.position))
        if _merge(quotes, best.text, best.score, n):
            continue
        product = _product(doc)
        if product in seen or len(quotes) >= limit:
            continue
        seen.add(product)
        quotes.append(Quote(best.text, best.score, [n]))
    return quotes


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
    """Quote the sentences that answer the question, citing each as ``[문서 N]`` (N = its position).

    Args:
        mode: ``generate``, ``generate_low_relevance`` (adds the low-relevance notice) or ``generate_no_context``.
        max_docs: how many of the answering sentences to quote at most (the user's DUR rules come on top).
        max_sentences: kept for callers; the sentence count is `max_docs`.
        notice: the closing line saying how the answer was made.
    """
    if mode == "generate_no_context" or not docs:
        return f"{NO_CONTEXT_ANSWER}\n\n{SAFETY_LINE}\n\n{notice}"
    if which_medicine(question, docs, sections):
        products = product_list(question, docs, terms, sections, limit=max_docs)
        rules = [q for q in choose(question, docs, terms, sections, 0) if _is_rule(docs[q.sources[0] - 1])]
        names = ", ".join(dict.fromkeys(_product(docs[q.sources[0] - 1]) for q in products))
        opening = f"효능·효과가 질문과 맞는 제품입니다: {names}." if names else ""
        body = [q.line() for q in rules] + [f"{_product(docs[q.sources[0] - 1])}: {q.line()}" for q in products]
    else:
        quotes = choose(question, docs, terms, sections, max_docs)
        lead = next((q for q in quotes if not _is_rule(docs[q.sources[0] - 1])), quotes[0] if quotes else None)
        has_rules = any(_is_rule(docs[q.sources[0] - 1]) for q in quotes)
        opening = _opening(docs[lead.sources[0] - 1], sections, has_rules) if lead else ""
        body = [q.line() for q in quotes]
    if mode == "generate_low_relevance":
        opening = f"{LOW_RELEVANCE_NOTICE}\n\n{opening}".strip()
    return "\n\n".join(p for p in [opening, "\n".join(body), SAFETY_LINE, notice] if p)


def _opening(doc: Document, sections, has_rules: bool) -> str:
    """The target chosen and why: the leading sentence's product and section, and the section asked (if any)."""
    label = doc.metadata.get("section_label") or doc.metadata.get("dur_type", "")
    target = " · ".join(p for p in (_product(doc), label) if p)
    asked = [SECTION_WORDS[s] for s in sections if s in SECTION_WORDS][:2]
    why = f"(질문한 {'·'.join(asked)})" if asked and doc.metadata.get("section") in sections else ""
    rules = "사용자에게 해당하는 DUR 규칙을 먼저 적었습니다. " if has_rules else ""
    return f"{rules}{target}에서 찾은 내용입니다{why}."
