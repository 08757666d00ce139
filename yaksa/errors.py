"""One translator for the faults a user can fix in the index, the config and model files, the MLflow store and the
disk: each becomes one line that names the file (or the tracking URI) and what fixes it. Every command goes through
it (`yaksa.cli.main`, exit 2), and the HTTP server logs the same line instead of a traceback.

Example:
    >>> from retrievers.index_store import IndexCorrupt
    >>> explain(IndexCorrupt("index documents /x/docs.jsonl are damaged: run `yaksa index --rebuild`"))
    'index documents /x/docs.jsonl are damaged: run `yaksa index --rebuild`'
    >>> explain(KeyError("metadata")) is None   # not a known fault: a bug, left to the traceback / the log
    True
    >>> explain(OSError(errno.ENOSPC, "No space left on device", "/x/bm25.tmp"))
    '/x/bm25.tmp: No space left on device: free disk space and run the command again'
"""

from __future__ import annotations

import errno
import os
import sys

# disk faults the user fixes (space, quota, permissions, a read-only mount), with what fixes each
DISK_FIXES = {
    errno.ENOSPC: "free disk space",
    errno.EDQUOT: "free disk space (the disk quota is full)",
    errno.EACCES: "fix the permissions",
    errno.EPERM: "fix the permissions",
    errno.EROFS: "use a writable location",
}


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
        return store_fault(error)
    text = _short(str(error)) or type(error).__name__
    if fix and "`yaksa " not in text and fix not in text:
        text = f"{text}: {fix}"
    return text


def store_fault(error: BaseException) -> str | None:
    """One line for a fault of the MLflow store (a MlflowException, a SQLAlchemy database error, a disk error raised
    inside MLflow) naming the tracking URI and the fix, or for a disk error elsewhere naming the file; else None."""
    disk = error if isinstance(error, OSError) and error.errno in DISK_FIXES else None
    if _is_store_error(error) or (disk is not None and _raised_in_mlflow(error)):
        detail = _short(_detail(error), 200)
        if disk is not None or "disk" in detail or "readonly" in detail or "read-only" in detail:
            fix = DISK_FIXES.get(getattr(disk, "errno", None), "free disk space or fix the store's permissions")
            fix = f"{fix}, or set MLFLOW_TRACKING_URI to another store"
        else:
            fix = "check the store, or set MLFLOW_TRACKING_URI to another one"
        return f"the MLflow store {tracking_uri()} failed ({detail}): {fix}"
    if disk is not None:
        where = f"{disk.filename}: " if disk.filename else ""
        return f"{where}{disk.strerror or os.strerror(disk.errno)}: {DISK_FIXES[disk.errno]} and run the command again"
    return None


def tracking_uri() -> str:
    """The MLflow tracking URI in use (without importing MLflow when no command has)."""
    mlflow = sys.modules.get("mlflow")
    if mlflow is not None:
        return str(mlflow.get_tracking_uri())
    from yaksa.tracking import default_tracking_uri

    return os.environ.get("MLFLOW_TRACKING_URI") or default_tracking_uri()


def _is_store_error(error: BaseException) -> bool:
    """A MlflowException or a SQLAlchemy database error (looked up only where already imported: none can exist
    otherwise)."""
    for module, name in (("mlflow.exceptions", "MlflowException"), ("sqlalchemy.exc", "DBAPIError")):
        cls = getattr(sys.modules.get(module), name, None)
        if cls is not None and isinstance(error, cls):
            return True
    return False


def _raised_in_mlflow(error: BaseException) -> bool:
    """Whether a frame of the traceback belongs to MLflow (a disk error while logging, not while indexing)."""
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__", "").startswith("mlflow"):
            return True
        tb = tb.tb_next
    return False


def _detail(error: BaseException) -> str:
    """The cause in a few words: the database's own message for SQLAlchemy errors, the first line otherwise."""
    orig = getattr(error, "orig", None)
    if orig is not None:
        return str(orig)
    if isinstance(error, OSError) and error.strerror:
        return f"{error.strerror}: {error.filename}" if error.filename else error.strerror
    message = getattr(error, "message", None) or str(error) or type(error).__name__
    return str(message).strip().splitlines()[0] if str(message).strip() else type(error).__name__


def _short(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text[:limit] + "…" if len(text) > limit else text
