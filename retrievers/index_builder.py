"""`yaksa index`: build BM25, passage vectors and the Chroma collection for a corpus, incrementally.

Every stage records itself in the manifest when it finishes, and the two slow stages keep caches keyed by
content (tokens by document hash, vectors by text hash) that are flushed as they grow. So a re-run after
an edit only tokenises and embeds what changed, and a build interrupted at any point resumes where it
stopped. Vectors computed with the same embedder ship in trainsets/vectors; they are checked against the
live model on a sample before use, which makes a fresh clone's first index minutes instead of an hour.

Example:
    >>> report = build_index()
    >>> report.counts["documents"]
    31973
"""

from __future__ import annotations

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
from retrievers.index_store import (
    FORMAT_VERSION,
    IndexCorrupt,
    IndexMissing,
    IndexPaths,
    corpus_fingerprint,
    default_index_dir,
    read_manifest,
    write_docs,
    write_manifest,
)
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex, save_names
from retrievers.tokenizer import KiwiTokenizer
from retrievers.vector_cache import VectorCache, rule_vector_key
from retrievers.vector_store import ChromaStore

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


def _previous_manifest(paths: IndexPaths) -> dict:
    try:
        return read_manifest(paths)
    except (IndexMissing, IndexCorrupt):
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
    """Build or update the index; safe to interrupt and re-run."""
    paths = IndexPaths(Path(index_dir) if index_dir else default_index_dir())
    if rebuild and paths.root.exists():
        shutil.rmtree(paths.root)
    paths.root.mkdir(parents=True, exist_ok=True)
    report = BuildReport(paths.root)
    t0 = time.perf_counter()

    docs = load_corpus(corpus)
    prev = _previous_manifest(paths)
    names = NameIndex.from_documents(docs)
    save_names(names, paths.root / "names.json")
    tokenizer = make_tokenizer(names)
    (paths.root / "user_words.txt").write_text("\n".join(tokenizer.user_words), encoding="utf-8")
    fp = corpus_fingerprint(docs)
    same_corpus = prev.get("corpus") == fp and prev.get("tokenizer") == tokenizer.fingerprint
    done = set(prev.get("stages_done", [])) if same_corpus else set()
    manifest = {
        "format": FORMAT_VERSION,
        "corpus": fp,
        "tokenizer": tokenizer.fingerprint,
        "documents": len(docs),
        "embedder": prev.get("embedder", ""),
        "stages_done": sorted(done & {"docs"}),
        "doc_hashes": prev.get("doc_hashes", {}),
    }
    write_docs(paths, docs)
    manifest["stages_done"] = ["docs"]
    write_manifest(paths, manifest)
    report.counts["documents"] = len(docs)
    report.seconds["load"] = time.perf_counter() - t0

    t = time.perf_counter()
    if "bm25" in done and paths.bm25.exists():  # same corpus and dictionary: resume after this stage
        report.counts["tokenised"] = 0
    else:
        report.counts["tokenised"] = _build_bm25(paths, docs, tokenizer, progress)
    manifest["stages_done"].append("bm25")
    write_manifest(paths, manifest)
    report.seconds["bm25"] = time.perf_counter() - t

    if bm25_only:
        report.notes.append("dense vectors skipped (--bm25-only): search uses BM25, names and sections until built")
        report.seconds["total"] = time.perf_counter() - t0
        return report

    embedder = embedder or get_embedder()
    t = time.perf_counter()
    embedded, reused = _fill_vectors(paths, docs, embedder, shipped_vectors, progress, report)
    report.counts["embedded"] = embedded
    report.counts["vectors_from_cache"] = reused
    manifest["embedder"] = embedder.name
    manifest["stages_done"].append("vectors")
    write_manifest(paths, manifest)
    report.seconds["vectors"] = time.perf_counter() - t

    t = time.perf_counter()
    upserted, deleted = _sync_chroma(paths, docs, embedder, manifest["doc_hashes"], chroma_url, progress)
    report.counts["chroma_upserted"] = upserted
    report.counts["chroma_deleted"] = deleted
    manifest["doc_hashes"] = {d.id: d.content_hash for d in docs}
    manifest["chroma_url"] = chroma_url or os.environ.get("YAKSA_CHROMA_URL", "")
    manifest["stages_done"].append("chroma")
    write_manifest(paths, manifest)
    report.seconds["chroma"] = time.perf_counter() - t
    report.seconds["total"] = time.perf_counter() - t0
    return report


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
    tmp = paths.root / "bm25.tmp"
    if tmp.exists():
        shutil.rmtree(tmp)
    bm25.save(tmp)
    if paths.bm25.exists():
        shutil.rmtree(paths.bm25)
    os.replace(tmp, paths.bm25)
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


def _sync_chroma(paths, docs, embedder, old_hashes, chroma_url, progress) -> tuple[int, int]:
    store = ChromaStore.open(paths.chroma, collection=f"yaksa-{embedder.name}", url=chroma_url)
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
