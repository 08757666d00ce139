"""Whether a question names a leaflet's product: by the characters it shares with the name (`mentions`), or by the
names retrieval recognised in it (`named_products`), and the test answers use for each document (`naming`).
"""

from __future__ import annotations

import re

from programs import offer_guard
from programs.child_dose import doses_older_only
from programs.citations import short_product
from programs.text import split_sentences
from retrievers.age_doses import child_ages, doses_child
from retrievers.documents import Document
from retrievers.form_kinds import asked_kinds, may_be_of_kinds, of_kinds, question_forms
from retrievers.name_keys import name_stem, product_keys, squash
from retrievers.name_words import DOSAGE_FORMS
from retrievers.population import stated_ages

NAME_PREFIX = 3  # consecutive characters of a product name a question must contain to name it


# dosage forms long enough to be a run of `NAME_PREFIX` on their own (스프레이, 현탁액, 연질캡슐): a question writing
# one names a kind of product, not the product whose name ends in it (코 스프레이 → not 노즈원큐나잘스프레이)
LONG_FORMS = re.compile("|".join(f for f in DOSAGE_FORMS if len(f) >= NAME_PREFIX))


def mentions(question: str, name: str) -> bool:
    """The question mentions `name`: they share `NAME_PREFIX` or more consecutive characters (spaces and case
    ignored; 대웅우루사연질캡슐 is mentioned by 우루사, 로페라미드염산염 by 로페라미드), the name's dosage form aside
    (`LONG_FORMS`). Shorter names never count, so 2-letter brands do not match everyday words.

    >>> name = "노즈원큐나잘스프레이"
    >>> mentions("코 스프레이 뿌려도 돼요", name), mentions("노즈원큐 뿌려도 돼요", name)
    (False, True)
    """
    return _shares_run(LONG_FORMS.sub(" ", "".join(name.split()).lower()), "".join(question.split()).lower())


def _shares_run(name: str, asked: str) -> bool:
    """Some `NAME_PREFIX` consecutive characters of `name` are in `asked` (as a longer common run holds such a
    run, this is the longest common substring reaching `NAME_PREFIX`)."""
    return any(name[i : i + NAME_PREFIX] in asked for i in range(len(name) - NAME_PREFIX + 1))


_STRENGTH = re.compile(r"^(?:\d|8시간|이알|서방)")


def names_exactly(question: str, doc: Document) -> bool:
    """The question writes the product's own name, not a sibling's: the name left after the longest start the
    question writes is empty, a strength or a dosage form (타이레놀 names 타이레놀정500밀리그람, not
    타이레놀콜드-에스정, whose 콜드 the question does not write).

    >>> def leaflet(name):
    ...     return Document("easydrug:1:atpn", "x", {"item_name": name})
    >>> names_exactly("타이레놀 임산부 먹어도", leaflet("타이레놀정500밀리그람(아세트아미노펜)"))
    True
    >>> names_exactly("타이레놀 임산부 먹어도", leaflet("타이레놀콜드-에스정"))
    False
    """
    if doc.id.startswith("dur:"):
        return False
    name = "".join(re.sub(r"[-·]", "", short_product(doc)).split()).lower()
    asked = "".join(question.split()).lower()
    n = next((k for k in range(len(name), NAME_PREFIX - 1, -1) if name[:k] in asked), 0)
    if not n:
        return False
    rest = name[n:]
    return not rest or bool(_STRENGTH.match(rest)) or any(rest.startswith(f) for f in DOSAGE_FORMS)


def names_product(question: str, doc: Document) -> bool:
    """The question names this leaflet's product (`mentions`); never true of a DUR row."""
    return not doc.id.startswith("dur:") and mentions(question, short_product(doc))


