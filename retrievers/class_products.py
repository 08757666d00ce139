"""Which products a class word names (감기약, 해열제, 변비약, 지사제 …), read from the leaflets themselves: a product is
in the class when its 효능 section says the class's stem (감기, 해열, 변비) or the symptom word of an expansion rule the
class word matches (수면유도제 → 불면, 인공눈물 → 안구건조). No product list is written by hand.

Example:
    >>> from retrievers.documents import Document
    >>> meta = lambda seq: {"item_seq": seq, "section": "efcy"}
    >>> docs = [Document("easydrug:1:efcy", "판콜\\n감기의 여러 증상(콧물, 발열)의 완화", meta("1")),
    ...         Document("easydrug:2:efcy", "둘코락스\\n변비", meta("2"))]
    >>> index = ClassProducts.from_documents(docs)
    >>> sorted(index.products(["감기약"], Lexicon.load())), sorted(index.products(["변비약"], Lexicon.load()))
    (['1'], ['2'])
"""

from __future__ import annotations

import bisect
import functools
import json
from collections import Counter
from collections.abc import Iterable

from retrievers.documents import Document
from retrievers.form_kinds import ANY, asked_kinds, kinds_fit, of_kinds, product_kinds
from retrievers.lexicon import Lexicon
from retrievers.name_words import QUESTION_FORMS
from retrievers.names import squash
from retrievers.question_frame import kind_readings, kind_words

ENDINGS = ("유도제", "영양제", "약", "제")  # cut from a class word to find its stem (수면유도제 → 수면)
MIN_STEM = 2
SEPARATOR = "\x00"  # between the joined 효능 texts (squashed text holds none)
FORMS_ASKED = tuple(QUESTION_FORMS)  # dosage forms as questions name them (연고, 시럽, 안약, 패치 …)


def class_terms(word: str, lexicon: Lexicon) -> tuple[str, ...]:
    """The words a class's leaflets use: its stem and the first word of each expansion rule it matches.

    >>> class_terms("해열제", Lexicon.load())[:2]
    ('해열', '발열')
    """
    stem = squash(word)
    for ending in ENDINGS:
        if stem.endswith(ending) and len(stem) - len(ending) >= MIN_STEM:
            stem = stem[: -len(ending)]
            break
    terms = [stem] if len(stem) >= MIN_STEM and stem != squash(word) else []
    terms += [h for h in lexicon.heads(word) if len(h) >= MIN_STEM]
    return tuple(dict.fromkeys(terms))


def leaflet_kinds(word: str, lexicon: Lexicon) -> tuple[str, ...]:
    """The words leaflets use for the kind a class word names by its symptom (두통약 → 해열진통제: "다른 해열진통제와
    함께 복용하지 마십시오"), mined from the corpus (`retrievers/mine_class_kinds.py`); () for none.

    >>> leaflet_kinds("두통약", Lexicon.load())[0], leaflet_kinds("멀미약", Lexicon.load())
    ('해열진통제', ('진토제',))
    """
    table = _class_kinds()
    return tuple(dict.fromkeys(k for head in lexicon.heads(word) for k in table.get(head, ())))


@functools.lru_cache(maxsize=1)
def _class_kinds() -> dict[str, list[str]]:
    from retrievers.mine_class_kinds import CLASS_KINDS_PATH

    return json.loads(CLASS_KINDS_PATH.read_text(encoding="utf-8"))["kinds"]


def attached_form(word: str) -> str:
    """The dosage form a class word ends with (치질연고 → 연고), "" for none or for a form alone (연고).

    >>> attached_form("치질연고"), attached_form("연고"), attached_form("감기약")
    ('연고', '', '')
    """
    word = squash(word)
    return next((f for f in FORMS_ASKED if word.endswith(f) and len(word) > len(f)), "")


MIN_NAMED = 3  # letters a class word needs to name products by their names (관장약, not 약)
KIND_ENDINGS = ("약", "제")  # a kind of medicine, not a form: 관장약 names products, 스프레이 is what 40 are


