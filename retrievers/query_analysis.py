"""Everything the rules can tell about a question before any index is touched (pure, no I/O).

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.lexicon import Lexicon
    >>> from retrievers.names import NameIndex
    >>> meta = {"item_name": "게보린정", "item_seq": "197900277", "main_ingr": "아세트아미노펜"}
    >>> names = NameIndex.from_documents([Document("easydrug:197900277:se", "게보린정 ...", meta)])
    >>> qa = analyse("게보린 부작용", names, Lexicon.load())
    >>> qa.sections, qa.names.keys
    (['se'], ['게보린'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex, NameMatch, squash
from retrievers.question_frame import AFTER_INTAKE, classes_and_symptoms, new_symptom
from retrievers.unicode_text import normalise

# A DUR intent also points at the leaflet sections that carry the same caution.
IMPLIED_SECTIONS = {
    "dur:ac": ("intrc", "atpn"),
    "dur:bc": ("atpn", "useMethod"),
    "dur:cc": ("atpn", "atpnWarn"),
    "dur:dc": ("useMethod",),
    "dur:ec": ("useMethod", "atpn"),
    "dur:fc": ("atpn",),
    "dur:gc": ("intrc", "atpn"),
    "intrc": ("dur:ac",),
}


class QueryError(ValueError):
    """The query cannot be searched (e.g. it is empty)."""


@dataclass
class QueryAnalysis:
    query: str
    names: NameMatch
    sections: list[str]
    implied_sections: list[str]
    expansions: list[str]
    warnings: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)  # class words (감기약, 해열제): they choose the products
    says_medicine: bool = False  # the question names the medicine itself (약 먹고 바로 누워도 돼요)


def normalise_query(query: str, max_chars: int) -> tuple[str, list[str]]:
    """One Unicode form (`retrievers.unicode_text.normalise`: NFC, no invisible characters), whitespace collapsed,
    cut to `max_chars`; raise QueryError for an empty query (one of invisible characters only included). A Python
    caller of the searcher gets what the CLI and HTTP edge give."""
    q = " ".join(normalise(str(query)).split()) if query is not None else ""
    if not q:
        raise QueryError('the query is empty: ask about a medicine, e.g. "게보린 부작용"')
    warnings = []
    if len(q) > max_chars:
        warnings.append(f"query cut from {len(q)} to {max_chars} characters")
        q = q[:max_chars]
    return q, warnings


def asks_for_medicine(
    sections: list[str],
    has_names: bool,
    has_rules: bool,
    query: str = "",
    has_class: bool = False,
    class_then_symptom: bool = False,
) -> list[str]:
    """Sections of a symptom question that names no medicine ("밤마다 속이 쓰려요", "목이 따끔한데 뭐 먹어요").

    Such a question asks which medicine treats the symptom, so 효능 (efcy) is asked about too, beside any section
    a word matched on the way (마다 -> 용법, 있는데 -> 주의사항). Named questions, questions without a symptom rule,
    DUR questions (임신, 같이 먹어도) and a class word with a section asked (`has_class`: 감기약 먹고 운전) keep
    their sections. A class taken, then a symptom it is not for (`class_then_symptom`: 변비약 먹고 배가 아파요), asks
    what the medicine did: 이상반응 (se), not which medicine treats the symptom.
    """
    if has_names or not has_rules or "efcy" in sections or any(s.startswith("dur:") for s in sections):
        return sections
    if sections and has_class:
        return sections  # 감기약 먹고 운전해도 돼요: the class chose the products; what is asked is 운전, not 효능
    if "se" in sections and any(w in squash(query) for w in AFTER_INTAKE):
        return sections  # "철분제 먹고 변이 까매졌어요": a side effect of something taken, not a symptom to treat
    if class_then_symptom:
        return ["se", *sections]
    return ["efcy", *sections]


def without_names(query: str, found: NameMatch) -> str:
    """The space-stripped query with the recognised names (3+ characters) cut out, so that a section word inside a
    name does not count (옥시메타졸린 holds 졸린, a drowsiness word)."""
    q = squash(query)
    for key in sorted(found.keys, key=len, reverse=True):
        if len(key) >= 3:
            q = q.replace(key, "|")
    return q


def analyse(query: str, names: NameIndex, lexicon: Lexicon, max_chars: int = 1000, reading=None) -> QueryAnalysis:
    """What the rules tell about `query`; `reading` (a callable, `KiwiTokenizer.reading`) gives the question without
    its adverbs, so a symptom rule written without them matches (머리가 너무 아파요 -> 머리가 아파), and whether it
    names the medicine itself (약 먹고 누워도 돼요)."""
    q, warnings = normalise_query(query, max_chars)
    found = names.match(q)
    expansions = lexicon.expand(q)
    says_medicine, plain = False, ""
    if reading is not None:
        plain, says_medicine = reading(q)
        expansions += [t for t in lexicon.expand(plain) if t not in expansions]
    unnamed = without_names(q, found)
    pairs = len(found.keys) >= 2 or (len(found.keys) == 1 and lexicon.names_a_kind_of_medicine(unnamed))
    asked, stepped_back = lexicon.asked(unnamed, pairs=pairs)
    classes = classes_and_symptoms(q, lexicon)[0]
    has_class = bool(classes)
    took = has_class and not found and new_symptom(q, unnamed, lexicon, plain)
    sections = asks_for_medicine(asked, bool(found), bool(expansions), q, has_class, took)
    implied = [s for sec in sections for s in IMPLIED_SECTIONS.get(sec, ()) if s not in sections]
    implied += [s for s in stepped_back if s not in sections and s not in implied]
    if not sections and found and expansions:
        # "게보린 먹고 속이 쓰려요": a named medicine plus a symptom is most often a side effect
        implied.extend(["se", "atpn"])
    elif not sections and (expansions or found):
        # "콧물이 줄줄 나요" or a bare "게보린?" asks what the medicine is for
        implied.append("efcy")
    return QueryAnalysis(q, found, sections, list(dict.fromkeys(implied)), expansions, warnings, classes, says_medicine)


def section_feature(doc_section: str, analysis: QueryAnalysis) -> float:
    """1 for a section the question asks about, 0.5 for one it implies, else 0."""
    if doc_section in analysis.sections:
        return 1.0
    if doc_section in analysis.implied_sections:
        return 0.5
    return 0.0
