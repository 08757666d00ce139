import pytest

from metrics.retrieval import mrr_at_k, ndcg_at_k, oos_precision_recall, recall_at_k


def test_capped_recall():
    assert recall_at_k(["a", "b", "c"], {"b"}, 2) == 1.0
    assert recall_at_k(["a", "b", "c"], {"c"}, 2) == 0.0
    assert recall_at_k(["a", "b"], {f"g{i}" for i in range(30)} | {"a", "b"}, 2) == 1.0
    assert recall_at_k(["a", "x"], {"a", "b", "c"}, 2) == 0.5
    assert recall_at_k(["a"], set(), 5) == 0.0


def test_mrr_and_ndcg():
    assert mrr_at_k(["x", "y", "a"], {"a"}, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["x"] * 11 + ["a"], {"a"}, 10) == 0.0
    assert ndcg_at_k(["a", "b"], {"a", "b"}, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["x", "a"], {"a"}, 10) == pytest.approx(1 / 1.5849625, rel=1e-5)


def test_oos_precision_recall():
    p, r, fp_rate = oos_precision_recall([True, True, False, False], [True, False, True, False])
    assert (p, r, fp_rate) == (0.5, 0.5, 0.5)
