"""The hybrid searcher: the retrieval stages of one query, in order, each in a module of its own.

  1. understanding (`query_analysis`): names recognised (products, ingredients), sections asked about, class words,
     rule expansions; the BM25 query's tokens (`lexical_query`)
  2. candidates: BM25 top `bm25_depth`, the dense top `dense_depth`, and the documents the recognised names and class
     words point at (`candidates`, `class_products`)
  3. dense (`dense_search`, when `dense_policy` says the question needs it): the question's vector and cosines
  4. fusion (`fusion`): min-max-normalised BM25 and dense scores plus name and section matches, weighted (or
     reciprocal-rank fusion); top `candidates`; then the reranker when one is configured (`rerankers`)
  5. the question frame (read while the question's embedding runs) and how the top hits meet it (`question_frame`,
     `frame_features`)
  6. the OOS guard (`oos_guard`)

`retrievers.index_open.open_searcher` opens an index into a `Searcher`; programs see it as a
`retrievers.backend.SearchBackend`.

Example:
    >>> from retrievers.index_open import open_searcher
    >>> s = open_searcher()
    >>> s.retrieve("게보린 부작용").hits[0].id
    'easydrug:197900277:se'
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from retrievers.aspect_model import load_aspect_model
from retrievers.aspects import load_vocabulary
from retrievers.bm25_index import BM25Index
from retrievers.candidates import Candidates
from retrievers.class_products import ClassProducts, kinds_heard, made_of_alone, names_a_known_kind
from retrievers.condition_words import about_elsewhere, load_conditions, named_conditions
from retrievers.dense_search import DenseSearch
from retrievers.documents import Document, Hit
from retrievers.embedders import Embedder
from retrievers.frame_features import frame_features, implied_by_frame
from retrievers.fusion import fuse_features
from retrievers.index_store import IndexCorrupt
from retrievers.lexical_query import TermTokens, query_tokens
from retrievers.lexicon import Lexicon
from retrievers.memo import remembered
from retrievers.names import NameIndex
from retrievers.not_covered import supplement_words
from retrievers.oos_guard import guard
from retrievers.population import forget_readings as forget_population
from retrievers.population import people_words
from retrievers.query_analysis import QueryAnalysis, QueryError, analyse, section_feature
from retrievers.query_coverage import bought_abroad, said_to_become, said_to_have, uncovered_names, unknown_words
from retrievers.question_frame import QuestionFrame, read_frame
from retrievers.question_frame import forget_readings as forget_kind_readings
from retrievers.rerankers import Reranker
from retrievers.result import RetrievalResult
from retrievers.scope_model import load_scope_model
from retrievers.settings import RetrievalSettings
from retrievers.tokenizer import KiwiTokenizer
from retrievers.vector_cache import VectorCache
from retrievers.vector_store import ChromaStore

CLASS_MEMO = 512  # class words whose products `class_members` remembers
VAGUE_WARNING = "the question names no medicine, symptom or topic: nothing searched"


@dataclass
class Gathered:
    """Candidates of one query with raw per-stage features, before any weighting."""

    analysis: QueryAnalysis
    cand_idx: list[int]
    raw: dict[str, list[float]]
    relevance: float
    timings: dict = field(default_factory=dict)
    depth: list[int] = field(default_factory=list)  # best BM25/dense rank per candidate (10**6: names only)
    lexical: bool = True  # BM25 matched some word of the query
    morphemes: list[str] = field(default_factory=list)  # the query's own Kiwi tokens (no expansion terms)
    frame: QuestionFrame | None = None  # what the question asks (read while its embedding is computed)
    conditions: list[str] = field(default_factory=list)  # condition words of the 효능 sections it names (입술 …)
    has_rules: bool = False  # a rule keeps it in scope (`Searcher.kept_by_rules`)
    off_topic: bool = False  # the scope model alone blocks it: no embedding was made (dense scores all 0)

    @property
    def vague(self) -> bool:
        """Nothing to go on but the dense vector: no name, symptom, section or corpus word ("약", "질문")."""
        qa = self.analysis
        return not (qa.names or qa.expansions or qa.sections or self.lexical)


class Searcher:
    """Loaded once, shared across requests (read-only after construction); implements `SearchBackend`."""

    def __init__(
        self,
        docs: list[Document],
        bm25: BM25Index,
        tokenizer: KiwiTokenizer,
        names: NameIndex,
        lexicon: Lexicon,
        settings: RetrievalSettings,
        embedder: Embedder | None = None,
        store: ChromaStore | None = None,
        vectors: VectorCache | None = None,
        reranker: Reranker | None = None,
    ):
        self.docs = docs
        self.by_id = {d.id: i for i, d in enumerate(docs)}
        if bm25.ids != [d.id for d in docs]:
            raise IndexCorrupt("BM25 index and documents disagree: run `yaksa index --rebuild`")
        self.bm25 = bm25
        self.tokenizer = tokenizer
        self._readings: dict[str, tuple[str, bool]] = {}  # question -> `KiwiTokenizer.reading`
        self.names = names
        names.know_common_words(tokenizer.common_noun)
        names.know_unknown_words(tokenizer.unknown_noun)
        self.lexicon = lexicon
        self.settings = settings
        self.reranker = reranker
        self.notes: list[str] = []
        self.dense = DenseSearch(docs, embedder, store, vectors, lexicon.rule_texts())
        self.class_products = ClassProducts.from_documents(docs)
        self.candidates = Candidates(docs, names, self.class_products, lexicon)
        self._terms = TermTokens(tokenizer)  # tokens of the rule-made texts of BM25 queries
        self._class_memo: dict[str, frozenset[str]] = {}  # class word -> its products (the index's, never a text's)

    @property
    def scorer(self) -> str:
        return self.reranker.name if self.reranker else "fused"

    @property
    def embedder(self) -> Embedder | None:
        return self.dense.embedder

    @property
    def store(self) -> ChromaStore | None:
        return self.dense.store

    def warm_up(self) -> None:
        """Pay Kiwi's and bm25s's first-call costs (seconds) and the name index's lookup tables at load time
        rather than on the first question."""
        self.bm25.scores(self.tokenizer("두통 약"))
        self.names.match("개보린 카보시스테인")  # builds the same-sounding and close-spelling tables
        load_scope_model(), load_aspect_model()  # their JSON (~0.3 s), read once
        if self.embedder is not None:
            self.embedder.query(["두통 약"])

    # -- the SearchBackend protocol -------------------------------------------------------------

    def get(self, doc_id: str) -> Document | None:
        i = self.by_id.get(doc_id)
        return self.docs[i] if i is not None else None

    def dur_rules(self, ingredients: list[str], dur_types: list[str]) -> list[Document]:
        """DUR rows of the given types (codes like ``cc`` or names like 임부금기) for the given ingredients, in the
        ingredients' order (callers cut the list, so it must not depend on hashing)."""
        wanted = list(dict.fromkeys(canon for name in ingredients if (canon := self.names.canonical(name))))
        out = []
        for canon in wanted:
            for i in self.candidates.dur_by_ingredient.get(canon, []):
                d = self.docs[i]
                if d.metadata.get("dur_code") in dur_types or d.metadata.get("dur_type") in dur_types:
                    out.append(d)
        return list({d.id: d for d in out}.values())

    def gather(
        self, query: str, extra_terms: list[str] | None = None, avoid_terms: list[str] | None = None
    ) -> Gathered:
        """Stages 1-3: analyse the query and collect candidates with their raw features (no weights involved), and
        read its frame (stage 5's first half) while an embedding, if any, runs on its worker thread."""
        s = self.settings
        timings: dict[str, float] = {}
        t = time.perf_counter()
        qa = analyse(query, self.names, self.lexicon, s.max_query_chars, reading=self._reading)
        # a name or a symptom rule says more than a condition word, in scope and in what is asked
        conditions = [] if qa.names or qa.expansions else self.conditions_named(qa.query)
        if conditions and not (qa.sections or qa.implied_sections):
            qa.implied_sections = ["efcy"]  # 코피가 자주 나요: like a symptom a rule reads, it asks what helps
        timings["analyse_ms"] = _ms(t)

        # embeds meanwhile; not a question the scope model alone blocks, whose guard reads no dense score
        has_rules = self.kept_by_rules(qa, conditions)
        off_topic = self.scope_model_decides(qa, has_rules) and not self.about_medicine(qa.query)
        vector = (lambda: None) if off_topic else self.dense.vector_later(qa, s.dense, self.lexicon, s.max_query_tokens)

        t = time.perf_counter()
        morphemes, q_tokens = query_tokens(
            qa, self.tokenizer, self.names, self.lexicon, extra_terms, avoid_terms, self._terms
        )
        bm25_all = self.bm25.scores(q_tokens)
        bm25_top = self.bm25.top(q_tokens, s.bm25_depth, bm25_all) if q_tokens else []
        timings["bm25_ms"] = _ms(t)

        t = time.perf_counter()
        name_weight = self.candidates.name_candidates(qa)
        timings["names_ms"] = _ms(t)

        t = time.perf_counter()
        frame = read_frame(qa.query, self.names, self.lexicon, morphemes, found=qa.names, plain=self._plain(qa.query))
        timings["frame_ms"] = _ms(t)
        # 단자민 사왔는데 판콜에스 마셨어요, 자기 전에 먹어도: the 상호작용 the frame reads in two medicines is implied
        # beside the 용법 the words ask
        qa.implied_sections = [*qa.implied_sections, *implied_by_frame(frame, qa.sections, qa.implied_sections)]

        t = time.perf_counter()
        qvec = vector()
        dense_top = self.dense.top(qvec, s.dense_depth) if qvec is not None else []
        relevance = dense_top[0][1] if dense_top else 0.0
        timings["dense_ms"] = _ms(t)  # what is left of the embedding after the stages above, and the search

        t = time.perf_counter()
        cand = dict.fromkeys([i for i, _ in bm25_top])
        cand.update(dict.fromkeys(self.by_id[i] for i, _ in dense_top if i in self.by_id))
        cand.update(dict.fromkeys(name_weight))
        # a class's side effect (두통약 먹었더니 메슥거려요): the symptom's words pick medicines for it, so the class's
        # own 이상반응 sections that list it join the candidates
        first = ["se"] if frame.aspects[:1] == ("side_effects",) else []
        class_weight = self.candidates.class_members(qa, list(cand), name_weight, bm25_all, first)
        cand.update(dict.fromkeys(class_weight))
        cand_idx = list(cand)
        name_weight.update(class_weight)
        bm25_rank = {i: r for r, (i, _) in enumerate(bm25_top)}
        dense_rank = {self.by_id.get(i, -1): r for r, (i, _) in enumerate(dense_top)}
        depth = [min(bm25_rank.get(i, 10**6), dense_rank.get(i, 10**6)) for i in cand_idx]
        sections = self.candidates.sections
        raw = {
            "bm25": [float(bm25_all[i]) for i in cand_idx],
            "dense": self.dense.scores(cand_idx, qvec, dict(dense_top)),
            "product": [name_weight.get(i, 0.0) for i in cand_idx],
            "section": [section_feature(sections[i], qa) for i in cand_idx],
        }
        timings["features_ms"] = _ms(t)
        return Gathered(
            qa,
            cand_idx,
            raw,
            float(relevance),
            timings,
            depth,
            bool(bm25_top),
            morphemes,
            frame,
            conditions,
            has_rules,
            off_topic,
        )

    def rank(self, gathered: Gathered, weights: dict | None = None, fusion: str | None = None) -> list[Hit]:
        """Stage 3: fuse the features with `weights` (default: the settings') and return the top candidates."""
        s = self.settings
        fused = fuse_features(gathered.raw, weights or s.weights, fusion or s.fusion, s.rrf_k)
        order = sorted(range(len(fused)), key=lambda j: -fused[j])[: s.candidates]
        return [
            Hit(
                self.docs[gathered.cand_idx[j]],
                fused[j],
                {name: round(float(vals[j]), 4) for name, vals in gathered.raw.items()} | {"fused": round(fused[j], 4)},
            )
            for j in order
        ]

    def retrieve(
        self,
        query: str,
        k: int | None = None,
        extra_terms: list[str] | None = None,
        avoid_terms: list[str] | None = None,
    ) -> RetrievalResult:
        s = self.settings
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise QueryError(f"k must be a whole number of documents, at least 1 (got {k!r})")
        k = k or s.top_k
        g = self.gather(query, extra_terms, avoid_terms)
        qa, timings = g.analysis, g.timings
        t = time.perf_counter()
        candidates = self.rank(g)
        timings["fusion_ms"] = _ms(t)
        t = time.perf_counter()
        hits = self.rerank(qa.query, candidates, k)
        timings["rerank_ms"] = _ms(t)
        blocked, reason = self.guard(g, hits)
        warnings = [*qa.warnings, *self.notes]
        if g.vague and not blocked:
            hits = []  # in scope, but a document chosen by the dense vector alone would answer another question
            warnings.append(VAGUE_WARNING)
        t = time.perf_counter()
        frame, features = self.frame_of(g, [] if blocked else hits)
        timings["frame_features_ms"] = _ms(t)
        return RetrievalResult(
            query=qa.query,
            hits=[] if blocked else hits,
            candidates=candidates,
            scorer=self.scorer,
            top_score=hits[0].score if hits else 0.0,
            relevance=g.relevance,
            out_of_scope=blocked,
            oos_reason=reason,
            names=list(qa.names.keys),
            sections=qa.sections,
            expansions=list(qa.expansions),
            read_as={**qa.names.heard, **kinds_heard(qa.query, qa.classes, self.class_products, self.lexicon)},
            warnings=warnings,
            timings=timings,
            frame=frame,
            frame_features=features,
        )

    def frame_of(self, g: Gathered, hits: list[Hit]) -> tuple[QuestionFrame, dict[str, float]]:
        """What the query asks (`QuestionFrame`, read with the analysis's name match) and how the top hits meet it
        (`retrievers.frame_features`), for the retrieval evaluator."""
        qa = g.analysis
        frame = g.frame
        if frame is None:
            frame = read_frame(
                qa.query, self.names, self.lexicon, g.morphemes, found=qa.names, plain=self._plain(qa.query)
            )
        features = frame_features(
            frame,
            hits,
            named=bool(qa.names.keys),
            named_products=qa.names.products | qa.names.family,
            named_ingredients=qa.names.ingredients,
            efficacy=self._efficacy_text,
            lexicon=self.lexicon,
            canonical=self.names.canonical,
        )
        return frame, features

    def _efficacy_text(self, seq: str) -> str:
        doc = self.get(f"easydrug:{seq}:efcy")
        return doc.text if doc else ""

    def class_members(self, classes: list[str]) -> set[str]:
        """The products each class word names, read from their 효능 sections (`retrievers.class_products`); for a
        class word that is a dosage form (파스, 연고) and finds none so, the products of that form, narrowed to
        those whose 효능 says what the lexicon reads the word as (파스 → 진통, 소염: not a motion-sickness patch)."""
        out: set[str] = set()
        for word in classes:
            out |= remembered(self._class_memo, word, lambda w=word: frozenset(self._class_of(w)), CLASS_MEMO)
        return out

    def _class_of(self, word: str) -> set[str]:
        members = self.class_products.products([word], self.lexicon)
        if not members and (members := self.class_products.of_form(word)):
            meant = self.class_products.with_efficacy(self.lexicon.expansion_terms(word))
            members = (members & meant) or members
        return members | self.made_of_alone(word, members)

    def made_of_alone(self, word: str, members: set[str]) -> set[str]:
        """The products made of one ingredient alone that the class word's expansion rules name (인공눈물 →
        히알루론산나트륨; `class_products.made_of_alone`), in a dosage form the class's `members` have."""
        terms = self.lexicon.expansion_terms(word)
        canons = [c for t in terms for c in sorted(self.names.match(t, readings=False).ingredients)]
        made = self.candidates.product_ingredients
        return made_of_alone(canons, self.names.ingredient_products, made, self.class_products.names, members)

    def forget_texts(self) -> None:
        """Drop every memo kept per question text: query vectors, readings, names, rule matches, Kiwi analyses, who a
        question is about, its kinds of medicine and its aspect probabilities (a benchmark times each question as a
        new one)."""
        self.dense.forget_queries()
        self._readings.clear()
        for memo in (getattr(self.names, "_match_memo", None), self.lexicon._memo, self.lexicon._rule_memo):
            if memo is not None:
                memo.clear()
        if hasattr(self.tokenizer, "forget"):
            self.tokenizer.forget()
        forget_population()
        forget_kind_readings()
        load_aspect_model().forget()

    def query_coverage(self, query: str, names: list[str], hits: list[Hit]) -> dict:
        """What of `query` the `hits` leave out (`retrievers.query_coverage`): recognised `names` no hit mentions
        and words nobody knows (Kiwi's unknown words, and nouns written together around a proper noun, none of which
        the corpus uses). Not part of `retrieve` (it costs a second Kiwi pass); the program asks for it."""
        vocabulary = self.bm25.vocabulary
        # a brand Kiwi splits into nouns (타미플루 -> 타미 + 플루) is unknown when the corpus uses none of its nouns
        compounds = [
            w for w, nouns in self.tokenizer.proper_compounds(query) if not any(n in vocabulary for n in nouns)
        ]
        # …or, written as what is taken (타미플루 먹는 중), one whose proper nouns the corpus does not use
        compounds += [
            w
            for w, proper in self.tokenizer.taken_compounds(query)
            if w not in compounds and not any(n in vocabulary for n in proper) and not self.names.match(w).keys
        ]
        branded = self.names.brands_before_extensions(query, self._noun)  # 인사돌 플러스: a brand the corpus lacks
        # a proper noun Kiwi knows, written as what is taken (리리카 먹고), that names no product or ingredient and
        # is no brand the rules read as its ingredient (타이레놀: an index without its leaflets answers for that)
        # and a brand Kiwi cuts with a numeral or 아니 (렉사프로 먹은지, 테아닌 영양제), read by no name or class word
        taken = [
            w
            for w in (*self.tokenizer.taken_proper_nouns(query), *self.tokenizer.broken_names(query))
            if not self.names.match(w).keys and not self.lexicon.target_words(w)
        ]
        words = [*self.tokenizer.unknown_words(query), *compounds, *branded, *taken, *bought_abroad(query)]
        # 아이가 수족구인데: a condition, no product; 변이 시커매졌어요: what became of something, no product
        words = [w for w in words if not said_to_have(query, w) and not said_to_become(query, w)]
        return {
            "names_uncovered": uncovered_names(names, hits),
            "unknown_words": unknown_words(words, vocabulary, names, hits),
        }

    def _noun(self, word: str) -> bool:
        """Whether Kiwi reads `word` as a noun with at most particles after it, no verb, adjective, copula or ending
        (인사돌 → 인사 + 도 + ㄹ; not 붙이고, 초기인데, 같아)."""
        tagged = self.tokenizer.tagged(word) if hasattr(self.tokenizer, "tagged") else []
        return bool(tagged) and tagged[0].tag.startswith("NN") and not any(t.tag[0] in "VE" for t in tagged)

    def _reading(self, query: str) -> tuple[str, bool]:
        """`KiwiTokenizer.reading` (the question without adverbs; whether it names 약), remembered for recent
        questions."""
        return remembered(self._readings, query, lambda: self.tokenizer.reading(query), 4096)

    def _plain(self, query: str) -> str:
        """The question as the rules are written (`_reading`'s text), "" without a Kiwi tokenizer."""
        return self._reading(query)[0] if hasattr(self.tokenizer, "reading") else ""

    def guard(self, g: Gathered, hits: list[Hit], reranked: bool | None = None) -> tuple[bool, str]:
        """Stage 5: the OOS guard for gathered evidence and final hits (`reranked`: whether `hits` carry
        reranker scores; default: whether a reranker is configured)."""
        s = self.settings
        reranked = self.reranker is not None if reranked is None else reranked
        qa = g.analysis
        if self.embedder is None and not qa.names and not qa.expansions:
            return True, "no drug name or symptom recognised (dense vectors not built: run `yaksa index`)"
        top = hits[0].score if hits else 0.0
        has_rules = g.has_rules
        model = s.scope_model and not reranked and not (qa.names or has_rules)
        return guard(
            self.scorer if reranked else "fused",
            top,
            g.relevance,
            has_names=bool(qa.names),
            has_rules=has_rules,
            min_top_score=s.oos_min_top_score,
            min_relevance=s.oos_min_relevance,
            min_dense=s.oos_min_dense,
            has_hits=bool(hits),
            has_sections=bool(qa.sections),
            rescue_dense=s.oos_rescue_dense,
            # read only when nothing else keeps the question: the guard asks it of those alone
            elsewhere=not (qa.names or has_rules) and not model and self.about_elsewhere(qa.query),
            about_medicine=load_scope_model().probability(qa.query) if model else None,
        )

    def kept_by_rules(self, qa, conditions) -> bool:
        """Whether a rule keeps the question in scope: a symptom rule, 약 or a kind of medicine said, a supplement
        (루테인, 오메가3: taken like medicine, not in the corpus), or, with the scope model off, a condition the 효능
        sections name (입술이 부르텄어요)."""
        return (
            bool(qa.expansions)
            or qa.says_medicine
            or names_a_known_kind(qa.query, self.class_products, self.lexicon)
            or bool(supplement_words(qa.query, self.names))
            or (bool(conditions) and not self.settings.scope_model)
        )

    def scope_model_decides(self, qa, has_rules: bool) -> bool:
        """Whether the scope model alone decides the question's scope: it is on, no reranker scores the hits, and
        no name or rule (`has_rules`: `kept_by_rules`) keeps the question."""
        s = self.settings
        return s.scope_model and self.reranker is None and not qa.names and not has_rules

    def about_medicine(self, query: str) -> bool:
        """The scope model reads `query` as about medicines (`retrievers.scope_model`)."""
        return load_scope_model().about_medicine(query)

    def about_elsewhere(self, query: str) -> bool:
        """Every noun of `query` is one no leaflet uses (`retrievers.condition_words.about_elsewhere`)."""
        return about_elsewhere(self.tokenizer.tagged(query), load_vocabulary().idf, people_words())

    def conditions_named(self, query: str) -> list[str]:
        """The condition words of the 효능 sections `query` names, when it writes no noun the leaflets never use
        (`retrievers.condition_words`)."""
        return named_conditions(self.tokenizer.tagged(query), load_conditions(), load_vocabulary().idf, people_words())

    def rerank(self, query: str, candidates: list[Hit], k: int) -> list[Hit]:
        if self.reranker is None:
            return candidates[:k]
        scores = self.reranker.score(query, [h.doc.text for h in candidates])
        reranked = []
        for h, sc in zip(candidates, scores, strict=True):
            h.scores["rerank"] = round(float(sc), 6)
            if sc >= self.settings.min_rerank_score:
                reranked.append(Hit(h.doc, float(sc), h.scores))
        reranked.sort(key=lambda h: -h.score)
        return reranked[:k]


def _ms(t: float) -> float:
    return round((time.perf_counter() - t) * 1000, 2)
