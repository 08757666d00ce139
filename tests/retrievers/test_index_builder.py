import json
import shutil

import pytest

from retrievers.index_builder import build_index
from retrievers.index_open import open_searcher
from retrievers.index_store import IndexCorrupt, IndexMissing
from retrievers.lexicon import Lexicon
from tests.retrievers.conftest import MINI_CORPUS
from yaksa.testing.hash_embedder import HashEmbedder


@pytest.fixture
def corpus_copy(tmp_path):
    dst = tmp_path / "corpus"
    shutil.copytree(MINI_CORPUS, dst)
    return dst


def _build(corpus, index_dir, emb=None, **kw):
    return build_index(corpus, index_dir, embedder=emb or HashEmbedder(), shipped_vectors=None, progress=False, **kw)


def test_full_build_reports_counts(mini_index):
    index_dir, report = mini_index
    from retrievers.corpus import load_corpus

    docs = load_corpus(MINI_CORPUS)
    assert report.counts["documents"] == len(docs)
    assert report.counts["tokenised"] == len({d.content_hash for d in docs})  # each distinct text once
    assert report.counts["chroma_upserted"] == report.counts["documents"]
    manifest = json.loads((index_dir / "manifest.json").read_text())
    assert manifest["stages_done"] == ["docs", "bm25", "vectors", "chroma"]


def test_rerun_embeds_and_tokenises_only_changed_documents(corpus_copy, tmp_path):
    index_dir = tmp_path / "idx"
    first = _build(corpus_copy, index_dir)
    assert first.counts["embedded"] > 0
    again = _build(corpus_copy, index_dir)
    assert again.counts["tokenised"] == 0
    assert again.counts["embedded"] == 0
    assert again.counts["chroma_upserted"] == 0

    path = corpus_copy / "easydrug" / "easydrug.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows[0]["seQesitm"] = "새로 추가된 이상반응: 어지러움이 나타날 수 있습니다."
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    emb = HashEmbedder()
    third = _build(corpus_copy, index_dir, emb)
    assert third.counts["tokenised"] == 1
    assert third.counts["embedded"] == 1
    assert emb.texts_embedded == 1
    assert third.counts["chroma_upserted"] == 1
    s = open_searcher(index_dir, embedder=HashEmbedder(), shared=False)
    assert "어지러움" in s.get(f"easydrug:{rows[0]['itemSeq']}:se").text


def test_interrupted_build_is_detected_and_resumes(corpus_copy, tmp_path):
    index_dir = tmp_path / "idx"

    class Interrupting(HashEmbedder):
        def passage(self, texts):
            if self.calls >= 1:
                raise KeyboardInterrupt
            return super().passage(texts)

    with pytest.raises(KeyboardInterrupt):
        build_index(corpus_copy, index_dir, embedder=Interrupting(), shipped_vectors=None, progress=False)
    # BM25 works meanwhile, and every result says the vectors are missing and how to finish them
    half = open_searcher(index_dir, embedder=HashEmbedder(), shared=False).retrieve("게보린 부작용")
    assert half.hits
    assert any("yaksa index" in w for w in half.warnings)
    emb = HashEmbedder()
    resumed = _build(corpus_copy, index_dir, emb)
    assert resumed.counts["tokenised"] == 0
    assert 0 < resumed.counts["embedded"] < resumed.counts["documents"]
    assert open_searcher(index_dir, embedder=HashEmbedder(), shared=False).retrieve("게보린 부작용").hits


