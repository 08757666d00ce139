"""The user's DUR rules for an answer, and the verdict on every product it could offer.

`gather` fetches (`fetch`: the backend's ``dur_rules(ingredients, types)``) the rules of the asker's types
(programs/forbidden.py `Asker`) for the answer's ingredients and keeps those that apply to the asker — a 10-year-old
is not bound by a 2세미만 rule, a 병용금기 pair only when the user takes its other side — the rules that forbid one
of the documents' products first, one per statement, at most `limit`. Each product of the documents is judged with
every rule of its own ingredients (not only those quoted).

Example:
    >>> from retrievers.documents import Document
    >>> rule = Document("dur:cc:1", "[임부금기] 에페드린(Ephedrine)은(는) 임부(임신부)에게 사용하면 안 되는 성분입니다"
    ...                 "(2등급). 대상 제형: 정제.", {"dur_type": "임부금기", "ingredient": "에페드린"})
    >>> meta = {"item_seq": "7", "item_name": "슈페젠정", "main_ingr": "에페드린염산염"}
    >>> leaflet = Document("easydrug:7:efcy", "x", meta)
    >>> fetch = lambda ingredients, types: [rule]
    >>> quoted, verdicts = gather([leaflet], ["에페드린염산염"], Asker(pregnant=True), fetch)
    >>> [r.id for r in quoted], {seq: [r.id for r in rules] for seq, rules in verdicts.items()}
    (['dur:cc:1'], {'7': ['dur:cc:1']})
"""

from __future__ import annotations

from programs import dur_rule, leaflet_age_limit, leaflet_condition_limit, leaflet_group_limit, leaflet_pair_limit
from programs.forbidden import Asker, Product, applies, forbidding_rules, rule_sides, same_name
from programs.name_mentions import mentions
from retrievers.dur_binding import binds_product
from retrievers.name_keys import squash
from retrievers.question_frame import POPULATION_ASPECTS


def gather(docs, ingredients: list[str], who: Asker, fetch, same=same_name, limit: int = 3, leaflet=None):
    """(the user's rules to quote, {item_seq: the rules that forbid that product}); `leaflet` (a document id ->
    the document, or None): where a product's own cautions are read for the age below which they forbid it
    (programs/leaflet_age_limit.py), a rule like a DUR row's for a child the profile or the question names, and for
    a prohibition to pregnant or nursing women (programs/leaflet_group_limit.py), with a kind of medicine the user
    takes (programs/leaflet_pair_limit.py) or with a condition the profile lists
    (programs/leaflet_condition_limit.py)."""
    types = who.dur_types()
    if not types and not who.groups and not who.kinds and not who.conditions:
        return [], {}
    verdicts: dict[str, list] = {}
    products = []
    for doc in docs:
        seq = str(doc.metadata.get("item_seq", ""))
        if doc.source != "easydrug" or not seq or seq in verdicts or own_medicine(doc, who.medicines):
            continue  # the medicine the user already takes is not offered: no verdict on it
        product = Product.of(doc)
        products.append(product)
        verdicts[seq] = forbidding_rules(product, fetch(list(product.ingredients), types), who, same) if types else []
        if leaflet is not None:
            verdicts[seq] += leaflet_age_limit.product_rule(seq, who.ages, leaflet)
            verdicts[seq] += leaflet_group_limit.product_rule(seq, who.groups, leaflet)
            verdicts[seq] += leaflet_pair_limit.product_rule(seq, who.kinds, leaflet)
            verdicts[seq] += leaflet_condition_limit.product_rule(seq, who.conditions, leaflet)
    forbidding = {r.id for rules in verdicts.values() for r in rules}
    # a rule that forbids a product binds it, so `binds_held` keeps every forbidding rule
    rules = [
        r
        for r in (fetch(ingredients, types) if ingredients and types else [])
        if applies(r, who) and binds_held(r, products, same) and pairs_an_offer(r, who, products, same, ingredients)
    ]
    rules.sort(key=lambda r: r.id not in forbidding)  # stable: the ingredients' order kept within each half
    quoted = _one_per_label(rules, [])  # the same rule's rows for other forms are not quoted again
    quoted = quoted[:limit]
    return quoted, {seq: _one_per_label(rules, quoted) for seq, rules in verdicts.items() if rules}


def own_medicine(doc, medicines) -> bool:
    """The leaflet is of a medicine the user's profile says they take (its product name holds one of `medicines`,
    spacing aside): 바이엘아스피린정 for {"medicines": ["아스피린"]} is theirs, not a product the answer offers.

    >>> from retrievers.documents import Document
    >>> doc = Document("easydrug:1:atpn", "", {"item_name": "바이엘아스피린정500밀리그람"})
    >>> own_medicine(doc, ["아스피린"]), own_medicine(doc, ["와파린"]), own_medicine(doc, [])
    (True, False, False)
    """
    name = "".join(str(doc.metadata.get("item_name", "")).split()).lower()
    return any(len(m) >= 2 and m in name for m in ("".join(str(x).split()).lower() for x in medicines))


