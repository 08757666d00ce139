"""The BM25 query of a question: its own Kiwi morphemes, its expansions' (symptom -> ingredient, a rewrite's terms),
the corpus's spellings of each named ingredient, and a symptom question's rule words three times; minus the terms
to avoid. The texts besides the question (rule expansions, rule words, spellings) recur across questions: their
tokens are remembered (`TermTokens`).

Example:
    >>> from retrievers.lexicon import Lexicon
    >>> from retrievers.names import NameIndex
    >>> from retrievers.query_analysis import analyse
    >>> from retrievers.tokenizer import KiwiTokenizer
    >>> qa = analyse("머리가 아파요", NameIndex(), Lexicon.load())
    >>> morphemes, tokens = query_tokens(qa, KiwiTokenizer(), NameIndex(), Lexicon.load())
    >>> morphemes, "아세트아미노펜" in tokens
    (['머리', '아프'], True)
"""

from __future__ import annotations

from collections.abc import Callable

from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import QueryAnalysis

MAX_SPELLINGS = 3  # corpus spellings of a named ingredient added to the BM25 query, at most
MAX_TERM_TEXTS = 4096  # term texts whose tokens are remembered


class TermTokens:
    """A tokenizer remembering the tokens of the last `MAX_TERM_TEXTS` texts (a Kiwi pass costs ~0.3 ms)."""

    def __init__(self, tokenizer: Callable[[str], list[str]]):
        self.tokenizer = tokenizer
        self._memo: dict[str, tuple[str, ...]] = {}

    def __call__(self, text: str) -> list[str]:
        tokens = self._memo.get(text)
        if tokens is None:
            if len(self._memo) >= MAX_TERM_TEXTS:
                self._memo.clear()
            tokens = self._memo[text] = tuple(self.tokenizer(text))
        return list(tokens)


def query_tokens(
    qa: QueryAnalysis,
    tokenizer: Callable[[str], list[str]],
    names: NameIndex,
    lexicon: Lexicon,
    extra_terms: list[str] | None = None,
    avoid_terms: list[str] | None = None,
    terms: Callable[[str], list[str]] | None = None,
) -> tuple[list[str], list[str]]:
    """(the question's own morphemes, the BM25 query's tokens); `terms` tokenizes the other texts (default:
    `tokenizer`; a `TermTokens` remembers them)."""
    terms = terms or tokenizer
    expansions = [*qa.expansions, *(extra_terms or [])]
    morphemes = tokenizer(qa.query)
    q_tokens = morphemes + (terms(" ".join(expansions)) if expansions else [])
    q_tokens += spelling_tokens(qa, q_tokens, terms, names)
    if qa.expansions and not qa.names:  # a symptom question: the rules' own symptom words count three times
        q_tokens += 2 * terms(" ".join(lexicon.heads(qa.query)))
    avoid = set(terms(" ".join(avoid_terms))) if avoid_terms else set()
    return morphemes, [tok for tok in q_tokens if tok not in avoid]


def spelling_tokens(
    qa: QueryAnalysis, q_tokens: list[str], tokenizer: Callable[[str], list[str]], names: NameIndex
) -> list[str]:
    """BM25 tokens of the corpus's spellings of each named ingredient that the question spelt otherwise
    (옥시메타졸린 -> 옥시메타졸린염산염, 하이드로퀴논 -> 히드로퀴논): documents keep the full name as one token."""
    have = set(q_tokens)
    out: list[str] = []
    for canon in sorted(qa.names.ingredients):
        spellings = names.surface_keys(canon)[:MAX_SPELLINGS]
        out += [tok for tok in tokenizer(" ".join(spellings)) if tok not in have]
    return out
