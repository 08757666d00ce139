"""A question about two medicines together (종합감기약 먹었는데 타이레놀 추가로, 와파린 먹는데 아스피린): the words a
sentence about the pair names, and the DUR 병용금기 rows that are about the pair.

Both read the medicines retrieval recognised in the question (`RetrievalResult.names`) and, for each, the ingredients
of its leaflets among the documents (`main_ingr`): nothing is listed by hand.
"""

from __future__ import annotations

import functools

from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.names import squash


def pair_medicines(frame, docs: list[Document], names, is_named) -> tuple[str, ...]:
    """For a question about a medicine beside another one the asker takes or means to take (the frame's other
    drugs, or two names read that it does not compare): the names read in it and the ingredients of the named
    leaflets, as the leaflets write them; () for other questions. A sentence about the pair names one of them
    (타이레놀 beside 종합감기약 → "아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오"; 아스피린 beside
    스트렙실 → "아스피린 등 혈소판 응집 억제제"), and the other drugs the frame read with their kinds' stems.

    >>> from retrievers.question_frame import QuestionFrame
    >>> doc = Document("easydrug:1:intrc", "스트렙실\\n…", {"item_name": "스트렙실", "main_ingr": "플루르비프로펜"})
    >>> pair = QuestionFrame("아스피린 먹는데 스트렙실", other_drugs=("아스피린",))
    >>> pair_medicines(pair, [doc], ["아스피린", "스트렙실"], lambda d: True)
    ('아스피린', '스트렙실', '플루르비프로펜')
    >>> pair_medicines(QuestionFrame("스트렙실 먹어도"), [doc], ["스트렙실"], lambda d: True)
    ()

    A kind of medicine taken beside the named one is said as the leaflets write its kind (감기약 of 종합감기시럽):

    >>> syrup = QuestionFrame("스트렙실 먹는데 종합감기시럽 같이", other_drugs=("종합감기시럽",))
    >>> pair_medicines(syrup, [doc], ["스트렙실"], lambda d: True)
    ('스트렙실', '종합감기시럽', '감기', '해열진통제', '감기약', '플루르비프로펜')

    A kind said by its symptom is said as the leaflets say it too (두통약 → 해열진통제, mined):

    >>> pair_medicines(QuestionFrame("감기약 먹었는데 두통약", other_drugs=("두통약",)), [], [], lambda d: True)
    ('두통약', '두통', '해열진통제', '감기약')
    """
    if not frame.other_drugs and (len(names) < 2 or frame.comparison):
        return ()
    ingredients = [
        i.strip()
        for d in docs
        if d.id.startswith("easydrug:") and is_named(d)
        for i in str(d.metadata.get("main_ingr", "")).split(",")
    ]
    from retrievers.class_products import class_terms, leaflet_kinds

    lexicon = Lexicon.load()
    # 종합감기시럽 → 감기(약); 두통약 → 해열진통제, the kind its leaflets warn of ("다른 해열진통제와 함께 …")
    others = [t for o in frame.other_drugs for t in (o, *class_terms(o, lexicon), *leaflet_kinds(o, lexicon))]
    # the kinds the other medicine is of (겔포스 → 위장약), read from its own 효능 when its leaflet was found
    other_keys = ["".join(o.split()) for o in frame.other_drugs]
    of_other = [
        d
        for d in docs
        if d.id.startswith("easydrug:")
        and any(k and k in "".join(str(d.metadata.get("item_name", "")).split()) for k in other_keys)
    ]
    kinds = named_kinds(of_other, lexicon)
    words = ("".join(n.split()) for n in (*names, *others, *ingredients, *kind_words(ingredients), *kinds))
    return tuple(dict.fromkeys(w for w in words if w))


def named_kinds(docs: list[Document], lexicon: Lexicon) -> list[str]:
    """The kinds of medicine (the lexicon's words for another medicine: 위장약, 감기약, 진통제 …) the products of
    `docs` are of, as their 효능 sections say (`retrievers.class_products`): another leaflet's warning speaks of the
    kind (페리에정: "다른 위장약과 함께 복용하지 마십시오" beside 겔포스).

    >>> efcy = Document("easydrug:1:efcy", "겔포스\\n위산과다, 속쓰림, 위부불쾌감에 사용합니다.",
    ...                 {"item_seq": "1", "section": "efcy", "item_name": "겔포스엠현탁액"})
    >>> "위장약" in named_kinds([efcy], Lexicon.load())
    True
    """
    from retrievers.class_products import ClassProducts

    index = ClassProducts.from_documents(d for d in docs if d.metadata.get("section") == "efcy")
    if not index.efficacy:
        return []
    return [w for w in lexicon.other_medicine_words if index.products([w], lexicon)]


def kind_words(ingredients) -> list[str]:
    """The words for the kind of medicine the ingredients are, as the expansion rules that add an ingredient name it
    (세티리진 → 항히스타민제): another leaflet's warning speaks of the kind ("항히스타민제를 함유하는 내복약과 함께
    복용하지 마십시오"), not of the product. Only words naming a kind (ending in 제), not a symptom (알레르기).

    >>> kind_words(["세티리진염산염"])
    ['항히스타민제']
    """
    return list(dict.fromkeys(w for i in ingredients if i for w in _kind_words_of(squash(i))))


@functools.lru_cache(maxsize=1024)
def _kind_words_of(key: str) -> tuple[str, ...]:
    """`kind_words` of one ingredient key, remembered (the rules are read once per ingredient, not per sentence)."""
    rules = Lexicon.load().expansion_rules
    found = (m for matches, adds in rules for m in matches if any(a and a in key for a in adds))
    return tuple(dict.fromkeys(m for m in found if m.endswith("제") and len(m) >= 3))


