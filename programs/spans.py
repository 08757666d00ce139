"""MLflow spans for the CRAG graph: one span per node (its inputs, outputs and route) and a RETRIEVER span per search
whose outputs are the documents in MLflow's retriever shape (``page_content``, ``metadata.doc_uri``), so MLflow's
retrieval scorers can read them.

Every caller gets them (``yaksa ask``, ``yaksa serve``, an evaluation's ``predict_fn``) whenever an MLflow trace is
active in the thread; otherwise each hook is a no-op that does not import MLflow (it only looks whether a module
already imported it has an active span).

Example:
    >>> with node("retrieve", {"query": "게보린"}) as span:
    ...     span.done({"hits": []}, route="grade")     # nothing recorded: no trace is active
    >>> search(lambda q, k: ["doc"], "게보린", k=1)
    ['doc']
"""

from __future__ import annotations

import sys
from contextlib import contextmanager


def _mlflow():
    """The mlflow module when a span is active in this thread, else None (never imports it)."""
    mlflow = sys.modules.get("mlflow")
    if mlflow is None:
        return None
    try:
        return mlflow if mlflow.get_current_active_span() is not None else None
    except Exception:  # noqa: BLE001 — tracing must never break an answer
        return None


class _Off:
    """The span of a node when nothing is traced."""

    def done(self, outputs, route=None) -> None:
        pass


OFF = _Off()


class _NodeSpan:
    def __init__(self, span):
        self.span = span

    def done(self, outputs, route=None) -> None:
        """Record the node's `outputs` and the node that runs next (`route`; None after ``stop``)."""
        try:
            self.span.set_outputs(outputs)
            self.span.set_attribute("yaksa.next_node", route or "")
        except Exception:  # noqa: BLE001
            pass


@contextmanager
def _live_node(mlflow, name: str, inputs: dict):
    from mlflow.entities import SpanType

    with mlflow.start_span(name=name, span_type=SpanType.CHAIN) as span:
        span.set_inputs(inputs)
        span.set_attribute("yaksa.node", name)
        yield _NodeSpan(span)


@contextmanager
def _off():
    yield OFF


def node(name: str, inputs: dict):
    """A context manager around one graph node, yielding an object whose ``done(outputs, route)`` records what the
    node returned and where the graph goes next."""
    mlflow = _mlflow()
    return _off() if mlflow is None else _live_node(mlflow, name, inputs)


def search(retrieve, query: str, **kwargs):
    """``retrieve(query, **kwargs)``, inside a RETRIEVER span whose outputs are the hits as MLflow documents."""
    mlflow = _mlflow()
    if mlflow is None:
        return retrieve(query, **kwargs)
    from mlflow.entities import SpanType

    with mlflow.start_span(name="search", span_type=SpanType.RETRIEVER) as span:
        span.set_inputs({"query": query, **{k: v for k, v in kwargs.items() if v is not None}})
        result = retrieve(query, **kwargs)
        try:
            span.set_outputs(documents(getattr(result, "hits", ())))
            span.set_attributes(
                {
                    "yaksa.scorer": str(getattr(result, "scorer", "")),
                    "yaksa.out_of_scope": bool(getattr(result, "out_of_scope", False)),
                }
            )
        except Exception:  # noqa: BLE001
            pass
        return result


def documents(hits) -> list[dict]:
    """Search hits as MLflow retriever documents: the text, and the id as ``doc_uri`` with the score and title.

    >>> from types import SimpleNamespace as NS
    >>> documents([NS(id="easydrug:1:효능", score=0.5, doc=NS(text="두통", title="게보린"))])[0]["metadata"]
    {'doc_uri': 'easydrug:1:효능', 'chunk_id': 'easydrug:1:효능', 'score': 0.5, 'title': '게보린'}
    """
    return [
        {
            "page_content": h.doc.text,
            "metadata": {"doc_uri": h.id, "chunk_id": h.id, "score": float(h.score), "title": h.doc.title},
            "id": h.id,
        }
        for h in hits
    ]
