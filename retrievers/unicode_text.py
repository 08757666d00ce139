"""Text as people's devices send it, made one form: Hangul composed (NFC) and invisible characters removed.

Some keyboards and macOS file names send Hangul decomposed into jamo (NFD: 게 as ᄀ + ᅦ), and text pasted from web
pages or messengers carries zero-width spaces, joiners, byte-order marks, soft hyphens and direction marks inside
words. Neither is visible, both break exact matching (a product name, a Kiwi morpheme, a BM25 token). Every entry
point applies `normalise` once: the CLI and HTTP edge (`yaksa/text_input.py`) and the program's own question cleaning
(`programs/question.py`) for apps that call it from Python.

Example:
    >>> import unicodedata
    >>> normalise(unicodedata.normalize("NFD", "게보린 부작용")) == "게보린 부작용"
    True
    >>> normalise("게\\u200b보린\\ufeff")
    '게보린'
"""

from __future__ import annotations

import unicodedata

# the middle dots the leaflets write between two words (영·유아, 영ㆍ유아, 영‧유아 …): U+00B7 and its look-alikes
MIDDLE_DOTS = "\u00b7\u0387\u318d\u2027\u2024\u2219\u22c5\u30fb\uff65\u2022"
# 영유아 as the leaflets write it, with or without one of `MIDDLE_DOTS` (or a period) between, as a regex
INFANTS = f"영[{MIDDLE_DOTS}.]?유아"


def normalise(text: str) -> str:
    """`text` in NFC with every format character (Unicode category Cf: U+200B-U+200F, U+2060, U+FEFF, U+00AD, the
    bidirectional marks …) removed. Idempotent."""
    composed = unicodedata.normalize("NFC", text)
    if composed.isascii():
        return composed
    return "".join(c for c in composed if unicodedata.category(c) != "Cf")
