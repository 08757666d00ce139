"""A deterministic grounding check on every answer, with no LM call: each sentence must be supported by the documents
it cites.

A sentence is unsupported when

* it cites ``[문서 N]`` for an N that was not given (``citation``);
* a number with its unit (doses, 정/캡슐/mg/g/mL, times a day, days, ages, percentages) is not in the documents it
  cites (``number``) — spacing, thousands commas, 하루/1일, 세/살, 번/회, 알/정, 밀리그람/mg, 세 번/3회 are treated
  as the same;
* a drug or ingredient name in it is not in the documents it cites (``name``): a name the index knows, or a word that
  reads as a product's name although the corpus knows no such product (자멘clinical정: `programs.name_words`), which
  a fragment of it (자멘) that is a known name does not excuse;
* it permits (복용해도 됩니다, 괜찮습니다, 안전합니다 …) what a document it cites forbids or tells to ask about first
  (마십시오, 금기, 안 됩니다, 상의하십시오 …) about the same thing — a similar sentence, or the same slot such as
  drinking or pregnancy (``permits``).

A sentence without ``[문서 N]`` is checked against the documents cited by the next (else the previous) cited sentence
of its line, or against all documents when its line cites none. Numbers and names the user wrote (the question, the
profile) count as supported. Notice lines (※ …), the safety line and the extractive opening are not claims.

Example:
    >>> from retrievers.documents import Document
    >>> doc = Document("easydrug:1:useMethod", "게보린정\\n[용법] 성인은 1회 1정 1일 3회까지 복용합니다.")
    >>> out = check("하루 세 번, 1정씩 복용합니다. [문서 1] 하루 최대 37정까지 복용해도 안전합니다. [문서 9]", [doc])
    >>> out.answer
    '하루 세 번, 1정씩 복용합니다. [문서 1]'
    >>> [r["reason"] for r in out.removed]
    ['cites [문서 9], which was not given']
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from programs.answer_requirements import SLOTS
from programs.citations import CITE, cite_numbers
from programs.name_words import product_like
from programs.text import bigrams
from retrievers.name_keys import squash

_SENT_END = re.compile(r"[.!?。](?=\s|\[|$)")
_CITES_AFTER = re.compile(r"(?:\s*\[문서\s*[\d,\s]+\])+")
_NATIVE = {"한": "1", "두": "2", "세": "3", "네": "4", "다섯": "5", "여섯": "6", "일곱": "7", "여덟": "8"}
_NATIVE_RE = re.compile(r"(?<![가-힣])(다섯|여섯|일곱|여덟|한|두|세|네)\s*(번|회|정|알|캡슐|포|잔|방울)")
_UNITS = "mg|mcg|μg|ml|kg|iu|g|정|캡슐|포|회|일|시간|세|개월|주|%|방울|잔|분|단위"
_NUM = r"\d+(?:\.\d+|/\d+)?"
_QTY = re.compile(rf"(?<![\d/])(?<!\d\.)({_NUM})(?:(?:~|-|내지)({_NUM}))?({_UNITS})")
_PROHIBIT = re.compile(
    r"안\s*(?:되|됩|돼)|마십시오|마세요|말\s*것|말아야|금기|금지|하지\s*않도록|삼가|상의하십시오|상의하세요|상담하십시오|"
    r"주의하십시오|피하십시오"
)
_PERMIT = re.compile(
    r"(?:해|셔|어|아|여|서)도\s*(?:됩니다|되|돼|괜찮|무방|상관)|괜찮습니다|괜찮아요|안전합니다|안전해요|"
    r"문제(?:가)?\s*없|가능합니다|상관없"
)
# ingredient / product words recognisable without a name index (invented names have no index entry)
_DRUGLIKE = re.compile(
    r"[가-힣]{2,}(?:프로펜|페낙|피린|마이신|실린|세팜|프라졸|티딘|스타틴|사르탄|졸람|제팜|록센|코돈|펜틴|디핀|올롤|"
    r"아미노펜|캡슐|시럽)"
)
NOT_CLAIMS = ("전문가와 꼭 상담하세요", "에 관해 문서에 적힌 내용입니다")
SIMILAR = 0.3


def normalise(text: str) -> str:
    """The form numbers are compared in: lower case, no spaces or thousands commas, one spelling per unit."""
    t = text.lower()
    t = _NATIVE_RE.sub(lambda m: _NATIVE[m.group(1)] + m.group(2), t)
    t = re.sub(r"밀리그램|밀리그람", "mg", t)
    t = re.sub(r"마이크로그램|마이크로그람", "mcg", t)
    t = re.sub(r"밀리리터|㎖", "ml", t)
    t = t.replace("㎎", "mg").replace("퍼센트", "%").replace("하루", "1일")
    t = re.sub(r"(?<![가-힣])일일", "1일", t)
    t = re.sub(r"(?<=\d)(?<!\d,)\s*,\s*(?=\d{3}(?!\d))", "", t)
    t = re.sub(r"\s+", "", t)
    t = re.sub(r"(?<=\d)그램", "g", t)
    t = re.sub(r"(?<=\d)살", "세", t)
    t = re.sub(r"(?<=\d)번", "회", t)
    t = re.sub(r"(?<=\d)알", "정", t)
    return t


def quantities(text: str) -> list[str]:
    """Every number with its unit, normalised (a range 1~2정 gives 1정, 2정 and 1~2정)."""
    out = []
    for m in _QTY.finditer(normalise(text)):
        lo, hi, unit = m.groups()
        out.append(f"{lo}{unit}")
        if hi:
            out.append(f"{hi}{unit}")
    return list(dict.fromkeys(out))


def has_quantity(token: str, normalised_text: str) -> bool:
    found = re.search(rf"(?<![\d/])(?<!\d\.){re.escape(token)}", normalised_text) is not None
    return found or _in_range(token, normalised_text)


def _value(number: str) -> float:
    top, _, bottom = number.partition("/")
    return float(top) / float(bottom) if bottom and float(bottom) else float(top)


def _in_range(token: str, text: str) -> bool:
    """The token's value lies inside a range of the text with the same unit (1~3정 holds 2정; 1/2~1정 holds 1/2정)."""
    m = re.fullmatch(rf"({_NUM})(.+)", token)
    if not m:
        return False
    value = _value(m.group(1))
    for r in re.finditer(rf"(?<![\d/])(?<!\d\.)({_NUM})(?:~|-|내지)({_NUM}){re.escape(m.group(2))}", text):
        lo, hi = sorted((_value(r.group(1)), _value(r.group(2))))
        if lo <= value <= hi:
            return True
    return False


