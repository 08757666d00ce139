"""Match keys of product and ingredient names: lower-cased, space-free, without strengths, dosage forms, variants,
house brands or salts, so that 게보린 finds 게보린정 and 세티리진 finds 세티리진염산염.

Example:
    >>> sorted(ingredient_keys("세티리진염산염"))
    ['세티리진', '세티리진염산염']
    >>> shortest_key({"세티리진염산염", "세티리진"})
    '세티리진'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from retrievers.corpus import clean_product_name
from retrievers.name_words import (
    COUNTER_ION_PREFIXES,
    DOSAGE_FORMS,
    HOUSE_PREFIXES,
    INGREDIENT_FORMS,
    INORGANIC_ANIONS,
    METALS,
    MINERAL_BASES,
    SALT_SUFFIXES,
    SPELLING_VARIANTS,
    STOP_KEYS,
    VARIANT_SUFFIXES,
)
from retrievers.sound_alike import sound_alike

_SAME_TRANSLITERATION = str.maketrans({"즈": "스", "트": "드", "타": "다"})
STRENGTH = re.compile(r"\d[\d.,]*\s*(밀리그램|밀리그람|마이크로그램|그램|mg|g|ml|%|iu|단위)", re.IGNORECASE)
_NON_WORD = re.compile(r"[\s\-·,./+&()\[\]'\"]+")


def squash(text: str) -> str:
    """Lower-case and drop whitespace and punctuation: the form both names and queries are matched in."""
    return _NON_WORD.sub("", text).lower()


_WORD_BREAK = re.compile(r"[\s()\[\]{}<>/,|]+")  # what parts a question's words: spaces, brackets, slashes, commas


def written_words(text: str) -> list[str]:
    """The words of `text` as written, brackets, slashes and commas parting them as spaces do (인공눈물(눈앤점안액)
    names 눈앤점안액 as a word of its own).

    >>> written_words("인공눈물(눈앤점안액) 넣으면"), written_words("게보린/펜잘, 뭐가 나아요")
    (['인공눈물', '눈앤점안액', '넣으면'], ['게보린', '펜잘', '뭐가', '나아요'])
    """
    return [w for w in _WORD_BREAK.split(text) if w]


def strip_suffix(word: str, suffixes: Iterable[str], min_left: int = 2) -> str:
    for suf in suffixes:
        if word.endswith(suf) and len(word) - len(suf) >= min_left:
            return word[: -len(suf)]
    return word


KIND_ENDING = "약"  # a house brand before a kind of medicine (그린 + 관장약): the kind alone names no one product


def product_keys(item_name: str, company: str = "") -> set[str]:
    """Match keys for one product name: the cleaned name, without strengths, without dosage form, without variant,
    and without a leading house brand taken from the company name (대웅우루사 -> 우루사, 솔표위청수 -> 위청수), unless
    what is left is a word for a kind of medicine (그린관장약 -> 관장약, which names every enema, not this one).

    >>> sorted(product_keys("그린관장약(농글리세린)", "녹십자"))
    ['그린관장약']
    """
    base = clean_product_name(item_name.split("\n")[0])
    keys = {squash(base)}
    no_strength = squash(STRENGTH.sub("", base))
    keys.add(no_strength)
    stem = strip_suffix(no_strength, DOSAGE_FORMS)
    keys.add(stem)
    keys.add(strip_suffix(stem, VARIANT_SUFFIXES))
    house = squash(re.sub(r"\(.*?\)|㈜|주식회사|제약|약품|헬스케어|바이오", "", company))[:2]
    for prefix in sorted({house, *HOUSE_PREFIXES}):  # sorted: the keys must not depend on the hash seed
        for key in sorted(keys):
            if prefix and key.startswith(prefix) and len(key) - len(prefix) >= 3 and not key.endswith(KIND_ENDING):
                keys.add(key[len(prefix) :])
    return {k for k in keys if len(k) >= 2 and k not in STOP_KEYS}


def name_stem(item_name: str) -> str:
    """A product's name without strength and dosage form, its variant kept: the name a question writes for this
    product and for no sibling (화이투벤큐연질캡슐 → 화이투벤큐; 화이투벤큐플러스연질캡슐 → 화이투벤큐플러스).

    >>> name_stem("화이투벤큐플러스연질캡슐"), name_stem("화이투벤큐연질캡슐"), name_stem("써스펜나이트정")
    ('화이투벤큐플러스', '화이투벤큐', '써스펜나이트')
    """
    base = squash(STRENGTH.sub("", clean_product_name(item_name.split("\n")[0])))
    return strip_suffix(base, DOSAGE_FORMS)


def ingredient_keys(name: str) -> set[str]:
    """Match keys for one ingredient: 'dl-메틸에페드린염산염' -> {'dl메틸에페드린염산염', '메틸에페드린'},
    '폴리크레줄렌액50%' -> {..., '폴리크레줄렌'}, '폴리사카리드철착염' -> {..., '폴리사카리드철'}."""
    word = squash(re.sub(r"\(.*?\)", "", name))
    word = re.sub(r"^(dl|d|l)(?=[가-힣])", "", word)
    keys = {word}
    word = re.sub(r"\d[\d.,]*%?$", "", word)  # a concentration written into the name (폴리크레줄렌액50%)
    keys.add(word)
    acid = next((a for a in COUNTER_ION_PREFIXES if word.startswith(a)), "")  # named first (말레인산페니라민)
    base = re.sub(r"^(dl|d|l)(?=[가-힣])", "", word[len(acid) :])  # L-아스파르트산-L-오르니틴
    if acid and len(base) >= 3 and not base.startswith(MINERAL_BASES):
        keys.add(strip_suffix(word, INGREDIENT_FORMS, min_left=3))  # as written (글루콘산클로르헥시딘)
        keys.add(acid + base)  # 아스파르트산오르니틴
        word = base
        keys.add(word)
    for _ in range(2):  # a salt and its hydrate (록소프로펜나트륨수화물), an ester (트리암시놀론아세토니드)
        stripped = strip_suffix(word, SALT_SUFFIXES)
        if stripped in INORGANIC_ANIONS and word[len(stripped) :].startswith(METALS):
            break  # 탄산칼슘 is not 탄산
        word = stripped
        keys.add(word)
    keys.add(strip_suffix(word, INGREDIENT_FORMS, min_left=3))
    return {k for k in keys if len(k) >= 2 and k not in STOP_KEYS}


@lru_cache(maxsize=1 << 16)  # the corpus's ingredient names recur in every product and DUR row that lists them
def ingredient_key(name: str) -> str:
    """An ingredient's key without a dictionary (its shortest match key; "" when it has none);
    `NameIndex.canonical` maps it onto the key the corpus's dictionary chose."""
    keys = ingredient_keys(name) if name.strip() else set()
    return shortest_key(keys) if keys else ""


def spelling_variants(keys: Iterable[str]) -> set[str]:
    """The keys as people also spell them (`SPELLING_VARIANTS`), the corpus's own keys excluded."""
    keys = set(keys)
    out = set()
    for key in keys:
        for corpus, common in SPELLING_VARIANTS:
            if corpus in key:
                out.add(key.replace(corpus, common))
    return out - keys


def transliteration(key: str) -> str:
    """A key as it sounds, for spellings of one ingredient name: vowels that sound alike (`sound_alike`) and the
    voiced and unvoiced consonants that transliterations swap (즈/스, 드/트, 다/타) made one."""
    return sound_alike(key).translate(_SAME_TRANSLITERATION)


def shortest_key(keys: Iterable[str]) -> str:
    """The canonical key of a name: the shortest, ties broken by the text (never by set order)."""
    return min(keys, key=lambda k: (len(k), k))
