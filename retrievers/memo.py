"""A bounded memo shared by the per-text caches of retrieval (names, rule matches, Kiwi analyses, readings)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


def remembered(memo: dict, key: Hashable, make: Callable[[], T], limit: int) -> T:
    """`memo[key]`, made by `make()` and kept when absent; a memo holding `limit` entries is emptied first. The
    value is held in a local, so another thread clearing the memo in between cannot break the read.

    >>> memo = {}
    >>> remembered(memo, "a", lambda: 1, 2), remembered(memo, "a", lambda: 2, 2), memo
    (1, 1, {'a': 1})
    """
    value = memo.get(key)
    if value is None:
        value = make()
        if len(memo) >= limit:
            memo.clear()
        memo[key] = value
    return value
