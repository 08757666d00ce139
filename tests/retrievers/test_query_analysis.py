import pytest

from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import QueryError, analyse, normalise_query, section_feature


def test_empty_queries_are_rejected():
    for q in ("", "   ", None):
        with pytest.raises(QueryError, match="empty"):
            normalise_query(q, 100)


def test_huge_queries_are_cut_with_a_warning():
    q, warnings = normalise_query("두통 " * 50_000, 1000)
    assert len(q) == 1000 and "cut" in warnings[0]


def test_sections_and_expansions_come_from_the_data_files():
    lex = Lexicon.load()
    assert "se" in lex.sections("게보린 부작용 있어요?")
    assert "depositMethod" in lex.sections("냉장고에 보관해야 하나요")
    assert "dur:cc" in lex.sections("임신 중에 먹어도 돼요?")
    assert lex.expand("머리가 깨질것 같아요") or lex.expand("머리 아파요")


def test_section_feature_distinguishes_asked_and_implied_sections():
    qa = analyse("임신했는데 먹어도 돼요?", NameIndex(), Lexicon.load())
    assert section_feature("dur:cc", qa) == 1.0
    assert section_feature("atpnWarn", qa) == 0.5
    assert section_feature("depositMethod", qa) == 0.0
