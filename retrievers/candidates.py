"""The candidates stage's name-to-candidate policy: which documents the names and class words of a question point at,
and with how much weight (the ``product`` feature of fusion).

A named product brings its own leaflet (1.0; another dosage form than the question names 0.7) and its brand's other
members (0.7); a named ingredient its DUR rows (1.0) and its products (single ones 0.9, combinations 0.6, every product
alike 0.8 in a DUR question); a class word (감기약) or a dosage form (코 스프레이) the candidates of its products
already found, and the sections the question asks of them. The tables this reads (each product's documents and
ingredients, each ingredient's DUR rows, each document's section) are built once when the index opens.

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.lexicon import Lexicon
    >>> from retrievers.names import NameIndex
    >>> from retrievers.query_analysis import analyse
    >>> meta = {"item_name": "게보린정", "item_seq": "197900277", "main_ingr": "아세트아미노펜", "section": "se"}
    >>> docs = [Document("easydrug:197900277:se", "게보린정 ...", meta)]
    >>> names = NameIndex.from_documents(docs)
    >>> policy = Candidates(docs, names, ClassProducts.from_documents(docs), Lexicon.load())
    >>> policy.name_candidates(analyse("게보린 부작용", names, Lexicon.load()))
    {0: 1.0}
"""

from __future__ import annotations

from collections import defaultdict

from retrievers.age_doses import child_ages, doses_child
from retrievers.class_products import ClassProducts
from retrievers.documents import Document
from retrievers.dur_binding import binds_product
from retrievers.form_kinds import (
    asked_kinds,
    external_form,
    of_kinds,
    question_forms,
    said_before,
    said_kinds,
    taken_by_mouth,
)
from retrievers.lexicon import Lexicon
from retrievers.name_keys import ingredient_keys, name_stem, squash
from retrievers.names import NameIndex
from retrievers.population import CHILD_AGE
from retrievers.query_analysis import QueryAnalysis

MAX_NAME_PRODUCTS = 40  # a name matching more products than this adds no candidates (too generic)
FAMILY_WEIGHT = 0.7  # product feature of a named product's brand siblings (the named product: 1.0)
SINGLE_WEIGHT = 0.9  # product feature of a named ingredient's single-ingredient products
COMBINATION_WEIGHT = 0.6  # product feature of a named ingredient's combination products (single ones: 0.9; a
# single-ingredient leaflet speaks for the ingredient, a combination's for the mix)
DUR_PRODUCT_WEIGHT = 0.8  # in a DUR question, every product of a named ingredient (when few share it)
OTHER_FORM_PENALTY = 0.2  # a named ingredient's products of another dosage form than the question names
BRIDGED_WEIGHT = 0.6  # in a DUR question, the rows of a named product's ingredients
OWN_ROW_WEIGHT = 0.8  # …the rows among them that bind the product itself (its dosage form, its mix)
LEAFLET_ONLY_SECTIONS = {"efcy", "useMethod", "se", "depositMethod"}  # asked beside a DUR word, the leaflets answer
MAX_CLASS_SECTION_PRODUCTS = 20  # class products whose asked sections join the candidates
MAX_CLASS_SECTION_DOCS = 5  # documents of the asked section a class question adds from all its class's products
CLASS_WEIGHT = 0.9  # product feature of a candidate whose product is in the class the question names (감기약)
ADULT_PRODUCT_WORDS = ("어른", "성인용")  # "어른 타이레놀 반 쪼개서 6살 애한테": the adults' product is asked about
MAX_SINGLE_PRODUCTS = 120  # single-ingredient products of a named ingredient added as candidates, at most


