"""Every span of a text that is one of a set of keys, found by walking each start only as far as some key goes.

`NameIndex.match` reads names longest first: every span of 3+ characters that is a key, longest then leftmost.
Trying every length at every start costs (longest key) x (text length) look-ups — 58 x 200 for one answer sentence;
walking each start through the keys' prefixes stops as soon as no key continues, a few look-ups per start.

Example:
    >>> keys = KeySpans(["타이레놀", "타이레놀정", "이부프로펜"])
    >>> keys.spans("타이레놀정이랑이부프로펜")
    [(0, 5), (7, 5), (0, 4)]
"""

from __future__ import annotations

from collections.abc import Iterable


class KeySpans:
    """A set of keys and all their prefixes."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = frozenset(keys)
        self.prefixes = frozenset(k[:i] for k in self.keys for i in range(1, len(k) + 1))

    def spans(self, text: str, shortest: int = 3) -> list[tuple[int, int]]:
        """(start, length) of every span of `text` of `shortest`+ characters that is a key, longest first, then
        leftmost: the order in which trying every length from the longest down, each from the left, meets them."""
        out = []
        n = len(text)
        for start in range(n):
            end = start + 1
            while end <= n and text[start:end] in self.prefixes:
                if end - start >= shortest and text[start:end] in self.keys:
                    out.append((start, end - start))
                end += 1
        out.sort(key=lambda span: (-span[1], span[0]))
        return out
