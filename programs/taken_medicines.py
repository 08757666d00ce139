"""What the answer's leaflets say of the medicines the user takes (the profile's ``medicines``): a profile informs the
answer without taking it over, so the question's own quotes stay, and one more line quotes the sentence of an
answered product's leaflet that names the user's medicine ("와파린, 플루클록사실린 등 다른 약물을 투여 받고 있는
사람은 의사 또는 약사와 상의하십시오"), when the answer does not quote it already. A 병용금기 row that pairs the
medicine with a product is the user's rule and is quoted as such (programs/user_rules.py); this is the leaflets' own
word on it.

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_seq": "1", "item_name": "타이레놀정500밀리그람", "section": "atpn"}
    >>> doc = Document("easydrug:1:atpn", "타이레놀정500밀리그람\\n과민증 환자는 복용하지 마십시오. "
    ...                "와파린을 투여 받고 있는 사람은 의사 또는 약사와 상의하십시오.", meta)
    >>> print("\\n".join(lines(["와파린"], [doc], {"1"}, quoted="")))
    드시는 약(와파린)에 대해 설명서가 적은 내용입니다:
    타이레놀정500밀리그람: 와파린을 투여 받고 있는 사람은 의사 또는 약사와 상의하십시오. [문서 1]
"""

from __future__ import annotations

from programs import citations
from programs.text import quoted_in, split_sentences
from retrievers.documents import Document
from retrievers.not_covered import medicine_leaflet_words

LEAD = "드시는 약({names})에 대해 설명서가 적은 내용입니다:"
MAX_LINES = 2  # sentences quoted for the medicines taken, at most


def lines(taking, docs: list[Document], products: set[str], quoted: str) -> list[str]:
    """The lead and at most `MAX_LINES` quote lines: for each medicine taken (as the profile writes it), the first
    sentence of a leaflet of the answer's `products` (item_seqs) that names it — or, when none does, its kind as the
    leaflets name it (와파린 → "항응고제 … 함께 복용 시 의사 또는 약사와 상의하십시오") — and is not in `quoted` (the
    answer so far); [] when none does."""
    sentences = [
        (n, d, s)
        for n, d in enumerate(docs, 1)
        if d.source == "easydrug" and _seq(d) in products
        for s in split_sentences(d.text.partition("\n")[2])
    ]

    def naming(medicine: str):
        # the medicine by its name first, else by its kind as the leaflets name it (와파린 → 항응고제)
        for word in (medicine, *medicine_leaflet_words(medicine)):
            hit = next(((n, d, s) for n, d, s in sentences if word in s and not quoted_in(s, quoted)), None)
            if hit:
                return hit
        return None

    return lead_and_lines(taking, naming, LEAD)


def lead_and_lines(items, find, lead: str, most: int = MAX_LINES) -> list[str]:
    """`lead` (its ``{names}`` the items a line was found for) and, for each of the profile's `items` (stripped,
    without repeats), the line quoting what `find` (an item -> (document number, document, text), or None) found,
    at most `most`; [] when it found none. The profile's medicines and conditions are quoted so."""
    out, said = [], []
    for item in dict.fromkeys(i.strip() for i in items if i and i.strip()):
        hit = find(item)
        if hit:
            out.append(citations.quote_line(*hit))
            said.append(item)
        if len(out) == most:
            break
    return [lead.format(names=", ".join(said)), *out] if out else []


def _seq(doc: Document) -> str:
    return str(doc.metadata.get("item_seq", ""))
