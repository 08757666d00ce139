"""`yaksa index`: build BM25, passage vectors and the Chroma collection for a corpus, incrementally.

Every stage records itself in the manifest when it finishes, and the two slow stages keep caches keyed by
content (tokens by document hash, vectors by text hash) that are flushed as they grow. So a re-run after
an edit only tokenises and embeds what changed, and a build interrupted at any point resumes where it
stopped. Vectors computed with the same embedder ship in trainsets/vectors; they are checked against the
live model on a sample before use, which makes a fresh clone's first index minutes instead of an hour.

Each finished stage also records the size and SHA-256 of the files it wrote (see index_integrity); the next build
checks them before reusing a stage and rebuilds one whose files changed, naming the file in its notes. A build holds
a lock beside the folder (see index_lock), and ``rebuild`` builds beside the folder and swaps it in when done (see
index_swap), so the working index keeps serving until the new one is complete.

Example:
    >>> report = build_index()
    >>> report.counts["documents"]
    31973
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from retrievers.bm25_index import BM25Index
from retrievers.corpus import embedding_text, load_corpus
from retrievers.documents import Document
from retrievers.embedders import Embedder, get_embedder
from retrievers.index_integrity import damaged_file, record_stage
from retrievers.index_lock import build_lock
from retrievers.index_store import (
    FORMAT_VERSION,
    IndexCorrupt,
    IndexMissing,
    IndexPaths,
    corpus_fingerprint,
    default_index_dir,
    read_manifest,
    replaced_atomically,
    write_docs,
    write_manifest,
)
from retrievers.index_swap import clear_leftovers, rebuilt_beside
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex, save_names
from retrievers.tokenizer import KiwiTokenizer
from retrievers.vector_cache import VectorCache, rule_vector_key
from retrievers.vector_store import ChromaStore, VectorStoreError

SHIPPED_VECTORS_DIR = Path(__file__).resolve().parent.parent / "trainsets" / "vectors"
VERIFY_SAMPLE = 6


@dataclass
class BuildReport:
    index_dir: Path
    counts: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def make_tokenizer(names: NameIndex, lexicon: Lexicon | None = None) -> KiwiTokenizer:
    lexicon = lexicon or Lexicon.load()
    words = set(names.user_words()) | set(lexicon.symptom_words())
    return KiwiTokenizer(user_words=words, num_workers=min(4, os.cpu_count() or 1))


def _previous_manifest(paths: IndexPaths, report: BuildReport) -> dict:
    try:
        return read_manifest(paths)
    except IndexMissing:
        return {}
    except IndexCorrupt as e:
        reason = str(e).split(": run `yaksa")[0]
        report.notes.append(f"{reason}: every stage rebuilt (cached tokens and vectors reused)")
        return {}


def build_index(
    corpus: str | Path | None = None,
    index_dir: str | Path | None = None,
    embedder: Embedder | None = None,
    rebuild: bool = False,
    bm25_only: bool = False,
    shipped_vectors: str | Path | None = SHIPPED_VECTORS_DIR,
    chroma_url: str | None = None,
    progress: bool = True,
) -> BuildReport:
    """Build or update the index; safe to interrupt and re-run.

    One build per folder at a time: a second raises IndexBusy. An update checks the files of every stage it reuses
    against the checksums in the manifest and rebuilds a damaged stage (the report's notes name the file). A rebuild
    is written beside the folder and swapped in when complete, so the working index serves until then.
    """
    root = Path(index_dir) if index_dir else default_index_dir()
    with build_lock(root):
        clear_leftovers(root)
        with rebuilt_beside(root) if rebuild else contextlib.nullcontext(root) as folder:
            report = _build(corpus, IndexPaths(folder), embedder, bm25_only, shipped_vectors, chroma_url, progress)
        report.index_dir = root
        return report


def _build(corpus, paths: IndexPaths, embedder, bm25_only, shipped_vectors, chroma_url, progress) -> BuildReport:
    paths.root.mkdir(parents=True, exist_ok=True)
    report = BuildReport(paths.root)
    t0 = time.perf_counter()

    docs = load_corpus(corpus)
    prev = _previous_manifest(paths, report)
    prev_done, prev_files = set(prev.get("stages_done", [])), prev.get("files", {})
    _damaged(paths, "docs", prev_done, prev_files, report)  # rewritten on every build: a damaged one is only named
    names = NameIndex.from_documents(docs)
    with replaced_atomically(paths.names) as tmp:
        save_names(names, tmp)
    tokenizer = make_tokenizer(names)
    with replaced_atomically(paths.user_words) as tmp:
        tmp.write_text("\n".join(tokenizer.user_words), encoding="utf-8")
    fp = corpus_fingerprint(docs)
    same_corpus = prev.get("corpus") == fp and prev.get("tokenizer") == tokenizer.fingerprint
    done = set(prev.get("stages_done", [])) if same_corpus else set()
    recorded = prev.get("files", {}) if same_corpus else {}
    manifest = {
        "format": FORMAT_VERSION,
        "corpus": fp,
        "tokenizer": tokenizer.fingerprint,
        "documents": len(docs),
        "embedder": prev.get("embedder", ""),
        "stages_done": [],
        "files": {},
        "doc_hashes": prev.get("doc_hashes", {}),
    }
    write_docs(paths, docs)
    _finish_stage(paths, manifest, "docs")
    report.counts["documents"] = len(docs)
    report.seconds["load"] = time.perf_counter() - t0

    t = time.perf_counter()
    if _reusable(paths, "bm25", done, recorded, report):  # same corpus and dictionary, files as recorded
        report.counts["tokenised"] = 0
    else:
        report.counts["tokenised"] = _build_bm25(paths, docs, tokenizer, progress)
    _finish_stage(paths, manifest, "bm25")
    report.seconds["bm25"] = time.perf_counter() - t

    if bm25_only:
        report.notes.append("dense vectors skipped (--bm25-only): search uses BM25, names and sections until built")
        report.seconds["total"] = time.perf_counter() - t0
        return report

    embedder = embedder or get_embedder()
    t = time.perf_counter()
    if _damaged(paths, "vectors", prev_done, prev_files, report):
        paths.vectors.unlink(missing_ok=True)  # rows that cannot be trusted: embedded again (or shipped ones reused)
    embedded, reused = _fill_vectors(paths, docs, embedder, shipped_vectors, progress, report)
    report.counts["embedded"] = embedded
    report.counts["vectors_from_cache"] = reused
    manifest["embedder"] = embedder.name
    _finish_stage(paths, manifest, "vectors")
    report.seconds["vectors"] = time.perf_counter() - t

    t = time.perf_counter()
    upserted, deleted = _sync_chroma(paths, docs, embedder, manifest["doc_hashes"], chroma_url, progress, report)
    report.counts["chroma_upserted"] = upserted
    report.counts["chroma_deleted"] = deleted
    manifest["doc_hashes"] = {d.id: d.content_hash for d in docs}
    manifest["chroma_url"] = chroma_url or os.environ.get("YAKSA_CHROMA_URL", "")
    _finish_stage(paths, manifest, "chroma")
    report.seconds["chroma"] = time.perf_counter() - t
    report.seconds["total"] = time.perf_counter() - t0
    return report


def _reusable(paths: IndexPaths, stage: str, done: set[str], recorded: dict, report: BuildReport) -> bool:
    """Whether the previous build finished `stage` and left its files as it recorded them. A stage with no record
    (an index built before records were kept) is rebuilt once."""
    return stage in done and bool(recorded.get(stage)) and not _damaged(paths, stage, done, recorded, report)


def _damaged(paths: IndexPaths, stage: str, done: set[str], recorded: dict, report: BuildReport) -> bool:
    """Whether a file of the finished `stage` differs from its record (missing, resized, another checksum); the
    report's notes name it."""
    bad = damaged_file(paths, recorded.get(stage, {})) if stage in done else None
    if bad:
        path, why = bad
        report.notes.append(f"{path} was damaged ({why}): rebuilt the {stage} stage")
    return bad is not None


def _finish_stage(paths: IndexPaths, manifest: dict, stage: str) -> None:
    """Mark `stage` done in the manifest with the size and checksum of each file it left."""
    manifest["stages_done"].append(stage)
    manifest["files"][stage] = record_stage(paths, stage)
    write_manifest(paths, manifest)


def _read_token_cache(path: Path, fingerprint: str) -> dict[str, list[str]]:
    cache: dict[str, list[str]] = {}
    if not path.exists():
        return cache
    with open(path, encoding="utf-8") as f:
        header = f.readline()
        try:
            if json.loads(header).get("tokenizer") != fingerprint:
                return cache
        except json.JSONDecodeError:
            return cache
        for line in f:
            try:
                row = json.loads(line)
                cache[row["h"]] = row["t"]
            except (json.JSONDecodeError, KeyError):
                break  # a torn last line from an interrupted build: everything after it is re-done
    return cache


def _build_bm25(paths: IndexPaths, docs: list[Document], tokenizer: KiwiTokenizer, progress: bool) -> int:
    cache = _read_token_cache(paths.tokens, tokenizer.fingerprint)
    todo = [d for d in docs if d.content_hash not in cache]
    todo = list({d.content_hash: d for d in todo}.values())
    if not cache:
        paths.tokens.write_text(json.dumps({"tokenizer": tokenizer.fingerprint}) + "\n", encoding="utf-8")
    with (
        open(paths.tokens, "a", encoding="utf-8") as out,
        tqdm(total=len(todo), desc="tokenising", unit="doc", disable=not progress or not todo) as bar,
    ):
        for start in range(0, len(todo), 500):
            chunk = todo[start : start + 500]
            for doc, toks in zip(chunk, tokenizer.batch([d.text for d in chunk]), strict=True):
                cache[doc.content_hash] = toks
                out.write(json.dumps({"h": doc.content_hash, "t": toks}, ensure_ascii=False) + "\n")
            out.flush()
            bar.update(len(chunk))
    bm25 = BM25Index.build([cache[d.content_hash] for d in docs], [d.id for d in docs])
    with replaced_atomically(paths.bm25) as tmp:
        bm25.save(tmp)
    return len(todo)


def _fill_vectors(paths, docs, embedder, shipped_dir, progress, report) -> tuple[int, int]:
    cache = VectorCache.open(paths.vectors, dim=embedder.dim, model=embedder.name)
    texts = [embedding_text(d) for d in docs]
    shipped = Path(shipped_dir) / f"{embedder.name}.npz" if shipped_dir else None
    if shipped and shipped.exists() and cache.missing(texts):
        candidate = VectorCache.open(shipped, dim=embedder.dim, model=embedder.name)
        sample = [t for t in dict.fromkeys(texts) if t in candidate][:VERIFY_SAMPLE]
        try:
            worst = candidate.verify(sample, embedder.passage)
            added = cache.merge_file(shipped)
            report.notes.append(
                f"{added} shipped vectors reused (checked on {len(sample)} texts, min cosine {worst:.3f})"
            )
        except ValueError as e:
            report.notes.append(f"shipped vectors not used: {e}")
    distinct = len(set(texts))
    todo = len(cache.missing(texts))
    with tqdm(total=todo, desc="embedding", unit="text", disable=not progress or not todo) as bar:
        embedded = cache.fill(texts, embedder.passage, progress=bar.update)
    rules = Lexicon.load().rule_texts()
    todo_rules = cache.missing(rule_vector_key(t) for t in rules)
    if todo_rules:  # the symptom rules' query vectors: rule-covered questions need no embedding of their own
        texts_of = {rule_vector_key(t): t for t in rules}
        cache.put(todo_rules, embedder.query([texts_of[k] for k in todo_rules]))
    if not embedded or todo_rules:
        cache.save()
    return embedded, distinct - embedded


def _open_chroma(paths: IndexPaths, embedder, chroma_url, report: BuildReport) -> tuple[ChromaStore, bool]:
    """The build's Chroma collection, and whether it was started afresh. A local store that cannot be opened or
    counted (a damaged chroma.sqlite3) is deleted and started again, said in the report: its vectors are all in
    vectors.npz. A Chroma server that fails raises VectorStoreError (the user checks the server)."""
    collection = f"yaksa-{embedder.name}"
    url = chroma_url or os.environ.get("YAKSA_CHROMA_URL")
    try:
        store = ChromaStore.open(paths.chroma, collection=collection, url=url)
        store.count()
        return store, False
    except VectorStoreError as e:
        if url:
            raise
        reason = " ".join(str(e).split())[:160]
        report.notes.append(f"{paths.chroma / 'chroma.sqlite3'} was damaged ({reason}): rebuilt the chroma stage")
    shutil.rmtree(paths.chroma, ignore_errors=True)
    return ChromaStore.open(paths.chroma, collection=collection, url=url), True


def _sync_chroma(paths, docs, embedder, old_hashes, chroma_url, progress, report) -> tuple[int, int]:
    store, fresh = _open_chroma(paths, embedder, chroma_url, report)
    try:
        return _upsert_changed(paths, store, docs, embedder, {} if fresh else old_hashes, progress)
    finally:
        store.close()  # let go of its files: a rebuild renames the folder next


def _upsert_changed(paths, store, docs, embedder, old_hashes, progress) -> tuple[int, int]:
    existing = store.existing_ids()
    wanted = {d.id for d in docs}
    stale = sorted(existing - wanted)
    if stale:
        store.delete(stale)
    todo = [d for d in docs if d.id not in existing or old_hashes.get(d.id) != d.content_hash]
    cache = VectorCache.open(paths.vectors, dim=embedder.dim, model=embedder.name)
    with tqdm(total=len(todo), desc="chroma", unit="doc", disable=not progress or not todo) as bar:
        for start in range(0, len(todo), 2000):
            chunk = todo[start : start + 2000]
            vecs = cache.get([embedding_text(d) for d in chunk])
            store.upsert([d.id for d in chunk], vecs, [d.metadata for d in chunk])
            bar.update(len(chunk))
    return len(todo), len(stale)
