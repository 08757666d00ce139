"""Small helpers shared by the CLI commands: opening the searcher with one-line errors."""

from __future__ import annotations

from yaksa.cli import UserError


def open_searcher_or_explain(index_dir=None, dense: bool = True, **settings):
    """Open the searcher, turning index problems into a UserError that says which command fixes them."""
    from retrievers.embedders import EmbedderUnavailable
    from retrievers.index_store import IndexCorrupt, IndexMissing
    from retrievers.rerankers import RerankerUnavailable
    from retrievers.searcher import open_searcher
    from retrievers.settings import RetrievalSettings
    from retrievers.vector_store import VectorStoreError

    try:
        config = RetrievalSettings.load(**{k: v for k, v in settings.items() if v is not None})
        return open_searcher(index_dir, settings=config, dense=dense)
    except (IndexMissing, IndexCorrupt, VectorStoreError, RerankerUnavailable, EmbedderUnavailable, ValueError) as e:
        from yaksa.errors import explain

        raise UserError(explain(e) or str(e)) from None