def test_missing_and_corrupt_indexes_say_how_to_fix(corpus_copy, tmp_path):
    with pytest.raises(IndexMissing, match="yaksa index"):
        open_searcher(tmp_path / "none", shared=False)
    index_dir = tmp_path / "idx"
    _build(corpus_copy, index_dir, bm25_only=True)
    shutil.rmtree(index_dir / "bm25")
    with pytest.raises(IndexCorrupt, match="rebuild"):
        open_searcher(index_dir, dense=False, shared=False)
    (index_dir / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(IndexCorrupt, match="rebuild"):
        open_searcher(index_dir, dense=False, shared=False)
    (index_dir / "manifest.json").write_text('{"format": 1, "stages_done": ["docs", "bm25"], "documents": 3}')
    with pytest.raises(IndexCorrupt):
        open_searcher(index_dir, dense=False, shared=False)


def test_shipped_vectors_are_reused_after_a_check(corpus_copy, tmp_path):
    from retrievers.corpus import embedding_text, load_corpus
    from retrievers.vector_cache import VectorCache

    emb = HashEmbedder()
    shipped = tmp_path / "shipped"
    cache = VectorCache.open(shipped / f"{emb.name}.npz", dim=emb.dim, model=emb.name)
    cache.fill([embedding_text(d) for d in load_corpus(corpus_copy)], emb.passage)
    fresh = HashEmbedder()
    report = build_index(corpus_copy, tmp_path / "idx", embedder=fresh, shipped_vectors=shipped, progress=False)
    assert report.counts["embedded"] == 0
    assert any("shipped vectors reused" in n for n in report.notes)
    rules = len(Lexicon.load().rule_texts())  # one query vector per symptom rule, stored beside the passages
    assert fresh.texts_embedded <= 6 + rules  # no passage beyond the verification sample


def test_a_dosage_form_in_the_question_prefers_that_product(mini_searcher):
    seqs = {d.metadata["item_seq"]: d.metadata["item_name"] for d in mini_searcher.docs if d.source == "easydrug"}
    gelfos = next(s for s, n in seqs.items() if "겔포스" in n)
    gebolin = next(s for s, n in seqs.items() if "게보린" in n)
    assert mini_searcher.candidates.by_dosage_form({gelfos, gebolin}, "겔포스 현탁액 먹는 법") == {gelfos}
    assert mini_searcher.candidates.by_dosage_form({gelfos, gebolin}, "먹는 법") == {gelfos, gebolin}
    assert mini_searcher.candidates.by_dosage_form({gelfos, gebolin}, "크림 바르는 법") == {gelfos, gebolin}


BUILD_AND_SEARCH = """
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from retrievers.index_builder import build_index
from retrievers.index_open import open_searcher
from yaksa.testing.hash_embedder import HashEmbedder
report = build_index({corpus!r}, {index!r}, embedder=HashEmbedder(), shipped_vectors=None, progress=False)
s = open_searcher({index!r}, embedder=HashEmbedder(), shared=False)
queries = ["게보린 부작용", "두통에 먹는 약", "임부 금기 성분", "베아제 보관", "아세트아미노펜 같이 먹으면 안 되는 약"]
ranks = [[(h.id, round(float(h.score), 6)) for h in s.retrieve(q, k=10).hits] for q in queries]
print(json.dumps({{"tokenised": report.counts["tokenised"], "ranks": ranks}}))
"""


def _build_in_process(corpus, index_dir, seed: str) -> dict:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    code = BUILD_AND_SEARCH.format(root=root, corpus=str(corpus), index=str(index_dir))
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _index_files(index_dir) -> dict:
    files = ["names.json", "user_words.txt", "tokens.jsonl", "docs.jsonl"]
    files += [f"bm25/{p.name}" for p in sorted((index_dir / "bm25").iterdir())]
    return {name: (index_dir / name).read_bytes() for name in files}


def test_builds_in_processes_with_different_hash_seeds_are_byte_identical(corpus_copy, tmp_path):
    a = _build_in_process(corpus_copy, tmp_path / "a", "1")
    b = _build_in_process(corpus_copy, tmp_path / "b", "2")
    assert _index_files(tmp_path / "a") == _index_files(tmp_path / "b")
    assert a["ranks"] == b["ranks"]
    assert all(len(r) == 10 for r in a["ranks"])  # all five in scope (the scope model reads each as about medicine)
    # a re-run in a third process (another seed) on the unchanged corpus tokenises nothing
    again = _build_in_process(corpus_copy, tmp_path / "a", "3")
    assert again["tokenised"] == 0
    assert again["ranks"] == a["ranks"]


def test_an_interrupt_in_the_chroma_stage_resumes_there(corpus_copy, tmp_path, monkeypatch):
    from retrievers import index_builder

    index_dir = tmp_path / "idx"
    real_sync = index_builder._sync_chroma

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(index_builder, "_sync_chroma", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _build(corpus_copy, index_dir)
    stages = json.loads((index_dir / "manifest.json").read_text())["stages_done"]
    assert stages == ["docs", "bm25", "vectors"]
    bm25_before = _index_files(index_dir)
    stamps = {p: p.stat().st_mtime_ns for p in (index_dir / "bm25").iterdir()}
    monkeypatch.setattr(index_builder, "_sync_chroma", real_sync)
    emb = HashEmbedder()
    resumed = _build(corpus_copy, index_dir, emb)
    assert resumed.counts["tokenised"] == 0
    assert resumed.counts["embedded"] == 0
    assert emb.texts_embedded == 0
    assert resumed.counts["chroma_upserted"] == resumed.counts["documents"]
    assert {p: p.stat().st_mtime_ns for p in (index_dir / "bm25").iterdir()} == stamps  # BM25 not rebuilt
    assert _index_files(index_dir) == bm25_before
