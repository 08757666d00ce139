"""The on-disk index layout and its integrity checks.

    <index>/manifest.json   what was built from what (corpus and tokenizer fingerprints, stages done, and the size
                            and SHA-256 of each stage's files: see index_integrity)
    <index>/docs.jsonl      the documents (id, text, metadata)
    <index>/names.json      product and ingredient names (see names), user_words.txt the tokenizer's dictionary
    <index>/tokens.jsonl    BM25 tokens per document content hash (reused by incremental builds)
    <index>/bm25/           the bm25s index
    <index>/vectors.npz     passage vectors by text hash (see VectorCache)
    <index>/chroma/         the Chroma collection (or a Chroma server, see vector_store)

Every file but the append-only token cache is written to a temporary name and renamed into place; the temporary
file is removed when writing fails (a full disk), so a failed build leaves no debris.

Example:
    >>> paths = IndexPaths(default_index_dir())
    >>> paths.manifest.name
    'manifest.json'
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from retrievers.documents import Document

FORMAT_VERSION = 1
STAGES = ("docs", "bm25", "vectors", "chroma")


class IndexMissing(RuntimeError):
    """No index at the path."""


class IndexCorrupt(RuntimeError):
    """An index exists but is half-built or damaged."""


def default_index_dir() -> Path:
    """``$YAKSA_INDEX_DIR`` or ~/.cache/yaksa/index."""
    env = os.environ.get("YAKSA_INDEX_DIR")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "yaksa" / "index"


@dataclass(frozen=True)
class IndexPaths:
    root: Path

    @property
    def manifest(self) -> Path:
        return self.root / "manifest.json"

    @property
    def docs(self) -> Path:
        return self.root / "docs.jsonl"

    @property
    def names(self) -> Path:
        return self.root / "names.json"

    @property
    def user_words(self) -> Path:
        return self.root / "user_words.txt"

    @property
    def tokens(self) -> Path:
        return self.root / "tokens.jsonl"

    @property
    def bm25(self) -> Path:
        return self.root / "bm25"

    @property
    def vectors(self) -> Path:
        return self.root / "vectors.npz"

    @property
    def chroma(self) -> Path:
        return self.root / "chroma"


def corpus_fingerprint(docs: list[Document]) -> str:
    h = hashlib.md5()
    for d in docs:
        h.update(d.id.encode())
        h.update(d.content_hash.encode())
    return h.hexdigest()


def read_manifest(paths: IndexPaths) -> dict:
    if not paths.manifest.exists():
        raise IndexMissing(f"no index at {paths.root}: run `yaksa index` first")
    try:
        manifest = json.loads(paths.manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:  # ValueError: bad JSON or bytes that are not UTF-8
        reason = " ".join(f"{type(e).__name__}: {e}".split())[:120]
        raise IndexCorrupt(
            f"index manifest {paths.manifest} is unreadable ({reason}): run `yaksa index` to rebuild it"
        ) from None
    if not isinstance(manifest, dict):
        raise IndexCorrupt(
            f"index manifest {paths.manifest} holds a {type(manifest).__name__}, not an object: "
            "run `yaksa index` to rebuild it"
        )
    if manifest.get("format") != FORMAT_VERSION:
        raise IndexCorrupt(f"index at {paths.root} has format {manifest.get('format')}: run `yaksa index --rebuild`")
    return manifest


@contextlib.contextmanager
def replaced_atomically(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside `path` to write; rename it over `path` when the block ends, or remove it (file
    or folder) when the block fails, a full disk included.

    Example:
        >>> import tempfile
        >>> target = Path(tempfile.mkdtemp()) / "docs.jsonl"
        >>> with replaced_atomically(target) as tmp:
        ...     _ = tmp.write_text("{}")
        >>> target.read_text(), tmp.exists()
        ('{}', False)
    """
    tmp = path.with_name(path.name.rsplit(".", 1)[0] + ".tmp")
    _remove(tmp)  # debris of a build killed before it could clean up
    try:
        yield tmp
        if path.is_dir() and tmp.is_dir():
            shutil.rmtree(path)
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def write_manifest(paths: IndexPaths, manifest: dict) -> None:
    paths.root.mkdir(parents=True, exist_ok=True)
    with replaced_atomically(paths.manifest) as tmp:
        tmp.write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")


def write_docs(paths: IndexPaths, docs: list[Document]) -> None:
    with replaced_atomically(paths.docs) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for d in docs:
            f.write(json.dumps({"id": d.id, "text": d.text, "metadata": d.metadata}, ensure_ascii=False) + "\n")


def read_docs(paths: IndexPaths) -> list[Document]:
    docs = []
    try:
        with open(paths.docs, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                docs.append(Document(row["id"], row["text"], row["metadata"]))
    except (OSError, ValueError, KeyError, TypeError) as e:  # ValueError: bad JSON, a torn UTF-8 character
        reason = " ".join(str(e).split())[:120]
        raise IndexCorrupt(
            f"index documents {paths.docs} are damaged ({type(e).__name__}: {reason}): run `yaksa index --rebuild`"
        ) from None
    return docs


def check_complete(manifest: dict, paths: IndexPaths, need_vectors: bool = True) -> None:
    """Raise IndexCorrupt with a how-to-fix message unless every needed stage finished."""
    done = set(manifest.get("stages_done", []))
    needed = {"docs", "bm25"} | ({"vectors", "chroma"} if need_vectors else set())
    missing = [s for s in STAGES if s in needed and s not in done]
    if missing:
        raise IndexCorrupt(
            f"index at {paths.root} is half-built (missing: {', '.join(missing)}): run `yaksa index` to finish it"
        )