def pairs_an_offer(rule, who: Asker, products: list, same=same_name, named=()) -> bool:
    """A 병용금기 row is the user's when its side other than their medicine is in a product the documents hold (와파린
    for a warfarin user beside an aspirin leaflet) or among the ingredients the answer is about (`named`: 알프라졸람,
    which the question names); a row pairing their medicine with a third drug (아스피린 and 메토트렉세이트, beside a
    ketoprofen plaster) is not. Rules of other types: True.

    >>> from retrievers.documents import Document
    >>> row = Document("dur:ac:1", "", {"dur_type": "병용금기", "ingredient": "아스피린", "partner": "메토트렉세이트"})
    >>> plaster, mtx = Product("1", "케토톱", ("케토프로펜",)), Product("2", "엠티엑스정", ("메토트렉세이트",))
    >>> user = Asker(medicines=("아스피린",))
    >>> pairs_an_offer(row, user, [plaster]), pairs_an_offer(row, user, [mtx])
    (False, True)
    """
    if rule.metadata.get("dur_type") != "병용금기":
        return True
    other = [side for side in rule_sides(rule) if side and not any(takes(side, m, same) for m in who.medicines)]
    held = [i for p in products for i in p.ingredients] + list(named)
    return any(same(side, i) for side in other for i in held)


def takes(ingredient: str, medicine: str, same=same_name) -> bool:
    """The profile's `medicine` is `ingredient`, or a product written with it (아스피린장용정100mg holds 아스피린).

    >>> takes("아스피린", "아스피린장용정100mg"), takes("아스피린", "아스피린"), takes("메토트렉세이트", "아스피린")
    (True, True, False)
    """
    key = squash(ingredient)
    return same(ingredient, medicine) or (len(key) >= 2 and key in squash(str(medicine)))


def binds_held(rule, products: list, same=same_name) -> bool:
    """Whether a DUR rule binds the documents' products that contain its ingredient: True when none contains it (the
    rule speaks of the ingredient), else when its dosage forms bind one of them. A rule for 서방정 beside
    어린이타이레놀현탁액 does not: it is not quoted as if it were about what the answer is about.

    >>> from retrievers.documents import Document
    >>> rule = Document("dur:bc:1", "[특정연령대금기] … 대상 제형: 서방정.", {"ingredient": "아세트아미노펜"})
    >>> syrup = Product("2", "어린이타이레놀현탁액", ("아세트아미노펜(미분화)",))
    >>> tablet = Product("3", "타이레놀8시간이알서방정", ("아세트아미노펜",))
    >>> binds_held(rule, [syrup]), binds_held(rule, [syrup, tablet]), binds_held(rule, [])
    (False, True, True)
    >>> limit = "[용량주의] … 사유: 1일최대용량:아세트아미노펜1,500mg/슈도에페드린180mg. 대상 제형: 정제."
    >>> combined = Document("dur:dc:2", limit, {"ingredient": "아세트아미노펜"})
    >>> cold = Product("4", "코감기정", ("아세트아미노펜", "슈도에페드린염산염"))
    >>> binds_held(combined, [tablet]), binds_held(combined, [cold])
    (False, True)
    """
    ingredient = str(rule.metadata.get("ingredient", ""))
    holding = [p for p in products if ingredient and any(same(ingredient, i) for i in p.ingredients)]
    others = dur_rule.combined_with(rule.text, ingredient)  # a combination's limit binds what holds it all
    return not holding or any(
        binds_product(rule, p.name, p.ingredients, same) and all(any(same(o, i) for i in p.ingredients) for o in others)
        for p in holding
    )


def binds_one_of(rule, products: list, same=same_name) -> bool:
    """Whether a DUR rule binds one of `products` itself: one holds its ingredient (and any combination it names) in
    a dosage form the rule lists. Unlike `binds_held`, a rule none of them holds binds none of them.

    >>> from retrievers.documents import Document
    >>> rule = Document("dur:bc:1", "[특정연령대금기] … 대상 제형: 서방정.", {"ingredient": "아세트아미노펜"})
    >>> syrup = Product("2", "세토펜현탁액", ("아세트아미노펜",))
    >>> tablet = Product("3", "타이레놀8시간이알서방정", ("아세트아미노펜",))
    >>> binds_one_of(rule, [syrup]), binds_one_of(rule, [tablet]), binds_one_of(rule, [])
    (False, True, False)
    """
    ingredient = str(rule.metadata.get("ingredient", ""))
    held = [p for p in products if ingredient and any(same(ingredient, i) for i in p.ingredients)]
    return bool(held) and binds_held(rule, held, same)


def unbound_rules(docs: list, same=same_name) -> set[str]:
    """Ids of the DUR rules among `docs` that bind none of the documents' products holding their ingredient
    (`binds_held`): the answer neither quotes them nor gets them added."""
    products = [Product.of(d) for d in docs if d.source == "easydrug"]
    return {d.id for d in docs if d.source == "dur" and not binds_held(d, products, same)}


