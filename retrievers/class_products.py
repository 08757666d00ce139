"""Which products a class word names (감기약, 해열제, 변비약, 지사제 …), read from the leaflets themselves: a product is
in the class when its 효능 section says the class's stem (감기, 해열, 변비) or the symptom word of an expansion rule the
class word matches (수면유도제 → 불면, 인공눈물 → 안구건조). No product list is written by hand.

Example:
    >>> from retrievers.documents import Document
    >>> meta = lambda seq: {"item_seq": seq, "section": "efcy"}
    >>> docs = [Document("easydrug:1:efcy", "판콜\\n감기의 여러 증상(콧물, 발열)의 완화", meta("1")),
    ...         Document("easydrug:2:efcy", "둘코락스\\n변비", meta("2"))]
    >>> index = ClassProducts.from_documents(docs)
    >>> sorted(index.products(["감기약"], Lexicon.load())), sorted(index.products(["변비약"], Lexicon.load()))
    (['1'], ['2'])
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.names import squash

ENDINGS = ("유도제", "영양제", "약", "제")  # cut from a class word to find its stem (수면유도제 → 수면)
MIN_STEM = 2


def class_terms(word: str, lexicon: Lexicon) -> tuple[str, ...]:
    """The words a class's leaflets use: its stem and the first word of each expansion rule it matches.

    >>> class_terms("해열제", Lexicon.load())[:2]
    ('해열', '발열')
    """
    stem = squash(word)
    for ending in ENDINGS:
        if stem.endswith(ending) and len(stem) - len(ending) >= MIN_STEM:
            stem = stem[: -len(ending)]
            break
    terms = [stem] if len(stem) >= MIN_STEM and stem != squash(word) else []
    terms += [h for h in lexicon.heads(word) if len(h) >= MIN_STEM]
    return tuple(dict.fromkeys(terms))


class ClassProducts:
    """Each product's 효능 text (spaces removed), searched for a class's terms."""

    def __init__(self, efficacy: dict[str, str]):
        self.efficacy = efficacy

    @classmethod
    def from_documents(cls, docs: Iterable[Document]) -> ClassProducts:
        efficacy = {
            d.metadata["item_seq"]: squash(d.text.partition("\n")[2])
            for d in docs
            if d.source == "easydrug" and d.metadata.get("section") == "efcy"
        }
        return cls(efficacy)

    def products(self, classes: Iterable[str], lexicon: Lexicon) -> set[str]:
        """Item seqs of the products in any of `classes` (empty when no class has a stem or rule word)."""
        out: set[str] = set()
        for word in classes:
            out |= self._with_terms(class_terms(word, lexicon))
        return out

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one instance per searcher, kept for the process
    def _with_terms(self, terms: tuple[str, ...]) -> frozenset[str]:
        return frozenset(seq for seq, text in self.efficacy.items() if any(t in text for t in terms))
