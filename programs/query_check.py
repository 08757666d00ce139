"""The query LM's output checked against the question's frame: what the question asks is kept, and nothing else is
searched for but the question's words and the corpus's.

* an avoid term that names what the question asks (a medicine it names, a class or symptom, the group it is for, the
  asked aspect's words) or that the question or the user's profile writes is dropped (``avoid_dropped``: the query
  LM once put 임신 into avoid_terms for a pregnant user);
* a core/recall term or a query word that is neither the question's nor the corpus vocabulary's (`CorpusVocabulary`:
  the index's names, the lexicon's words, the aspect and population vocabularies) is dropped (``terms_dropped``,
  ``words_dropped``: 코막힘 rewritten to 마지막);
* a frame word the query lost (the named medicine, the class or symptom, the group, the asked aspect's own words) is
  added back (``restored``).

Example:
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> frame = QuestionFrame("코막힘 약 뭐 먹어요", Targets(symptoms=("코막힘",)))
    >>> out = check_query(frame, "마지막 약", ["마지막"], ["임신"], known=lambda w: w == "약", user_text="임신 중")
    >>> out.query, out.terms, out.avoid, out.fired
    ('코막힘 약', (), (), ['avoid_dropped', 'terms_dropped', 'words_dropped', 'restored'])
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from programs.answer_requirements import QUERY_WORDS
from programs.name_mentions import mentions
from programs.name_words import strip_particle
from retrievers.aspects import WORD_START, load_vocabulary
from retrievers.names import squash
from retrievers.population import WORDS_PATH, read_population
from retrievers.question_frame import SECTION_ASPECT, VOCAB_ASPECT, QuestionFrame


@dataclass(frozen=True)
class QueryCheck:
    """The checked query, terms and avoid terms, and what the check changed."""

    query: str
    terms: tuple[str, ...] = ()
    avoid: tuple[str, ...] = ()
    avoid_dropped: tuple[str, ...] = ()
    terms_dropped: tuple[str, ...] = ()
    words_dropped: tuple[str, ...] = ()
    restored: tuple[str, ...] = ()

    @property
    def fired(self) -> list[str]:
        """The checks that changed something, in the order above."""
        names = ("avoid_dropped", "terms_dropped", "words_dropped", "restored")
        return [n for n in names if getattr(self, n)]

    def to_dict(self) -> dict:
        out = {n: list(getattr(self, n)) for n in ("avoid_dropped", "terms_dropped", "words_dropped", "restored")}
        return {"fired": self.fired, **out}


class CorpusVocabulary:
    """Whether a term is a word the corpus knows: a name of the index (`NameIndex` keys), a word of the lexicon
    (expansion rules, section words, kinds of medicine, conditions), of the aspect vocabulary (seeds, question words)
    or of the population words. A term of several words is known when each word is.

    >>> vocab = CorpusVocabulary(lexicon=None)
    >>> "임부" in vocab, "마지막" in vocab
    (True, False)
    """

    def __init__(self, names=None, lexicon=None):
        self.names = names
        self.words = _lexicon_words(lexicon) | _shipped_words()

    def __contains__(self, term: str) -> bool:
        words = [strip_particle(squash(w)) for w in term.split() if squash(w)]
        return bool(words) and (self._knows(squash(term)) or all(self._knows(w) for w in words))

    def _knows(self, word: str) -> bool:
        if word in self.words:
            return True
        names = self.names
        return names is not None and (word in names.products or word in names.ingredients)


def _lexicon_words(lexicon) -> frozenset[str]:
    if lexicon is None:
        return frozenset()
    words = {w for matches, adds in lexicon.expansion_rules for w in (*matches, *(squash(a) for a in adds))}
    words |= {p for _, patterns in lexicon.section_patterns for p in patterns}
    words |= {*lexicon.other_medicine_words, *lexicon.condition_words}
    words |= {w for phrase in QUERY_WORDS.values() for w in phrase.split()}  # the section words searches add
    return frozenset(w for w in words if w)


@functools.lru_cache(maxsize=1)
def _group_words() -> dict[str, list[str]]:
    """Each population group's question and leaflet words (squashed)."""
    groups = json.loads(WORDS_PATH.read_text(encoding="utf-8"))["groups"]
    return {g: [squash(w) for key in ("words", "leaflet") for w in spec[key]] for g, spec in groups.items()}


@functools.lru_cache(maxsize=1)
def _shipped_words() -> frozenset[str]:
    """The aspect vocabulary's seeds and question words and the population words (data files, not the index)."""
    vocab = load_vocabulary()
    words = {w for table in (vocab.seeds, vocab.asks) for ws in table.values() for w in ws}
    words = {squash(w.lstrip(WORD_START)) for w in words} | {w for ws in _group_words().values() for w in ws}
    return frozenset(w for w in words if w)


def frame_words(frame: QuestionFrame, morphemes=(), lexicon=None) -> list[str]:
    """The words of the question a search must keep, as the question writes them: the medicines it names, its
    classes and symptoms, the group it is for, and the words asking its aspects (운전, 부작용).

    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> targets = Targets(products=("타이레놀정500밀리그람",))
    >>> q = "임신 중인데 타이레놀 먹고 운전해도 되나요"
    >>> frame_words(QuestionFrame(q, targets, ("driving",), read_population(q)))
    ['타이레놀', '임신', '운전']
    """
    return list(dict.fromkeys(w for w, _ in _frame_words(frame, morphemes, lexicon)))