def permits(sentence: str) -> bool:
    return bool(_PERMIT.search(sentence)) and not _PROHIBIT.search(sentence)


def forbids(sentence: str) -> bool:
    return bool(_PROHIBIT.search(sentence)) and not _PERMIT.search(sentence)


@dataclass
class Grounded:
    """The checked answer, the sentences removed (each with ``sentence``, ``reason``) and how many were checked."""

    answer: str
    removed: list[dict] = field(default_factory=list)
    checked: int = 0
    kept_cited: int = 0

    def to_dict(self) -> dict:
        return {"checked": self.checked, "removed": self.removed, "kept_cited": self.kept_cited}


def split_units(line: str) -> list[str]:
    """A line cut into sentences, each keeping the ``[문서 N]`` markers that follow it."""
    units, start = [], 0
    for m in _SENT_END.finditer(line):
        if m.start() < start:
            continue
        end = m.end()
        tail = _CITES_AFTER.match(line, end)
        if tail:
            end = tail.end()
        units.append(line[start:end].strip())
        start = end
    rest = line[start:].strip()
    if rest:
        if CITE.fullmatch(rest) and units:
            units[-1] = f"{units[-1]} {rest}"
        else:
            units.append(rest)
    return [u for u in units if u]


def cited_numbers(unit: str) -> list[int]:
    return cite_numbers(unit)


def _doc_text(doc) -> str:
    meta = doc.metadata
    extra = " ".join(str(meta.get(k, "")) for k in ("item_name", "main_ingr", "ingredient", "partner"))
    return f"{doc.text}\n{extra}"


@functools.lru_cache(maxsize=2048)
def _document_forms(raw: str, text: str) -> tuple[str, str, tuple[str, ...]]:
    """One document's text (`raw`: with its names) normalised and squashed, and its sentences (of `text`):
    remembered, as the same leaflets are checked answer after answer."""
    sentences = tuple(s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip())
    return normalise(raw), squash(raw), sentences


