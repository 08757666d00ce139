import copy

from retrievers.oos_guard import guard


def test_reranker_thresholds_of_the_seed():
    assert guard("flag:x", top_score=0.003, relevance=0.9, has_names=False, has_rules=False)[0]
    assert guard("flag:x", top_score=0.02, relevance=0.5, has_names=False, has_rules=False)[0]
    assert not guard("flag:x", top_score=0.6, relevance=0.6, has_names=False, has_rules=False)[0]


def test_fused_scorer_layers_names_rules_sections_and_dense_similarity():
    kw = {"min_dense": 0.8, "rescue_dense": 0.9}
    blocked, reason = guard("fused", 0.9, relevance=0.75, has_names=False, has_rules=False, has_sections=True, **kw)
    assert blocked
    assert "0.750" in reason
    assert not guard("fused", 0.9, relevance=0.75, has_names=True, has_rules=False, **kw)[0]
    assert not guard("fused", 0.9, relevance=0.75, has_names=False, has_rules=True, **kw)[0]
    assert not guard("fused", 0.9, relevance=0.85, has_names=False, has_rules=False, has_sections=True, **kw)[0]
    # no drug signal at all: only a very similar question passes
    assert guard("fused", 0.9, relevance=0.85, has_names=False, has_rules=False, has_sections=False, **kw)[0]
    assert not guard("fused", 0.9, relevance=0.95, has_names=False, has_rules=False, has_sections=False, **kw)[0]


def test_no_hits_is_always_out_of_scope():
    assert guard("fused", 0.0, 0.99, has_names=True, has_rules=True, has_hits=False) == (True, "no document matched")


def test_reranker_mode_follows_the_seed_and_never_reads_the_rerank_score_as_relevance():
    # the seed's own example: 눈에 도움되는 약 passes at a top rerank score of 0.026 (> 0.01)
    assert guard("flag:x", top_score=0.026, relevance=0.86, has_names=False, has_rules=True) == (False, "")
    assert guard("flag:x", top_score=0.026, relevance=0.86, has_names=False, has_rules=False) == (False, "")
    assert guard("flag:x", top_score=0.009, relevance=0.86, has_names=True, has_rules=True)[0]


def test_a_question_whose_every_noun_no_leaflet_uses_is_blocked_on_the_real_searcher(searcher):
    """라면 물 몇 ml: no name, no rule, and 라면 is no word of the leaflets; its nearest passage (0.876) would pass
    the dense cut alone. A medicine named beside the same words keeps the question."""
    assert searcher.retrieve("라면 물 몇 ml 넣어요").out_of_scope  # the scope model, by default
    searcher = copy.copy(searcher)
    searcher.settings = searcher.settings.updated(scope_model=False)  # the older guard
    ramen = searcher.retrieve("라면 물 몇 ml 넣어요")
    assert ramen.out_of_scope and "never use" in ramen.oos_reason
    assert ramen.relevance >= 0.87  # the dense cut alone would have kept it
    assert not searcher.retrieve("두통약 하루에 몇 번 먹어요").out_of_scope
    assert guard("fused", 0.9, 0.9, has_names=True, has_rules=False, elsewhere=True) == (False, "")
