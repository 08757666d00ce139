"""LM-usage accounting read from DSPy's history: calls, tokens and cost (when litellm priced the call); cache hits
(DSPy empties their usage) are counted apart and cost nothing; and the seeded data draws."""

from yaksa.commands._datasets import draw
from yaksa.commands._usage import Usage


class FakeLM:
    def __init__(self, history):
        self.history = history


def test_usage_counts_real_calls_tokens_and_cost_and_skips_cache_hits():
    lm = FakeLM([{"usage": {"prompt_tokens": 99}, "cost": 9.0}])
    usage = Usage([lm, lm, None]).start()  # the same LM twice counts once
    lm.history += [
        {"usage": {"prompt_tokens": 10, "completion_tokens": 5}, "cost": 0.002},
        {"usage": {"prompt_tokens": 7, "completion_tokens": 3}, "cost": None},
        {"usage": {}, "cost": 0.002},  # a cache hit keeps its old cost but is no call
    ]
    assert usage.totals() == {
        "lm_calls": 2,
        "lm_cache_hits": 1,
        "lm_prompt_tokens": 17,
        "lm_completion_tokens": 8,
        "lm_tokens": 25,
        "lm_cost_usd": 0.002,
    }


def test_no_price_means_no_cost_metric():
    lm = FakeLM([])
    usage = Usage([lm]).start()
    lm.history.append({"usage": {"input_tokens": 4, "output_tokens": 1}, "cost": None})
    totals = usage.totals()
    assert totals["lm_tokens"] == 5
    assert "lm_cost_usd" not in totals


def test_draws_are_fixed_by_seed_and_keep_file_order():
    rows = [{"i": i} for i in range(50)]
    assert draw(rows, 5, 0) == draw(rows, 5, 0) != draw(rows, 5, 1)
    assert [r["i"] for r in draw(rows, 5, 0)] == sorted(r["i"] for r in draw(rows, 5, 0))
    assert draw(rows, 0, 0) == rows
    assert draw(rows, 80, 0) == rows
