"""Gold answer phrases: does a text contain one of the short leaflet or DUR substrings that answer a question?

The leaflets write the same sentence with different invisible or look-alike characters: a no-break space (U+00A0)
where an answer may have a space or a line break, and a middle dot as U+00B7, U+0387 (Greek ano teleia), U+318D
(ㆍ) and a few more. Both sides are compared after `normalise`: every whitespace character and zero-width space
removed, every middle-dot look-alike made U+00B7. The DUR texts are written without spaces
(`약의부서진조각을만지는경우`), so dropping all whitespace is also what lets a spaced quote of them match.

Example:
    >>> quotes_phrase("운전\\u00a0및 기계조작 시\\n주의하십시오. [문서 1]", ["운전 및 기계조작 시 주의하십시오"])
    True
    >>> quotes_phrase("효능\\u0387효과", ["효능·효과"]), quotes_phrase("효능", [])
    (True, False)
"""

from __future__ import annotations

from retrievers.unicode_text import MIDDLE_DOTS  # all read as U+00B7 (·)

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
_TABLE = str.maketrans({**{c: "\u00b7" for c in MIDDLE_DOTS}, **{c: "" for c in ZERO_WIDTH}})


def normalise(text: str) -> str:
    """`text` without whitespace (no-break spaces included) or zero-width characters, middle dots made U+00B7.

    >>> normalise("이 약은\\u00a0식후ㆍ취침 전\\u200b")
    '이약은식후·취침전'
    """
    return "".join(text.translate(_TABLE).split())


def quotes_phrase(text: str, phrases: list[str]) -> bool:
    """Whether `text` contains any of `phrases` once both are normalised (False without phrases)."""
    flat = normalise(text)
    return any(n and n in flat for n in map(normalise, phrases))


def phrase_in_any(texts: list[str], phrases: list[str]) -> bool:
    """Whether any of `texts` contains any of `phrases` (each text on its own: a phrase never spans two texts).

    >>> phrase_in_any(["타이레놀정", "임부 또는 임신하고 있을\\u00a0가능성"], ["임신하고 있을 가능성"])
    True
    """
    return any(quotes_phrase(t, phrases) for t in texts)