def named_products(docs: list[Document], names=(), question: str = "", get=None) -> set[str]:
    """The products (item_seq) the question names as retrieval read it: for each name retrieval recognised
    (`RetrievalResult.names`: 펜잘, 탁센 — short brands the character test cannot take), the first leaflet in
    `docs` (retrieval order) whose product name holds it — of those, first one the question writes more of the name
    of (타이레놀콜드 when the name read is 타이레놀), then one of a dosage form the `question` names (써스펜 좌약:
    복합써스펜좌약, not the tablet retrieval put first), then one the name is the whole of, strength and form aside
    (화이투벤큐: not 화이투벤큐플러스) — for a child's question, before that, one whose 용법·용량 among `docs` doses
    the child (5살 아이 타이레놀 → 어린이타이레놀현탁액); when the one chosen is withheld from the child and a sibling
    dosing the child is not, that sibling (4살 베나치오 → 베나치오액, not the 세립); for a brand no product is named
    by alone, asked of a symptom, one whose 효능 names the symptom (생리통 이지엔6 → 이지엔6이브, not 이지엔6나이트).
    A brand's other siblings are not named.

    Example:
        >>> docs = [Document(f"easydrug:{seq}:se", "", {"item_name": name}) for seq, name in
        ...         (("1", "탁센연질캡슐(나프록센)"), ("2", "탁센400이부프로펜연질캡슐"))]
        >>> named_products(docs, ["탁센"])
        {'1'}
        >>> docs = [Document(f"easydrug:{seq}:se", "", {"item_name": name}) for seq, name in
        ...         (("1", "써스펜8시간이알서방정"), ("2", "복합써스펜좌약"))]
        >>> named_products(docs, ["써스펜"], "써스펜 좌약 냉장 보관해요?")
        {'2'}
    """
    asked = {k for f in (question_forms(question) if question else []) for k in asked_kinds(f)}
    ages = child_ages(question) if question else None
    aged = bool(question) and stated_ages(question) is not None  # 5살, 20개월: an age the question states
    flat = squash(question)
    symptoms: tuple[str, ...] | None = None  # read when a brand's siblings are to be told apart by them
    out: set[str] = set()
    for name in names:
        key = "".join(str(name).split()).lower()
        holding = [
            d for d in docs if d.id.startswith("easydrug:") and key and key in "".join(short_product(d).split()).lower()
        ]
        # the question writes more of this one's name (타이레놀콜드 when the name read is 타이레놀), or its strength
        # right after the name (타이레놀500 → 타이레놀정500밀리그람)
        longer = [d for d in holding if any(len(k) > len(key) and k in flat for k in product_keys(_item(d)))]
        strength = re.search(re.escape(key) + r"(\d{2,4})(?!\d)", flat)
        longer = longer or [d for d in holding if strength and strength.group(1) in squash(_item(d))]
        # 어른 타이레놀, 성인용 타이레놀: the grown-up's product, whoever it is for
        grown = bool(re.search(r"(?:어른|성인)(?:용|들|거|꺼|것)?" + re.escape(key), flat))
        in_form = [d for d in holding if asked and of_kinds(asked, _item(d))]
        # none surely of it: one whose form may be it (탄툼 가글 → 삼아탄툼액, a liquid, not the spray)
        in_form = in_form or [d for d in holding if asked and may_be_of_kinds(asked, _item(d))]
        whole = [d for d in holding if name_stem(_item(d)) == key]
        base = whole or holding
        # a child's question: when the product the name is the whole of doses no child, the brand's product whose
        # 용법 does (5살 타이레놀 → 어린이타이레놀현탁액)
        for_child = [d for d in holding if ages and not grown and _doses(d, docs, ages, get)]
        if for_child and base and _doses(base[0], docs, ages, get):
            for_child = []
        # no age stated (먹여도 alone): the product named whole stays unless it doses older people only (챔프 빨강 →
        # 챔프시럽, whose 용법 gives a per-weight dose and no ages, not 챔프콜드시럽's age table)
        if for_child and base and not aged and not _older_only(base[0], docs, ages, get):
            for_child = []
        # a child's question of a brand whose product the asker's rules withhold (베나치오세립, its 탄산칼슘 세립
        # rule, for a 4-year-old): a sibling they allow that doses the child is the one asked about (베나치오액),
        # unless the question writes more of the name or the form (어른 타이레놀 반 쪼개서 6살: no sibling doses 6)
        # a brand no product is named by alone (이지엔6: 애니, 이브, 나이트 …) asked of a symptom: the sibling whose
        # 효능 names it (생리통 → 이지엔6이브, not 이지엔6나이트's 야간 통증 that retrieval put first)
        treating = []
        if question and not whole and len(holding) > 1:
            symptoms = _symptoms(question) if symptoms is None else symptoms
            treating = [d for d in holding if symptoms and _treats(d, docs, symptoms, get)]
        chosen = (longer or in_form or for_child or treating or base)[:1]
        if ages and chosen and offer_guard.is_forbidden(chosen[0]) and not (longer or in_form or grown):
            allowed = (d for d in holding if not offer_guard.is_forbidden(d) and _doses(d, docs, ages, get))
            chosen = [next(allowed, chosen[0])]
        if chosen:
            out.add(chosen[0].id.split(":")[1])
    return out


def _symptoms(question: str) -> tuple[str, ...]:
    """The symptom words the question states (the lexicon's rule words that name no kind of medicine)."""
    from retrievers.lexicon import Lexicon
    from retrievers.question_frame import classes_and_symptoms

    return tuple(classes_and_symptoms(question, Lexicon.load())[1])


def _section(doc: Document, section: str, docs: list[Document], get=None) -> Document | None:
    """The `section` of `doc`'s product: among `docs`, else by `get` (a document id -> the document, or None)."""
    wanted = f"easydrug:{doc.id.split(':')[1]}:{section}"
    return next((d for d in docs if d.id == wanted), None) or (get(wanted) if get is not None else None)


def _treats(doc: Document, docs: list[Document], symptoms, get=None) -> bool:
    """The 효능·효과 of `doc`'s product names one of the `symptoms`."""
    found = _section(doc, "efcy", docs, get)
    return found is not None and any(squash(s) in squash(found.text) for s in symptoms)


def _doses(doc: Document, docs: list[Document], ages: tuple[float, float], get=None) -> bool:
    """The 용법·용량 of `doc`'s product gives a dose for an age band the child can be in."""
    found = _section(doc, "useMethod", docs, get)
    return found is not None and doses_child(found.text, ages)


def _older_only(doc: Document, docs: list[Document], ages: tuple[float, float], get=None) -> bool:
    """The 용법·용량 of `doc`'s product doses only people older than the child can be (타이레놀정500밀리그람's
    "만 12세 이상 소아 및 성인은")."""
    found = _section(doc, "useMethod", docs, get)
    return found is not None and doses_older_only(split_sentences(found.text), ages[1])


def _item(doc: Document) -> str:
    return str(doc.metadata.get("item_name", ""))


def naming(question: str, docs: list[Document], names=(), get=None):
    """``doc -> bool``: the question names this leaflet's product — by retrieval's recognised names when they pick a
    leaflet in `docs` (`named_products`; `get` reads a product's 용법·용량 not among them), else by the character
    test (`names_product`)."""
    named = named_products(docs, names, question, get)
    if named:
        return lambda doc: doc.id.startswith("easydrug:") and doc.id.split(":")[1] in named
    return lambda doc: names_product(question, doc)
