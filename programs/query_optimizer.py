"""Query optimisation with the query LM: core, recall and avoid terms plus a clean rerank query
(docs/seeds/pharmacist-rag-pipeline.md 1단계). The retriever's own rule-based expansion always applies; this adds to it.

Example:
    >>> QueryOptimizer()(question="눈이 침침해요", use_lm=False).query
    '눈이 침침해요'
"""

from __future__ import annotations

import dspy

from programs.fallback import FallBack
from programs.query_rewriter import strip_prefix
from programs.run import Run
from signatures.query import MAX_TERMS, OptimizeQuery


def _terms(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split(",")
    return [str(v).strip() for v in value if str(v).strip()][:MAX_TERMS]


class QueryOptimizer(dspy.Module):
    """Turn the question into a search query and extra terms; without an LM the question goes as it is."""

    def __init__(self):
        super().__init__()
        self.optimize = dspy.Predict(OptimizeQuery)

    def forward(
        self, question: str, profile_summary: str = "", run: Run | None = None, use_lm: bool = True
    ) -> dspy.Prediction:
        run = run or Run(budget_limit=None)
        plain = dspy.Prediction(query=question, extra_terms=[], avoid_terms=[], method="rules")
        if not use_lm or not run.has_lm("query"):
            return plain
        with FallBack(run.trace, "optimize_query", "rule-based expansion only") as step:
            out = run.call("query", self.optimize, question=question, profile_summary=profile_summary)
        if step.failed:
            return plain
        core, recall = _terms(out.core_terms), _terms(out.recall_terms)
        query = strip_prefix(out.rerank_query or "") or question
        return dspy.Prediction(
            query=query,
            extra_terms=list(dict.fromkeys(core + recall)),
            avoid_terms=_terms(out.avoid_terms),
            core_terms=core,
            method="lm",
        )
