"""Opening the search backend for the commands, with index problems as one-line errors.

Every command that searches calls `open_backend` through this module (``_backend.open_backend(...)``), so a test
replaces the backend of all of them with one ``monkeypatch.setattr(_backend, "open_backend", ...)``.
"""

from __future__ import annotations

from yaksa.errors import UserError


def open_searcher_or_explain(index_dir=None, dense: bool = True, **settings):
    """Open the searcher, turning index problems into a UserError that says which command fixes them."""
    from retrievers.embedders import EmbedderUnavailable
    from retrievers.index_open import open_searcher
    from retrievers.index_store import IndexCorrupt, IndexMissing
    from retrievers.rerankers import RerankerUnavailable
    from retrievers.settings import RetrievalSettings
    from retrievers.vector_store import VectorStoreError

    try:
        config = RetrievalSettings.load(**{k: v for k, v in settings.items() if v is not None})
        return open_searcher(index_dir, settings=config, dense=dense)
    except (IndexMissing, IndexCorrupt, VectorStoreError, RerankerUnavailable, EmbedderUnavailable, ValueError) as e:
        from yaksa.errors import explain

        raise UserError(explain(e) or str(e)) from None


def open_backend():
    """The default search backend (the built index), or a one-line error naming the command that builds it."""
    try:
        from retrievers.index_open import open_searcher
        from retrievers.index_store import IndexCorrupt, IndexMissing
    except ModuleNotFoundError as e:
        raise UserError(f"the search index is not available ({e.name}); build it with `yaksa index`") from None
    try:
        return open_searcher()
    except (IndexMissing, IndexCorrupt) as e:  # their message says which `yaksa index` command fixes them
        raise UserError(str(e)) from None


def backend_for(args):
    """The search backend of a lab command: ``--index-dir`` when given, else `open_backend`."""
    if getattr(args, "index_dir", None):
        return open_searcher_or_explain(args.index_dir)
    return open_backend()
