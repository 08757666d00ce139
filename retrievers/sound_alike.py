"""Spellings that sound alike: the vowels people mix up when they write a drug name from memory.

ㅐ and ㅔ (and ㅒ/ㅖ, ㅙ/ㅚ/ㅞ) are pronounced the same in today's Korean, so people write 타이래놀 and 부루팬
for 타이레놀 and 부루펜. `sound_alike` maps every syllable to one representative of its group,
keeping the length, so a name and its misspelling get the same key and positions in the text stay aligned.

Example:
    >>> sound_alike("타이래놀 콜드")
    '타이레놀 콜드'
    >>> sound_alike("부루팬") == sound_alike("부루펜")
    True
    >>> sound_alike("왜 외 웨")
    '웨 웨 웨'
"""

from __future__ import annotations

_FIRST, _LAST = 0xAC00, 0xD7A3
_MEDIALS = 21
_FINALS = 28
# medial vowel index -> the representative of its sound group: ㅐ->ㅔ, ㅒ->ㅖ, ㅙ/ㅚ->ㅞ
_SAME_SOUND = {1: 5, 3: 7, 10: 15, 11: 15}


def _syllable(ch: str) -> str:
    code = ord(ch)
    if not _FIRST <= code <= _LAST:
        return ch
    offset = code - _FIRST
    initial, rest = divmod(offset, _MEDIALS * _FINALS)
    medial, final = divmod(rest, _FINALS)
    medial = _SAME_SOUND.get(medial, medial)
    return chr(_FIRST + (initial * _MEDIALS + medial) * _FINALS + final)


def sound_alike(text: str) -> str:
    """`text` with every Hangul syllable's vowel replaced by its sound group's representative (same length)."""
    return "".join(_syllable(ch) for ch in text)


# ㅎ with a w-vowel as older brands write an f (훼스탈 Festal, 화이투벤, 훼로바): the vowel without its w, after ㅍ, as
# people write the f today (페스탈, 파이투벤); medial index -> the plain vowel (ㅘ→ㅏ, ㅞ→ㅔ, ㅝ→ㅓ, ㅟ→ㅣ)
_F_VOWELS = {9: 0, 15: 5, 14: 4, 16: 20}
_H, _P = 18, 17  # initial consonant indices of ㅎ and ㅍ


def _f_syllable(ch: str) -> str:
    code = ord(ch)
    if not _FIRST <= code <= _LAST:
        return ch
    initial, rest = divmod(code - _FIRST, _MEDIALS * _FINALS)
    medial, final = divmod(rest, _FINALS)
    if initial != _H or medial not in _F_VOWELS:
        return ch
    return chr(_FIRST + (_P * _MEDIALS + _F_VOWELS[medial]) * _FINALS + final)


def spoken_alike(text: str) -> str:
    """`sound_alike`, with an f written the old way (훼, 화, 휘) read as it is written today (페, 파, 피): how a brand
    name written from memory is heard (same length).

    >>> spoken_alike("훼스탈") == spoken_alike("페스탈"), spoken_alike("화이투벤") == spoken_alike("파이투벤")
    (True, True)
    >>> spoken_alike("후시딘")  # 후 has no w-vowel: it stays
    '후시딘'
    """
    return "".join(_f_syllable(ch) for ch in sound_alike(text))
