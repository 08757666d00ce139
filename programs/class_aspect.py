"""A class question that asks a situation (파스 붙인 채로 샤워, 소화제 씹어서, 변비약 자기 전에): the sections of the
class's products whose text carries the situation's words, read beside retrieval's pool.

Retrieval ranks a class question's documents mostly by what the class is for, so its top 5 are often the class's
효능 sections; the sentence that answers the situation ("목욕하기 30분에서 1시간 전에 떼어내십시오") is in another
product's 주의사항. The products come from the class word (`SearchBackend.class_members`, mined from the 효능
sections), the words from the aspect vocabulary's seeds (`retrievers/aspects.py`), so nothing here names a class or
a situation. A class question that asks no situation is read the same way by its own content words (수면유도제 with
전립선비대 → the member whose 주의사항 speaks of 전립선 비대). A question naming an ingredient alone reads its single
products' sections the same way, for what all its leaflets say alike (`ingredient_documents`).

Example:
    >>> from retrievers.documents import Document
    >>> from programs.sentences import SentenceRanker
    >>> shower = Document("easydrug:2:atpn", "파스\\n눈에 붙이지 마십시오. 목욕 1시간 전에 떼십시오.", {})
    >>> other = Document("easydrug:3:atpn", "파스\\n상처에는 붙이지 마십시오.", {})
    >>> docs = {d.id: d for d in (shower, other)}
    >>> ranker = SentenceRanker("파스 붙이고 샤워해도 돼요")
    >>> [(d.id, d.text) for d in aspect_documents(ranker, ["2", "3"], set(), docs.get)]
    [('easydrug:2:atpn', '파스\\n목욕 1시간 전에 떼십시오.')]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from programs.sentences import SentenceRanker
from programs.text import split_sentences
from retrievers.documents import Document
from retrievers.form_kinds import external_form, taken_by_mouth

SECTIONS = ("atpn", "atpnWarn", "useMethod", "intrc", "depositMethod", "se")  # where situations are spoken of
MAX_DOCS = 6  # sections added: enough for a few products' wordings, few enough to keep the answer fast
CONTENT_WORDS = True  # with no situation asked, the question's content words choose the sections
MAX_MEMBERS = 120  # products read, in the order given (retrieval's first)
SAME_INGREDIENT = "same_ingredient"  # metadata: a section added as speaking for the ingredient the question names


def aspect_documents(
    ranker: SentenceRanker,
    members: Iterable[str],
    have: set[str],
    get: Callable[[str], Document | None],
    limit: int = MAX_DOCS,
    situations: list[str] | None = None,
) -> list[Document]:
    """Up to `limit` sections of the `members` (product seqs, retrieval's order first) not in `have` whose text
    carries a seed word of a situation the question asks (`ranker.situations`): most situations met first, then
    (an age stated) those writing an age band that takes it in (14살 → 만 12세 이상 소아 및 성인, not 성인은 alone),
    then most of the question's content words (IDF-weighted), then the members' order. `situations`: those of
    them to read (default all)."""
    asked = ranker.situations if situations is None else situations
    seeds = [ranker.vocab.seeds[a] for a in asked if a in ranker.vocab.seeds]
    if not seeds and CONTENT_WORDS:
        # no situation asked: the question's own content words (전립선, 녹차, 면도) are what a section must carry
        seeds = [ranker.forms[w] for w in ranker.words if len(w) > 1]
    if not seeds:
        return []
    patterns = [_any_of(words) for words in seeds]
    found = []
    for order, seq in enumerate(list(members)[:MAX_MEMBERS]):
        for section in SECTIONS:
            doc_id = f"easydrug:{seq}:{section}"
            if doc_id in have or (doc := get(doc_id)) is None:
                continue
            body = doc.text.partition("\n")[2]  # not the product's name: 프렌즈아이 holds no 렌즈
            met = sum(1 for p in patterns if p.search(body))
            if met:
                words = sum(idf for w, idf in ranker.words.items() if any(f in body for f in ranker.forms[w]))
                aged = ranker.age_fit(body) if ranker.ages else 0.0
                found.append((-met, -aged, -words, order, doc))
    found.sort(key=lambda f: f[:4])
    return [speaking_part(doc, seeds) for *_, doc in found[:limit]]


@functools.lru_cache(maxsize=64)
def _any_of(words: tuple[str, ...]) -> re.Pattern:
    """One pattern finding any of `words` (a section is searched once per situation, not once per word)."""
    return re.compile("|".join(map(re.escape, words)))


def speaking_part(doc: Document, seeds: list[tuple[str, ...]]) -> Document:
    """`doc` cut to its first line (the product) and the sentences that carry one of the `seeds` (split as every
    quote is, `split_sentences`; leaflets run on: 마십시오.이 약을): what another product's section adds is what it
    says of the situation, not the rest of its cautions.

    >>> doc = Document("easydrug:2:atpn", "파스\\n상처에는 붙이지 마십시오.목욕 1시간 전에 떼어내십시오.", {})
    >>> speaking_part(doc, [("목욕",)]).text
    '파스\\n목욕 1시간 전에 떼어내십시오.'
    """
    head, _, body = doc.text.partition("\n")
    kept = [s for s in split_sentences(body) if any(w in s for words in seeds for w in words)]
    return Document(doc.id, "\n".join([head, *kept]), doc.metadata)


def products_asked(members: Callable[[list[str]], set[str]], classes: list[str], symptoms: list[str]) -> set[str]:
    """The products of the question's classes (`members`: the backend's `class_members`), narrowed to those of its
    symptoms when some are (코막힘 스프레이: the sprays for a blocked nose, not every spray).

    >>> table = {"스프레이": {"1", "2"}, "코막힘": {"2", "3"}, "렌즈": {"9"}}
    >>> members = lambda words: set().union(*(table.get(w, set()) for w in words))
    >>> products_asked(members, ["스프레이"], ["코막힘"]), sorted(products_asked(members, ["스프레이"], ["렌즈"]))
    ({'2'}, ['1', '2'])
    """
    chosen = members(classes)
    both = chosen & members(symptoms) if symptoms else set()
    return both or chosen


def member_order(members: set[str], docs: Iterable[Document]) -> list[str]:
    """The class's products, those among `docs` (retrieval's ranking) first, the rest by their seq.

    >>> member_order({"3", "1", "2"}, [Document("easydrug:2:efcy", "x")])
    ['2', '1', '3']
    """
    ranked = [d.id.split(":")[1] for d in docs if d.id.startswith("easydrug:")]
    first = [s for s in dict.fromkeys(ranked) if s in members]
    return first + sorted(members - set(first))


def ingredient_members(
    members: Callable[[list[str]], set[str]],
    classes: list[str],
    ingredients: list[str],
    get: Callable[[str], Document | None],
    limit: int = 3,
) -> list[Document]:
    """The 효능·효과 documents of the class's products holding an ingredient the question names (케토프로펜 파스: the
    ketoprofen plasters), by their seq, at most `limit`: what a question naming an ingredient and a class asks about
    when retrieval found only the ingredient's DUR rows.

    >>> docs = {f"easydrug:{s}:efcy": Document(f"easydrug:{s}:efcy", "x", {"item_seq": s, "main_ingr": i})
    ...         for s, i in (("1", "케토프로펜"), ("2", "디클로페낙"), ("3", "케토프로펜, 멘톨"))}
    >>> [d.id for d in ingredient_members(lambda c: {"1", "2", "3"}, ["파스"], ["케토프로펜"], docs.get)]
    ['easydrug:1:efcy', 'easydrug:3:efcy']
    """
    if not classes or not ingredients:
        return []
    keys = ["".join(i.split()) for i in ingredients]
    out = []
    for seq in sorted(members(classes), key=lambda s: (len(s), s)):
        doc = get(f"easydrug:{seq}:efcy")
        if doc is not None and any(k and k in "".join(str(doc.metadata.get("main_ingr", "")).split()) for k in keys):
            out.append(doc)
            if len(out) == limit:
                break
    return out


def single_products(seqs: Iterable[str], get: Callable[[str], Document | None], oral: bool = False) -> set[str]:
    """Those of `seqs` made of one ingredient alone (their 효능 document's main ingredient names one): the leaflets
    that speak for an ingredient the question names (이부프로펜 먹고 맥주: 부루펜정's "알코올과 함께 복용하지
    마십시오"), not a combination's; `oral`: only those swallowed (먹고: no plaster's bath line).

    >>> docs = {f"easydrug:{s}:efcy": Document(f"easydrug:{s}:efcy", "x", {"main_ingr": i, "item_name": n})
    ...         for s, i, n in (("1", "이부프로펜", "이부정"), ("2", "이부프로펜, 카페인", "이부콤비정"),
    ...                         ("4", "이부프로펜", "이부플라스타"))}
    >>> sorted(single_products(["1", "2", "3", "4"], docs.get)), single_products(["1", "4"], docs.get, oral=True)
    (['1', '4'], {'1'})
    """
    out = set()
    for seq in seqs:
        doc = get(f"easydrug:{seq}:efcy")
        if doc is None or "," in str(doc.metadata.get("main_ingr") or ","):
            continue
        if not (oral and external_form(str(doc.metadata.get("item_name") or ""))):
            out.add(seq)
    return out


def unspoken_situations(ranker: SentenceRanker, docs: Iterable[Document], among=None) -> list[str]:
    """The situations the question asks (`ranker.situations`, those with seed words; of `among` when given) that no
    leaflet section among `docs` carries a seed word of."""
    bodies = [d.text.partition("\n")[2] for d in docs if d.id.startswith("easydrug:")]
    return [
        a
        for a in ranker.situations
        if a in ranker.vocab.seeds
        and (among is None or a in among)
        and not any(_any_of(ranker.vocab.seeds[a]).search(b) for b in bodies)
    ]


# what an ingredient's leaflets say alike, whichever product (drinking, driving, the sun): a dose, a form's way of
# taking it or how long it keeps is the product's own
INGREDIENT_SITUATIONS = frozenset({"alcohol", "driving", "food", "sunlight", "smoking", "dependence", "lens", "heat"})


def ingredient_documents(
    ranker: SentenceRanker, keys, pool: list[Document], get: Callable[[str], Document | None], names, ranked=()
) -> tuple[list[Document], list[str]]:
    """For a question naming an ingredient and no product (`keys`: the names retrieval read, every one an
    ingredient's in `names`, the index's `NameIndex`; 이부프로펜 먹고 맥주 한두잔) that asks a situation the pool's
    leaflets do not speak of: the sections of the ingredient's other single-ingredient products that do (부루펜정's
    "알코올과 함께 복용하지 마십시오"), `ranked` (retrieval's documents) first, each marked `SAME_INGREDIENT`; and the
    situations they were read for. One product's leaflet is no answer for all of them."""
    # every name read an ingredient's (이부프로펜 is a product's key too; 스트렙실 beside 아스피린 names a product)
    if names is None or not keys or any(k not in names.ingredients for k in keys):
        return [], []
    unspoken = unspoken_situations(ranker, pool, among=INGREDIENT_SITUATIONS)
    if not unspoken:
        return [], []
    seqs = {seq for k in keys for seq in names.ingredient_products.get(names.ingredients[k], ())}
    single = single_products(seqs, get, oral=taken_by_mouth(ranker.question))
    added = aspect_documents(ranker, member_order(single, ranked), {d.id for d in pool}, get, situations=unspoken)
    return [Document(d.id, d.text, {**d.metadata, SAME_INGREDIENT: True}) for d in added], unspoken


def within_asked(docs: list[Document], members: Callable[[list[str]], set[str]], classes, symptoms) -> list[Document]:
    """`docs` without the leaflets of products the question's class or symptom does not choose (코막힘 스프레이: a
    wound spray retrieval ranked for 스프레이), when at least one of them is chosen; DUR rows and the user's rules
    stay. A question naming neither keeps every document.

    >>> table = {"스프레이": {"1", "2"}, "코막힘": {"2", "3"}}
    >>> members = lambda words: set().union(*(table.get(w, set()) for w in words))
    >>> docs = [Document("easydrug:1:useMethod", "x"), Document("easydrug:2:useMethod", "y"), Document("dur:a:1", "z")]
    >>> [d.id for d in within_asked(docs, members, ["스프레이"], ["코막힘"])]
    ['easydrug:2:useMethod', 'dur:a:1']
    """
    if not classes and not symptoms:
        return docs
    chosen = products_asked(members, list(classes), list(symptoms)) if classes else members(list(symptoms))

    def leaflet_seq(doc: Document) -> str | None:
        return doc.id.split(":")[1] if doc.id.startswith("easydrug:") else None

    if not any(leaflet_seq(d) in chosen for d in docs):
        return docs
    return [d for d in docs if leaflet_seq(d) is None or leaflet_seq(d) in chosen]