def pair_sides(frame, docs: list[Document], names, kind_ingredients=None) -> list[set[str]]:
    """For a question naming two medicines or more (taken together or compared: 타이레놀이랑 이부프로펜 중 뭐가 나아요
    asks about neither one's pair with a third drug): per name retrieval read, the name and the ingredients of the
    leaflets among `docs` whose product name holds it (spacing removed); [] otherwise.

    >>> from retrievers.question_frame import QuestionFrame
    >>> doc = Document("easydrug:1:intrc", "x", {"item_name": "영진아스피린장용정", "main_ingr": "아스피린"})
    >>> pair_sides(QuestionFrame("와파린 먹는데 아스피린"), [doc], ["와파린", "아스피린"])
    [{'와파린'}, {'아스피린'}]

    A medicine beside a kind of medicine (와파린 먹는데 진통제) pairs it with the ingredients of the other products
    found:

    >>> from retrievers.question_frame import Targets
    >>> painkiller = QuestionFrame("와파린 먹는데 진통제 뭐 먹어요", Targets(classes=("진통제",)))
    >>> pair_sides(painkiller, [doc], ["와파린"])
    [{'와파린'}, {'아스피린'}]

    With no other product of the kind found (노펜24쿨플라스타 붙였는데 다른 소염진통 파스), the ingredients of the
    kind's products in the corpus (`kind_ingredients`: its words → their ingredients):

    >>> plaster = Document("easydrug:2:intrc", "x", {"item_name": "노펜24쿨플라스타", "main_ingr": "디클로페낙"})
    >>> other = QuestionFrame("노펜 붙였는데 다른 파스", Targets(classes=("파스",)), other_drugs=("파스",))
    >>> [sorted(side) for side in pair_sides(other, [plaster], ["노펜24쿨플라스타"], lambda w: {"케토프로펜"})]
    [['노펜24쿨플라스타', '디클로페낙'], ['케토프로펜']]
    """
    classed = len(names) == 1 and bool(frame.targets.classes)  # 와파린 먹는데 진통제: a medicine and a kind
    if len(names) < 2 and not classed:
        return []
    sides = []
    for name in names:
        key = "".join(name.split())
        side = {key}
        for d in docs:
            if d.id.startswith("easydrug:") and key in "".join(str(d.metadata.get("item_name", "")).split()):
                side.update(_ingredients(d))
        sides.append(side)
    if classed:  # the kind's side: the ingredients of the other products found
        key = "".join(names[0].split())
        other = {
            i
            for d in docs
            if d.id.startswith("easydrug:") and key not in "".join(str(d.metadata.get("item_name", "")).split())
            for i in _ingredients(d)
        }
        if not other and kind_ingredients is not None:
            other = set(kind_ingredients(frame.other_drugs or frame.targets.classes))
        if not other:
            return []  # no product of the kind known: no pair to hold a row to
        sides.append(other)
    return sides


def _ingredients(doc: Document) -> list[str]:
    return [i.strip() for i in str(doc.metadata.get("main_ingr", "")).split(",") if i.strip()]


def names_both(text: str, sides: list[set[str]]) -> bool:
    """`text` (spacing removed) names a word of two sides or more.

    >>> names_both("[병용금기] 아스피린와(과) 메토트렉세이트", [{"와파린"}, {"아스피린"}])
    False
    >>> names_both("[병용금기] 와파린와(과) 아스피린", [{"와파린"}, {"아스피린"}])
    True
    """
    flat = "".join(text.split())
    return sum(any(w in flat for w in side) for side in sides) >= 2


def off_pair_rules(docs: list[Document], sides: list[set[str]], keep=frozenset()) -> set[str]:
    """The 병용금기 rows among `docs` that pair one of the question's medicines with a third drug (two sides or more
    asked; a row of the user's own rules, `keep`, stays): they answer neither what is asked nor whom.

    >>> rows = [Document("dur:ac:1", "[병용금기] 메나테트레논와(과) 와파린", {}),
    ...         Document("dur:ac:2", "[병용금기] 와파린와(과) 아스피린", {})]
    >>> off_pair_rules(rows, [{"와파린"}, {"아스피린"}]), off_pair_rules(rows, [{"와파린"}])
    ({'dur:ac:1'}, set())
    """
    if len(sides) < 2:
        return set()
    return {d.id for d in docs if d.id.startswith("dur:ac:") and d.id not in keep and not pairs_two(d, sides)}


def pairs_two(row: Document, sides: list[set[str]]) -> bool:
    """The 병용금기 row pairs two of the `sides`: its ingredient in one and its partner in another (a side's word
    holding the row's, or the reverse: 디클로페낙 of 디클로페낙디에틸암모늄); a row without them read from its text
    (`names_both`). An ingredient on both sides (디클로페낙 of the plaster named and of the plasters of its kind)
    pairs them only with a partner of the other side.

    >>> row = Document("dur:ac:1", "x", {"ingredient": "디클로페낙", "partner": "메토트렉세이트"})
    >>> sides = [{"디클로페낙디에틸암모늄"}, {"디클로페낙", "케토프로펜"}]
    >>> pairs_two(row, sides), pairs_two(row, [{"디클로페낙"}, {"메토트렉세이트"}])
    (False, True)
    """
    ingredient, partner = (squash(str(row.metadata.get(k) or "")) for k in ("ingredient", "partner"))
    if not (ingredient and partner):
        return names_both(row.text, sides)

    def holds(side: set[str], key: str) -> bool:
        return any(len(w) >= 2 and (w in key or key in w) for w in map(squash, side))

    return any(
        holds(a, ingredient) and holds(b, partner) for i, a in enumerate(sides) for j, b in enumerate(sides) if i != j
    )
