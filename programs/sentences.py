"""Sentence-level answering without an LM: gather every section of the candidate products' leaflets, then rank each
sentence by the question — its content words (Kiwi morphemes, IDF-weighted over leaflet sentences), the aspects it
asks (food, driving, crushing, a child …; `retrievers/aspects.py`) and the section retrieval preferred.

Example:
    >>> ranker = SentenceRanker("안약 넣고 렌즈 바로 껴도 돼요")
    >>> ranker.aspects
    ['lens']
    >>> lens = ranker.score("콘택트렌즈를 착용한 채 점안하지 마십시오.")
    >>> lens > ranker.score("눈의 피로, 결막충혈에 사용합니다.")
    True
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from programs.text import bigrams, coverage
from retrievers.aspects import load_vocabulary
from retrievers.documents import Document

LEAFLET_SECTIONS = ("efcy", "useMethod", "atpnWarn", "atpn", "intrc", "se", "depositMethod")
ASPECT_WEIGHT = 0.6  # a sentence that speaks to the asked aspect (a seed word; half for a mined word)
BIGRAM_WEIGHT = 0.3  # character-bigram overlap with the question: words Kiwi splits otherwise still count
MAX_PRODUCTS = 3  # products whose whole leaflet is read for a class or symptom question


@functools.lru_cache(maxsize=1)
def _tokenizer():
    from retrievers.tokenizer import KiwiTokenizer

    return KiwiTokenizer()


class SentenceRanker:
    """Scores sentences against one question: IDF-weighted share of its content words the sentence contains, plus
    `ASPECT_WEIGHT` times how surely it speaks to an aspect the question asks, plus a little bigram overlap."""

    def __init__(self, question: str):
        vocab = load_vocabulary()
        morphemes = _tokenizer()(question)
        self.vocab = vocab
        self.aspects = vocab.asked(question, morphemes)
        # content words: two characters or more (one-syllable stems match inside too many words), known to the
        # leaflets (a product name or slang word cannot be in a sentence's body)
        words = {w for w in morphemes if len(w) > 1 and w in vocab.idf}
        self.words = {w: vocab.idf[w] for w in words}
        self.total = sum(self.words.values())
        self.grams = bigrams(question)

    def score(self, sentence: str) -> float:
        overlap = sum(idf for w, idf in self.words.items() if w in sentence) / self.total if self.total else 0.0
        aspect = max((self.vocab.match(a, sentence) for a in self.aspects), default=0.0)
        return overlap + ASPECT_WEIGHT * aspect + BIGRAM_WEIGHT * coverage(self.grams, sentence)


def leaflet_documents(
    docs: list[Document], get: Callable[[str], Document | None], named: Callable[[Document], bool], pool: int = 5
) -> list[Document]:
    """`docs`, then every other section of the candidate products' leaflets that the index holds: the products the
    question names (`named`), or else the first `MAX_PRODUCTS` products of the first `pool` documents. Appended
    after `docs`, so their ``[문서 N]`` numbers stay."""
    leaflets = [d for d in docs if d.id.startswith("easydrug:")][:pool]
    chosen = [d for d in leaflets if named(d)] or leaflets
    products = list(dict.fromkeys(d.id.split(":")[1] for d in chosen))[:MAX_PRODUCTS]
    have = {d.id for d in docs}
    out = list(docs)
    for seq in products:
        for section in LEAFLET_SECTIONS:
            doc_id = f"easydrug:{seq}:{section}"
            if doc_id not in have and (doc := get(doc_id)) is not None:
                out.append(doc)
                have.add(doc_id)
    return out
