"""A real Chroma server on 127.0.0.1 (``chroma run``, shipped with the chromadb wheel): ``yaksa index`` over the test
corpus writes its vectors there through ``YAKSA_CHROMA_URL``, ``yaksa search`` reads them back, and a search after
the server stopped ends with a clear one-line error instead of hanging."""

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from yaksa.testing.mini_index import MINI_CORPUS
from yaksa.testing.ports import start_process_server

CHROMA = str(Path(sys.executable).with_name("chroma"))
YAKSA = str(Path(sys.executable).with_name("yaksa"))  # the console script, as a user runs it


def yaksa(*args, env, timeout=300):
    return subprocess.run([YAKSA, *args], env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def chroma(tmp_path):
    if not os.path.exists(CHROMA) or not os.path.exists(YAKSA):
        pytest.skip("the chroma or yaksa command is not installed in this environment")
    store = str(tmp_path / "chroma")
    try:
        process, port = start_process_server(
            lambda port: [CHROMA, "run", "--path", store, "--host", "127.0.0.1", "--port", str(port)],
            lambda port: f"http://127.0.0.1:{port}/api/v2/heartbeat",
            timeout_s=60,
        )
    except RuntimeError as e:
        pytest.fail(f"chroma run did not start: {e}")
    url = f"http://127.0.0.1:{port}"
    yield url, process
    if process.poll() is None:
        process.terminate()
        process.wait(15)


def test_index_into_a_chroma_server_search_from_it_and_fail_cleanly_when_it_stops(chroma, tmp_path):
    url, process = chroma
    env = {**os.environ, "YAKSA_CHROMA_URL": url, "ANONYMIZED_TELEMETRY": "False", "YAKSA_INDEX_DIR": ""}
    index_dir = str(tmp_path / "index")
    built = yaksa("index", str(MINI_CORPUS), "--index-dir", index_dir, "-q", env=env)
    assert built.returncode == 0, built.stderr
    with urllib.request.urlopen(url + "/api/v2/tenants/default_tenant/databases/default_database/collections") as r:
        assert b'"name"' in r.read()  # the collection lives on the server
    found = yaksa("search", "게보린 부작용", "--index-dir", index_dir, "--json", env=env)
    assert found.returncode == 0, found.stderr
    assert any(hit["id"].startswith("easydrug:") for hit in __import__("json").loads(found.stdout))

    # a batch search running while the server stops: the next query fails in one line, no hang
    batch = subprocess.Popen(
        [YAKSA, "search", "-", "--index-dir", index_dir, "--json"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    batch.stdin.write("게보린 부작용\n")
    batch.stdin.flush()
    first = batch.stdout.readline()
    assert "easydrug:" in first
    process.terminate()
    process.wait(15)
    try:
        rest, err = batch.communicate("타이레놀 용법\n", timeout=90)
    except subprocess.TimeoutExpired:
        batch.kill()
        pytest.fail("yaksa search hung after the Chroma server stopped")
    assert batch.returncode == 2
    assert "Traceback" not in err
    assert "Chroma server" in err
    assert err.count("\n") == 1

    start = time.monotonic()
    stopped = yaksa("search", "게보린 부작용", "--index-dir", index_dir, env=env, timeout=120)
    took = time.monotonic() - start
    assert took < 90
    assert "Traceback" not in stopped.stderr
    assert stopped.returncode == 2
    assert stopped.stderr.count("\n") == 1
    assert "yaksa: error:" in stopped.stderr
