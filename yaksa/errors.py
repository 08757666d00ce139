"""One translator for the faults a user can fix in the index, the config and model files: each becomes one line
that names the file and the command that fixes it. Every command goes through it (`yaksa.cli.main`, exit 2), and
the HTTP server logs the same line instead of a traceback.

Example:
    >>> from retrievers.index_store import IndexCorrupt
    >>> explain(IndexCorrupt("index documents /x/docs.jsonl are damaged: run `yaksa index --rebuild`"))
    'index documents /x/docs.jsonl are damaged: run `yaksa index --rebuild`'
    >>> explain(KeyError("metadata")) is None   # not a known fault: a bug, left to the traceback / the log
    True
"""

from __future__ import annotations


class UserError(Exception):
    """An error the user can fix; `yaksa.cli.main` prints it as one line and exits with status 2."""


def known_faults() -> list[tuple[type[BaseException], str]]:
    """(exception class, the fix to append when the message does not already say which command to run), most
    specific first. Imported on first use: the classes live in the layers below."""
    from dspy.utils.exceptions import LMConfigurationError

    from programs.loading import StateError
    from retrievers.config_file import ConfigFileError
    from retrievers.corpus import CorpusError
    from retrievers.embedders import EmbedderUnavailable
    from retrievers.index_store import IndexCorrupt, IndexMissing
    from retrievers.rerankers import RerankerUnavailable
    from retrievers.settings import ConfigError
    from retrievers.vector_store import VectorStoreError
    from yaksa.text_input import TextInputError

    return [
        (IndexMissing, "run `yaksa index`"),
        (IndexCorrupt, "run `yaksa index --rebuild`"),
        (VectorStoreError, "run `yaksa index --rebuild` (or check YAKSA_CHROMA_URL)"),
        (ConfigError, "fix the file or run `yaksa tune-retrieval` to write a valid one"),
        (ConfigFileError, "fix the file"),
        (EmbedderUnavailable, "see `yaksa index --help`"),
        (RerankerUnavailable, "fix `reranker` in yaksa.toml or pass --reranker"),
        (StateError, "save a program with `yaksa compile --out FILE`"),
        (CorpusError, "see `yaksa index --help`"),
        (TextInputError, ""),
        (LMConfigurationError, "check --lm / --api-base / yaksa.toml [lm]"),
    ]


def explain(error: BaseException) -> str | None:
    """The one-line message for a known user-fixable fault (with the command that fixes it), else None."""
    fix = next((fix for cls, fix in known_faults() if isinstance(error, cls)), None)
    if fix is None:
        return None
    text = " ".join(str(error).split()) or type(error).__name__
    if len(text) > 400:
        text = text[:400] + "…"
    if fix and "`yaksa " not in text and fix not in text:
        text = f"{text}: {fix}"
    return text
