"""A product the user's rules forbid (programs/forbidden.py) is never offered: its leaflet documents carry the verdict
(``metadata["not_for_user"]``: the ids of the rules that forbid it), the answer names it only in a line saying it is
not for this user with those rules cited, and an LM's sentence that names it otherwise is taken out.

Example:
    >>> from retrievers.documents import Document
    >>> rule = Document("dur:cc:1", "[임부금기] 에페드린은(는) …", {"dur_type": "임부금기", "ingredient": "에페드린"})
    >>> meta = {"item_seq": "7", "item_name": "슈페젠정"}
    >>> leaflet = Document("easydrug:7:efcy", "슈페젠정\\n[효능] 감기에 씁니다.", meta)
    >>> docs = mark([leaflet], {"7": [rule]})
    >>> [d.id for d in docs], is_forbidden(docs[0])
    (['easydrug:7:efcy', 'dur:cc:1'], True)
    >>> print(marking(docs))
    ※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 슈페젠정(임부금기 에페드린 [문서 2]).
    >>> withhold("슈페젠정을 드세요. [문서 1] 물을 많이 드세요.", docs, "감기약 뭐 먹어요")[0].splitlines()
    ['※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 슈페젠정(임부금기 에페드린 [문서 2]).', '물을 많이 드세요.']
"""

from __future__ import annotations

import re

from programs import citations
from programs.grounding import forbids, split_units
from retrievers.corpus import DUR_TYPES
from retrievers.documents import Document

NOT_FOR_USER = "not_for_user"  # leaflet metadata: ids of the rules that forbid the product to this user
VERDICT_ONLY = "verdict_only"  # rule metadata: added to cite a verdict, not one of the user's rules to quote
MARK = "사용자에게 맞지 않는 약"  # every line naming a forbidden product says this
MARKING = "※ " + MARK + "이라 권하지 않습니다: {products}."
DOSE_LEFT_OUT = "※ " + MARK + "의 용법·용량은 옮기지 않았습니다."  # said when such a dose line was left out
RULE_LINE = re.compile(r"\s*\[(?:병용금기|임부금기|노인주의|특정연령대금기|연령금기)\]")
# a DUR rule's statement, of any type: about an ingredient, never an offer of a product whose name is inside the
# ingredient's ([노인주의] 클로르페니라민 … holds 페니라민, the short name of 페니라민정)
DUR_STATEMENT = re.compile(r"\s*\[(?:" + "|".join(DUR_TYPES.values()) + r"|연령금기)\]")


def is_forbidden(doc: Document) -> bool:
    return bool(doc.metadata.get(NOT_FOR_USER))


def forbidden_by_a_found_rule(doc: Document, docs: list[Document]) -> bool:
    """Whether a rule that forbids `doc`'s product is one retrieval found (so the answer quotes it), not one added
    only to cite the verdict (`VERDICT_ONLY`)."""
    found = {d.id for d in docs if not d.metadata.get(VERDICT_ONLY)}
    return any(rule_id in found for rule_id in doc.metadata.get(NOT_FOR_USER) or ())


def product_name(doc: Document) -> str:
    """The product's name as answers write it (no parenthetical)."""
    name = citations.product(doc) or doc.title
    return re.sub(r"\(.*", "", str(name)).strip() or str(name)


def mark(docs: list[Document], verdicts: dict[str, list[Document]]) -> list[Document]:
    """The documents with each forbidden product's leaflets marked (`verdicts`: item_seq -> the rules that forbid
    it), and the forbidding rules not among them appended (flagged `VERDICT_ONLY`) so the marking can cite them."""
    out = []
    for doc in docs:
        rules = verdicts.get(str(doc.metadata.get("item_seq", ""))) if doc.source == "easydrug" else None
        out.append(Document(doc.id, doc.text, {**doc.metadata, NOT_FOR_USER: [r.id for r in rules]}) if rules else doc)
    have = {d.id for d in out}
    for rules in verdicts.values():
        for rule in rules:
            if rule.id not in have:
                have.add(rule.id)
                out.append(Document(rule.id, rule.text, {**rule.metadata, VERDICT_ONLY: True}))
    return out


