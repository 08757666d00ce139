"""A damaged index is named, not trusted: search says which file is damaged and which command fixes it (one line, exit
2), and `yaksa index` checks every file it would reuse against the checksums in the manifest and rebuilds the stage
that was damaged, saying which file it was. Each case damages a copy of the real mini index the way a probe did."""

import json
import os

import pytest

from retrievers import index_open
from retrievers.index_store import IndexPaths
from retrievers.vector_store import ChromaStore
from tests.retrievers.conftest import yaksa_index
from yaksa import cli
from yaksa.testing.hash_embedder import HashEmbedder


def yaksa_search(root, query="게보린 부작용") -> int:
    index_open._SHARED.clear()
    return cli.main(["search", query, "--json", "--index-dir", str(root)])


def error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("yaksa: error: ")
    return err[0]


def repaired(root, capsys, damaged_name: str, stage: str) -> None:
    """`yaksa index` names the damaged file and rebuilds its stage; search answers again afterwards."""
    assert yaksa_index(root) == 0
    notes = [line for line in capsys.readouterr().out.splitlines() if "note:" in line]
    assert any(damaged_name in n and f"rebuilt the {stage} stage" in n for n in notes), notes
    assert yaksa_search(root) == 0
    assert json.loads(capsys.readouterr().out)[0]["id"].endswith(":se")


def truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage_of_same_size(path):
    path.write_bytes(b"\x07" * path.stat().st_size)


BM25_DAMAGE = pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("bm25/vocab.index.json", truncate),
        ("bm25/data.csc.index.npy", truncate),
        ("bm25/ids.json", truncate),
        ("bm25/indices.csc.index.npy", garbage_of_same_size),
        ("bm25/params.index.json", os.remove),
    ],
)


@BM25_DAMAGE
def test_index_rebuilds_a_damaged_bm25_file(index, capsys, name, damage):
    original = (index / name).read_bytes()
    damage(index / name)
    repaired(index, capsys, str(index / name), "bm25")
    assert (index / name).read_bytes() == original  # the build is deterministic: the same file again


@BM25_DAMAGE
def test_search_names_a_damaged_bm25_file(index, capsys, name, damage):
    damage(index / name)
    assert yaksa_search(index) == 2
    line = error_line(capsys)
    assert str(index / name) in line
    assert "run `yaksa index`" in line


def test_garbage_manifest_is_named_and_index_rebuilds_every_stage(index, capsys):
    (index / "manifest.json").write_bytes(b"\xff\xfe\x00garbage\x9c")
    assert yaksa_search(index) == 2
    line = error_line(capsys)
    assert str(index / "manifest.json") in line
    assert "run `yaksa index`" in line
    assert yaksa_index(index) == 0
    out = capsys.readouterr().out
    assert f"{index / 'manifest.json'} is unreadable" in out
    assert "every stage rebuilt" in out
    manifest = json.loads((index / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages_done"] == ["docs", "bm25", "vectors", "chroma"]
    assert yaksa_search(index) == 0


def test_names_holding_a_list_is_named_by_search_and_rewritten_by_index(index, capsys):
    (index / "names.json").write_text("[]", encoding="utf-8")
    assert yaksa_search(index) == 2
    line = error_line(capsys)
    assert str(index / "names.json") in line
    assert "run `yaksa index`" in line
    repaired(index, capsys, str(index / "names.json"), "docs")


def test_garbage_chroma_database_keeps_dense_search_and_index_rebuilds_the_collection(index, capsys):
    (index / "chroma" / "chroma.sqlite3").write_bytes(os.urandom(8192))
    # a local index searches with the vectors of vectors.npz in memory: the dense stage still answers
    s = index_open.open_searcher(index, embedder=HashEmbedder(), shared=False)
    assert s.retrieve("속이 더부룩해요", k=3).hits[0].scores["dense"] != 0
    repaired(index, capsys, str(index / "chroma" / "chroma.sqlite3"), "chroma")
    documents = json.loads((index / "manifest.json").read_text(encoding="utf-8"))["documents"]
    store = ChromaStore.open(index / "chroma", collection=f"yaksa-{HashEmbedder.name}")
    try:
        assert store.count() == documents
    finally:
        store.close()


def test_a_sound_index_is_reused_without_notes(index, capsys):
    stamps = {p: p.stat().st_mtime_ns for p in (index / "bm25").iterdir()}
    assert yaksa_index(index) == 0
    assert "note:" not in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in (index / "bm25").iterdir()} == stamps
    manifest = json.loads((index / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["files"]["docs"]) == {"docs.jsonl", "names.json", "user_words.txt"}
    assert set(manifest["files"]["vectors"]) == {"vectors.npz"}
    assert manifest["files"]["chroma"] == {}  # Chroma writes to its files on open: it is checked by opening it
    assert set(manifest["files"]["bm25"]) == {f"bm25/{p.name}" for p in (index / "bm25").iterdir()}


def test_damaged_vectors_are_named_and_embedded_again(index, capsys):
    truncate(IndexPaths(index).vectors)
    assert yaksa_search(index) == 2
    assert str(IndexPaths(index).vectors) in error_line(capsys)
    repaired(index, capsys, str(IndexPaths(index).vectors), "vectors")
