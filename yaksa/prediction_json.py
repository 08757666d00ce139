"""The JSON object of one prediction, defined once: ``yaksa ask --json`` prints it (one line of it per question with
``yaksa ask --json -``), ``yaksa eval-answers`` scores it, and the HTTP app builds its answer on it
(`yaksa.app.service.ProgramHost.payload` adds its own fields and keeps those of its schema).

Example:
    >>> import dspy
    >>> pred = dspy.Prediction(question="게보린 부작용", answer="...", citations=[], contexts=[], web_refs=[],
    ...                        out_of_scope=False, trace={"lm_calls": {"total": 0}})
    >>> list(prediction_json(pred))
    ['question', 'answer', 'citations', 'contexts', 'web_refs', 'out_of_scope', 'trace', 'lm']
"""

from __future__ import annotations


def prediction_json(pred, config=None) -> dict:
    """The prediction's fields as the program returned them (the trace keeps the LM servers' own error text), and
    ``lm``: the LM configuration without its keys (``config.describe()`` of a `programs.lm_config.LMConfig`), None
    without `config`."""
    return {
        "question": pred.question,
        "answer": pred.answer,
        "citations": pred.citations,
        "contexts": pred.contexts,
        "web_refs": pred.web_refs,
        "out_of_scope": pred.out_of_scope,
        "trace": pred.trace,
        "lm": config.describe() if config else None,
    }
