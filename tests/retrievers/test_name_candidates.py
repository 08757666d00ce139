import json
import shutil

import pytest

from retrievers.candidates import COMBINATION_WEIGHT, OTHER_FORM_PENALTY
from retrievers.lexical_query import spelling_tokens


def test_a_named_ingredient_reaches_its_single_ingredient_products(mini_searcher):
    """부루펜정 is ibuprofen alone: an ingredient question ranks its 효능 first, as a single-ingredient product."""
    hits = mini_searcher.retrieve("이부프로펜 성분은 뭐에 좋아요").hits
    assert hits[0].id == "easydrug:197700120:efcy"
    assert hits[0].scores["product"] == 0.9


def test_combination_products_rank_below_single_ingredient_ones(mini_searcher):
    policy = mini_searcher.candidates
    weights = policy.ingredient_products(next(iter(mini_searcher.names.match("아세트아미노펜").ingredients)))
    assert weights
    assert set(weights.values()) == {COMBINATION_WEIGHT}  # 게보린, 판콜: combinations only
    assert policy.ingredient_products(next(iter(mini_searcher.names.match("이부프로펜").ingredients))) == {
        "197700120": 0.9
    }


def test_dur_questions_do_not_pull_in_single_ingredient_leaflets(mini_searcher):
    canon = next(iter(mini_searcher.names.match("이부프로펜").ingredients))
    policy = mini_searcher.candidates
    assert policy.ingredient_products(canon, dur_question=True, leaflet_question=False) == {"197700120": 0.8}


def test_a_dur_word_beside_a_leaflet_question_keeps_the_single_ingredient_leaflets(mini_searcher):
    """애기 (a child: 특정연령대금기) beside 몇시간마다 (용법): the leaflet's 용법 answers, so it is a candidate."""
    result = mini_searcher.retrieve("이부프로펜 애기 몇시간마다 먹여요")
    assert {"useMethod", "dur:bc"} <= set(result.sections)
    assert result.hits[0].id == "easydrug:197700120:useMethod"
    assert result.hits[0].scores["product"] == 0.9
    pure = mini_searcher.retrieve("이부프로펜 애기 먹여도 돼요")  # a DUR question only: the few-products weight
    assert {h.scores["product"] for h in pure.hits if h.id.startswith("easydrug:197700120")} == {0.8}


def test_a_common_spelling_ranks_like_the_corpus_spelling(mini_searcher):
    """클로페니라민 (common) for 클로르페니라민말레산염 (leaflet): the corpus's spellings join the BM25 query."""
    qa = mini_searcher.gather("클로페니라민 졸려요").analysis
    assert "클로르페니라민말레산염" in spelling_tokens(qa, [], mini_searcher.tokenizer, mini_searcher.names)
    common = [h.id for h in mini_searcher.rank(mini_searcher.gather("클로페니라민 졸려요"))[:5]]
    corpus = [h.id for h in mini_searcher.rank(mini_searcher.gather("클로르페니라민말레산염 졸려요"))[:5]]
    assert common == corpus
    assert common[0] == "easydrug:196800036:se"


def test_a_named_dosage_form_ranks_that_form_first_among_an_ingredients_products(mini_searcher):
    """시메티콘 is in 베아제정, 훼스탈플러스정 and 겔포스엠현탁액: "현탁액" puts the suspension's section first."""
    plain = mini_searcher.rank(mini_searcher.gather("시메티콘 먹는법"))
    assert {h.scores["product"] for h in plain[:3]} == {COMBINATION_WEIGHT}
    formed = mini_searcher.rank(mini_searcher.gather("시메티콘 현탁액 먹는법"))
    assert formed[0].id == "easydrug:199400883:useMethod"
    assert formed[0].scores["product"] == COMBINATION_WEIGHT
    assert {h.scores["product"] for h in formed[1:3]} == {round(COMBINATION_WEIGHT - OTHER_FORM_PENALTY, 4)}


@pytest.fixture(scope="module")
def searcher_with_a_plaster(tmp_path_factory):
    """The mini corpus plus the real leaflet of an ibuprofen plaster (이부스타플라스타): one ingredient, two ways."""
    from retrievers.corpus import corpus_dir
    from retrievers.index_builder import build_index
    from retrievers.index_open import open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder
    from yaksa.testing.mini_index import MINI_CORPUS

    root = tmp_path_factory.mktemp("plaster_corpus")
    shutil.copytree(MINI_CORPUS, root / "corpus")
    rows = (corpus_dir() / "easydrug" / "easydrug.jsonl").read_text(encoding="utf-8").splitlines()
    plaster = next(r for r in rows if json.loads(r)["itemSeq"] == "202006761")
    with (root / "corpus" / "easydrug" / "easydrug.jsonl").open("a", encoding="utf-8") as f:
        f.write(plaster + "\n")
    build_index(root / "corpus", root / "index", embedder=HashEmbedder(), shipped_vectors=None, progress=False)
    return open_searcher(root / "index", embedder=HashEmbedder(), shared=False)


