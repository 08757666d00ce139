"""Words of an answer that read as a product's name, whether or not the corpus knows them: the grounding check
(programs/grounding.py) needs each to be in the documents the sentence cites, so a mangled or invented name
(자멘clinical정, 자멘쏙콜드정) is caught, not passed because a fragment of it (자멘, 자멘쏙) is a known name.

A word reads as a product's name when

* it mixes Korean with a run of three or more Latin letters (자멘clinical정: a name half transliterated);
* it ends in a dosage form the corpus's product names end in (정, 캡슐, 시럽, 연고, 점안액 …; `DOSAGE_FORMS` of two
  syllables or more, and 정) after two syllables or more that begin some product name of the corpus (`names`, the
  index's `NameIndex`): 자멘… begins 자멘쏙정, so 자멘콜드정 reads as a name; 불안정 or 일정 do not.

Example:
    >>> product_like("자멘clinical정은 잠이 안 올 때 먹습니다.")
    ['자멘clinical정']
    >>> product_like("1일 1정, 불안정한 경우에는 상의하십시오.")
    []
"""

from __future__ import annotations

import functools
import re

from retrievers.names import DOSAGE_FORMS

FORMS = tuple(f for f in DOSAGE_FORMS if len(f) >= 2 or f == "정")  # 산, 액, 환 end too many words (위산, 혈액)
_WORD = re.compile(r"[가-힣A-Za-z0-9]+")
_JOSA = re.compile(r"(?:이랑|랑|하고|이나|에서|으로|로|은|는|이|가|을|를|과|와|도|만|에|의)$")
_MIXED = re.compile(r"[가-힣][A-Za-z]{3,}|[A-Za-z]{3,}[가-힣]")
_HANGUL = re.compile(r"[가-힣]")


@functools.lru_cache(maxsize=4)
def _starts(names) -> frozenset[str]:
    """The first two characters of every product name key of `names`."""
    return frozenset(k[:2] for k in names.products if len(k) >= 2)


def _form_named(word: str, names) -> bool:
    form = next((f for f in FORMS if word.endswith(f)), "")
    stem = word[: -len(form)] if form else ""
    return len(_HANGUL.findall(stem)) >= 2 and stem[:2] in _starts(names)


def strip_particle(word: str) -> str:
    """A word without the particle it ends in (타이레놀을 -> 타이레놀); words of two characters or fewer as they are.

    >>> strip_particle("타이레놀을"), strip_particle("임신")
    ('타이레놀', '임신')
    """
    return _JOSA.sub("", word) if len(word) > 2 else word


def product_like(text: str, names=None) -> list[str]:
    """The words of `text` that read as a product's name (see the module docstring), particles stripped; without
    `names` only the mixed-script ones."""
    out = []
    for token in _WORD.findall(text):
        word = strip_particle(token)
        mixed = len(_HANGUL.findall(word)) >= 2 and _MIXED.search(word)
        if mixed or (names is not None and _form_named(word, names)):
            out.append(word)
    return list(dict.fromkeys(out))
