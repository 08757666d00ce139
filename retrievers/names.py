"""Recognise product and ingredient names in a question, tolerant of spacing, dosage forms and salts.

People write 게보린 for 게보린정, 타이레놀 이알 for 타이레놀8시간이알서방정, 세티리진 for 세티리진염산염.
The dictionary maps normalised name keys (no spaces, no strengths, no dosage-form or salt suffix) to the
products and DUR ingredients they denote; `match` scans the space-stripped query for the longest keys. The keys are
made in `name_keys`, from the word lists of `name_words`; the dosage-form helpers live in `form_kinds`.

Example:
    >>> from retrievers.documents import Document
    >>> meta = {"item_name": "게보린정", "item_seq": "197900277", "main_ingr": "아세트아미노펜,카페인무수물"}
    >>> names = NameIndex.from_documents([Document("easydrug:197900277:se", "게보린정 ...", meta)])
    >>> names.match("게보린 먹고 속쓰려요").products
    {'197900277'}
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from retrievers.corpus import clean_product_name
from retrievers.documents import Document
from retrievers.form_kinds import external_form, question_forms, taken_by_mouth
from retrievers.key_spans import KeySpans
from retrievers.memo import remembered
from retrievers.name_keys import (
    ingredient_key,
    ingredient_keys,
    product_keys,
    shortest_key,
    spelling_variants,
    squash,
    strip_suffix,
    transliteration,
    written_words,
)
from retrievers.name_words import DOSAGE_FORMS, MEDICINE_NOUNS, QUESTION_FORMS, STOP_KEYS
from retrievers.one_letter_off import PrefixSpellings
from retrievers.sound_alike import spoken_alike
from retrievers.supplements import supplement_word

__all__ = [  # the key, word-list and dosage-form helpers are re-exported: callers import them from here
    "CLOSE_RATIO",
    "DOSAGE_FORMS",
    "NAMES_VERSION",
    "QUESTION_FORMS",
    "NameIndex",
    "NameMatch",
    "external_form",
    "ingredient_key",
    "ingredient_keys",
    "load_names",
    "product_keys",
    "question_forms",
    "save_names",
    "shortest_key",
    "spelling_variants",
    "squash",
    "taken_by_mouth",
    "transliteration",
]

HANGUL_WORD = re.compile(r"[가-힣]+")  # a word read inside names: Hangul only (not 005%, not a strength)
INSIDE_MIN = 4  # a word read inside a name (뉴브이로토 ← 브이로토): shorter pieces are inside too many names
SHORT_PREFIX_PRODUCTS = 4  # products a two-syllable word no dictionary knows may begin the names of (탄툼: 2)
INSIDE_MAX = 6  # keys a word may be inside and still name their medicines
LETTER_OFF_MIN = 4  # a word read one letter off a name (마데카졸 → 마데카솔): shorter ones are too often other words
FORM_SUFFIXES = [f for f in DOSAGE_FORMS if len(f) > 1]  # a word ending in one (목스프레이) names a kind, not a product
CLOSE_RATIO = 0.8  # how alike (difflib ratio) a misspelt word and a name must be to read one as the other
# 2: salts written acid first and two spellings of one ingredient join their medicine's key; 3: a succinate written
# 석시네이트 (독시라민석시네이트) joins its medicine's key as 숙신산염 does; 4: an ingredient DUR names joins the
# leaflets' preparation of it (밀크시슬 → 밀크시슬열매); 5: a metal after an inorganic anion is kept (탄산칼슘 is not
# 탄산마그네슘); 6: 에어로졸, the leaflets' other spelling of 에어로솔, is a dosage form (로게인5%폼에어로졸 → 로게인폼)
# 7: a house brand before a kind of medicine is kept (그린관장약 has no key 관장약)
NAMES_VERSION = 7
# what a leaflet's preparation of an ingredient adds to its name: the plant part, the gel, the granule, the extract's
# solvent (밀크시슬열매, 수산화알루미늄겔, 세인트존스워트80%메탄올)
PREPARATION = re.compile(r"(?:열매|엽|뿌리|겔|원료과립|\d+%(?:메탄올|에탄올))")
# a particle or ending after a word (타이레놀이랑, 스프레이도, 점안액이요)
PARTICLE = re.compile(r"(이랑|랑|하고|이나|에서|으로|로|은|는|이|가|을|를|과|와|도|만|에|의|좀|요)$")


# one-syllable forms read only when written onto a brand of two syllables or more (벤작겔 → 벤작 + 겔; not a
# question's form word on its own, where 겔 and 젤 are too short to be sure of)
ATTACHED_GELS = ("겔", "젤")


def _attached_forms(words: list[str]) -> list[tuple[str, str]]:
    """(brand, form) for each word written with its form attached (세토펜이알, 부루펜시럽, 벤작겔): the form pair it
    makes.

    >>> _attached_forms(["세토펜이알", "쪼개도", "시럽", "벤작겔", "겔"])
    [('세토펜', '이알'), ('벤작', '겔')]
    """
    out = []
    for word in words:
        form = next((f for f in (*QUESTION_FORMS, *ATTACHED_GELS) if word.endswith(f) and len(word) - len(f) >= 2), "")
        if form:
            out.append((word[: -len(form)], form))
    return out


def _form_with_word(word: str) -> tuple[str, str]:
    """(the word before the form, the form as names hold it) for a word of two syllables or more written before a
    question's dosage form (스팟크림 → 스팟, 크림); ("", "") for none.

    >>> _form_with_word("스팟크림"), _form_with_word("크림"), _form_with_word("바르고")
    (('스팟', '크림'), ('', ''), ('', ''))
    """
    form = next((f for f in QUESTION_FORMS if word.endswith(f) and len(word) - len(f) >= 2), "")
    return (word[: -len(form)], QUESTION_FORMS[form]) if form else ("", "")


@dataclass
class NameMatch:
    """What `NameIndex.match` found: matched surface keys, product item_seqs and ingredient keys."""

    keys: list[str] = field(default_factory=list)
    products: set[str] = field(default_factory=set)
    ingredients: set[str] = field(default_factory=set)
    family: set[str] = field(default_factory=set)  # siblings of a named product: 겔포스 -> 겔포스엠, 겔포스엘
    heard: dict[str, str] = field(default_factory=dict)  # written with a same-sounding vowel -> key (부루팬 -> 부루펜)

    def __bool__(self) -> bool:
        return bool(self.keys)


# one-syllable forms, read only as a word of their own after a brand (벤작 겔): inside words they are too common
SPACED_FORMS = {"겔": "겔", "젤": "겔"}
# a condition named after an ingredient, as the leaflets write it (아스피린천식 또는 경험자, 아스피린 천식(…천식발작)):
# the asker's illness, no medicine taken
NAMED_CONDITIONS = re.compile(r"아스피린\s*천식")
FORMS_IN_NAMES = {"패취": ("tts",)}  # a form some names write otherwise: 니코틴엘TTS20 is a patch (transdermal system)
FORM_PAIR_PRODUCTS = 6  # products a brand word and a form word (미놀 트로키) may name together
EXTENSION_MIN = 20  # names holding a word after their start before it can be an extension word (플러스, 포르테)
EXTENSION_SHARE = 20  # ... and at least this many times as many as start with it
MATCH_MEMO = 4096  # texts whose names `NameIndex.match` remembers
CHILDREN_PREFIX = "어린이"  # a brand's children's edition: 어린이타이레놀, 어린이부루펜
COMBINATION_PREFIX = "복합"  # a combination sold under a brand: 복합써스펜좌약, 복합마데카솔연고


class NameIndex:
    """Dictionary of product and ingredient names built from the corpus."""

    def __init__(self) -> None:
        self.products: dict[str, set[str]] = defaultdict(set)  # key -> item_seqs
        self.ingredients: dict[str, str] = {}  # key -> canonical ingredient key
        self.ingredient_products: dict[str, set[str]] = defaultdict(set)  # canonical key -> item_seqs
        self.display: dict[str, str] = {}  # key -> a readable name (for the user dictionary)
        self.variants: set[str] = set()  # ingredient keys that are spelling variants, not the corpus's spelling
        self.max_len = 2
        self.version = NAMES_VERSION  # how the keys were made; open_searcher re-reads an index's older dictionary
        self._match_memo: dict = {}  # see match
        self._common_word: Callable[[str], bool] = lambda word: False  # see know_common_words
        self._unknown_word: Callable[[str], bool] = lambda word: False  # see know_unknown_words

    @classmethod
    def from_documents(cls, docs: Iterable[Document]) -> NameIndex:
        index = cls()
        for doc in docs:
            meta = doc.metadata
            if doc.source == "easydrug":
                for key in sorted(product_keys(meta.get("item_name", ""), meta.get("entp_name", ""))):
                    index.products[key].add(meta["item_seq"])
                    index.display.setdefault(key, clean_product_name(meta["item_name"]))
                for ingr in (meta.get("main_ingr") or "").split(","):
                    canon = index._add_ingredient(ingr)
                    if canon:
                        index.ingredient_products[canon].add(meta["item_seq"])
            elif doc.source == "dur":
                index._add_ingredient(meta.get("ingredient", ""))
                index._add_ingredient(meta.get("partner", ""))
        index.max_len = max((len(k) for k in [*index.products, *index.ingredients]), default=2)
        index._merge_spellings()
        index._merge_preparations()
        return index

    def _merge_preparations(self) -> None:
        """An ingredient DUR names with no leaflet of its own (밀크시슬, 세인트존스워트, 수산화알루미늄) joins the
        leaflets' preparation of it, written as it and a preparation word (밀크시슬열매건조엑스 → 밀크시슬열매,
        세인트존스워트80%메탄올엑스, 수산화알루미늄겔): a question naming the plant or the salt names those products.
        Another compound that starts the same (니코틴산 / 니코틴산아미드, 아미노벤조산 / 아미노벤조산에틸) is no
        preparation of it."""
        canons = set(self.ingredients.values())
        with_products = {c for c in canons if self.ingredient_products.get(c)}
        target = {}
        for c in canons - with_products:
            found = sorted(d for d in with_products if d.startswith(c) and PREPARATION.fullmatch(d[len(c) :]))
            if found:
                target[c] = found[0]
        self.ingredients = {key: target.get(canon, canon) for key, canon in self.ingredients.items()}
        for old, keep in target.items():
            self.ingredient_products[keep] |= self.ingredient_products.pop(old, set())

    def _merge_spellings(self) -> None:
        """One canonical key for an ingredient the corpus spells two ways (락툴로오즈/락툴로오스,
        밸라돈나/벨라돈나, 히드로탈시트/히드로탈시드): keys that read alike under `transliteration` join the
        spelling with the most products."""
        groups: dict[str, set[str]] = defaultdict(set)
        for canon in set(self.ingredients.values()):
            groups[transliteration(canon)].add(canon)
        target = {}
        for canons in groups.values():
            if len(canons) > 1:
                keep = min(canons, key=lambda c: (-len(self.ingredient_products.get(c, ())), c))
                target.update({c: keep for c in canons - {keep}})
        if not target:
            return
        self.ingredients = {key: target.get(canon, canon) for key, canon in self.ingredients.items()}
        for old, keep in target.items():
            self.ingredient_products[keep] |= self.ingredient_products.pop(old, set())

    def canonical(self, name: str) -> str:
        """The one key every part of yaksa uses for an ingredient written as `name` in the corpus or a question
        (세티리진염산염, 염산세티리진 and 세티리진 -> 세티리진); "" when `name` gives no key."""
        key = ingredient_key(name)
        return self.ingredients.get(key, key)

    def surface_keys(self, canon: str) -> list[str]:
        """The corpus's spellings of a canonical ingredient (its keys, spelling variants excluded), longest first."""
        if not hasattr(self, "_surface"):
            surface: dict[str, set[str]] = defaultdict(set)
            for key, c in self.ingredients.items():
                surface[c].add(key)
            self._surface = surface
        return sorted(self._surface.get(canon, ()) - self.variants, key=lambda k: (-len(k), k))

    def _add_ingredient(self, name: str) -> str:
        canon = self.canonical(name)
        if not canon:
            return ""
        keys = ingredient_keys(name.strip())
        for key in sorted(keys):
            self.ingredients.setdefault(key, canon)
            self.display.setdefault(key, name.strip())
        for key in sorted(spelling_variants(keys)):
            if key not in self.ingredients:
                self.ingredients[key] = canon
                self.variants.add(key)
        return canon

    def match(self, query: str, max_chars: int = 200, readings: bool = True) -> NameMatch:
        """`_match`, remembered for recent texts (a question is matched by retrieval, its frame and its answer): each
        call gets its own copy, so a caller may change what it got."""
        key = (query[:max_chars], readings, len(self.products), len(self.ingredients))  # a key added: matched anew
        m = remembered(self._match_memo, key, lambda: self._match(query, max_chars, readings), MATCH_MEMO)
        return NameMatch(list(m.keys), set(m.products), set(m.ingredients), set(m.family), dict(m.heard))

    def _key_spans(self) -> KeySpans:
        """The product and ingredient keys with their prefixes, made anew when keys were added since."""
        stamp = (len(self.products), len(self.ingredients))
        if getattr(self, "_spans_stamp", None) != stamp:
            self._spans, self._spans_stamp = KeySpans([*self.products, *self.ingredients]), stamp
        return self._spans

    def _match(self, query: str, max_chars: int = 200, readings: bool = True) -> NameMatch:
        """Names in the query: longest keys (3+ chars) anywhere in the space-stripped text, 2-char keys only as
        whole words, then keys written with a same-sounding vowel (타이래놀 -> 타이레놀), words of 3+ chars that
        begin a product name (이지엔6 -> 이지엔6애니연질캡슐), also after dropping a dosage form (볼타렌겔 ->
        볼타렌에멀겔), and last words a syllable or two off one name (`_match_close`). Without `readings` the
        same-sounding and close-spelling passes are skipped: names as written, for text that is not a question
        (an answer's sentences, where 가래, 오한 must not be heard as a product)."""
        query = NAMED_CONDITIONS.sub(lambda m: "_" * len(m.group()), query[:max_chars])
        q = squash(query)
        found = NameMatch()
        taken = [False] * len(q)
        for start, length in self._key_spans().spans(q):
            if not any(taken[start : start + length]) and self._take(q[start : start + length], found):
                taken[start : start + length] = [True] * length
        if readings:
            self._match_sound_alike(q, taken, found)
        covered = "".join(c for c, t in zip(q, taken, strict=True) if t)
        read = [(self._word_as_written(w), w) for w in map(squash, written_words(query))]
        words = list(dict.fromkeys(word for word, _ in read))
        as_written = {word for word, w in read if word == w}  # no particle cut off
        unmatched = set()
        for word in words:
            if len(word) < 2 or word in covered:
                continue
            if self._take(word, found):
                continue
            if len(word) == 2:
                # two syllables are too often ordinary words (하루, 아파) to start a product name, unless no dictionary
                # knows the word and it begins the names of a few products (탄툼 → 삼아탄툼액's key 탄툼액)
                if readings and self._unknown_word(word):
                    self._take_prefix(word, found, max_products=SHORT_PREFIX_PRODUCTS)
                continue
            if not self._take_prefix(word, found):
                stem = strip_suffix(word, DOSAGE_FORMS)
                if not (stem != word and len(stem) >= 3 and self._take_prefix(stem, found)):
                    # as written, in a question only (an answer's 0.05% is inside a name's 005%, but names nothing)
                    readings_ok = readings and not _kind_of_product(word)
                    inside = readings_ok and word in as_written and self._take_inside(word, found)
                    heard = readings_ok and (self._take_sound_prefix(word, found) or self._take_letter_off(word, found))
                    if not heard and not inside:
                        unmatched.add(word)
        self._take_form_pairs([squash(w) for w in written_words(query)], found)
        if readings:
            self._match_close(words, unmatched, found)
        return found

    def _word_as_written(self, word: str) -> str:
        """`word` without a particle at its end (게보린은 → 게보린), unless some product name begins with the whole
        word (판토가 한달 먹었는데: 판토가캅셀, not 판토 + 가 → the 판토 family): a name's last syllable can look like a
        particle, and what was written is read first.

        >>> from retrievers.documents import Document
        >>> docs = [Document(f"easydrug:{i}:efcy", "x", {"item_seq": str(i), "item_name": n})
        ...         for i, n in enumerate(["판토가캅셀", "판토-에이내복액", "게보린정"])]
        >>> index = NameIndex.from_documents(docs)
        >>> index._word_as_written("판토가"), index._word_as_written("게보린은")
        ('판토가', '게보린')
        """
        bare = PARTICLE.sub("", word)
        if (
            bare != word
            and word.endswith(_FORM_ENDS)
            and any(word.endswith(f) and not bare.endswith(f) for f in DOSAGE_FORMS)
        ):
            return word  # 목스프레이: the form's last syllable, no particle
        return word if bare != word and len(word) >= 3 and self._begins_a_name(word) else bare

    def _begins_a_name(self, word: str) -> bool:
        """Whether some product key starts with `word`."""
        return next(self._keys_starting(word), None) is not None

    def _take_form_pairs(self, words: list[str], found: NameMatch) -> None:
        """A brand word followed by a dosage-form word (미놀 트로키, 화이투벤 스프레이, 니코레트 패치, 부루펜 시럽): the
        products whose key starts with the brand (or its children's edition, 어린이부루펜시럽, or a combination under
        it, 복합써스펜좌약) and holds the form, as read or as written, later
        on, when they are few enough to be what is meant (`FORM_PAIR_PRODUCTS`); the brand's products of other forms
        the brand word matched (부루펜정) become siblings. A two-syllable word must be none the leaflets use (아이 시럽
        is a child's syrup)."""
        # 세토펜이알 as 세토펜 이알; not a word inside a name found whole (콜대원키즈콜드시럽's 콜드시럽)
        attached = [(b, f) for b, f in _attached_forms(words) if not any(b + f in k for k in found.keys)]
        for written, after in [*zip(words, words[1:], strict=False), *attached]:
            word = PARTICLE.sub("", written)
            word = found.heard.get(word, word)  # 타이래놀 이알: the brand as it was heard (타이레놀)
            bare = PARTICLE.sub("", after)  # 스프레이, 트로키도
            barer = PARTICLE.sub("", bare)  # 점안액이요
            form = next((QUESTION_FORMS[w] for w in (after, bare, barer) if w in QUESTION_FORMS), "")
            form = form or SPACED_FORMS.get(bare, "") or SPACED_FORMS.get(barer, "")
            # 클리어틴 스팟크림: a form with a word of the name before it (클리어틴이부스팟톡크림), which the name
            # must hold
            extra, held = ("", "") if form else _form_with_word(bare)
            form = form or held
            # 니코틴엘 로젠즈: no form, but a word the brand's product names hold after it (니코틴엘로젠즈민트향트로키)
            in_name = not form and len(bare) >= 2 and bare not in DOSAGE_FORMS
            if not (form or in_name) or len(word) < 2 or (len(word) == 2 and leaflet_word(word)):
                continue
            if word in self.ingredients:
                continue  # 니코틴 패치: an ingredient's patches, not one brand's
            if any(k.startswith(word) and (form or bare) in k for k in found.keys):
                continue  # 카네스텐 질정: the two words are one name already found
            seqs: set[str] = set()
            next_to: set[str] = set()  # the products whose name has the form right after the brand (아이엔점안액)
            written_form = PARTICLE.sub("", after)  # 좌약 as written, beside the form it reads as (좌제)
            forms = (form, written_form, *FORMS_IN_NAMES.get(form, ())) if form else (bare,)
            # 부루펜 시럽: 어린이부루펜시럽; 써스펜 좌약: 복합써스펜좌약 (a combination sold under the brand)
            for brand in (word, CHILDREN_PREFIX + word, COMBINATION_PREFIX + word):
                for key in self._keys_starting(brand):
                    rest = key[len(brand) :]
                    if extra not in rest:
                        continue
                    if any(f in rest for f in forms):
                        seqs |= self.products[key]
                    if any(rest.startswith(f) for f in forms):
                        next_to |= self.products[key]
            seqs = next_to or seqs  # 아이엔 점안액: 아이엔점안액, not 아이엔젤톡톡점안액
            narrows = bool(next_to) and seqs < found.products  # 아이엔 found both; 점안액 right after says which
            if 0 < len(seqs) <= FORM_PAIR_PRODUCTS and (not seqs <= found.products or narrows):
                # what the bare brand word alone matched (부루펜정) steps back; 부루펜정이랑 부루펜 시럽 names both
                named = {seq for key in found.keys if key != word for seq in self.products.get(key, ())}
                started = {seq for key in self._keys_starting(word) for seq in self.products[key]}  # 써스펜나이트정
                brand_only = (self.products.get(word, set()) | started) - seqs - named
                found.products = (found.products - brand_only) | seqs
                found.family = (found.family | brand_only) - seqs
                if word not in found.keys:
                    found.keys.append(word)

    def _match_close(self, words: list[str], unmatched: set[str], found: NameMatch) -> None:
        """Last pass: an unmatched word of 4+ characters, or two adjacent ones written apart, that differs from one
        name by a syllable or two (펙소페나진 -> 펙소페나딘, 사카로마이세스 보울라디 -> 사카로마이세스보울라르디균), and
        a word that holds a shorter name inside a misspelt longer one (카보시스테인 -> 카르보시스테인, not 시스테인)."""
        tried: set[str] = set()
        for word in words:
            inner = [k for k in found.keys if k in word and len(word) >= len(k) + 2 and not word.startswith(k)]
            if inner and (key := self._closest(word)) and all(k in key for k in inner):
                self._drop(inner, found)  # 카보시스테인 holds 시스테인, but means 카르보시스테인
                self._take(key, found)
                found.heard[word] = key
                tried.add(word)
        for i, word in enumerate(words):
            if word not in unmatched or word in tried or any(k in word for k in found.keys):
                continue  # a word holding a name already found (베라파밀과) is that name plus a particle
            pair = words[i + 1] if i + 1 < len(words) and words[i + 1] in unmatched else ""
            for written in ([word + pair] if pair else []) + [word]:
                key = self._closest(written)
                # 아이스크림 is a word of its own, no misspelt 아이지크림; 목스프레이 is a kind of product
                if key and (self._common_word(word) or _kind_of_product(word)):
                    break
                if key and self._take(key, found):
                    found.heard[written] = key
                    tried.update({word, pair} if written != word else {word})
                    break

    def _closest(self, word: str) -> str:
        """The name key most like `word` (same first character, length within 2, two-character pieces in common,
        similarity >= CLOSE_RATIO and no other name as close), or ""."""
        if len(word) < 4:
            return ""
        if not hasattr(self, "_pieces"):
            pieces: dict[str, list[str]] = defaultdict(list)
            for key in sorted({*self.products, *self.ingredients}):
                if len(key) >= 4:
                    for piece in dict.fromkeys(key[i : i + 2] for i in range(len(key) - 1)):
                        pieces[piece].append(key)
            self._pieces = dict(pieces)
        mine = list(dict.fromkeys(word[i : i + 2] for i in range(len(word) - 1)))
        shared = Counter(k for p in mine for k in self._pieces.get(p, ()) if k[0] == word[0])
        need = max(2, len(mine) - 2)
        scored = sorted(
            (
                (SequenceMatcher(None, word, key, autojunk=False).ratio(), key)
                for key, n in shared.items()
                if n >= need and abs(len(key) - len(word)) <= 2
            ),
            key=lambda x: (-x[0], x[1]),
        )
        if not scored or scored[0][0] < CLOSE_RATIO or not _letters_close(word, scored[0][1]):
            return ""
        if len(scored) > 1 and scored[1][0] == scored[0][0] and not self._same_name(scored[0][1], scored[1][1]):
            return ""  # two names equally close: the word does not say which
        return scored[0][1]

    def _drop(self, keys: list[str], found: NameMatch) -> None:
        """Forget matched `keys` that turned out to be part of a longer, misspelt name."""
        for key in keys:
            found.keys.remove(key)
            found.products -= self.products.get(key, set())
            found.family -= self.family(key)
            found.ingredients.discard(self.ingredients.get(key, ""))
        for key in found.keys:  # what the remaining keys found stays found
            found.products |= self.products.get(key, set())
            if key in self.ingredients:
                found.ingredients.add(self.ingredients[key])

    def _same_name(self, a: str, b: str) -> bool:
        """Whether two keys denote the same products and ingredient."""
        return self.products.get(a) == self.products.get(b) and self.ingredients.get(a) == self.ingredients.get(b)

    def _match_sound_alike(self, q: str, taken: list[bool], found: NameMatch) -> None:
        """Second pass over what no key matched: names written with a vowel that sounds the same (타이래놀 ->
        타이레놀, 부루팬 -> 부루펜), 3+ characters, longest first."""
        if all(taken):
            return
        if not hasattr(self, "_sound_keys"):
            sound_keys: dict[str, list[str]] = defaultdict(list)
            for key in sorted({*self.products, *self.ingredients}):
                if len(key) >= 3:
                    sound_keys[spoken_alike(key)].append(key)
            self._sound_keys = dict(sound_keys)
            self._sound_spans = KeySpans(self._sound_keys)
        heard = spoken_alike(q)
        for start, length in self._sound_spans.spans(heard):
            keys = self._sound_keys[heard[start : start + length]]
            if not any(taken[start : start + length]) and not _kind_of_product(q[start : start + length]):
                if any([self._take(key, found) for key in keys]):
                    taken[start : start + length] = [True] * length
                    found.heard[q[start : start + length]] = keys[0]

    def _take(self, key: str, found: NameMatch) -> bool:
        if key in STOP_KEYS:
            return False  # an everyday word (아이, 하루): an index built before it was one keeps it as a key
        hit = False
        if key in self.products:
            found.products |= self.products[key]
            found.family |= self.family(key) - found.products
            hit = True
        if key in self.ingredients:
            found.ingredients.add(self.ingredients[key])
            hit = True
        if hit:
            found.keys.append(key)
        return hit

    def family(self, key: str, max_extra: int = 2, max_products: int = 6) -> set[str]:
        """Products whose key is `key` plus a short suffix (겔포스 -> 겔포스엠, 겔포스엘): one brand's members, when
        there are few enough of them to be one family (empty for keys under 3 characters)."""
        if len(key) < 3:
            return set()
        seqs: set[str] = set()
        for k in self._keys_starting(key, longer=True):
            if len(k) - len(key) <= max_extra:
                seqs |= self.products[k]
        seqs -= self.products.get(key, set())
        if len(seqs) > max_products:
            return set()
        return seqs | self.children_edition(key)

    def children_edition(self, key: str) -> set[str]:
        """The products a brand sells for children under its own name (타이레놀 -> 어린이타이레놀현탁액,
        어린이타이레놀산160밀리그램): the keys `CHILDREN_PREFIX` + `key`. A child's question prefers them
        (retrievers/candidates.py).

        >>> docs = [Document("easydrug:1:efcy", "", {"item_name": "어린이타이레놀현탁액", "item_seq": "1"})]
        >>> sorted(NameIndex.from_documents(docs).children_edition("타이레놀"))
        ['1']
        """
        return set(self.products.get(CHILDREN_PREFIX + key, set())) if len(key) >= 3 else set()

    def _keys_starting(self, prefix: str, longer: bool = False) -> Iterator[str]:
        """The product keys that start with `prefix`, in sorted order (`longer`: not `prefix` itself)."""
        if not hasattr(self, "_sorted_keys"):
            self._sorted_keys = sorted(self.products)
        keys = self._sorted_keys
        at = (bisect.bisect_right if longer else bisect.bisect_left)(keys, prefix)
        while at < len(keys) and keys[at].startswith(prefix):
            yield keys[at]
            at += 1

    def _take_prefix(self, word: str, found: NameMatch, max_products: int = 30) -> bool:
        if word in STOP_KEYS:
            return False  # 어린이 종합감기시럽: an everyday word begins 어린이타이레놀 but names none of its kind
        seqs: set[str] = set()
        for key in self._keys_starting(word):
            seqs |= self.products[key]
            if len(seqs) > max_products:
                return False  # too generic a prefix to mean one product family
        if seqs and self.extends_names(word):
            return False  # 플러스 of 인사돌 플러스: a word names add to a brand, not one that starts a name
        if seqs:
            found.products |= seqs
            found.keys.append(word)
        return bool(seqs)

    def _take_inside(self, word: str, found: NameMatch) -> bool:
        """A word of `INSIDE_MIN` characters or more written inside the keys of few names, after something they add
        before it (브이로토 → 뉴브이로토이엑스점안액; 글루코사민 → the ingredient 결정글루코사민황산염): those names.
        Not a word names add to a brand (`extends_names`: 플러스, 골드), a word the leaflets use on its own
        (`leaflet_word`), a kind of medicine by its form (목스프레이), nor one inside more than `INSIDE_MAX` keys; a
        supplement's name (`retrievers.supplements`) only after a word the leaflets use (결정 + 글루코사민), as
        one syllable before it makes another substance's name (판 + 크레아틴 is pancreatin, not creatine)."""
        if len(word) < INSIDE_MIN or not HANGUL_WORD.fullmatch(word) or self.extends_names(word) or leaflet_word(word):
            return False
        if strip_suffix(word, FORM_SUFFIXES, min_left=1) != word:
            return False  # 목스프레이: a kind of medicine by its form, not one product's name
        keys = self._keys_holding(word, INSIDE_MAX + 1)
        if not keys or len(keys) > INSIDE_MAX:
            return False
        if supplement_word(word):  # 크레아틴 is no part of 판크레아틴; 글루코사민 is one of 결정글루코사민
            keys = [k for k in keys if leaflet_word(k[: k.find(word)])]
        return any([self._take(k, found) for k in keys])

    def _keys_holding(self, word: str, most: int) -> list[str]:
        """The product and ingredient keys (in sorted order) that hold `word` after their start, up to `most`: one
        search of the keys joined by newlines, each found place mapped back to its key."""
        if not hasattr(self, "_inside_text"):
            keys = sorted({*self.products, *self.ingredients})
            self._inside_text = (
                keys,
                "\n".join(keys),
                list(itertools.accumulate((len(k) + 1 for k in keys), initial=0)),
            )
        keys, joined, starts = self._inside_text
        out: list[str] = []
        at = joined.find(word)
        while at >= 0 and len(out) < most:
            i = bisect.bisect_right(starts, at) - 1
            if at > starts[i]:  # inside the key, not at its start (a key starting with it is no such name)
                out.append(keys[i])
            at = joined.find(word, starts[i + 1])
        return out

    def brands_before_extensions(self, query: str, is_noun=lambda word: True) -> list[str]:
        """Words written right before a word product names add after their brand (`extends_names`: 플러스, 골드; not a
        dosage form, 약, or a one-syllable word) that begin no name, name no ingredient, are not used alone by the
        leaflets and are nouns (`is_noun`: the caller's Kiwi reading; 붙이고 is no brand): the brand of a product the
        corpus lacks (인사돌 플러스, which Kiwi reads as 인사 + 돌).

        >>> from retrievers.documents import Document
        >>> docs = [Document(f"easydrug:{i}:efcy", "x", {"item_seq": str(i), "item_name": f"브랜드{i}플러스정"})
        ...         for i in range(EXTENSION_MIN)]
        >>> index = NameIndex.from_documents(docs)
        >>> index.brands_before_extensions("인사돌 플러스는 하루에 몇 알")
        ['인사돌']
        >>> index.brands_before_extensions("브랜드1 플러스")
        []
        """
        words = [PARTICLE.sub("", squash(w)) for w in written_words(query)]
        out = []
        for word, after in zip(words, words[1:], strict=False):
            if len(after) < 2 or after in QUESTION_FORMS or after in MEDICINE_NOUNS or not self.extends_names(after):
                continue
            if len(word) < 2 or not HANGUL_WORD.fullmatch(word) or not is_noun(word):
                continue
            if self._begins_a_name(word) or word in self.ingredients or leaflet_word(word):
                continue
            out.append(word)
        return out

    def extends_names(self, word: str) -> bool:
        """A word product names carry after their brand far more often than they start with it (플러스: 1 name
        starts with it, 157 hold it further on; 골드, 포르테 likewise): read alone it names no product.
        Decided from the names themselves (`EXTENSION_SHARE`), remembered per word."""
        if getattr(self, "_extends_stamp", None) != len(self.products):  # names added: counted anew
            self._all_keys, self._extends, self._extends_stamp = "\n" + "\n".join(self.products), {}, len(self.products)
        if word not in self._extends:
            starting = sum(len(self.products[k]) for k in self._keys_starting(word))
            inside = self._all_keys.count(word) - self._all_keys.count("\n" + word)  # not at a name's start
            self._extends[word] = inside >= EXTENSION_MIN and starting * EXTENSION_SHARE <= inside
        return self._extends[word]

    def _take_sound_prefix(self, word: str, found: NameMatch) -> bool:
        """A word that begins product names once its vowels are read as they sound (마대카솔 → 마데카솔케어연고, as
        타이래놀 is 타이레놀): those products, the word heard as the names' own spelling of it."""
        if len(word) < 3:
            return False
        if not hasattr(self, "_sound_sorted"):
            self._sound_sorted = sorted((spoken_alike(k), k) for k in self.products)
        heard = spoken_alike(word)
        at = bisect.bisect_left(self._sound_sorted, (heard, ""))
        keys = []
        while at < len(self._sound_sorted) and self._sound_sorted[at][0].startswith(heard):
            keys.append(self._sound_sorted[at][1])
            at += 1
        spelt = {k[: len(word)] for k in keys}
        if len(spelt) != 1 or not self._take_prefix(spelt.pop(), found):
            return False  # none, or two spellings: which one was meant is not clear
        found.heard[word] = found.keys[-1]
        return True

    def know_common_words(self, is_common: Callable[[str], bool]) -> None:
        """Tell the matcher which words are ordinary words of the language (the searcher's Kiwi dictionary), never
        read as a name one letter off."""
        self._common_word = is_common
        self._match_memo.clear()

    def know_unknown_words(self, is_unknown: Callable[[str], bool]) -> None:
        """Tell the matcher which words no dictionary of the language knows (the searcher's Kiwi): a two-syllable
        one may begin a brand (탄툼 of 삼아탄툼액), where an ordinary two-syllable word (하루, 아파) never does."""
        self._unknown_word = is_unknown
        self._match_memo.clear()

    def _take_letter_off(self, word: str, found: NameMatch) -> bool:
        """A Hangul word of `LETTER_OFF_MIN` syllables or more, not one the leaflets use, that begins product names
        once one consonant or vowel of it is read otherwise (마데카졸 → 마데카솔케어, 클래리틴 → 클라리틴정): those
        products, the word heard as the names' spelling, when only one spelling fits."""
        if len(word) < LETTER_OFF_MIN or not HANGUL_WORD.fullmatch(word) or leaflet_word(word):
            return False
        if self._common_word(word):
            return False  # 아이디어 is a word of its own, not 아이티어플러스점안액
        stem = strip_suffix(word, [*DOSAGE_FORMS, *MEDICINE_NOUNS])
        if leaflet_word(stem):
            return False  # 치질연고: a kind of medicine in the leaflets' words, not 치젤연고
        if not hasattr(self, "_letter_off"):
            self._letter_off = PrefixSpellings(k for k in self.products if HANGUL_WORD.fullmatch(k))
        form = word[len(stem) :]  # a form the word ends in is written right: 동전파스 is no 동전파프
        spelt = {p for p in self._letter_off.of(word) if p.endswith(form)}
        if len(spelt) != 1 or not self._take_prefix(spelt.pop(), found):
            return False
        found.heard[word] = found.keys[-1]
        return True

    def user_words(self) -> list[str]:
        """Names to teach the tokenizer so they stay whole (Korean keys only)."""
        return sorted(k for k in {*self.products, *self.ingredients} if re.fullmatch(r"[가-힣]{2,}", k))


