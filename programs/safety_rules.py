"""The user's safety rules first: the DUR rules the profile pulled in (병용금기, 임부금기, 노인주의, 연령금기) lead the
generator's context, and an answer that does not quote an applicable rule gets it added, quoted and cited, at its top.
Citing a rule is not quoting it: a line citing the rule must say what it says (`says_rule`), so an answer citing the
임부금기 rule beside "코막힘 약 뭐 먹어요?" still gets the rule.

Example:
    >>> from retrievers.documents import Document
    >>> text = "[임부금기] 이소프로필안티피린은(는) 임부에게 사용하면 안 되는 성분입니다."
    >>> rule = Document("dur:cc:1", text, {"dur_type": "임부금기"})
    >>> leaflet = Document("easydrug:1:efcy", "게보린정\\n[효능] 두통에 씁니다.")
    >>> docs = rules_first([leaflet, rule])
    >>> [d.id for d in docs]
    ['dur:cc:1', 'easydrug:1:efcy']
    >>> print(add_missing_rules("두통에 씁니다. [문서 2]", docs)[0])
    [임부금기] 이소프로필안티피린은(는) 임부에게 사용하면 안 되는 성분입니다. [문서 1]
    두통에 씁니다. [문서 2]
"""

from __future__ import annotations

import re

from programs.answer_requirements import cited_ids
from programs.citations import CITE, cite, cite_numbers
from programs.dur_rule import forms, is_user_rule
from programs.grounding import forbids
from programs.name_mentions import mentions, names_exactly, names_product
from programs.offer_guard import DUR_STATEMENT
from programs.text import same


def answer_ingredients(question: str, docs: list) -> list[str]:
    """The ingredients whose DUR rules apply to an answer from `docs`, in document order. When the question names
    products or ingredients, only theirs: the named leaflets' main ingredients and the ingredients (of leaflets or
    DUR rows) the question mentions — a retrieved leaflet or rule about another drug is not the user's drug.
    Otherwise ("which medicine for …") every leaflet's main ingredients.

    >>> from retrievers.documents import Document
    >>> leaflet = Document("easydrug:1:efcy", "x", {"item_name": "가나정", "main_ingr": "이부프로펜, 카페인"})
    >>> other = Document("dur:cc:9", "x", {"ingredient": "코비시스타트"})
    >>> rule = Document("dur:cc:8", "x", {"ingredient": "와파린"})
    >>> answer_ingredients("임신 중에 와파린 먹어도 되나요", [other, leaflet, rule])
    ['와파린']
    >>> answer_ingredients("임신 중에 두통약 뭐 먹어요", [other, leaflet, rule])
    ['이부프로펜', '카페인']
    """
    leaflets = [(d, _ingredients(d)) for d in docs if not d.id.startswith("dur:")]
    rows = [str(d.metadata.get("ingredient", "")).strip() for d in docs if d.id.startswith("dur:")]
    # the product the question writes, not a sibling its brand shares (타이레놀, not 타이레놀콜드-에스정)
    exact = [i for d, ingredients in leaflets if names_exactly(question, d) for i in ingredients]
    named = exact or [i for d, ingredients in leaflets if names_product(question, d) for i in ingredients]
    named += [i for _, ingredients in leaflets for i in ingredients if mentions(question, i)]
    named += [i for i in rows if i and mentions(question, i)]
    return list(dict.fromkeys(named or [i for _, ingredients in leaflets for i in ingredients]))


def _ingredients(doc) -> list[str]:
    return [i.strip() for i in str(doc.metadata.get("main_ingr", "")).split(",") if i.strip()]


def rules_first(docs: list) -> list:
    """The same documents, the user's DUR rules first (their order kept)."""
    return [d for d in docs if is_user_rule(d)] + [d for d in docs if not is_user_rule(d)]


def says_rule(line: str, doc) -> bool:
    """Whether an answer line says what a DUR rule says: it holds the rule's first sentence, or it names the rule's
    ingredient (and, for a pair, its partner) with a verdict (a prohibition, 주의, or the rule's type).

    >>> from retrievers.documents import Document
    >>> rule = Document("dur:cc:1", "[임부금기] 페닐레프린은(는) 임부에게 사용하면 안 되는 성분입니다. 사유: …",
    ...                 {"dur_type": "임부금기", "ingredient": "페닐레프린"})
    >>> says_rule("임신 중에는 페닐레프린을 쓰면 안 됩니다.", rule), says_rule("코막힘 약 뭐 먹어요?", rule)
    (True, False)
    """
    first = re.split(r"(?<=[.!?])\s", doc.text.strip(), maxsplit=1)[0]
    if _letters(first) in _letters(line) or same(first, line):
        return True
    meta = doc.metadata
    names = [str(meta.get(k, "")).strip() for k in ("ingredient", "partner")]
    if not all(mentions(line, n) for n in names if n):
        return False
    return forbids(line) or "주의" in line or str(meta.get("dur_type", "")) in line


