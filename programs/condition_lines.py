"""What the answer's leaflets say of the conditions the user has (the profile's ``conditions``): a profile informs the
answer without taking it over, so the question's own quotes stay, and one more line quotes the caution of an
answered product's leaflet that names the condition ("… 고혈압, 심장질환 … 환자는 의사 또는 약사와 상의하십시오"),
cut to the items around it, when the answer does not say it already (a named product withheld from the user
too: its line on the condition is one more reason, offering nothing). A caution that forbids the product to the
condition withholds it (programs/leaflet_condition_limit.py); this is the leaflets' word on the rest, which a
question naming the condition would have quoted (코 막혔는데 고혈압 있어요 → the same line).

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_seq": "1", "item_name": "나리스타자일로점비액", "section": "atpn"}
    >>> doc = Document("easydrug:1:atpn", "나리스타자일로점비액\\n이 약을 사용하기 전에 고혈압, 녹내장 환자는 "
    ...                "의사 또는 약사와 상의하십시오.", meta)
    >>> print("\\n".join(lines(["고혈압"], [doc], {"1"}, quoted="")))
    앓고 있는 질환(고혈압)에 대해 설명서가 적은 내용입니다:
    나리스타자일로점비액: 이 약을 사용하기 전에 고혈압, 녹내장 환자는 의사 또는 약사와 상의하십시오. [문서 1]
    >>> lines(["고혈압"], [doc], {"1"}, quoted="… 고혈압 환자는 상의하십시오.")
    []
"""

from __future__ import annotations

from collections.abc import Callable

from programs.asker_condition import CAUTION_SECTIONS, warns_of
from programs.leaflet_condition_limit import organ_words
from programs.taken_medicines import lead_and_lines
from programs.text import split_sentences
from retrievers.documents import Document

LEAD = "앓고 있는 질환({names})에 대해 설명서가 적은 내용입니다:"


def lines(
    conditions,
    docs: list[Document],
    products: set[str],
    quoted: str,
    excerpt: Callable[[str, tuple[str, ...]], str] = lambda sentence, _words: sentence,
) -> list[str]:
    """The lead and at most `taken_medicines.MAX_LINES` quote lines: for each condition (as the profile writes it)
    whose words (the condition, or its organ's: 신부전 → 신장애) the answer so far (`quoted`) does not carry, the
    first caution sentence of a leaflet of the answer's `products` (item_seqs) that warns of it, cut by `excerpt` (a
    sentence and the words to keep → the text quoted); [] when none does."""
    answered = [
        (n, d)
        for n, d in enumerate(docs, 1)
        if d.source == "easydrug"
        and str(d.metadata.get("item_seq", "")) in products
        and d.metadata.get("section") in CAUTION_SECTIONS
    ]

    def warning(condition: str):
        words = (condition, *organ_words(condition))
        if any(w in quoted for w in words):
            return None  # the answer already says it
        sentences = ((n, d, s) for n, d in answered for s in split_sentences(d.text.partition("\n")[2] or d.text))
        hit = next(((n, d, s) for n, d, s in sentences if warns_of((condition,), s)), None)
        return (hit[0], hit[1], excerpt(hit[2], words)) if hit else None

    return lead_and_lines(conditions, warning, LEAD)
