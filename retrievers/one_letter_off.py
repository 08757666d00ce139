"""Spellings one letter off: a name written from memory with one consonant or vowel of one syllable wrong.

마데카졸 for 마데카솔, 클래리틴 for 클라리틴, 뉴브이로또 for 뉴브이로토: one initial consonant or vowel of one
syllable differs, which a syllable-level likeness cannot tell from a wholly different syllable. `PrefixSpellings`
finds, for a word, the beginnings of names written that way; the caller reads the word as one only when exactly one
spelling is found.

Example:
    >>> one_letter_off("마데카졸", "마데카솔"), one_letter_off("클래리틴", "클라리틴")
    (True, True)
    >>> one_letter_off("마데카", "마데카")  # the same
    False
    >>> one_letter_off("마데카졸", "마데카빈")  # a whole syllable apart
    False
    >>> PrefixSpellings(["뉴브이로토이엑스", "뉴브이로토이엑스점안액", "마데카솔케어"]).of("뉴브이로또")
    {'뉴브이로토'}
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

_FIRST, _LAST = 0xAC00, 0xD7A3
# initial consonants people swap for one another (index order ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ): plain, tense and
# aspirated of one place (ㄱㄲㅋ, ㄷㄸㅌ, ㅂㅃㅍ, ㅅㅆㅈㅉㅊ), ㅁ and ㅂ, ㄴ and ㄹ, ㅇ and ㅎ: not ㅁ and ㅍ
# (데파코트, a prescription valproate, is no 데마코트, a steroid cream)
_INITIALS_ALIKE = ({0, 1, 15}, {3, 4, 16}, {7, 8, 17}, {6, 7}, {9, 10, 12, 13, 14}, {2, 5}, {11, 18})
# vowels of one stroke family (ㅏㅐㅑㅒ, ㅓㅔㅕㅖ, ㅗ…, ㅜ…, ㅡㅢㅣ), and ㅐ/ㅔ, ㅒ/ㅖ that sound the same
_VOWELS_ALIKE = ({0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11, 12}, {13, 14, 15, 16, 17}, {18, 19, 20}, {1, 5}, {3, 7})


def _jamo(ch: str) -> tuple[int, int, int] | None:
    """(initial, vowel, final) of a Hangul syllable, or None for any other character."""
    code = ord(ch)
    if not _FIRST <= code <= _LAST:
        return None
    initial, rest = divmod(code - _FIRST, 21 * 28)
    return (initial, *divmod(rest, 28))


def one_letter_off(word: str, name: str) -> bool:
    """Whether `word` and `name` (same length) differ in exactly one jamo of one Hangul syllable, its initial
    consonant or its vowel, and the two are ones people swap (ㅈ/ㅅ, ㄸ/ㅌ, ㅐ/ㅏ): a final consonant apart, or two
    unlike letters, is another word too often (멜라토닌 is no 멜라토닝크림, 비타민디 no 비타민씨).

    >>> one_letter_off("멜라토닌", "멜라토닝"), one_letter_off("비타민디", "비타민씨")
    (False, False)
    """
    if len(word) != len(name):
        return False
    apart = [(a, b) for a, b in zip(word, name, strict=True) if a != b]
    if len(apart) != 1:
        return False
    a, b = (_jamo(c) for c in apart[0])
    if a is None or b is None or a[2] != b[2]:
        return False
    if a[1] == b[1]:
        return any({a[0], b[0]} <= group for group in _INITIALS_ALIKE)
    return a[0] == b[0] and any({a[1], b[1]} <= group for group in _VOWELS_ALIKE)


class PrefixSpellings:
    """The beginnings of `names` one letter off a word of the same length, found through the word with each of its
    syllables left out (built per length on first use)."""

    def __init__(self, names: Iterable[str]) -> None:
        self._names = sorted(set(names))
        self._by_length: dict[int, dict[tuple[int, str], set[str]]] = {}

    def _buckets(self, length: int) -> dict[tuple[int, str], set[str]]:
        if length not in self._by_length:
            buckets: dict[tuple[int, str], set[str]] = defaultdict(set)
            for prefix in {n[:length] for n in self._names if len(n) >= length}:
                for i in range(length):
                    buckets[(i, prefix[:i] + prefix[i + 1 :])].add(prefix)
            self._by_length[length] = dict(buckets)
        return self._by_length[length]

    def of(self, word: str) -> set[str]:
        """The name beginnings (as long as `word`) one letter off it."""
        buckets = self._buckets(len(word))
        found: set[str] = set()
        for i in range(len(word)):
            found |= {p for p in buckets.get((i, word[:i] + word[i + 1 :]), ()) if one_letter_off(word, p)}
        return found
