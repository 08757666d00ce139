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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from retrievers.memo import remembered
from retrievers.names import squash
from retrievers.population import without_places

DATA_DIR = Path(__file__).resolve().parent / "data"
# "May I use it for X" (무좀에 발라도 되나) asks both what it treats and whether X forbids it: beside 효능 alone a
# "may I" word keeps asking for the cautions.
KEEPS_MAY_I = {"efcy"}
MEMO = 4096  # questions whose matched sections are remembered


@dataclass(frozen=True)
class Lexicon:
    expansion_rules: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    section_patterns: tuple[tuple[str, tuple[str, ...]], ...]
    pair_words: frozenset[str] = frozenset()  # section words that join two things (이랑, 하고먹어)
    permission_words: frozenset[str] = frozenset()  # section words that only ask "may I" (먹어도 되나요, 괜찮아요)
    other_medicine_words: tuple[str, ...] = ()  # medicines named by their kind (혈압약, 항생제): a second medicine
    not_inside: tuple[tuple[str, tuple[str, ...]], ...] = ()  # a word's start inside these does not count (see _occurs)
    # a disease the asker has (고혈압, 위궤양): asks whether it forbids the medicine
    condition_words: tuple[str, ...] = ()
    _memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # see _matched
    _rule_memo: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # see _rules_in
    _by_start: dict = field(default_factory=dict, compare=False, hash=False, repr=False)  # see _rules_in

    @classmethod
    def from_files(cls, expansion: Path, intents: Path) -> Lexicon:
        exp = json.loads(expansion.read_text(encoding="utf-8")) if expansion.exists() else {"rules": []}
        sec = json.loads(intents.read_text(encoding="utf-8")) if intents.exists() else {"sections": {}}
        rules = tuple(
            (tuple(squash(m) for m in r["match"]), tuple(r["add"])) for r in exp.get("rules", []) if r.get("match")
        )
        patterns = tuple((name, tuple(squash(p) for p in pats)) for name, pats in sec.get("sections", {}).items())
        return cls(
            rules,
            patterns,
            frozenset(squash(w) for w in sec.get("pair_words", [])),
            frozenset(squash(w) for w in sec.get("permission_words", [])),
            tuple(squash(w) for w in sec.get("other_medicine_words", [])),
            tuple((squash(k), tuple(squash(m) for m in v)) for k, v in sec.get("not_inside", {}).items()),
            tuple(squash(w) for w in sec.get("condition_words", [])),
        )

    @classmethod
    @lru_cache(maxsize=1)
    def load(cls) -> Lexicon:
        """The shipped rules."""
        return cls.from_files(DATA_DIR / "query_expansion.json", DATA_DIR / "section_intents.json")

    def _rules_in(self, q: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """The expansion rules one of whose words is in `q` (already space-stripped), in rule order, remembered for
        recent texts: a question is read by retrieval, the frame and the answer, each asking the rules again."""
        return remembered(self._rule_memo, q, lambda: self._rules_found(q), MEMO)

    def _rules_found(self, q: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """The rules one of whose words is in `q`: only the words starting with one of `q`'s characters are tried
        (the words indexed by their first character once)."""
        if not self._by_start:
            for i, (words, _) in enumerate(self.expansion_rules):
                for w in words:
                    if w:
                        self._by_start.setdefault(w[0], []).append((w, i))
        found = {i for ch in set(q) for w, i in self._by_start.get(ch, ()) if w in q}
        return tuple(self.expansion_rules[i] for i in sorted(found))

    def expand(self, query: str) -> list[str]:
        """Terms to add to the search query, in rule order, without duplicates or terms already present."""
        q = squash(query)
        out: list[str] = []
        for _, adds in self._rules_in(q):
            out.extend(a for a in adds if a not in out and squash(a) not in q)
        return out

    def target_words(self, query: str) -> list[str]:
        """The words of the query that matched an expansion rule (a symptom or a class of medicine: 감기약, 두통):
        they choose the products, not what is asked about them.

        >>> Lexicon.load().target_words("감기약 먹고 운전해도 돼요")
        ['감기']
        """
        q = squash(query)
        return list(dict.fromkeys(m for matches, _ in self._rules_in(q) for m in matches if m and m in q))

    def expansion_terms(self, word: str) -> list[str]:
        """The terms the expansion rules a word matches add (변비약 → 변비, 비사코딜 …): what it is about.

        >>> "변비" in Lexicon.load().expansion_terms("변비약")
        True
        """
        return list(dict.fromkeys(a for _, adds in self._rules_in(squash(word)) for a in adds))

    def heads(self, query: str) -> list[str]:
        """The first term each matching rule adds: the rule's own symptom word (두통, 인후통), weighted up in BM25."""
        return list(dict.fromkeys(adds[0] for _, adds in self._rules_in(squash(query)) if adds))

    def rule_texts(self, query: str | None = None) -> list[str]:
        """Each rule's added terms as one text (the text its dense vector is made of), for the rules matching
        `query`, or for all rules when `query` is None."""
        q = squash(query) if query is not None else None
        return list(
            dict.fromkeys(
                " ".join(adds) for _, adds in (self.expansion_rules if q is None else self._rules_in(q)) if adds
            )
        )

    def sections(self, query: str, pairs: bool = True) -> list[str]:
        """Section codes the question asks about (leaflet sections, or ``dur:<code>``), in file order. Without
        `pairs` (a question naming fewer than two medicines) the words that only join two things do not count:
        비오틴 먹으면 손톱이랑 머리카락에 좋아요 asks nothing about taking two things together. A section matched only
        by a word asking "may I" (먹어도 되나요) is asked when no other word names a section other than 효능 (see
        `stepped_back` and KEEPS_MAY_I).

        >>> lex = Lexicon.load()
        >>> lex.sections("비오틴 손톱이랑 머리카락에 좋아요", pairs=False), lex.sections("타이레놀이랑 게보린")
        (['efcy'], ['intrc', 'dur:ac'])
        >>> lex.sections("비사코딜 씹어먹어도 되나요"), lex.sections("게보린 먹어도 되나요")
        (['useMethod'], ['atpn'])
        """
        return self.asked(query, pairs)[0]

    def names_a_kind_of_medicine(self, query: str) -> bool:
        """Whether the question speaks of a medicine by its kind (혈압약 먹는데, 항생제랑): with one medicine named by
        name, that makes two, so the words joining two medicines count.

        >>> Lexicon.load().names_a_kind_of_medicine("혈압약 먹는데 타이레놀 먹어도 돼요")
        True
        """
        q = squash(query)
        return any(w in q for w in self.other_medicine_words)

    def stepped_back(self, query: str, pairs: bool = True) -> list[str]:
        """Sections matched only by a "may I" word while another word names a section: 씹어먹어도 되나요 asks how
        to take it (용법); 주의사항, which its 먹어도 되나요 alone would ask, is only implied.

        >>> Lexicon.load().stepped_back("비사코딜 씹어먹어도 되나요")
        ['atpn']
        """
        return self.asked(query, pairs)[1]

    def asked(self, query: str, pairs: bool = True) -> tuple[list[str], list[str]]:
        """`sections` and `stepped_back` of one question, matched once."""
        strong, weak = self._matched(query, pairs)
        if not set(strong) - KEEPS_MAY_I:
            return weak, []
        return strong, [name for name in weak if name not in strong]

    def _matched(self, query: str, pairs: bool) -> tuple[list[str], list[str]]:
        """(sections some specific word matched, sections any word matched), each in file order."""
        hits = self._hits(query, pairs)
        weak = list(hits)
        strong = [name for name, words in hits.items() if any(p not in self.permission_words for p in words)]
        return strong, weak

    def _hits(self, query: str, pairs: bool) -> dict[str, tuple[str, ...]]:
        """Per section, the words of the question that matched it, in file order (remembered for the last `MEMO`
        questions: retrieval, the question frame and the answer each ask)."""
        # 할머니댁 가는데: a place, no elderly asker's section (population.without_places)
        read = lambda: self._section_hits(squash(without_places(query)), pairs)  # noqa: E731
        return remembered(self._memo, (query, pairs), read, MEMO)

    def _section_hits(self, q: str, pairs: bool) -> dict[str, tuple[str, ...]]:
        out = {}
        for name, pats in self.section_patterns:
            hits = [
                p
                for p in pats
                if p and p in q and _occurs(p, q, self.not_inside) and (pairs or p not in self.pair_words)
            ]
            if hits:
                out[name] = tuple(hits)
        return out

    def hits(self, query: str, pairs: bool = True) -> dict[str, list[str]]:
        """Per section, the words of the question that matched it (file order), so a caller can tell why.

        >>> Lexicon.load().hits("임신 중인데 게보린 먹어도 돼요")["atpn"]
        ['임신', '먹어도돼']
        """
        return {name: list(words) for name, words in self._hits(query, pairs).items()}

    def symptom_words(self) -> list[str]:
        """Korean words from the rules, taught to the tokenizer so they stay whole (두통, 속쓰림...)."""
        words = {w for _, adds in self.expansion_rules for w in adds}
        return sorted(w for w in words if 2 <= len(w) <= 8 and w.replace(" ", "").isalnum() and " " not in w)


def _occurs(word: str, question: str, not_inside: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> bool:
    """Whether `word` occurs in the squashed `question` other than as part of a longer word: for each (start, longer)
    rule, an occurrence of a word beginning with `start` does not count where `start` is read inside one of the
    `longer` words (다음주 holds 음주, drinking; 속이 안 좋아요 says the stomach is upset, it does not ask what a
    medicine is good for).

    >>> rules = (("음주", ("다음주",)), ("좋", ("안좋", "못좋")))
    >>> _occurs("좋아요", "속이안좋아요", rules), _occurs("좋아요", "관절에좋아요", rules)
    (False, True)
    >>> _occurs("음주", "다음주에수술해요", rules), _occurs("음주", "음주후에먹어도", rules)
    (False, True)
    """
    at = question.find(word)
    if at < 0:
        return False
    rules = [(start, longer) for start, longers in not_inside if word.startswith(start) for longer in longers]
    while at >= 0:
        if not any(_covers(question, at, longer, longer.index(start)) for start, longer in rules):
            return True
        at = question.find(word, at + 1)
    return False


def _covers(question: str, at: int, longer: str, offset: int) -> bool:
    """Whether `longer` is written in `question` so that its character `offset` falls at position `at`."""
    begin = at - offset
    return begin >= 0 and question.startswith(longer, begin)
