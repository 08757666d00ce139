"""What each index stage wrote, recorded in the manifest (size and SHA-256 per file), and the checks against it.

A build records a stage's files when the stage finishes. The next build checks the checksums of every stage it is
about to reuse and rebuilds a stage whose files changed. Opening the index for search hashes nothing: when a loader
fails, `load_part` names the file (for the BM25 folder, the file whose checksum differs) and the command that fixes
it. Chroma's own files are not recorded: Chroma writes to its database whenever it is opened, so the build checks the
collection by opening it and counting its vectors instead.

Example (not run as a doctest: it needs a built index):
    >>> records = record_stage(paths, "bm25")          # when the BM25 stage finishes    # doctest: +SKIP
    >>> damaged_file(paths, records) is None          # on the next build, before reusing it    # doctest: +SKIP
    True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from retrievers.index_store import IndexCorrupt, IndexPaths

T = TypeVar("T")

LOAD_ERRORS = (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError, EOFError)


def stage_files(paths: IndexPaths, stage: str) -> list[Path]:
    """The files a finished stage leaves (Chroma's are checked by opening the collection, not recorded)."""
    if stage == "docs":
        return [paths.docs, paths.names, paths.user_words]
    if stage == "bm25":
        return sorted(p for p in paths.bm25.iterdir() if p.is_file()) if paths.bm25.is_dir() else []
    if stage == "vectors":
        return [paths.vectors] if paths.vectors.exists() else []
    return []


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def record_stage(paths: IndexPaths, stage: str) -> dict[str, dict]:
    """{path relative to the index: {"size", "sha256"}} for the files `stage` left."""
    return {
        p.relative_to(paths.root).as_posix(): {"size": p.stat().st_size, "sha256": sha256(p)}
        for p in stage_files(paths, stage)
    }


def damaged_file(paths: IndexPaths, records: dict) -> tuple[Path, str] | None:
    """The first recorded file that is missing, has another size or another SHA-256, and why."""
    for name, want in sorted(records.items()):
        path = paths.root / name
        try:
            size = path.stat().st_size
        except OSError:
            return path, "missing"
        if size != want.get("size"):
            return path, f"{size} bytes, {want.get('size')} recorded"
        if sha256(path) != want.get("sha256"):
            return path, "checksum differs from the one recorded"
    return None


def load_part(path: Path, load: Callable[[], T], paths: IndexPaths | None = None, records: dict | None = None) -> T:
    """`load()`, with any failure to read `path` raised as IndexCorrupt naming it and the command that fixes it.

    When `path` is a folder whose files are in `records`, the message names the first file whose checksum differs
    (checked only on this failing path, so opening a sound index costs no hashing).
    """
    try:
        return load()
    except LOAD_ERRORS as e:
        reason = " ".join(f"{type(e).__name__}: {e}".split())[:160]
        bad = damaged_file(paths, records) if paths is not None and records else None
        if bad:
            path, reason = bad
        raise IndexCorrupt(f"index file {path} is damaged ({reason}): run `yaksa index` to rebuild it") from None