class Candidates:
    """The policy over one index's documents (read-only after construction, shared across requests)."""

    def __init__(self, docs: list[Document], names: NameIndex, class_products: ClassProducts, lexicon: Lexicon):
        self.docs = docs
        self.names = names
        self.class_products = class_products
        self.lexicon = lexicon
        self.product_docs: dict[str, list[int]] = defaultdict(list)
        self.product_ingredients: dict[str, set[str]] = defaultdict(set)
        self.dur_by_ingredient: dict[str, list[int]] = defaultdict(list)
        self._dur_pairs: dict[int, set[str]] = {}
        self.sections: list[str] = []  # per document: its section, or ``dur:<code>`` for a DUR row
        for i, d in enumerate(docs):
            if d.source == "easydrug":
                seq = d.metadata["item_seq"]
                self.product_docs[seq].append(i)
                if d.metadata.get("section") == "efcy" or seq not in self.product_ingredients:
                    for ingr in (d.metadata.get("main_ingr") or "").split(","):
                        if canon := names.canonical(ingr):
                            self.product_ingredients[seq].add(canon)
                self.sections.append(d.metadata.get("section", ""))
            else:
                for canon in self.dur_pair(i):
                    self.dur_by_ingredient[canon].append(i)
                self.sections.append(f"dur:{d.metadata.get('dur_code', '')}")

    def section(self, i: int) -> str:
        """Document `i`'s section (``se``, ``efcy`` …) or ``dur:<code>`` for a DUR row."""
        return self.sections[i]

    def dur_pair(self, i: int) -> set[str]:
        """Canonical ingredient keys of a DUR row's ingredient and partner (read once per row)."""
        pair = self._dur_pairs.get(i)
        if pair is None:
            meta = self.docs[i].metadata
            pair = {canon for f in ("ingredient", "partner") if (canon := self.names.canonical(meta.get(f) or ""))}
            self._dur_pairs[i] = pair
        return pair

    def name_candidates(self, qa: QueryAnalysis) -> dict[int, float]:
        """Documents the recognised names point at, with how directly (1 named, 0.6 via the product's ingredient)."""
        out: dict[int, float] = {}
        products = qa.names.products if len(qa.names.products) <= MAX_NAME_PRODUCTS else set()
        family = qa.names.family - products if len(products) <= MAX_NAME_PRODUCTS else set()
        preferred = self.by_dosage_form(products, qa.query, by_kind=True)
        if preferred == products and family:  # none named is of the form said: the brand's member that is
            whole = products | family  # (타이레놀 시럽 → 어린이타이레놀현탁액, 부루펜 시럽 → 어린이부루펜시럽)
            fit = self.by_dosage_form(whole, qa.query, by_kind=True)
            if fit != whole and fit <= family:
                preferred, products, family = fit, products | fit, family - fit
        if preferred == products:  # no form said (버물리 액 is 버물리에스액): the whole name before its variants
            preferred = products - self.variants_of_named(products, qa.names.keys)
        # for a young child, each named ingredient's products that dose the child (아세트아미노펜 4살 -> 세토펜현탁액,
        # 챔프시럽), even in a DUR question (5살 아들 아세트아미노펜 먹여도: the age rule, and the children's syrups)
        child_products = {
            canon: self.dosing_the_child(set(self.ingredient_products(canon)), qa.query)
            for canon in sorted(qa.names.ingredients)
        }
        # the named product when it doses the child (써스펜 좌약 for a 2-year-old: the suppository, not the brand's
        # syrups), else the brand's members that do (타이레놀 for a 5-year-old → 어린이타이레놀현탁액)
        for_child = self.for_child_by_name(products, family, qa)
        if for_child:
            preferred, products, family = for_child, products | for_child, family - for_child
        elif any(child_products.values()):  # the products named after the ingredient dose adults only
            preferred = set()
        for seq in sorted(products):  # sorted: ties rank the same in every process (str hashes vary)
            for i in self.product_docs.get(seq, []):
                out[i] = 1.0 if seq in preferred else 0.7
        for seq in sorted(family):  # the brand's other members (겔포스 -> 겔포스엠), below the named product
            for i in self.product_docs.get(seq, []):
                out.setdefault(i, FAMILY_WEIGHT)
        dur_question = any(sec.startswith("dur:") for sec in qa.sections)
        leaflet_question = not dur_question or bool(LEAFLET_ONLY_SECTIONS & set(qa.sections))
        for canon in sorted(qa.names.ingredients):
            for i in self.dur_by_ingredient.get(canon, []):
                out[i] = 1.0
            weights = self.ingredient_products(canon, dur_question, leaflet_question)  # within the defaults' products
            for_child = child_products[canon]
            weights.update({seq: max(weights.get(seq, 0.0), SINGLE_WEIGHT) for seq in for_child})
            in_form = self.by_dosage_form(set(weights), qa.query)
            in_form = (in_form & self.as_named(canon, set(weights), qa)) or in_form  # the form asked decides first
            in_form = (in_form & for_child) or for_child or in_form
            for seq, weight in sorted(weights.items()):
                for i in self.product_docs.get(seq, []):  # "클로트리마졸 크림": its creams before its pessaries
                    out.setdefault(i, weight if seq in in_form else weight - OTHER_FORM_PENALTY)
        if dur_question:
            bridged = {canon for seq in products for canon in self.product_ingredients.get(seq, ())}
            own = [(self.item_name(seq), self.product_ingredients.get(seq, set())) for seq in sorted(products)]
            for canon in sorted(bridged):
                for i in self.dur_by_ingredient.get(canon, []):
                    binds = any(binds_product(self.docs[i], name, held) for name, held in own)
                    out.setdefault(i, OWN_ROW_WEIGHT if binds else BRIDGED_WEIGHT)
            named = bridged | set(qa.names.ingredients)
            for i in list(out):
                if self.docs[i].source == "dur" and self.dur_pair(i) <= named and len(self.dur_pair(i)) == 2:
                    out[i] = 1.0  # both sides of a DUR pair are in the question (one may be via a product)
        return out

    def for_child_by_name(self, products: set[str], family: set[str], qa: QueryAnalysis) -> set[str]:
        """For a young child, each name's product that doses the child, or else its brand members that do: each name
        on its own (4살 타이레놀시럽 … 부루펜시럽 → 어린이타이레놀현탁액 and 어린이부루펜시럽, where the one name
        dosing the child among the products named had put the other brand's adult tablets first); empty for no child.

        The products named with no name read (none of the keys reaches them) are chosen among as one.
        """
        out: set[str] = set()
        reached: set[str] = set()
        for key in dict.fromkeys(qa.names.keys):
            mine = products & self.names.products.get(key, set())
            kin = {seq for seq in family if key in squash(self.item_name(seq))}
            reached |= mine
            out |= self.dosing_the_child(mine, qa.query, least=1) or self.dosing_the_child(mine | kin, qa.query)
        rest = products - reached
        if rest or not qa.names.keys:
            out |= self.dosing_the_child(rest, qa.query, least=1) or self.dosing_the_child(rest | family, qa.query)
        return out

    def named_kind(self, qa: QueryAnalysis) -> bool:
        """A class word of the question is the kind products are named by (관장약: 그린관장약, 성광관장약)."""
        return any(self.class_products.named_as(c) for c in qa.classes)

    def with_sections(self, cand_idx: list[int], members: set[str], sections: set[str], scores) -> list[int]:
        """`cand_idx` joined by the members' documents of `sections` that the question's words match best."""
        return list(dict.fromkeys([*cand_idx, *self.class_sections(members, sections, scores)]))

    def found_products(self, cand_idx: list[int]) -> set[str]:
        """The item_seqs of the candidates' documents."""
        return {self.docs[i].metadata.get("item_seq") for i in cand_idx}

    def class_members(
        self, qa: QueryAnalysis, cand_idx: list[int], named: dict[int, float], scores=None, asked_first=()
    ) -> dict[int, float]:
        """Candidates whose product is in a class the question names (감기약 먹고 운전: the cold medicines' leaflets)
        or, without a class, has the dosage form it names (코 스프레이, 질정), when it names no product or
        ingredient: the class chooses the products, the other words what is asked. Of a class, the products in
        the form the question names (어린이 감기시럽, 붙이는 멀미약) come first. With `scores` (BM25 of every
        document) and `asked_first` (leaflet sections: 이상반응 when the frame reads a class's side effect), the class's
        documents of those sections that the question's words match best join too (`class_sections`), found or not."""
        if qa.names:
            return {}
        members = self.class_products.products(qa.classes, self.lexicon) if qa.classes else set()
        if not members and scores is not None and (members := self.symptom_in_form(qa)):
            # 발톱 무좀 … 네일라카: the products for the symptom in the form named, found or not
            if not members & self.found_products(cand_idx):
                cand_idx = self.with_sections(cand_idx, members, asked_sections(qa), scores)
        if members and scores is not None and asked_first:
            cand_idx = self.with_sections(cand_idx, members, set(asked_first), scores)
        elif members and scores is not None and self.named_kind(qa) and not members & self.found_products(cand_idx):
            # 세살 아들 … 관장약 … 남은거 또 써도: none of the products the kind names found; their asked sections join
            cand_idx = self.with_sections(cand_idx, members, asked_sections(qa), scores)
        seqs = {i: self.docs[i].metadata.get("item_seq") for i in cand_idx if i not in named}
        pool = {seq for seq in seqs.values() if seq and (seq in members or not members)}
        if not pool or not (members or question_forms(qa.query)):
            return {}
        preferred = self.by_dosage_form(pool, qa.query)
        if len(qa.classes) > 1 and (said_of := said_before(qa.query, list(qa.classes))):
            said_of_members = self.class_products.products(said_of, self.lexicon)  # 가루 설사약 beside 감기약
            preferred = (preferred & said_of_members) | (pool - said_of_members)
        if for_child := self.dosing_the_child(pool, qa.query):  # 아기 해열제: those dosing a baby, not adults' tablets
            preferred = (preferred & for_child) or for_child
        if not members and preferred == pool:
            return {}  # a form the question names, but no candidate has it
        out = {
            i: CLASS_WEIGHT if seq in preferred else CLASS_WEIGHT - OTHER_FORM_PENALTY
            for i, seq in seqs.items()
            if seq in pool and (seq in preferred or members)
        }
        # the sections the question asks, of the class's products already found (감기약 먹고 운전: their 주의사항,
        # where 운전 is, although the efficacy sections matched the class's words best)
        asked = set(qa.sections) - {"efcy"}
        best = {}
        for i, w in out.items():  # each product's weight, in candidate order (never in set order)
            best[seqs[i]] = max(w, best.get(seqs[i], 0.0))
        found = sorted(best, key=lambda seq: (-best[seq], seq))
        for seq in found[:MAX_CLASS_SECTION_PRODUCTS]:
            for i in self.product_docs.get(seq, []):
                if i not in named and self.docs[i].metadata.get("section") in asked:
                    out.setdefault(i, CLASS_WEIGHT if seq in preferred else CLASS_WEIGHT - OTHER_FORM_PENALTY)
        return out

    def symptom_in_form(self, qa: QueryAnalysis) -> set[str]:
        """With no class word, the products whose 효능 says the question's symptom (the head word of each symptom rule
        it matches) and whose name has the form it names (무좀 … 네일라카); empty without a symptom or a form, or when
        the form does not narrow them."""
        forms = question_forms(qa.query)
        heads = self.lexicon.heads(qa.query)
        if not forms or not heads:
            return set()
        for_symptom = self.class_products.with_efficacy(heads)
        in_form = self.by_dosage_form(for_symptom, qa.query)
        return in_form if in_form != for_symptom else set()

    def class_sections(
        self, members: set[str], sections: set[str], scores, k: int = MAX_CLASS_SECTION_DOCS
    ) -> list[int]:
        """The `k` documents of the class's products in `sections` that the question's words match best (BM25 > 0):
        두통약 먹었더니 메슥거려요 → the headache medicines' 이상반응 sections that list 구역, not the efficacy of
        medicines for nausea."""
        idx = sorted(i for seq in members for i in self.product_docs.get(seq, ()) if self.sections[i] in sections)
        ranked = sorted(idx, key=lambda i: -float(scores[i]))
        return [i for i in ranked[:k] if scores[i] > 0]

    def ingredient_products(
        self, canon: str, dur_question: bool = False, leaflet_question: bool = True
    ) -> dict[str, float]:
        """Products a named ingredient points at: its single-ingredient products (0.9) and, when the ingredient is
        in few enough products, its combinations too (0.7). An ingredient that many products share (우르소데옥시콜산,
        216) still reaches the products made of it alone, which answer "what is this ingredient for" best. In a DUR
        question (임신, 같이 먹어도) the ingredient's DUR rows answer, so the few-products case applies, every product
        alike (0.8: a combination's 상호작용 section answers as well as a single product's); the single products
        join only when the question also asks a leaflet section (덱시부프로펜 시럽 애기 몇시간마다: 용법 and 소아)."""
        seqs = self.names.ingredient_products.get(canon, set())
        single = {seq for seq in seqs if self.product_ingredients.get(seq) == {canon}}
        weight = DUR_PRODUCT_WEIGHT if dur_question else COMBINATION_WEIGHT
        out = dict.fromkeys(seqs, weight) if len(seqs) <= MAX_NAME_PRODUCTS else {}
        if leaflet_question and len(single) <= MAX_SINGLE_PRODUCTS:
            out.update(dict.fromkeys(single, SINGLE_WEIGHT))
        return out

    def dosing_the_child(self, products: set[str], query: str, least: int = 2) -> set[str]:
        """Of a brand's products, those whose 용법·용량 doses the young child the question is about (5살 아이 타이레놀
        -> 어린이타이레놀현탁액, not 타이레놀정500; `retrievers.age_doses`); empty when the question is about no child
        under 12, says it means the adults' product (어른 타이레놀, 성인용), or none of them doses the child; and
        when there are fewer than `least` to choose among."""
        ages = child_ages(query)
        if ages is None or ages[1] > CHILD_AGE or len(products) < least or any(w in query for w in ADULT_PRODUCT_WORDS):
            return set()
        return {seq for seq in products if doses_child(self.section_text(seq, "useMethod"), ages)}

    def section_text(self, seq: str, section: str) -> str:
        """The text of a product's leaflet section ("" when the index lacks it)."""
        for i in self.product_docs.get(seq, []):
            if self.sections[i] == section:
                return self.docs[i].text
        return ""

    def by_dosage_form(self, products: set[str], query: str, by_kind: bool = False) -> set[str]:
        """Among products a name matched, those whose name has a dosage form the question mentions
        (클리어틴 크림 -> 클리어틴크림, not 클리어틴외용액), or those that are swallowed when it speaks only of taking
        the medicine (먹으면, 복용), or those of the form it says in other words (붙이는 멀미약 → a patch, 가루 변비약 →
        granules; `form_kinds.said_kinds`); all of them when it says none of these or none fits. `by_kind`: products
        named by the question, whose form word may not be their name's (타이레놀시럽 → 어린이타이레놀현탁액, a liquid
        too); a class's or symptom's products are chosen by the form as names write it (무좀 … 파스 asks of a plaster
        for pain, not of an antifungal in some patch form)."""
        forms = question_forms(query)
        said = set() if forms else said_kinds(query)
        by_mouth = not forms and not said and taken_by_mouth(query)
        if not (forms or said or by_mouth) or len(products) < 2:
            return products
        names = {
            seq: self.docs[self.product_docs[seq][0]].metadata.get("item_name", "")
            for seq in products
            if self.product_docs.get(seq)
        }
        if by_mouth:  # "이부프로펜 빈속에 먹으면": its tablets and capsules before its plasters
            chosen = {seq for seq, name in names.items() if not external_form(name)}
        elif said:
            chosen = {seq for seq, name in names.items() if of_kinds(said, name)}
        else:
            chosen = {seq for seq, name in names.items() if any(f in name for f in forms)}
            if not chosen and by_kind:
                chosen = {seq for seq, name in names.items() if any(of_kinds(asked_kinds(f), name) for f in forms)}
        return chosen or products

    def variants_of_named(self, products: set[str], keys) -> set[str]:
        """Among products a name matched, those a key reaches only through a variant the question does not write
        while another of that key's products is the whole name, strength and form aside (화이투벤큐 →
        화이투벤큐플러스연질캡슐, beside 화이투벤큐연질캡슐); none for a key no product is named exactly by."""
        out: set[str] = set()
        for key in keys:
            mine = products & self.names.products.get(key, set())
            exact = {seq for seq in mine if self.product_docs.get(seq) and name_stem(self.item_name(seq)) == key}
            out |= mine - exact if exact else set()
        return out

    def item_name(self, seq: str) -> str:
        """The product's name as its leaflet gives it."""
        return str(self.docs[self.product_docs[seq][0]].metadata.get("item_name", ""))

    def as_named(self, canon: str, products: set[str], qa: QueryAnalysis) -> set[str]:
        """Among an ingredient's products, those made of the salt the question names as the corpus writes it
        (글루콘산클로르헥시딘: its gluconate solutions before the acetate dressings); all of them when the question
        says just the ingredient or no product has that salt."""
        named = {
            key for key in qa.names.keys if key != canon and canon in key and self.names.ingredients.get(key) == canon
        }
        if not named:
            return products
        chosen = set()
        for seq in products:
            ingredients = self.docs[self.product_docs[seq][0]].metadata.get("main_ingr") or ""
            if any(named & ingredient_keys(part) for part in ingredients.split(",")):
                chosen.add(seq)
        return chosen or products


def asked_sections(qa: QueryAnalysis) -> set[str]:
    """The leaflet sections the question asks or implies, less 효능 (which chose the products); 효능 when none."""
    return (set(qa.sections) | set(qa.implied_sections)) - {"efcy"} or {"efcy"}
