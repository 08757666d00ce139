"""Doctest collection for the packages (pyproject: ``--doctest-modules`` over yaksa, programs, signatures,
retrievers, metrics).

Modules whose docstring examples cannot run as written are listed here, each with the reason; the example stays in
the docstring as documentation. Every other docstring example runs with the test suite.
"""

# path relative to the repository root -> why its examples do not run as doctests
NOT_RUNNABLE = {
    "retrievers/rerankers.py": "needs reranker weights in /models (none on a test machine)",
    "metrics/retrieval_eval.py": "needs the full search index (`searcher`)",
    "metrics/retrieval_tuning.py": "needs the full search index (`searcher`)",
}

collect_ignore = list(NOT_RUNNABLE)
