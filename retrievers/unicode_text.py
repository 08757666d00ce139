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


def normalise(text: str) -> str:
    """`text` in NFC with every format character (Unicode category Cf: U+200B-U+200F, U+2060, U+FEFF, U+00AD, the
    bidirectional marks …) removed. Idempotent."""
    composed = unicodedata.normalize("NFC", text)
    if composed.isascii():
        return composed
    return "".join(c for c in composed if unicodedata.category(c) != "Cf")