def marking(docs: list[Document], only=None) -> str:
    """The line naming the forbidden products among `docs` (those named in `only`, when given), each with the rules
    that forbid it cited; "" when there is none."""
    where = {d.id: n for n, d in enumerate(docs, 1)}
    reasons: dict[str, list[str]] = {}  # why -> the products it forbids (one reason said once)
    for doc in docs:
        name = product_name(doc)
        if not is_forbidden(doc) or (only is not None and name not in only):
            continue
        names = reasons.setdefault(_why(doc.metadata[NOT_FOR_USER], docs, where), [])
        if name not in names and not any(name in n for n in reasons.values()):
            names.append(name)
    entries = [f"{', '.join(names)}({why})" for why, names in reasons.items() if names]
    return MARKING.format(products="; ".join(entries)) if entries else ""


def _why(rule_ids: list[str], docs: list[Document], where: dict[str, int]) -> str:
    groups: dict[str, list[tuple[str, int]]] = {}
    for rule_id in rule_ids:
        if rule_id in where:
            meta = docs[where[rule_id] - 1].metadata
            label = "+".join(p for p in (meta.get("ingredient", ""), meta.get("partner", "")) if p)
            kind = meta.get("rule_label") or meta.get("dur_type", "DUR")  # 의사 지시: a leaflet's own age bound
            groups.setdefault(kind, []).append((label, where[rule_id]))
    parts = []
    for kind, items in groups.items():
        labels = "·".join(dict.fromkeys(label for label, _ in items))
        parts.append(f"{kind} {labels} {citations.cite(sorted({n for _, n in items}))}")
    return "; ".join(parts)


def context_note(doc: Document, docs: list[Document]) -> str:
    """What the LM's context says under a forbidden product's title ("" for any other document)."""
    if not is_forbidden(doc):
        return ""
    where = {d.id: n for n, d in enumerate(docs, 1)}
    return f"\n※ {MARK}입니다({_why(doc.metadata[NOT_FOR_USER], docs, where)}): 이 제품을 권하지 마십시오."


def names_of(docs: list[Document]) -> dict[str, str]:
    """The forbidden products' names and the stem an answer may write for each (슈페젠정 → 슈페젠)."""
    out = {}
    for doc in docs:
        if is_forbidden(doc):
            name = product_name(doc)
            stem = re.sub(r"(정|캡슐|연질캡슐|시럽|액|현탁액|과립|산|크림|연고|겔|스프레이)$", "", name)
            out[name] = stem if len(stem) >= 2 else name
    return out


def _without(names, text: str) -> str:
    """`text` with each of `names` taken out, longest first."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ") if name else text
    return text


def withhold(answer: str, docs: list[Document], question: str) -> tuple[str, list[str]]:
    """Take out every sentence that names a forbidden product the question does not name, unless it says the
    product is not for this user (금기, 안 됩니다 …); the marking line goes on top when a product the question
    names is forbidden, or a sentence was taken out. Returns the answer and the products withheld."""
    forbidden = names_of(docs)
    if not forbidden:
        return answer, []
    # an allowed product whose name holds a forbidden one's stem (키미테패취 beside 키미테정) is not taken for it
    allowed = {"".join(product_name(d).split()) for d in docs if d.source == "easydrug" and not is_forbidden(d)}
    asked = "".join(question.split())
    named_in_question = [n for n, stem in forbidden.items() if stem in asked]
    withheld: list[str] = []
    lines = []
    for line in answer.split("\n"):
        if line.strip().startswith("※") or not line.strip():
            lines.append(line)
            continue
        kept = []
        for unit in split_units(line.strip()):
            squashed = _without(allowed, "".join(unit.split()))
            hit = [n for n, stem in forbidden.items() if stem in squashed and n not in named_in_question]
            # a line that says the product is not for this user (its limit leading an answer) is no offer
            if hit and MARK not in unit and not forbids(unit) and not DUR_STATEMENT.match(unit):
                withheld += hit
                continue
            kept.append(unit)
        if kept:
            lines.append(" ".join(kept))
    if (withheld or named_in_question) and not any(MARK in line for line in lines):
        at = next((i for i, line in enumerate(lines) if not RULE_LINE.match(line)), len(lines))
        lines.insert(at, marking(docs, {*withheld, *named_in_question}))  # after the quoted rules
    return "\n".join(lines).strip(), list(dict.fromkeys(withheld))
