"""KeySpans finds the spans the longest-first scan over every length and start finds, in the same order."""

import random

from retrievers.key_spans import KeySpans


def every_length(text: str, keys: set[str], shortest: int = 3) -> list[tuple[int, int]]:
    longest = max(map(len, keys))
    return [
        (start, length)
        for length in range(min(longest, len(text)), shortest - 1, -1)
        for start in range(len(text) - length + 1)
        if text[start : start + length] in keys
    ]


def test_same_spans_and_order_as_trying_every_length():
    rng = random.Random(7)
    alphabet = "타이레놀정부루펜"
    keys = {"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 7))) for _ in range(60)}
    index = KeySpans(keys)
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert index.spans(text) == every_length(text, keys)


def test_nested_and_overlapping_keys():
    index = KeySpans(["타이레놀", "타이레놀정", "레놀정5"])
    assert index.spans("어린이타이레놀정500") == [(3, 5), (3, 4), (5, 4)]
    assert index.spans("") == [] and index.spans("타이") == []
