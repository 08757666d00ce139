"""A failed build leaves no debris, and `--rebuild` replaces the working index only once the new one is complete: a
full disk (ENOSPC) leaves no temporary file, an interrupted rebuild leaves the old index searchable."""

import errno
import json
import shutil

from retrievers import index_builder, index_open, index_store
from retrievers.bm25_index import BM25Index
from retrievers.vector_store import ChromaStore
from tests.retrievers.conftest import yaksa_index
from yaksa import cli
from yaksa.testing.hash_embedder import HashEmbedder


def top_ids(root, capsys) -> list[str]:
    index_open._SHARED.clear()
    assert cli.main(["search", "게보린 부작용", "--json", "--index-dir", str(root)]) == 0
    return [hit["id"] for hit in json.loads(capsys.readouterr().out)]


def debris(parent) -> list[str]:
    """Temporary files and folders anywhere under `parent`."""
    return sorted(str(p) for p in parent.rglob("*") if ".tmp" in p.name or ".rebuild-" in p.name or ".old-" in p.name)


def disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_while_saving_bm25_leaves_no_temporary_folder(index, monkeypatch, capsys):
    real_save = BM25Index.save

    def save_then_fill_the_disk(self, folder):
        real_save(self, folder)  # most of it written, then the disk is full
        disk_full()

    shutil.rmtree(index / "bm25")  # the stage must be rebuilt
    monkeypatch.setattr(BM25Index, "save", save_then_fill_the_disk)
    assert yaksa_index(index) == 2
    assert debris(index.parent) == []
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert f"cannot build the index at {index}: No space left on device" in err[0]


def test_a_full_disk_while_writing_documents_leaves_no_temporary_file(index, monkeypatch, capsys):
    real_open = open

    def open_on_a_full_disk(path, mode="r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        if "w" in mode:
            f.write("{")  # a first byte lands, then the disk is full
            f.write = disk_full
        return f

    monkeypatch.setattr(index_store, "open", open_on_a_full_disk, raising=False)
    assert yaksa_index(index) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert debris(index.parent) == []


def test_an_interrupted_rebuild_leaves_the_old_index_searchable(index, monkeypatch, capsys):
    before = top_ids(index, capsys)
    manifest = (index / "manifest.json").read_bytes()

    class Interrupted(HashEmbedder):
        def passage(self, texts):
            raise KeyboardInterrupt

    monkeypatch.setattr(index_builder, "get_embedder", lambda *a, **k: Interrupted())
    assert yaksa_index(index, "--rebuild") == 130
    assert (index / "manifest.json").read_bytes() == manifest
    assert top_ids(index, capsys) == before
    assert debris(index.parent) == []


def test_a_full_disk_during_a_rebuild_leaves_the_old_index_and_no_temporary_folder(index, monkeypatch, capsys):
    before = top_ids(index, capsys)
    manifest = (index / "manifest.json").read_bytes()
    monkeypatch.setattr(index_builder, "_sync_chroma", disk_full)
    assert yaksa_index(index, "--rebuild") == 2
    assert "No space left on device" in capsys.readouterr().err
    assert (index / "manifest.json").read_bytes() == manifest  # the old index, all four stages
    assert top_ids(index, capsys) == before
    assert debris(index.parent) == []


def test_a_rebuild_replaces_the_index_when_complete(index, capsys):
    before = top_ids(index, capsys)
    (index / "stray-file").write_text("from the old index")
    index.chmod(0o755)
    assert yaksa_index(index, "--rebuild") == 0
    assert index.stat().st_mode & 0o777 == 0o755  # readable by others as before, not the temporary folder's 0o700
    assert f"index: {index}" in capsys.readouterr().out
    assert not (index / "stray-file").exists()  # a new folder, not the old one updated
    assert top_ids(index, capsys) == before
    assert sorted(p.name for p in index.parent.iterdir()) == ["idx", "idx.lock"]
    store = ChromaStore.open(index / "chroma", collection=f"yaksa-{HashEmbedder.name}")  # built in the temporary folder
    try:
        assert store.count() == json.loads((index / "manifest.json").read_text(encoding="utf-8"))["documents"]
    finally:
        store.close()


def test_folders_left_by_a_killed_rebuild_are_cleared_by_the_next_build(index, capsys):
    (index.parent / ".idx.rebuild-x1y2").mkdir()
    (index.parent / ".idx.rebuild-x1y2" / "docs.jsonl").write_text("half")
    index.rename(index.parent / ".idx.old-a1b2")  # killed between the swap's two renames
    assert yaksa_index(index) == 0
    assert "note:" not in capsys.readouterr().out  # the old index was put back as it was
    assert sorted(p.name for p in index.parent.iterdir()) == ["idx", "idx.lock"]
    assert top_ids(index, capsys)