def _frame_words(frame: QuestionFrame, morphemes=(), lexicon=None) -> list[tuple[str, str]]:
    """`frame_words` as (word, the aspect it asks or "" for a target or the group)."""
    q = squash(frame.question)
    tokens = [strip_particle(t) for t in re.findall(r"[\w]+", frame.question)]
    out = []
    for name in (*frame.targets.products, *frame.targets.ingredients):
        out += [(t, "") for t in tokens if mentions(t, name)][:1] or [(name, "")]
    out += [(as_written(w, tokens), "") for w in (*frame.targets.classes, *frame.targets.symptoms)]
    if frame.population.detail and squash(frame.population.detail) in q:
        out.append((frame.population.detail, ""))
    vocab = load_vocabulary()
    asked = set(frame.aspects)
    for aspect in vocab.asked(frame.question, morphemes):
        if VOCAB_ASPECT.get(aspect) in asked:
            words = [w.lstrip(WORD_START) for w in vocab.asks[aspect]]
            words = sorted((w for w in words if len(w) >= 2 and squash(w) in q), key=len)
            out += [(w, VOCAB_ASPECT[aspect]) for w in words[:1]]
    if lexicon is not None:
        for section, words in lexicon.hits(frame.question).items():
            if SECTION_ASPECT.get(section) in asked and section not in ("atpn", "atpnWarn", "efcy"):
                kept = [w for w in words if w not in lexicon.permission_words]
                out += [(as_written(w, tokens), SECTION_ASPECT[section]) for w in kept[:1]]
    return [(w, a) for w, a in out if w]


def asks(text: str, aspect: str, lexicon=None) -> bool:
    """Whether `text` (a query) asks `aspect`: a situation's question words, or a section's words (`lexicon`, and
    the section words searches add: 복용 방법, 이상반응).

    >>> from retrievers.lexicon import Lexicon
    >>> asks("게보린 복용 방법", "how_to_take", Lexicon.load())
    True
    """
    if any(VOCAB_ASPECT.get(a) == aspect for a in load_vocabulary().asked(text, text.split())):
        return True
    sections = set(lexicon.sections(text)) if lexicon is not None else set()
    sections |= {s for s, words in QUERY_WORDS.items() if any(w in text for w in words.split())}
    return any(SECTION_ASPECT.get(s) == aspect for s in sections)


def as_written(word: str, tokens: list[str]) -> str:
    """`word` as the question's words write it: the shortest run of one or two of `tokens` that holds it (코막 ->
    코막힘, 코막힘약 -> 코막힘 약), else the word itself.

    >>> as_written("코막힘약", ["코막힘", "약", "뭐", "먹어요"]), as_written("코막", ["코막힘", "약"])
    ('코막힘 약', '코막힘')
    """
    key = squash(word)
    for size in (1, 2):
        for i in range(len(tokens) - size + 1):
            run = tokens[i : i + size]
            if key in squash("".join(run)):
                return " ".join(run)
    return word


def check_query(
    frame: QuestionFrame,
    query: str,
    terms=(),
    avoid=(),
    known: Callable[[str], bool] | CorpusVocabulary = lambda _: False,
    user_text: str = "",
    morphemes=(),
    lexicon=None,
) -> QueryCheck:
    """Check the query LM's query, terms and avoid terms against `frame` (see the module docstring); `known` says
    whether the corpus knows a term (a `CorpusVocabulary` or a function), `user_text` is what the user wrote
    beside the question (the profile's summary)."""
    knows = known.__contains__ if isinstance(known, CorpusVocabulary) else known
    asked = squash(f"{frame.question} {user_text}")
    must = _frame_words(frame, morphemes, lexicon)
    protected = [squash(w) for w, _ in must]
    groups = _group_words()
    for who in {frame.population.group, read_population(user_text).group} - {None}:
        protected += groups.get(who, [])  # the group asked about, or the user's own (임신 중 → 임부, 태아)

    def ours(term: str) -> bool:
        t = squash(strip_particle(term))
        return bool(t) and t in asked

    def names_asked(term: str) -> bool:
        t = squash(term)
        return ours(term) or any(p and (p in t or t in p) for p in protected)

    kept_avoid = [a for a in avoid if not names_asked(a)]
    kept_terms = [t for t in terms if ours(t) or knows(t)]
    words = query.split()
    kept_words = [w for w in words if ours(w) or knows(strip_particle(w))]
    searched = squash(" ".join([*kept_words, *kept_terms]))
    restored: list[str] = []
    for word, aspect in must:
        said = " ".join([*kept_words, *kept_terms, *restored])
        if squash(word) not in searched and not (aspect and asks(said, aspect, lexicon)):
            restored.append(word)
            searched += squash(word)
    new_query = " ".join(dict.fromkeys(" ".join([*restored, *kept_words]).split())) or frame.question
    return QueryCheck(
        new_query,
        tuple(kept_terms),
        tuple(kept_avoid),
        tuple(a for a in avoid if a not in kept_avoid),
        tuple(t for t in terms if t not in kept_terms),
        tuple(w for w in words if w not in kept_words),
        tuple(restored),
    )
