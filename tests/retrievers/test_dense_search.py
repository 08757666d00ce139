"""The dense stage: a question's vector is the same whether it is embedded on a worker thread or at once."""

import numpy as np

from retrievers.lexicon import Lexicon
from retrievers.query_analysis import analyse


def test_an_embedded_question_gets_the_vector_embedding_it_at_once_gives(mini_searcher):
    dense, s = mini_searcher.dense, mini_searcher.settings
    qa = analyse("오늘 저녁 뭐 먹지", mini_searcher.names, Lexicon.load())
    dense.forget_queries()
    later = dense.vector_later(qa, s.dense, mini_searcher.lexicon, s.max_query_tokens)()
    dense.forget_queries()
    now = dense.embed_query(qa.query, s.max_query_tokens)
    assert np.array_equal(later, now)
    assert np.array_equal(dense.vector_later(qa, s.dense, mini_searcher.lexicon, s.max_query_tokens)(), now)  # memo


def test_named_and_rule_covered_questions_are_not_embedded(mini_searcher):
    dense, s, lexicon = mini_searcher.dense, mini_searcher.settings, mini_searcher.lexicon
    named = analyse("게보린 부작용", mini_searcher.names, lexicon)
    symptom = analyse("머리가 깨질 것 같아요", mini_searcher.names, lexicon)
    assert dense.vector_later(named, s.dense, lexicon, s.max_query_tokens)() is None
    rules = dense.vector_later(symptom, s.dense, lexicon, s.max_query_tokens)()
    assert np.array_equal(rules, dense.rules_vector(symptom.query, lexicon, s.max_query_tokens))