def stray_rules(docs: list, ingredients: list[str], question: str, same=same_name) -> set[str]:
    """Ids of the DUR rows among `docs` about none of the answer's `ingredients` (`safety_rules.answer_ingredients`)
    and none the question mentions, by their own ingredient or a 병용금기 partner: retrieval found them by a number
    or a word ("16개월" → the 16세미만 rules of 텔비부딘), and quoted first they would read as the user's rules.
    Nothing is stray when the answer has no ingredients (a question about the rules themselves).

    >>> from retrievers.documents import Document
    >>> stray = Document("dur:bc:1", "[특정연령대금기] 텔비부딘 …", {"ingredient": "텔비부딘"})
    >>> own = Document("dur:bc:2", "[특정연령대금기] 이부프로펜 …", {"ingredient": "이부프로펜"})
    >>> pair = Document("dur:ac:3", "[병용금기] …", {"ingredient": "와파린", "partner": "이부프로펜"})
    >>> sorted(stray_rules([stray, own, pair], ["이부프로펜"], "16개월 아기 챔프 이부펜 먹여도 돼요"))
    ['dur:bc:1']
    >>> stray_rules([stray], ["이부프로펜"], "텔비부딘 16세 미만도 먹어요"), stray_rules([stray], [], "16세")
    (set(), set())
    """
    if not ingredients:
        return set()

    def ours(name: str) -> bool:
        return bool(name) and (any(same(name, i) for i in ingredients) or mentions(question, name))

    return {
        d.id
        for d in docs
        if d.id.startswith("dur:")
        and not any(ours(str(d.metadata.get(k) or "").strip()) for k in ("ingredient", "partner"))
    }


GROUP_TYPES = ("임부금기", "특정연령대금기", "노인주의")  # the rule types that speak of who takes a medicine
ASKS_OF_GROUPS = POPULATION_ASPECTS | {"cautions"}  # aspects a group's rule speaks to for anyone (몇 살부터, 주의할 점)


def others_rules(docs: list, who) -> set[str]:
    """Ids of the DUR rows among `docs` for a group the asker is not in (a 15세미만 rule for a pregnant asker, an
    임부금기 rule for a child), when the asker is someone (the profile or the question says who): not theirs. An
    asker nobody in particular keeps them (what a product's rules are, for anyone).

    >>> from programs.forbidden import Asker
    >>> from retrievers.documents import Document
    >>> child = Document("dur:bc:1", "[특정연령대금기] 15세미만 환자에게", {"dur_type": "특정연령대금기"})
    >>> others_rules([child], Asker(pregnant=True)), others_rules([child], Asker())
    ({'dur:bc:1'}, set())
    >>> others_rules([child], Asker(ages=((7, 8),)))
    set()
    """
    if not (who.pregnant or who.ages or who.nursing):
        return set()
    return {
        d.id
        for d in docs
        if d.id.startswith("dur:") and d.metadata.get("dur_type") in GROUP_TYPES and not applies(d, who)
    }


def unasked_group_rules(docs: list, who, aspects) -> set[str]:
    """Ids of the DUR rows for a group (임부금기, 특정연령대금기, 노인주의) when the asker is nobody in particular and
    the question asks about no group and no cautions (`aspects`, the frame's): 와파린 드시는 어머니 … 골사민 같이
    드셔도 asks about the pair, and warfarin's 임부금기 row, quoted first, would read as the user's rule.

    >>> from programs.forbidden import Asker
    >>> from retrievers.documents import Document
    >>> pregnancy = Document("dur:cc:1", "[임부금기] 와파린 …", {"dur_type": "임부금기"})
    >>> unasked_group_rules([pregnancy], Asker(), ["interactions"])
    {'dur:cc:1'}
    >>> unasked_group_rules([pregnancy], Asker(), ["cautions"])
    set()
    >>> unasked_group_rules([pregnancy], Asker(pregnant=True), ["interactions"])
    set()
    """
    if who.pregnant or who.ages or who.nursing or set(aspects) & ASKS_OF_GROUPS:
        return set()
    return {d.id for d in docs if d.id.startswith("dur:") and d.metadata.get("dur_type") in GROUP_TYPES}


def _one_per_label(rules: list, quoted: list) -> list:
    """One rule per (type, ingredient, partner), in order: the quoted one when there is one, else the first (the
    rule is quoted and cited once, not each of its forms' rows)."""
    chosen: dict[tuple, object] = {}
    quoted_ids = {r.id for r in quoted}
    for rule in rules:
        meta = rule.metadata
        label = (meta.get("dur_type"), meta.get("ingredient"), meta.get("partner"))
        if label not in chosen or (rule.id in quoted_ids and chosen[label].id not in quoted_ids):
            chosen[label] = rule
    return list(chosen.values())
