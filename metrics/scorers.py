"""The answer checks of `metrics/answer_eval.py` as MLflow scorers, for ``mlflow.genai.evaluate``.

Each scorer reads one row the way ``mlflow.genai.evaluate`` passes it: ``inputs`` ``{"question"}``, ``outputs`` the
prediction (``yaksa ask --json`` fields) plus ``latency_ms``, and ``expectations`` the question set's labels (``gold``
document ids, ``gold_phrases``, ``answerable`` / ``unanswerable_kind``, ``targets``, ``kind``, ``aspects`` …). The
figures come from `answer_row`, the same computation as the summary, so a scorer's mean over the rows it applies to is
the summary's share: ``gold_cited/mean`` is ``all.cites_gold`` and ``phrase_quoted/mean`` is ``all.phrase_quoted``.
A scorer returns None (no assessment, left out of the mean) for a row it does not apply to.

Example:
    >>> pred = {"answer": "… [문서 1]", "citations": [{"n": 1, "id": "a", "cited": True}], "trace": {}, "latency_ms": 9}
    >>> gold_cited(inputs={"question": "q"}, outputs=pred, expectations={"gold": ["a"]})
    True
    >>> phrase_quoted(inputs={"question": "q"}, outputs=pred, expectations={"gold": ["a"]}) is None  # no phrases
    True
"""

from __future__ import annotations

from mlflow.genai.scorers import scorer

from metrics.answer_eval import answer_row


def example_of(inputs: dict, expectations: dict | None) -> dict:
    """The question set's row back from a genai row: its labels with the question."""
    return {**(expectations or {}), "question": (inputs or {}).get("question", "")}


def row_of(inputs: dict, outputs: dict, expectations: dict | None, doc_text=None) -> dict:
    """`answer_row` of one genai row (`doc_text`: id -> document text, for the slot and product-name figures)."""
    outputs = outputs or {}
    return answer_row(example_of(inputs, expectations), outputs, float(outputs.get("latency_ms") or 0.0), doc_text)


@scorer(name="gold_cited")
def gold_cited(inputs, outputs, expectations):
    """The answer cites a gold document (in-scope questions)."""
    row = row_of(inputs, outputs, expectations)
    return row["cites_gold"] if row["in_scope"] else None


@scorer(name="phrase_quoted")
def phrase_quoted(inputs, outputs, expectations):
    """The answer quotes a gold answer phrase (in-scope questions with gold phrases)."""
    row = row_of(inputs, outputs, expectations)
    return row["phrase_quoted"] if row["in_scope"] and row["phrase_gold"] else None


@scorer(name="scope_right")
def scope_right(inputs, outputs, expectations):
    """An in-scope question is answered (not blocked as out of scope); one out of scope or unanswerable is declined
    or told the documents do not cover it."""
    row = row_of(inputs, outputs, expectations)
    return not row["out_of_scope"] if row["in_scope"] else row["declined"] or row["said_not_covered"]


@scorer(name="grounding_clean")
def grounding_clean(inputs, outputs, expectations):
    """The grounding check removed no sentence and did not fall back to the extractive answer (answers it checked)."""
    row = row_of(inputs, outputs, expectations)
    if not row["sentences_checked"] and not row["grounding_fallback"]:
        return None
    return row["sentences_removed"] == 0 and not row["grounding_fallback"]


@scorer(name="citations_valid")
def citations_valid(inputs, outputs, expectations):
    """Every ``[문서 N]`` of the answer is one of its citations, and every citation marked cited is quoted (answers
    with a citation marker)."""
    from programs.grounding import cited_numbers

    outputs = outputs or {}
    numbers = set(cited_numbers(outputs.get("answer") or ""))
    if not numbers:
        return None
    citations = outputs.get("citations") or []
    marked = {c.get("n", i) for i, c in enumerate(citations, 1) if c.get("cited")}
    return numbers <= set(range(1, len(citations) + 1)) and marked <= numbers


@scorer(name="answer_length", aggregations=["mean", "median"])
def answer_length(inputs, outputs, expectations):
    """Characters of the answer without its notice lines and safety line."""
    return row_of(inputs, outputs, expectations)["chars"]


@scorer(name="lm_calls", aggregations=["mean", "max"])
def lm_calls(inputs, outputs, expectations):
    """LM calls the answer took."""
    return row_of(inputs, outputs, expectations)["lm_calls"]


@scorer(name="latency_ms", aggregations=["mean", "median", "p90"])
def latency_ms(outputs):
    """Milliseconds the program took to answer (measured around the call, tracing aside)."""
    return (outputs or {}).get("latency_ms")


def forbidden_offered_scorer(backend):
    """The ``forbidden_offered`` scorer over `backend`: True when the answer offers a product the DUR rules of the
    population the question states forbid (`metrics.forbidden_offers.judge`, as in bench/safety_probe.py); None when
    the question states none (no rule can forbid a product)."""

    @scorer(name="forbidden_offered")
    def forbidden_offered(inputs, outputs):
        from metrics.forbidden_offers import judge
        from programs.forbidden import asker

        question = (inputs or {}).get("question", "")
        if not asker(None, question).dur_types():
            return None
        outputs = outputs or {}
        ids = [c["id"] for c in outputs.get("citations") or []]
        row = {"question": question, "user": {}, "answer": outputs.get("answer") or "", "doc_ids": ids}
        return bool(judge(row, backend)["offers"])

    return forbidden_offered


DETERMINISTIC = (gold_cited, phrase_quoted, scope_right, grounding_clean, citations_valid, answer_length, lm_calls)


def answer_scorers(backend=None) -> list:
    """The deterministic scorers (no LM), with ``forbidden_offered`` when a `backend` is given, and latency."""
    extra = [forbidden_offered_scorer(backend)] if backend is not None else []
    return [*DETERMINISTIC, *extra, latency_ms]
