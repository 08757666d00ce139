import numpy as np
from rank_bm25 import BM25Okapi

from retrievers.bm25_index import BM25Index

CORPUS = [
    ["게보린", "두통", "치통", "해열"],
    ["타이레놀", "두통", "발열"],
    ["보관", "실온", "습기"],
    ["속쓰림", "위산", "제산"],
    ["기침", "가래", "감기"],
    ["콧물", "코막힘", "감기", "비염"],
    ["설사", "복통", "장염"],
]


def test_bm25s_matches_rank_bm25_oracle():
    ours = BM25Index.build(CORPUS, [str(i) for i in range(len(CORPUS))], method="robertson", k1=1.5, b=0.75)
    oracle = BM25Okapi(CORPUS, k1=1.5, b=0.75)
    for query in (["두통"], ["감기", "기침"], ["실온", "보관"], ["위산", "두통", "콧물"]):
        a = ours.scores(query)
        b = oracle.get_scores(query)
        assert list(np.argsort(-a, kind="stable")[:3]) == list(np.argsort(-b, kind="stable")[:3])
        # bm25s leaves out the constant (k1 + 1) numerator factor of Robertson's formula; ranks are unaffected
        np.testing.assert_allclose(a * 2.5, b, rtol=1e-4, atol=1e-5)


def test_unknown_terms_score_zero_and_top_skips_zeros():
    bm = BM25Index.build(CORPUS, [str(i) for i in range(len(CORPUS))])
    assert not bm.scores(["없는말"]).any()
    assert bm.top(["없는말"], 5) == []
    top = bm.top(["두통"], 5)
    assert [i for i, _ in top]
    assert {i for i, _ in top} == {0, 1}


def test_save_and_load_round_trip(tmp_path):
    bm = BM25Index.build(CORPUS, [f"d{i}" for i in range(len(CORPUS))])
    bm.save(tmp_path / "bm25")
    back = BM25Index.load(tmp_path / "bm25")
    assert back.ids == bm.ids
    np.testing.assert_allclose(back.scores(["감기"]), bm.scores(["감기"]))


def test_top_from_given_scores_is_top_from_the_tokens():
    bm = BM25Index.build([["게보린", "두통"], ["보관", "실온"], ["두통", "치통", "두통"]], ids=["a", "b", "c"])
    assert bm.top(["두통"], 2, bm.scores(["두통"])) == bm.top(["두통"], 2)
