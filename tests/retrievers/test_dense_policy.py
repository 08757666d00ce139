import pytest

from retrievers.dense_policy import needs_dense
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import analyse


def test_named_questions_skip_the_embedding_unnamed_ones_keep_it(mini_searcher):
    named = analyse("게보린 부작용", mini_searcher.names, Lexicon.load())
    unnamed = analyse("머리가 깨질 것 같아요", mini_searcher.names, Lexicon.load())
    assert named.names and not needs_dense(named, "unnamed")
    assert needs_dense(unnamed, "unnamed")
    assert needs_dense(named, "always")


def test_unknown_policy_is_rejected():
    with pytest.raises(ValueError, match="unknown dense policy"):
        needs_dense(analyse("두통", NameIndex(), Lexicon.load()), "sometimes")


def test_searcher_embeds_only_when_the_policy_asks(mini_searcher):
    g = mini_searcher.gather("게보린 부작용")
    assert g.relevance == 0.0 and set(g.raw["dense"]) == {0.0}
    top = mini_searcher.rank(g)[0]
    assert top.id == "easydrug:197900277:se" and set(top.scores) >= {"bm25", "dense", "product", "section", "fused"}
    g = mini_searcher.gather("머리가 깨질 것 같아요")
    assert g.relevance > 0.0 and any(v != 0.0 for v in g.raw["dense"])


def test_always_policy_embeds_named_questions_too(mini_index):
    from retrievers.searcher import open_searcher
    from retrievers.settings import RetrievalSettings
    from yaksa.testing.hash_embedder import HashEmbedder

    s = open_searcher(
        mini_index[0], settings=RetrievalSettings.load(dense="always"), embedder=HashEmbedder(), shared=False
    )
    assert s.gather("게보린 부작용").relevance > 0.0


def test_unguided_policy_also_skips_questions_a_symptom_rule_covers():
    symptom = analyse("머리가 깨질 것 같아요", NameIndex(), Lexicon.load())
    plain = analyse("오늘 저녁 뭐 먹지", NameIndex(), Lexicon.load())
    assert symptom.expansions and not needs_dense(symptom, "unguided")
    assert needs_dense(plain, "unguided")
