"""dspy.Modules composing signatures and retrievers: CRAG, its strategies and safety stops, the no-LM fallbacks,
the turn evaluator. A program never imports a metric. `programs.load(uri)` loads a compiled program."""


def load(uri, **kwargs):
    """A ready program from a JSON state path or ``models:/yaksa-crag@champion`` (see programs/loading.py)."""
    from programs.loading import load as _load

    return _load(uri, **kwargs)
