def test_a_named_ingredient_reaches_its_single_ingredient_products(mini_searcher):
    """부루펜정 is ibuprofen alone: an ingredient question ranks its 효능 first, as a single-ingredient product."""
    hits = mini_searcher.retrieve("이부프로펜 성분은 뭐에 좋아요").hits
    assert hits[0].id == "easydrug:197700120:efcy"
    assert hits[0].scores["product"] == 0.9


def test_combination_products_rank_below_single_ingredient_ones(mini_searcher):
    weights = mini_searcher._ingredient_products(next(iter(mini_searcher.names.match("아세트아미노펜").ingredients)))
    assert weights and set(weights.values()) == {0.8}  # 게보린, 판콜: combinations only
    assert mini_searcher._ingredient_products(next(iter(mini_searcher.names.match("이부프로펜").ingredients))) == {
        "197700120": 0.9
    }


def test_dur_questions_do_not_pull_in_single_ingredient_leaflets(mini_searcher):
    canon = next(iter(mini_searcher.names.match("이부프로펜").ingredients))
    assert mini_searcher._ingredient_products(canon, dur_question=True) == {"197700120": 0.8}