def test_a_question_about_swallowing_prefers_the_tablets_to_the_plaster(searcher_with_a_plaster):
    """이부프로펜 빈속에 먹으면: 부루펜정's sections outrank the plaster's; 붙이는 법 keeps both."""
    s = searcher_with_a_plaster
    both = {"197700120", "202006761"}
    assert s.candidates.by_dosage_form(both, "이부프로펜 빈속에 먹으면 위 상해요") == {"197700120"}
    assert s.candidates.by_dosage_form(both, "이부프로펜 바르는 법") == both  # no product of that form: all
    hits = s.retrieve("이부프로펜 빈속에 먹으면 위 상해요", k=5).hits
    tablet = [h.scores["product"] for h in hits if h.doc.metadata.get("item_seq") == "197700120"]
    plaster = [h.scores["product"] for h in hits if h.doc.metadata.get("item_seq") == "202006761"]
    assert tablet and max(tablet) > max(plaster, default=0.0)
    assert hits[0].doc.metadata["item_seq"] == "197700120"


def test_a_form_said_in_other_words_prefers_the_products_of_that_form(searcher_with_a_plaster):
    """붙이는 (a plaster), 알약 (a tablet): the form said without a form word chooses among the products found."""
    s = searcher_with_a_plaster
    both = {"197700120", "202006761"}
    assert s.candidates.by_dosage_form(both, "이부프로펜 붙이는 거 하루에 몇 번") == {"202006761"}
    assert s.candidates.by_dosage_form(both, "이부프로펜 알약 하루에 몇 번") == {"197700120"}
    assert s.candidates.by_dosage_form(both, "꽃가루 알레르기인데 이부프로펜 하루에 몇 번") == both  # 가루: no word


def test_a_class_question_saying_a_form_weighs_that_forms_products_first(searcher_with_a_plaster):
    from retrievers.candidates import CLASS_WEIGHT
    from retrievers.lexicon import Lexicon
    from retrievers.query_analysis import analyse

    s = searcher_with_a_plaster
    qa = analyse("붙이는 진통제 하루에 몇 번 붙여요", s.names, Lexicon.load())
    weights = {s.docs[i].id: w for i, w in s.candidates.class_members(qa, list(range(len(s.docs))), {}).items()}
    assert weights["easydrug:202006761:efcy"] == CLASS_WEIGHT
    assert weights["easydrug:197900277:efcy"] < CLASS_WEIGHT  # 게보린정, the other 진통제 of this corpus
    qa = analyse("진통제 하루에 몇 번", s.names, Lexicon.load())
    weights = {s.docs[i].id: w for i, w in s.candidates.class_members(qa, list(range(len(s.docs))), {}).items()}
    assert weights["easydrug:197900277:efcy"] == weights["easydrug:202006761:efcy"] == CLASS_WEIGHT


def test_term_tokens_remember_what_the_tokenizer_gives(mini_searcher):
    from retrievers.lexical_query import TermTokens

    terms = TermTokens(mini_searcher.tokenizer)
    first = terms("아세트아미노펜 이부프로펜")
    assert first == mini_searcher.tokenizer("아세트아미노펜 이부프로펜")
    first.append("changed")  # a caller's list is its own
    assert terms("아세트아미노펜 이부프로펜") == mini_searcher.tokenizer("아세트아미노펜 이부프로펜")


def test_applying_it_says_a_form_put_on_the_skin_or_in_the_mouth():
    """구내염약 아이 발라도: a medicine applied (a cream, an oral ointment), not a vitamin tablet of the same class."""
    from retrievers.form_kinds import of_kinds, said_kinds

    applied = said_kinds("구내염약 아이 발라도 돼요")
    assert of_kinds(applied, "오라메디연고") and of_kinds(applied, "무조무덤겔")
    assert of_kinds(applied, "마이녹실액5%")  # a name ending in 액 may be put on the skin
    assert not of_kinds(applied, "메가콘벤800정")
    assert said_kinds("구내염약 아이 먹여도 돼요") == set()


def test_a_named_products_own_dur_rows_rank_above_its_ingredients_other_mixes(mini_searcher):
    """부루펜정 in a pregnancy question: both 이부프로펜 임부금기 rows are candidates through its ingredient, but the
    row about 이부프로펜 alone binds it (0.8) and the row about its mix with 스코폴라민 does not (0.6)."""
    from retrievers.candidates import BRIDGED_WEIGHT, OWN_ROW_WEIGHT
    from retrievers.query_analysis import analyse

    qa = analyse("부루펜 임신 중에 먹어도 돼요?", mini_searcher.names, mini_searcher.lexicon)
    weights = mini_searcher.candidates.name_candidates(qa)
    rows = {
        mini_searcher.docs[i].metadata.get("combination"): w
        for i, w in weights.items()
        if mini_searcher.docs[i].id.startswith("dur:cc:")
    }
    assert rows == {"": OWN_ROW_WEIGHT, "스코폴라민": BRIDGED_WEIGHT}
