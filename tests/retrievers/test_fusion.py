import pytest

from retrievers.fusion import minmax, rrf, weighted_sum


def test_minmax_scales_to_unit_interval():
    assert minmax([2.0, 4.0, 3.0]) == [0.0, 1.0, 0.5]
    assert minmax([5.0, 5.0]) == [1.0, 1.0]
    assert minmax([0.0, 0.0]) == [0.0, 0.0]
    assert minmax([]) == []


def test_weighted_sum_uses_weights_and_ignores_unweighted_features():
    feats = {"bm25": [1.0, 0.0, 0.5], "dense": [0.0, 1.0, 0.5], "other": [9.0, 9.0, 9.0]}
    assert weighted_sum(feats, {"bm25": 0.8, "dense": 0.2}) == pytest.approx([0.8, 0.2, 0.5])


def test_weighted_sum_rejects_ragged_features():
    with pytest.raises(ValueError):
        weighted_sum({"a": [1.0], "b": [1.0, 2.0]}, {"a": 1, "b": 1})


def test_rrf_sums_reciprocal_ranks():
    fused = rrf({"bm25": ["a", "b"], "dense": ["b", "c"]}, k=60)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["a"] == pytest.approx(1 / 61)
    assert max(fused, key=fused.get) == "b"
    weighted = rrf({"bm25": ["a"], "dense": ["c"]}, {"bm25": 0.8, "dense": 0.2})
    assert weighted["a"] == pytest.approx(0.8 / 61)
