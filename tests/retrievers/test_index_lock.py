"""One build per index folder: a second `yaksa index` on a folder another process is building stops at once with one
line (exit 2), and a lock left by a killed build blocks nothing."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from retrievers.index_lock import lock_path
from tests.retrievers.conftest import MINI_CORPUS
from yaksa import cli

ROOT = str(Path(__file__).resolve().parents[2])

# A real `--rebuild` of the mini index in another process, held inside its embedding stage until `go` exists.
HELD_BUILD = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from retrievers.index_builder import build_index
from yaksa.testing.hash_embedder import HashEmbedder

class Held(HashEmbedder):
    def passage(self, texts):
        Path({started!r}).touch()
        while not Path({go!r}).exists():
            time.sleep(0.05)
        return super().passage(texts)

build_index({corpus!r}, {index!r}, embedder=Held(), rebuild=True, shipped_vectors=None, progress=False)
"""

# Takes the build lock and waits to be killed.
HOLD_LOCK = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from retrievers.index_lock import build_lock
with build_lock(Path({index!r})):
    Path({started!r}).touch()
    time.sleep(600)
"""


def start(script: str, tmp_path, **fields) -> tuple[subprocess.Popen, Path]:
    started = tmp_path / "started"
    code = script.format(root=ROOT, started=str(started), **fields)
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not started.exists():
        if proc.poll() is not None:
            pytest.fail(f"the other build ended early: {proc.stderr.read()[-2000:]}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the other build did not start")
        time.sleep(0.1)
    return proc, started


def yaksa_index(root, *flags) -> int:
    return cli.main(["index", str(MINI_CORPUS), "--index-dir", str(root), "-q", "--no-shipped-vectors", *flags])


def test_a_second_rebuild_of_a_folder_being_built_is_refused(mini_index, tmp_path, test_embedders, capsys):
    import shutil

    index = tmp_path / "idx"
    shutil.copytree(mini_index[0], index)
    go = tmp_path / "go"
    other, _ = start(HELD_BUILD, tmp_path, corpus=str(MINI_CORPUS), index=str(index), go=str(go))
    try:
        assert yaksa_index(index, "--rebuild") == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1
        assert f"another `yaksa index` (pid {other.pid}) is building {index}" in err[0]
    finally:
        go.touch()
        assert other.wait(timeout=240) == 0, other.stderr.read()[-2000:]
    keys = [json.loads(line)["h"] for line in (index / "tokens.jsonl").read_text(encoding="utf-8").splitlines()[1:]]
    assert len(keys) == len(set(keys))  # one build wrote the token cache, not two interleaved
    assert cli.main(["search", "게보린 부작용", "--json", "--index-dir", str(index)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["id"].endswith(":se")


def test_a_lock_left_by_a_killed_build_does_not_block(tmp_path, test_embedders, capsys):
    index = tmp_path / "idx"
    holder, _ = start(HOLD_LOCK, tmp_path, index=str(index))
    assert yaksa_index(index, "--bm25-only") == 2
    assert f"(pid {holder.pid})" in capsys.readouterr().err
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait(timeout=30)
    assert lock_path(index).read_text().strip() == str(holder.pid)  # the file stays; the kernel dropped its lock
    assert yaksa_index(index, "--bm25-only") == 0
    assert (index / "bm25" / "ids.json").exists()