def _letters_close(word: str, key: str) -> bool:
    """A word with a number is close to a key only when its letters are too: 콘택600 is no 콘600 (the shared 600
    made them look alike), 타이레놀500 is 타이레놀정500.

    >>> _letters_close("콘택600", "콘600"), _letters_close("타이레놀500", "타이레놀정500"), _letters_close("진", "x")
    (False, True, True)
    """
    if not any(c.isdigit() for c in word):
        return True
    letters, key_letters = (re.sub(r"[\d.]+", "", w) for w in (word, key))
    return SequenceMatcher(None, letters, key_letters, autojunk=False).ratio() >= CLOSE_RATIO


def _kind_of_product(word: str) -> bool:
    """A body part of one syllable and a dosage form (목스프레이, 눈연고, 코스프레이): the kind of product, which no
    reading as a misspelt or same-sounding name (목앤스프레이) may take.

    >>> _kind_of_product("목스프레이"), _kind_of_product("목앤스프레이"), _kind_of_product("스프레이")
    (True, False, False)
    """
    return word.endswith(_FORM_ENDS) and len(strip_suffix(word, DOSAGE_FORMS, min_left=1)) == 1


_FORM_ENDS = tuple(DOSAGE_FORMS)  # one C-level test before the form is looked for


def leaflet_word(word: str) -> bool:
    """Whether the leaflets use `word` as a word of their own (Kiwi morphemes of leaflet sentences: 아이, 기침)."""
    from retrievers.aspects import load_vocabulary  # the mined vocabulary, read once

    return word in load_vocabulary().idf


def save_names(index: NameIndex, path) -> None:
    """Persist as JSON (rebuilding from 32k documents takes seconds; loading this takes a fraction)."""
    import json

    data = {
        "products": {k: sorted(v) for k, v in index.products.items()},
        "ingredients": index.ingredients,
        "ingredient_products": {k: sorted(v) for k, v in index.ingredient_products.items()},
        "max_len": index.max_len,
        "variants": sorted(index.variants),
        "version": NAMES_VERSION,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, sort_keys=True)


def load_names(path) -> NameIndex:
    import json

    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    index = NameIndex()
    index.products.update({k: set(v) for k, v in data["products"].items()})
    index.ingredients.update(data["ingredients"])
    index.ingredient_products.update({k: set(v) for k, v in data["ingredient_products"].items()})
    index.max_len = data["max_len"]
    index.variants = set(data.get("variants", ()))
    index.version = data.get("version", 1)
    return index
