"""What programs use of retrieval (`SearchBackend`): the searches, the documents, and the readers of a question that
the index carries (its name dictionary, the rule lexicon, its tokenizer). `retrievers.searcher.Searcher` implements
it; `yaksa.testing.fake_backend.FakeBackend` fakes it, with None for the readers it lacks (programs then read a
question with the shipped rules alone).

Example:
    >>> sorted(SearchBackend.__annotations__)
    ['by_id', 'docs', 'lexicon', 'names', 'tokenizer']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from retrievers.documents import Document, Hit
from retrievers.result import RetrievalResult

if TYPE_CHECKING:
    from retrievers.lexicon import Lexicon
    from retrievers.names import NameIndex


class SearchBackend(Protocol):
    """The interface programs depend on; nothing else of a backend is read."""

    docs: list[Document]  # every document, in index order
    by_id: dict[str, int]  # document id -> its position in `docs`
    names: NameIndex | None  # the index's product and ingredient names (None: the backend has none)
    lexicon: Lexicon | None  # the rule lexicon the index searches with (None: the shipped rules)
    tokenizer: Callable[[str], list[str]] | None  # the index's Kiwi tokenizer (None: no morphemes)

    def retrieve(
        self, query: str, k: int = 5, extra_terms: list[str] | None = None, avoid_terms: list[str] | None = None
    ) -> RetrievalResult:
        """Ranked evidence for `query` (guarded: `out_of_scope` set when nothing relevant was found)."""
        ...

    def get(self, doc_id: str) -> Document | None:
        """The document with this id, or None."""
        ...

    def dur_rules(self, ingredients: list[str], dur_types: list[str]) -> list[Document]:
        """DUR rows of the given types for the given ingredients, in the ingredients' order."""
        ...

    def query_coverage(self, query: str, names: list[str], hits: list[Hit]) -> dict:
        """What of `query` the `hits` leave out: ``names_uncovered`` and ``unknown_words`` (lists)."""
        ...

    def class_members(self, classes: list[str]) -> set[str]:
        """The products (item_seq) whose leaflets a class word names (감기약 -> every cold medicine's item_seq)."""
        ...
