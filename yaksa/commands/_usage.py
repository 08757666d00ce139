"""Counting the LM calls, tokens and cost of a run from the LMs' DSPy history (cache hits are not calls)."""

from __future__ import annotations


class Usage:
    """LM calls, tokens and cost since `start()`, read from the LMs' DSPy history (cache hits are not calls)."""

    def __init__(self, lms):
        self.lms = [lm for i, lm in enumerate(lms) if lm is not None and all(lm is not o for o in list(lms)[:i])]
        self.marks = {}

    def start(self) -> Usage:
        self.marks = {id(lm): len(lm.history) for lm in self.lms}
        return self

    def totals(self) -> dict:
        calls = cached = prompt = completion = 0
        cost, priced = 0.0, False
        for lm in self.lms:
            for entry in lm.history[self.marks.get(id(lm), 0) :]:
                usage = entry.get("usage") or {}
                if getattr(entry.get("response"), "cache_hit", False) or not usage:  # DSPy empties usage on hits
                    cached += 1
                    continue
                calls += 1
                prompt += int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0)
                completion += int(usage.get("completion_tokens") or usage.get("output_tokens") or 0)
                if entry.get("cost") is not None:
                    cost += float(entry["cost"])
                    priced = True
        out = {
            "lm_calls": calls,
            "lm_cache_hits": cached,
            "lm_prompt_tokens": prompt,
            "lm_completion_tokens": completion,
            "lm_tokens": prompt + completion,
        }
        if priced:
            out["lm_cost_usd"] = round(cost, 6)
        return out