class _Support:
    """The documents' texts in the forms the checks compare in, cached per document."""

    def __init__(self, docs, user_text: str):
        forms = [_document_forms(_doc_text(d), d.text) for d in docs]
        self.norm = [f[0] for f in forms]
        self.squashed = [f[1] for f in forms]
        self.sentences = [f[2] for f in forms]
        self.user_norm = normalise(user_text)
        self.user_squashed = squash(user_text)

    def number_ok(self, token: str, ids: list[int]) -> bool:
        return has_quantity(token, self.user_norm) or any(has_quantity(token, self.norm[i]) for i in ids)

    def name_ok(self, key: str, ids: list[int]) -> bool:
        key = squash(key)
        return key in self.user_squashed or any(key in self.squashed[i] for i in ids)


def unsupported(unit: str, ids: list[int], n_docs: int, support: _Support, names=None) -> str:
    """Why the sentence is not supported by documents `ids` (0-based), or "" when it is."""
    bad = [n for n in cited_numbers(unit) if not 1 <= n <= n_docs]
    if bad:
        return f"cites [문서 {bad[0]}], which was not given"
    body = CITE.sub("", unit)
    for token in quantities(body):
        if not support.number_ok(token, ids):
            return f"the number {token} is not in the cited documents"
    keys = list(names.match(body, readings=False).keys) if names is not None else []  # names as written
    keys += _DRUGLIKE.findall(body) + product_like(body, names)  # names as the corpus writes them, not fragments
    for key in dict.fromkeys(keys):
        if not support.name_ok(key, ids):
            return f"the name {key} is not in the cited documents"
    if permits(body):
        grams = bigrams(body)
        slots = [asks + says for asks, says in SLOTS.values() if any(w in body for w in asks + says)]
        for i in ids:
            for s in support.sentences[i]:
                if not forbids(s):
                    continue
                overlap = len(grams & bigrams(s)) / len(grams) if grams else 0.0
                if overlap >= SIMILAR or any(w in s for words in slots for w in words):
                    return f"it permits what the cited document forbids: {s.strip()[:80]}"
    return ""


def which_check(reason: str) -> str:
    """The test a removal's reason comes from: ``citation``, ``number``, ``name`` or ``permits`` (the trace's word).

    >>> which_check("the name 자멘clinical정 is not in the cited documents")
    'name'
    """
    for prefix, name in (("cites", "citation"), ("the number", "number"), ("the name", "name")):
        if reason.startswith(prefix):
            return name
    return "permits"


def check(answer: str, docs: list, user_text: str = "", names=None) -> Grounded:
    """Remove every sentence the documents it cites do not support.

    Args:
        answer: the answer as generated (lines, ``[문서 N]`` markers, notices).
        docs: the documents given to the generator, in ``[문서 N]`` order.
        user_text: what the user wrote (question, profile): its numbers and names count as supported.
        names: a `retrievers.names.NameIndex` (the backend's) to recognise drug and ingredient names, or None.
    """
    support = _Support(docs, user_text)
    n_docs = len(docs)
    out = Grounded(answer)
    lines = []
    for line in answer.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith("※"):
            lines.append(line)
            continue
        units = split_units(stripped)
        own = [cited_numbers(u) for u in units]
        kept = []
        for j, unit in enumerate(units):
            nums = own[j] or next((c for c in own[j + 1 :] if c), None) or next((c for c in own[:j][::-1] if c), [])
            valid = [n - 1 for n in nums if 1 <= n <= n_docs]
            ids = valid or list(range(n_docs))
            if CITE.sub("", unit).strip() in ("", ".") or (any(m in unit for m in NOT_CLAIMS) and not own[j]):
                kept.append(unit)
                continue
            out.checked += 1
            reason = unsupported(unit, ids, n_docs, support, names)
            if reason:
                out.removed.append({"sentence": unit, "reason": reason, "check": which_check(reason)})
            else:
                kept.append(unit)
                out.kept_cited += bool(valid)
        if kept:
            lines.append(" ".join(kept))
    out.answer = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return out