class ClassProducts:
    """Each product's 효능 text (spaces removed), searched for a class's terms: the texts are joined into one, so a
    term is found with one `str.find` per product that has it (~0.05 ms) rather than one test per product (~2 ms)."""

    def __init__(self, efficacy: dict[str, str], names: dict[str, str] | None = None, uses=None):
        self.efficacy = efficacy
        self.names = names or {}  # seq -> product name, for the products of a dosage form (`of_form`)
        # seq -> the kinds its 용법 says, for a product whose name says no form (신신파스아렉스: 부착합니다)
        self.use_kinds: dict[str, frozenset[str]] = dict(uses or {})
        self._seqs = list(efficacy)
        self._starts = []  # where each product's text begins in `_joined`
        at = 0
        for text in efficacy.values():
            self._starts.append(at)
            at += len(text) + 1
        self._joined = SEPARATOR.join(efficacy.values())

    @classmethod
    def from_documents(cls, docs: Iterable[Document]) -> ClassProducts:
        docs = list(docs)
        leaflets = [d for d in docs if d.source == "easydrug" and d.metadata.get("section") == "efcy"]
        efficacy = {d.metadata["item_seq"]: squash(d.text.partition("\n")[2]) for d in leaflets}
        names = {d.metadata["item_seq"]: str(d.metadata.get("item_name", "")) for d in leaflets}
        formless = {seq for seq, name in names.items() if ANY in product_kinds(name)}
        uses = {
            seq: kinds
            for d in docs
            if d.source == "easydrug"
            and d.metadata.get("section") == "useMethod"
            and (seq := d.metadata.get("item_seq")) in formless
            and (kinds := used_as(d.text.partition("\n")[2]))
        }
        return cls(efficacy, names, uses)

    def products(self, classes: Iterable[str], lexicon: Lexicon) -> set[str]:
        """Item seqs of the products in any of `classes` (empty when no class has a stem or rule word). A class word
        written with a form after it (치질연고, 무좀크림) is the class's products in that form, as 치질 연고 written
        apart is, when it has some.

        >>> names = {"1": "치질정", "2": "치질연고", "3": "두통연고"}
        >>> index = ClassProducts({"1": "치질", "2": "치질", "3": "두통"}, names)
        >>> sorted(index.products(["치질연고"], Lexicon.load())), sorted(index.products(["치질약"], Lexicon.load()))
        (['2'], ['1', '2'])

        A class word the products are named by, whose 효능 do not say its stem, is those products:

        >>> index = ClassProducts({"1": "변비에 사용", "2": "눈의 혈관장애에 사용"}, {"1": "그린관장약", "2": "타겐정"})
        >>> sorted(index.products(["관장약"], Lexicon.load()))
        ['1']
        """
        out: set[str] = set()
        for word in classes:
            members = set(self._with_terms(class_terms(word, lexicon)))
            named = self.named_as(word)
            if named and not named & members:
                # 관장약: the products named so, whose 효능 says 변비; the stem 관장, which no 효능 of theirs says, is
                # inside another's 혈관장애
                members = named
            in_form = members & self.of_form(attached_form(word)) if attached_form(word) else set()
            out |= in_form or members
        return out

    def of_form(self, word: str) -> set[str]:
        """Item seqs of the products whose name says the dosage form a class word is (파스, 연고, 안약: what the
        question calls the medicine by its form, with no 효능 word to find it by; `form_kinds.of_kinds`: 파스 is a
        plaster, not any skin form, and 연고 no liquid); empty for a word that is no form.

        >>> index = ClassProducts({"1": "", "2": "", "3": ""}, {"1": "신신아렉스카타플라스마", "2": "타이레놀정",
        ...     "3": "신신물파스에스"})
        >>> sorted(index.of_form("파스")), sorted(index.of_form("감기약"))
        (['1'], [])
        """
        form = QUESTION_FORMS.get(squash(word))
        return set(self._of_kinds(frozenset(asked_kinds(form)))) if form else set()

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one instance per searcher, kept for the process
    def _of_kinds(self, kinds: frozenset[str]) -> frozenset[str]:
        by_name = {seq for seq, name in self.names.items() if of_kinds(set(kinds), name)}
        by_use = {seq for seq, used in self.use_kinds.items() if kinds_fit(set(kinds), set(used))}
        return frozenset(by_name | by_use)

    def named_as(self, word: str) -> set[str]:
        """Item seqs of the products whose name holds the class word itself (관장약 → 그린관장약, 성광관장약: a kind
        the products are named by, which no 효능 says); empty for a word under `MIN_NAMED` letters.

        >>> index = ClassProducts({"1": "", "2": ""}, {"1": "그린관장약(농글리세린)", "2": "둘코락스에스장용정"})
        >>> sorted(index.named_as("관장약")), index.named_as("약"), index.named_as("장약")
        (['1'], set(), set())
        """
        key = squash(word)
        if len(key) < MIN_NAMED or not key.endswith(KIND_ENDINGS):
            return set()  # 스프레이, 크림: a form, which `of_form` reads
        return set(self._named_as(key))

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one instance per searcher, kept for the process
    def _named_as(self, key: str) -> frozenset[str]:
        return frozenset(seq for seq, name in self.names.items() if key in squash(name))

    def with_efficacy(self, terms: Iterable[str]) -> set[str]:
        """Item seqs of the products whose 효능 says one of `terms` (진통, 소염)."""
        return set(self._with_terms(tuple(squash(t) for t in terms if len(t) >= MIN_STEM)))

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one instance per searcher, kept for the process
    def _with_terms(self, terms: tuple[str, ...]) -> frozenset[str]:
        if any(not t or SEPARATOR in t for t in terms):  # "" is in every text
            return frozenset(seq for seq, text in self.efficacy.items() if any(t in text for t in terms))
        found: set[str] = set()
        for term in terms:
            at = self._joined.find(term)
            while at >= 0:
                n = bisect.bisect_right(self._starts, at) - 1
                found.add(self._seqs[n])
                at = self._joined.find(term, self._starts[n + 1]) if n + 1 < len(self._starts) else -1
        return frozenset(found)


