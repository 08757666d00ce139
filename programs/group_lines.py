"""What the offered products' leaflets say of who is asking, when an answer lists products for a pregnant, nursing
or elderly asker (the profile or the question): a product no rule forbids may still ask such an asker to consult
first ("임부 또는 임신하고 있을 가능성이 있는 여성은 의사 또는 약사와 상의하십시오"), and a list of what each product
is for would leave that out. One more block quotes, for each listed product, the first sentence of its cautions that
names the group, as `programs/taken_medicines.py` does for a medicine the user takes.

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_seq": "1", "item_name": "베아제정", "section": "atpn"}
    >>> doc = Document("easydrug:1:atpn", "베아제정\\n임부 또는 수유부는 의사 또는 약사와 상의하십시오.", meta)
    >>> print("\\n".join(lines(("pregnant",), [doc], ["1"], quoted="")))
    설명서가 임부에 대해 적은 내용입니다:
    베아제정: 임부 또는 수유부는 의사 또는 약사와 상의하십시오. [문서 1]
"""

from __future__ import annotations

from programs import citations
from programs.text import split_sentences
from retrievers.documents import Document

CAUTIONS = ("atpnWarn", "atpn")
WORDS = {  # how the leaflets name each group
    "pregnant": ("임부", "임신"),
    "nursing": ("수유부", "수유"),
    "elderly": ("고령자", "노인"),
}
SAID = {"pregnant": "임부", "nursing": "수유부", "elderly": "고령자"}
LEAD = "설명서가 {who}에 대해 적은 내용입니다:"
MAX_LINES = 3  # products whose line is quoted, at most


def lines(groups, docs: list[Document], products, quoted: str, question: str = "") -> list[str]:
    """The lead and, for each of `products` (item_seqs, in the order listed), the first sentence of its cautions in
    `docs` that names one of the asker's `groups` and is not in `quoted` (the answer so far), a long list cut to the
    items naming the group (`SentenceRanker.excerpt`), at most `MAX_LINES`; [] when none does."""
    from programs.sentences import SentenceRanker

    words = [w for g in groups for w in WORDS.get(g, ())]
    if not words:
        return []
    out = []
    for seq in dict.fromkeys(products):
        hit = next(
            (
                (n, d, s)
                for n, d in enumerate(docs, 1)
                if d.source == "easydrug"
                and str(d.metadata.get("item_seq", "")) == seq
                and d.metadata.get("section") in CAUTIONS
                for s in split_sentences(d.text.partition("\n")[2])
                if any(w in s for w in words) and s not in quoted
            ),
            None,
        )
        if hit and not _said(citations.short_product(hit[1]), words, quoted):
            n, doc, sentence = hit
            sentence = SentenceRanker(question).excerpt(sentence, also=tuple(words))
            out.append(citations.quote_line(n, doc, sentence))
        if len(out) == MAX_LINES:
            break
    who = ", ".join(SAID[g] for g in groups if g in SAID)
    return [LEAD.format(who=who), *out] if out else []


def _said(product: str, words, quoted: str) -> bool:
    """The answer so far already has a line of `product` naming the group (its caution, excerpted, led the answer)."""
    return any(line.startswith(f"{product}:") and any(w in line for w in words) for line in quoted.splitlines())
