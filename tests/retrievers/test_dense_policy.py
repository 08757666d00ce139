import pytest

from retrievers.dense_policy import embeds_question, needs_dense
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import analyse


def test_named_questions_skip_the_embedding_unnamed_ones_keep_it(mini_searcher):
    named = analyse("게보린 부작용", mini_searcher.names, Lexicon.load())
    unnamed = analyse("머리가 깨질 것 같아요", mini_searcher.names, Lexicon.load())
    assert named.names
    assert not needs_dense(named, "unnamed")
    assert needs_dense(unnamed, "unnamed")
    assert needs_dense(named, "always")


def test_unknown_policy_is_rejected():
    with pytest.raises(ValueError, match="unknown dense policy"):
        needs_dense(analyse("두통", NameIndex(), Lexicon.load()), "sometimes")


def test_always_policy_embeds_named_questions_too(mini_index):
    from retrievers.index_open import open_searcher
    from retrievers.settings import RetrievalSettings
    from yaksa.testing.hash_embedder import HashEmbedder

    s = open_searcher(
        mini_index[0], settings=RetrievalSettings.load(dense="always"), embedder=HashEmbedder(), shared=False
    )
    assert s.gather("게보린 부작용").relevance > 0.0


def test_unguided_policy_also_skips_questions_a_symptom_rule_covers():
    symptom = analyse("머리가 깨질 것 같아요", NameIndex(), Lexicon.load())
    plain = analyse("오늘 저녁 뭐 먹지", NameIndex(), Lexicon.load())
    assert symptom.expansions
    assert not needs_dense(symptom, "unguided")
    assert needs_dense(plain, "unguided")


def test_rules_policy_uses_the_rules_vectors_for_questions_they_cover(mini_searcher):
    symptom = analyse("머리가 깨질 것 같아요", NameIndex(), Lexicon.load())
    plain = analyse("오늘 저녁 뭐 먹지", NameIndex(), Lexicon.load())
    named = analyse("게보린 부작용", mini_searcher.names, Lexicon.load())
    assert needs_dense(symptom, "rules")
    assert not embeds_question(symptom, "rules")
    assert needs_dense(plain, "rules")
    assert embeds_question(plain, "rules")
    assert not needs_dense(named, "rules")
    assert not embeds_question(named, "rules")
    assert embeds_question(symptom, "unnamed")


def test_index_build_stores_the_rules_query_vectors(mini_index):
    from retrievers.index_store import IndexPaths
    from retrievers.vector_cache import VectorCache, rule_vector_key
    from yaksa.testing.hash_embedder import HashEmbedder

    cache = VectorCache.open(IndexPaths(mini_index[0]).vectors, dim=HashEmbedder.dim, model=HashEmbedder.name)
    texts = Lexicon.load().rule_texts()
    assert texts
    assert not cache.missing([rule_vector_key(t) for t in texts])
    stored = cache.get([rule_vector_key(texts[0])])[0]
    assert float(stored @ HashEmbedder().query([texts[0]])[0]) > 0.99  # the rule's query vector


def test_a_rule_covered_question_is_not_embedded_but_gets_dense_scores(mini_index):
    from retrievers.index_open import open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder

    embedder = HashEmbedder()
    s = open_searcher(mini_index[0], embedder=embedder, shared=False)
    before = embedder.texts_embedded
    g = s.gather("머리가 깨질 것 같아요")
    assert embedder.texts_embedded == before  # the rules' stored vectors, no embedding at query time
    assert g.relevance > 0.0
    assert any(v != 0.0 for v in g.raw["dense"])
    s.gather("콧속이 헐었어요")  # no name, no rule, about the body by the scope model: the question itself is embedded
    assert embedder.texts_embedded == before + 1
    s.gather("오늘 저녁 뭐 먹지")  # no name, no rule, about something else: blocked by the model, not embedded
    assert embedder.texts_embedded == before + 1