# how a 용법 section says a product is used -> its kinds, for a product whose name says no form (the first that fits)
USE_WORDS = (
    (("부착", "붙이", "붙여"), frozenset({"skin", "patch"})),
    (("점안",), frozenset({"eye"})),
    (("분무", "뿌리", "뿌려"), frozenset({"spray", "skin"})),
    (("바르", "바릅", "도포"), frozenset({"skin"})),
)


def used_as(use_text: str) -> frozenset[str]:
    """The kinds a product's 용법 text says it is used as (부착합니다 → a plaster); empty when it says none.

    >>> sorted(used_as("1일 1~2회 질환 부위에 부착합니다.")), used_as("1회 1정 복용합니다.")
    (['patch', 'skin'], frozenset())
    """
    return next((kinds for words, kinds in USE_WORDS if any(w in use_text for w in words)), frozenset())


def made_of_alone(
    ingredients: Iterable[str],
    ingredient_products: dict[str, set[str]],
    product_ingredients: dict[str, set[str]],
    names: dict[str, str],
    members: set[str],
) -> set[str]:
    """The products made of one of `ingredients` alone (a class's expansion rules name them: 인공눈물 →
    히알루론산나트륨, 카르복시메틸셀룰로오스; 무좀약 → 테르비나핀), in a dosage form at least `FORM_SHARE` of the
    class's `members` (found by their 효능 words) have, every kind of it (a plaster is skin and patch): the class by
    what it is made of, where its 효능 words miss some of its products, and no ibuprofen plaster for 해열제 nor
    hyaluronate gum gel for 인공눈물.

    >>> names = {"1": "히알점안액", "2": "히알루겔", "3": "아이점안액", "4": "콤비점안액"}
    >>> made = {"1": {"히알루론산"}, "2": {"히알루론산"}, "4": {"히알루론산", "붕산"}}
    >>> made_of_alone(["히알루론산"], {"히알루론산": {"1", "2", "4"}}, made, names, {"3"})
    {'1'}
    """
    counts = Counter(k for seq in members for k in product_kinds(names.get(seq, "")) if k != ANY)
    usual = {k for k, n in counts.items() if n >= FORM_SHARE * len(members)}
    return {
        seq
        for canon in ingredients
        for seq in ingredient_products.get(canon, set())
        if product_ingredients.get(seq) == {canon} and product_kinds(names.get(seq, "")) <= usual
    }


FORM_SHARE = 0.05  # a dosage form this share of a class's products have is one of the class's forms


def kinds_heard(query: str, classes: list[str], index: ClassProducts, lexicon: Lexicon) -> dict[str, str]:
    """Class words written with a same-sounding last vowel and read as the class the leaflets know (소화재 ->
    소화제), as `read_as` says of names; `classes` are the class words the analysis read.

    >>> docs = [Document("easydrug:1:efcy", "베아제\\n소화불량", {"item_seq": "1", "section": "efcy"})]
    >>> kinds_heard("소화재 빈속에", ["소화제"], ClassProducts.from_documents(docs), Lexicon.load())
    {'소화재': '소화제'}
    """
    return {
        written: word
        for word, written in kind_readings(query).items()
        if written != word and word in classes and index.products([word], lexicon)
    }


def names_a_known_kind(query: str, index: ClassProducts, lexicon: Lexicon) -> bool:
    """A kind of medicine the leaflets know (가래약: 가래 is in 효능 sections; 코 스프레이, 안약: a form), a drug
    signal for the guard although no rule or name matched; 청약 is none.

    >>> names_a_known_kind("부동산 청약 조건", ClassProducts({}), Lexicon.load())
    False
    """
    kinds = kind_words(query)
    forms = any(w.endswith(FORMS_ASKED) for w in kinds)
    return forms or bool(kinds and index.products(kinds, lexicon))
