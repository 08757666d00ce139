"""The noun Korean makes of a verb or adjective stem with ㅁ (쓰리 → 쓰림, 가렵 → 가려움): how leaflets write what
people say with a verb (속이 쓰려요 → 속쓰림)."""

from __future__ import annotations


def nominal(stem: str) -> str:
    """The ㅁ-noun of a Korean stem: 쓰리 → 쓰림, 졸리 → 졸림, 가렵 → 가려움 (ㅂ-irregular); "" for other endings.

    >>> nominal("쓰리"), nominal("가렵"), nominal("두통")
    ('쓰림', '가려움', '')
    """
    last = ord(stem[-1]) - 0xAC00
    if not 0 <= last < 11172:
        return ""
    final = last % 28
    if final == 0:
        return stem[:-1] + chr(0xAC00 + last + 16)  # + ㅁ
    if final == 17:
        return stem[:-1] + chr(0xAC00 + last - 17) + "움"  # ㅂ → 움
    return ""
