"""Rule-based query understanding from data files: expansion terms and the sections a question asks about.

Both rule sets live in retrievers/data/*.json (data, not code) and match on the space-stripped question,
so 눈이 침침 and 눈이침침 behave alike.

Example:
    >>> lex = Lexicon.load()
    >>> lex.sections("게보린 부작용 있어요?")
    ['se']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from retrievers.names import squash

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Lexicon:
    expansion_rules: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    section_patterns: tuple[tuple[str, tuple[str, ...]], ...]
    pair_words: frozenset[str] = frozenset()  # section words that join two things (이랑, 하고먹어)

    @classmethod
    def from_files(cls, expansion: Path, intents: Path) -> Lexicon:
        exp = json.loads(expansion.read_text(encoding="utf-8")) if expansion.exists() else {"rules": []}
        sec = json.loads(intents.read_text(encoding="utf-8")) if intents.exists() else {"sections": {}}
        rules = tuple(
            (tuple(squash(m) for m in r["match"]), tuple(r["add"])) for r in exp.get("rules", []) if r.get("match")
        )
        patterns = tuple((name, tuple(squash(p) for p in pats)) for name, pats in sec.get("sections", {}).items())
        return cls(rules, patterns, frozenset(squash(w) for w in sec.get("pair_words", [])))

    @classmethod
    @lru_cache(maxsize=1)
    def load(cls) -> Lexicon:
        """The shipped rules."""
        return cls.from_files(DATA_DIR / "query_expansion.json", DATA_DIR / "section_intents.json")

    def expand(self, query: str) -> list[str]:
        """Terms to add to the search query, in rule order, without duplicates or terms already present."""
        q = squash(query)
        out: list[str] = []
        for matches, adds in self.expansion_rules:
            if any(m and m in q for m in matches):
                out.extend(a for a in adds if a not in out and squash(a) not in q)
        return out

    def heads(self, query: str) -> list[str]:
        """The first term each matching rule adds: the rule's own symptom word (두통, 인후통), weighted up in BM25."""
        q = squash(query)
        return list(
            dict.fromkeys(
                adds[0] for matches, adds in self.expansion_rules if adds and any(m and m in q for m in matches)
            )
        )

    def rule_texts(self, query: str | None = None) -> list[str]:
        """Each rule's added terms as one text (the text its dense vector is made of), for the rules matching
        `query`, or for all rules when `query` is None."""
        q = squash(query) if query is not None else None
        return list(
            dict.fromkeys(
                " ".join(adds)
                for matches, adds in self.expansion_rules
                if adds and (q is None or any(m and m in q for m in matches))
            )
        )

    def sections(self, query: str, pairs: bool = True) -> list[str]:
        """Section codes the question asks about (leaflet sections, or ``dur:<code>``), in file order. Without
        `pairs` (a question naming fewer than two medicines) the words that only join two things do not count:
        비오틴 먹으면 손톱이랑 머리카락에 좋아요 asks nothing about taking two things together.

        >>> lex = Lexicon.load()
        >>> lex.sections("비오틴 손톱이랑 머리카락에 좋아요", pairs=False), lex.sections("타이레놀이랑 게보린")
        (['efcy'], ['intrc', 'dur:ac'])
        """
        q = squash(query)
        return [
            name
            for name, pats in self.section_patterns
            if any(p and p in q and (pairs or p not in self.pair_words) for p in pats)
        ]

    def symptom_words(self) -> list[str]:
        """Korean words from the rules, taught to the tokenizer so they stay whole (두통, 속쓰림...)."""
        words = {w for _, adds in self.expansion_rules for w in adds}
        return sorted(w for w in words if 2 <= len(w) <= 8 and w.replace(" ", "").isalnum() and " " not in w)