def quoted_rules(answer: str, docs: list) -> set[str]:
    """The ids of the rules in `docs` the answer quotes: a line citing the rule (``[문서 N]``) says what it says
    (`says_rule`), or any line holds its text. Citing a rule without saying it does not count."""
    quoted = set()
    numbered = {i: d.id for i, d in enumerate(docs, 1)}
    for line in answer.splitlines():
        cited = set(cited_ids(line, numbered))
        text = CITE.sub(" ", line).strip()
        for doc in docs:
            if not is_user_rule(doc):
                continue
            if says_rule(text, doc) if doc.id in cited else _letters(doc.text) in _letters(text):
                quoted.add(doc.id)
    return quoted


def cited_unquoted(answer: str, docs: list) -> list[str]:
    """The rules the answer cites without saying what they say (they are quoted again by `add_missing_rules`)."""
    numbered = {i: d.id for i, d in enumerate(docs, 1)}
    rules = {d.id for d in docs if is_user_rule(d)}
    quoted = quoted_rules(answer, docs)
    return [i for i in dict.fromkeys(cited_ids(answer, numbered)) if i in rules and i not in quoted]


_FORMS_ALONE = re.compile(r"^\s*대상\s*제형\s*:")


def with_forms(answer: str, docs: list) -> tuple[str, int]:
    """The answer with the dosage forms added to each line that quotes a DUR rule without them (an LM's rewording
    drops "대상 제형: …"; the 아세트아미노펜 12세미만 rule binds 서방정 only): the forms of the rules the line cites,
    before its citation; a line of forms alone is taken out. Returns the answer and how many lines it changed.

    >>> from retrievers.documents import Document
    >>> text = "[특정연령대금기] 아세트아미노펜은(는) 12세미만 환자에게 사용하면 안 됩니다. 대상 제형: 서방정."
    >>> rule = Document("dur:bc:1", text, {"dur_type": "특정연령대금기"})
    >>> with_forms("[특정연령대금기] 아세트아미노펜은 12세 미만에게 쓰면 안 됩니다. [문서 1]", [rule])[0]
    '[특정연령대금기] 아세트아미노펜은 12세 미만에게 쓰면 안 됩니다. 대상 제형: 서방정. [문서 1]'
    """
    numbered = {i: d for i, d in enumerate(docs, 1)}
    out, completed = [], 0
    for line in answer.split("\n"):
        if _FORMS_ALONE.match(line):
            completed += 1  # "대상 제형: …" alone says nothing: the forms go with a rule's statement
            continue
        cited = [numbered[n] for n in cite_numbers(line) if n in numbered]
        bound = [f for d in cited if d.id.startswith("dur:") for f in forms(d.text)]
        # a line that quotes a DUR rule's statement ("[임부금기] 페닐레프린은(는) …", as the corpus writes rules)
        if DUR_STATEMENT.match(line) and bound and "대상 제형" not in line:
            at = CITE.search(line)
            said = f"대상 제형: {'/'.join(dict.fromkeys(bound))}."
            line = f"{line[: at.start()].rstrip()} {said} {line[at.start() :]}" if at else f"{line} {said}"
            completed += 1
        out.append(line)
    return "\n".join(out), completed


def _letters(text: str) -> str:
    return re.sub(r"\W", "", text)


def add_missing_rules(answer: str, docs: list) -> tuple[str, list[str]]:
    """Quote, cited, every applicable rule in `docs` the answer does not quote (`quoted_rules`: a rule it cites
    without saying it is quoted too); returns the answer and the ids added."""
    quoted = quoted_rules(answer, docs)
    covered = [d.text for d in docs if d.id in quoted]
    groups: list[tuple[str, list[int]]] = []  # the same rule text (rows that differ only in code) quoted once
    added = []
    for n, doc in enumerate(docs, 1):
        if not is_user_rule(doc) or doc.id in quoted or any(same(doc.text, c) for c in covered):
            continue
        added.append(doc.id)
        group = next((g for g in groups if same(g[0], doc.text)), None)
        if group:
            group[1].append(n)
        else:
            groups.append((doc.text.strip(), [n]))
    lines = [f"{text} {cite(ns)}" for text, ns in groups]
    return ("\n".join([*lines, answer]) if lines else answer), added
