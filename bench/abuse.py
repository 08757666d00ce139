"""Abuse probes against `yaksa serve` on 127.0.0.1: what a careless or hostile client costs.

The server runs in its own process (uvicorn with the header-timeout protocol, the real app and CRAG program over
the in-memory fake backend) and calls a real LM over HTTP: an OpenAI-compatible stub in this process whose every
reply takes ``--lm-delay`` seconds, so LM calls are counted as the HTTP requests the stub receives. Probes, in order:

1. abandoned streams: ``--waves`` waves of ``--abandon`` clients that read one event and close, then one wave that
   closes right after the response headers; LM calls per abandoned question, server threads (``/proc``) before,
   at peak and after, against ``--workers``;
2. 70 concurrent streams against ``--max-concurrent 64``: answers, 429s and errors on valid requests;
3. bad bytes: lone surrogates and invalid UTF-8 in bodies (status codes), and an invalid-UTF-8 CLI argument;
4. slow clients: bodies that never finish and half-sent headers (seconds until the server closes each);
5. a planted secret: every LM call fails with HTTP 500 and a body holding a password; no response or event may carry it;
6. oversized profile items (a 20,000-character medicine, 50 conditions): 422 with the limit, no LM call;
7. a dead LM (accepts connections, never answers): `CRAG` with ``--dead-timeout`` as the LM timeout; wall time,
   connection attempts, the roles switched off;
8. a damaged index (truncated BM25 files, a deleted params file, garbage manifest, ``names.json`` holding ``[]``,
   garbage ``chroma.sqlite3``), each on a fresh mini-corpus index: `yaksa search` before, `yaksa index`, search after;
9. two concurrent ``yaksa index --rebuild`` on one folder: one refused in one line, no duplicate token-cache keys;
10. five concurrent promotes into a fresh registry whose champion is a worse model (three good candidates, two worse):
    ``@champion`` ends on the best; then a candidate scored with another LM, whose re-score of the champion comes out
    low (a flaky LM): it is compared with the champion re-scored by that same LM.

After the load (probes 1-6) it reports the server's threads and its open connections to the LM against the figures
before the load, and counts "Unclosed client session" warnings in the server's log: threads that grew by more than a
fixed few beyond ``--workers``, connections beyond ``--workers`` or any such warning fail the run.

Prints every figure, then ``FAIL:`` lines for any promise broken (exit 1), and ends on its own (exit 0) every run.

Bounded: fixed client counts, every wait capped; nothing leaves 127.0.0.1.

    python bench/abuse.py [--lm-delay 2] [--workers 32] [--max-concurrent 64] [--abandon 60] [--waves 3]
                          [--dead-timeout 2] [--out bench/out/abuse.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

QUESTION = {"question": "게보린 먹고 속이 쓰려요"}


# ---------------------------------------------------------------------------------------------------------- server
def serve(port: int, lm_url: str, workers: int, max_concurrent: int) -> None:
    """The server process: the app over the fake backend, every role on the stub LM (real litellm path)."""
    import uvicorn

    from programs.lm_config import LMOverrides, load_lm_config
    from yaksa.app import ServeSettings
    from yaksa.app.protocol import with_header_timeout
    from yaksa.testing.serve_app import make_app

    config = load_lm_config(
        "/nonexistent", env={}, overrides=LMOverrides(model="openai/stub", api_base=lm_url, api_key="x", timeout=60)
    )
    config.num_retries = 0
    settings = ServeSettings(
        max_concurrent=max_concurrent,
        workers=workers,
        scores="off",
        api_token=None,
        allowed_hosts=("127.0.0.1", "localhost", "::1"),
    )
    app = make_app(lms=config.build(), settings=settings)
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        http=with_header_timeout(settings.header_timeout_s),
    )


class Stub:
    """The OpenAI-compatible stub LM whose replies take `delay` seconds (changeable between probes)."""

    def __init__(self, delay: float):
        from yaksa.testing.any_signature import any_signature
        from yaksa.testing.stub_openai import StubOpenAI

        self.delay = delay
        self.error_body: str | None = None  # when set, every LM call fails with HTTP 500 and this body

        def slow(request):
            time.sleep(self.delay)
            if self.error_body is not None:
                return {"status": 500, "body": self.error_body}
            return any_signature(request)

        self.server = StubOpenAI([slow], keep_alive=True)  # connections stay open, as llama.cpp's and vLLM's do

    @property
    def calls(self) -> int:
        return len(self.server.requests)


def lm_connections_of(pid: int, lm_url: str) -> int:
    """Sockets of process `pid` connected to the LM server (pooled or leaked)."""
    import psutil

    port = int(lm_url.rsplit(":", 1)[1].split("/")[0])
    try:
        return sum(1 for c in psutil.Process(pid).net_connections() if c.raddr and c.raddr.port == port)
    except psutil.Error:
        return -1


def threads_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def health(url: str) -> dict:
    import httpx

    return httpx.get(url + "/healthz", timeout=10).json()


def quiesce(url: str, stub: Stub, pid: int, peak: list, cap: float) -> float:
    """Wait until nothing is in flight and the stub saw no new LM call for 2 LM delays; returns the seconds."""
    start = time.monotonic()
    last, still = stub.calls, time.monotonic()
    while time.monotonic() - start < cap:
        peak.append(threads_of(pid))
        if stub.calls != last:
            last, still = stub.calls, time.monotonic()
        if health(url)["in_flight"] == 0 and time.monotonic() - still > 2 * stub.delay + 0.5:
            break
        time.sleep(0.1)
    return time.monotonic() - start


# ---------------------------------------------------------------------------------------------------------- probes
async def abandon_one(url: str, after_headers: bool) -> bool:
    import httpx

    async with httpx.AsyncClient(timeout=30) as client:
        async with client.stream("POST", url + "/v1/ask/stream", json=QUESTION) as r:
            if r.status_code != 200:
                return False
            if after_headers:
                return True
            async for line in r.aiter_lines():
                if not line:  # the end of the first event
                    return True
    return True


def probe_abandoned(url: str, stub: Stub, pid: int, args) -> dict:
    before = threads_of(pid)
    calls0 = stub.calls
    peak: list[int] = [before]
    in_flight_peak = 0
    waves = [False] * args.waves + [True]  # the last wave closes right after the headers
    sizes = [args.abandon] * args.waves + [args.abandon // 2]
    start = time.monotonic()
    for after_headers, size in zip(waves, sizes, strict=True):

        async def wave(after_headers=after_headers, size=size):
            return await asyncio.gather(*(abandon_one(url, after_headers) for _ in range(size)))

        asyncio.run(wave())
        time.sleep(0.2)
        in_flight_peak = max(in_flight_peak, health(url)["in_flight"])
        peak.append(threads_of(pid))
    settle = quiesce(url, stub, pid, peak, cap=120)
    questions = sum(sizes)
    calls = stub.calls - calls0
    return {
        "abandoned_questions": questions,
        "lm_calls": calls,
        "lm_calls_per_question": round(calls / questions, 3),
        "threads_before": before,
        "threads_peak": max(peak),
        "thread_growth": max(peak) - before,
        "workers": args.workers,
        "threads_after": threads_of(pid),
        "in_flight_seen_after_a_wave": in_flight_peak,
        "in_flight_after": health(url)["in_flight"],
        "seconds": round(time.monotonic() - start, 1),
        "seconds_to_quiet": round(settle, 1),
    }


async def full_stream(client, url: str) -> str:
    try:
        async with client.stream("POST", url + "/v1/ask/stream", json=QUESTION) as r:
            if r.status_code == 429:
                return "429"
            if r.status_code != 200:
                return f"HTTP {r.status_code}"
            text = "".join([chunk async for chunk in r.aiter_text()])
    except Exception as e:
        return type(e).__name__
    if "event: error" in text:
        return "error event"
    return "answer" if "event: answer" in text and "event: done" in text else "no answer"


def probe_concurrent(url: str, stub: Stub, n: int) -> dict:
    import httpx

    async def run():
        limits = httpx.Limits(max_connections=n + 10)
        async with httpx.AsyncClient(timeout=120, limits=limits) as client:
            return await asyncio.gather(*(full_stream(client, url) for _ in range(n)))

    start = time.monotonic()
    outcomes = asyncio.run(run())
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o] = counts.get(o, 0) + 1
    errors = n - counts.get("answer", 0) - counts.get("429", 0)
    return {"streams": n, "outcomes": counts, "errors": errors, "seconds": round(time.monotonic() - start, 1)}


def probe_bad_bytes(url: str) -> dict:
    import httpx

    bodies = {
        "lone surrogate in question": b'{"question": "\\udcff"}',
        "lone surrogate in user": b'{"question": "ok", "user": {"medicines": ["\\ud800"]}}',
        "invalid UTF-8 in body": '{"question": "게보린 '.encode() + b'\xff\xfe"}',
    }
    statuses = {}
    for name, body in bodies.items():
        for path in ("/v1/ask", "/v1/ask/stream"):
            r = httpx.post(url + path, content=body, headers={"content-type": "application/json"}, timeout=30)
            statuses[f"{path} {name}"] = r.status_code
    env = {**os.environ, "PYTHONPATH": str(ROOT), "YAKSA_INDEX_DIR": "/nonexistent-index"}
    cli = subprocess.run(
        [sys.executable.encode(), b"-m", b"yaksa.cli", b"ask", b"\xea\xb2\x8c \xff\xfe"],
        capture_output=True,
        env=env,
        timeout=120,
    )
    err = cli.stderr.decode(errors="replace").strip()
    return {
        "http_statuses": statuses,
        "http_500s": sum(1 for s in statuses.values() if s >= 500),
        "cli_exit": cli.returncode,
        "cli_stderr": err,
        "cli_lines": err.count("\n") + 1 if err else 0,
    }


SECRET = "db password=hunter2 at /srv/secret/path"


def probe_secret(url: str, stub: Stub) -> dict:
    """An LM server whose every error body holds a secret: does any response or stream event carry it?"""
    import httpx

    stub.error_body = SECRET
    try:
        answered = httpx.post(url + "/v1/ask", json=QUESTION, timeout=120)
        streamed = httpx.post(url + "/v1/ask/stream", json=QUESTION, timeout=120)
    finally:
        stub.error_body = None
    leaks = [name for name, r in (("/v1/ask", answered), ("/v1/ask/stream", streamed)) if "hunter2" in r.text]
    errors = answered.json().get("trace", {}).get("errors", []) if answered.status_code == 200 else []
    codes = [e.get("error") for e in errors if isinstance(e, dict)]
    return {
        "statuses": [answered.status_code, streamed.status_code],
        "answered": bool(answered.status_code == 200 and answered.json().get("answer")),
        "error_codes": sorted(set(codes)),
        "responses_with_the_secret": leaks,
    }


def probe_oversized_profile(url: str, stub: Stub) -> dict:
    """Profile items over the limits (a 20,000-character medicine, 50 conditions): status, message, LM calls."""
    import httpx

    cases = {
        "a 20,000-character medicine": {"medicines": ["와" * 20_000]},
        "50 conditions": {"conditions": [f"질환{i}" for i in range(50)]},
    }
    out = {}
    for name, user in cases.items():
        calls = stub.calls
        r = httpx.post(url + "/v1/ask", json={**QUESTION, "user": user}, timeout=60)
        out[name] = {"status": r.status_code, "lm_calls": stub.calls - calls, "body_bytes": len(r.content)}
    return out


def _closed_after(port: int, data: bytes, cap: float) -> float:
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(cap)
        s.sendall(data)
        try:
            while s.recv(65536):
                pass
        except (TimeoutError, ConnectionResetError):
            return float("inf")
    return time.monotonic() - start


def probe_slow(port: int, n: int = 10, cap: float = 30.0) -> dict:
    head = b"POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    cases = {"body never finishes": head + b'{"question":', "half-sent headers": b"POST /v1/ask HTTP/1.1\r\nHost: 1"}
    out = {}
    for name, data in cases.items():
        results: list[float] = []
        threads = [
            threading.Thread(target=lambda d=data, r=results: r.append(_closed_after(port, d, cap))) for _ in range(n)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(cap + 5)
        out[name] = {
            "connections": n,
            "closed_after_s_max": round(max(results), 2),
            "still_open": results.count(float("inf")),
        }
    return out


def probe_dead_lm(timeout: float) -> dict:
    """A server that accepts connections and never answers; one question through the real litellm path."""
    from programs.lm_config import LMOverrides, load_lm_config
    from yaksa.testing.serve_app import make_program

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    held, stop = [], threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        config = load_lm_config(
            "/nonexistent",
            env={},
            overrides=LMOverrides(
                model="openai/dead", api_base=f"http://127.0.0.1:{port}/v1", api_key="x", timeout=timeout
            ),
        )
        program = make_program(lms=config.build())
        start = time.monotonic()
        pred = program(question=QUESTION["question"])
        wall = time.monotonic() - start
    finally:
        stop.set()
        t.join(2)
        for c in held:
            c.close()
        listener.close()
    trace = pred.trace
    return {
        "lm_timeout_s": timeout,
        "num_retries": config.num_retries,
        "wall_s": round(wall, 1),
        "connections_accepted": len(held),
        "lm_calls_counted": trace["lm_calls"]["total"],
        "unreachable_roles": trace.get("unreachable") or [],
        "answer_method": trace.get("method"),
    }


def yaksa_cli(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """`yaksa ARGV...` in a child process (the real CLI, real embedder), output captured as text."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "yaksa.cli", *argv], capture_output=True, text=True, env=env,
                          timeout=timeout)  # fmt: skip


def mini_index_copy(folder: Path, name: str) -> Path:
    """A fresh index over the mini corpus (the real default embedder), built by `yaksa index`."""
    root = folder / name
    built = yaksa_cli("index", _mini_corpus(), "--index-dir", str(root), "-q", "--no-shipped-vectors")
    if built.returncode != 0:
        raise RuntimeError(f"mini index build failed: {built.stderr.strip()}")
    return root


DAMAGE = {
    "truncated BM25 vocabulary": lambda root: _truncate(root / "bm25" / "vocab.index.json"),
    "truncated BM25 data": lambda root: _truncate(root / "bm25" / "data.csc.index.npy"),
    "deleted BM25 params": lambda root: (root / "bm25" / "params.index.json").unlink(),
    "garbage manifest.json": lambda root: (root / "manifest.json").write_bytes(b"\xff\xfe garbage"),
    "names.json holding []": lambda root: (root / "names.json").write_text("[]"),
    "garbage chroma.sqlite3": lambda root: (root / "chroma" / "chroma.sqlite3").write_bytes(b"not a database" * 100),
}


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def probe_damaged_index() -> dict:
    """Each way a probe damaged an index: what `yaksa search` says before, whether `yaksa index` repairs it (exit 0,
    with a note naming the file), and whether search answers again."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="yaksa-abuse-index-"))
    clean = mini_index_copy(folder, "clean")
    out = {}
    try:
        for case, damage in DAMAGE.items():
            root = folder / "case"
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(clean, root)
            damage(root)
            before = yaksa_cli("search", "게보린 부작용", "--json", "--index-dir", str(root))
            repair = yaksa_cli("index", _mini_corpus(), "--index-dir", str(root),
                               "-q", "--no-shipped-vectors")  # fmt: skip
            after = yaksa_cli("search", "게보린 부작용", "--json", "--index-dir", str(root))
            hits = json.loads(after.stdout) if after.returncode == 0 else []
            out[case] = {
                "search_before_exit": before.returncode,
                "search_before_stderr_lines": len(before.stderr.strip().splitlines()),
                "tracebacks": sum("Traceback" in r.stderr for r in (before, repair, after)),
                "index_exit": repair.returncode,
                "index_note": next((ln.strip()[:90] for ln in repair.stdout.splitlines() if "note:" in ln), ""),
                "search_after_exit": after.returncode,
                "search_after_top": hits[0]["id"] if hits else None,
            }
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def _mini_corpus() -> str:
    from yaksa.testing.mini_index import MINI_CORPUS

    return str(MINI_CORPUS)


def probe_concurrent_builds(n: int = 2) -> dict:
    """`n` concurrent `yaksa index --rebuild` on one folder: exit codes, and duplicate keys in the token cache."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="yaksa-abuse-builds-"))
    root = mini_index_copy(folder, "index")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "yaksa.cli", "index", _mini_corpus(), "--index-dir", str(root), "--rebuild", "-q",
            "--no-shipped-vectors"]  # fmt: skip
    try:
        procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)]
        time.sleep(1.5)  # the first holds the lock by now (it has imported and started loading the corpus)
        procs += [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                  for _ in range(n - 1)]  # fmt: skip
        results = [(p.wait(300), p.communicate()[1]) for p in procs]
        rows = [json.loads(line) for line in (root / "tokens.jsonl").read_text().splitlines() if line]
        keys = [r["h"] for r in rows if "h" in r]
        searched = yaksa_cli("search", "게보린 부작용", "--json", "--index-dir", str(root))
        leftovers = [p.name for p in folder.iterdir() if p.name not in ("index", "index.lock")]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "builds": n,
        "exit_codes": [code for code, _ in results],
        "refused_with_one_line": sum(code == 2 and len(err.strip().splitlines()) == 1 for code, err in results),
        "token_cache_lines": len(keys),
        "duplicate_keys": len(keys) - len(set(keys)),
        "search_after_exit": searched.returncode,
        "leftover_folders": leftovers,
    }


def probe_promotion(n: int = 6) -> dict:
    """`n` concurrent promotes into a fresh sqlite registry, half of them good models (dev 0.920) and half compiled
    against a flaky LM (0.610), all tagged as scored on one dev set with one scorer; then one candidate whose champion
    was measured with another LM and is re-scored by a flaky LM. Where `@champion` ends, and how long it took."""
    import tempfile

    import mlflow
    from mlflow import MlflowClient

    from yaksa.commands._promotion import promote

    folder = Path(tempfile.mkdtemp(prefix="yaksa-abuse-registry-"))
    mlflow.set_tracking_uri(f"sqlite:///{folder / 'mlflow.db'}")
    client, name = MlflowClient(), "yaksa-crag"
    client.create_registered_model(name)
    key = {"dataset_version": "fixed", "metric": "quality", "metric_weights": "", "lm": "generate=openai/x"}
    scores = [0.920 if i % 2 == 0 else 0.610 for i in range(n)]
    versions = [client.create_model_version(name, source=str(folder / f"m{i}")).version for i in range(n)]
    client.set_model_version_tag(name, versions[-1], "dev_score", "0.610")  # a worse champion to start from
    client.set_registered_model_alias(name, "champion", versions[-1])
    outcomes: list[dict] = []
    start = time.monotonic()

    def one(version, score):
        tags = {**key, "dev_score": str(score)}
        for tag, value in tags.items():
            client.set_model_version_tag(name, version, tag, value)
        outcomes.append(promote(client, name, version, tags, rescore=lambda v: 0.0))

    threads = [threading.Thread(target=one, args=(v, sc)) for v, sc in zip(versions[:-1], scores[:-1], strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    champion = client.get_model_version_by_alias(name, "champion")
    concurrent_s = time.monotonic() - start
    other_lm = {**key, "lm": "generate=openai/other", "dev_score": "0.700"}
    late = client.create_model_version(name, source=str(folder / "late")).version
    flaky = promote(client, name, late, other_lm, rescore=lambda v: 0.300)  # a flaky LM re-scores the champion low
    return {
        "concurrent_promotes": n - 1,
        "scores": scores[:-1],
        "champion_score_after": float(champion.tags["dev_score"]),
        "best_score": max(scores),
        "champion_is_best": float(champion.tags["dev_score"]) == max(scores),
        "seconds": round(concurrent_s, 2),
        "other_lm_candidate_0.700_vs_champion_rescored_0.300": "promoted" if flaky["promoted"] else "kept",
        "rescored_reason": flaky["reason"],
    }


def stop_process(proc: subprocess.Popen, grace: float = 15.0) -> None:
    """Terminate the server process; kill it when it has not exited after `grace` seconds."""
    proc.terminate()
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(grace)


# ---------------------------------------------------------------------------------------------------------- main
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lm-delay", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=32)
    parser.add_argument("--max-concurrent", type=int, default=64)
    parser.add_argument("--abandon", type=int, default=60)
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--concurrent", type=int, default=70)
    parser.add_argument("--dead-timeout", type=float, default=2.0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--serve", nargs=4, metavar=("PORT", "LM_URL", "WORKERS", "MAX"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        port, lm_url, workers, max_c = args.serve
        serve(int(port), lm_url, int(workers), int(max_c))
        return 0

    import httpx

    from yaksa.testing.serve_app import free_port

    stub = Stub(args.lm_delay)
    results: dict = {"lm_delay_s": args.lm_delay}
    with stub.server:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        argv = [
            sys.executable,
            __file__,
            "--serve",
            str(port),
            stub.server.url,
            str(args.workers),
            str(args.max_concurrent),
        ]
        server_log = tempfile.TemporaryFile("w+")
        proc = subprocess.Popen(argv, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=server_log)
        try:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    httpx.get(url + "/healthz", timeout=2)
                    break
                except httpx.HTTPError:
                    time.sleep(0.3)
            httpx.post(url + "/v1/ask", json=QUESTION, timeout=120)  # warm up (imports, first LM call)
            quiesce(url, stub, proc.pid, [], cap=30)
            results["threads_before_load"] = threads_of(proc.pid)
            results["lm_connections_before_load"] = lm_connections_of(proc.pid, stub.server.url)
            results["abandoned"] = probe_abandoned(url, stub, proc.pid, args)
            print("abandoned streams:", json.dumps(results["abandoned"]), flush=True)
            stub.delay = min(args.lm_delay, 0.2)
            results["concurrent"] = probe_concurrent(url, stub, args.concurrent)
            print(f"{args.concurrent} concurrent streams:", json.dumps(results["concurrent"]), flush=True)
            results["bad_bytes"] = probe_bad_bytes(url)
            print("bad bytes:", json.dumps(results["bad_bytes"], ensure_ascii=False), flush=True)
            results["slow_clients"] = probe_slow(port)
            print("slow clients:", json.dumps(results["slow_clients"]), flush=True)
            results["planted_secret"] = probe_secret(url, stub)
            print("planted secret:", json.dumps(results["planted_secret"]), flush=True)
            results["oversized_profile"] = probe_oversized_profile(url, stub)
            print("oversized profile:", json.dumps(results["oversized_profile"], ensure_ascii=False), flush=True)
            quiesce(url, stub, proc.pid, [], cap=30)
            results["threads_after_load"] = threads_of(proc.pid)
            results["lm_connections_after_load"] = lm_connections_of(proc.pid, stub.server.url)
            results["workers"] = args.workers
            print(
                "after the load:",
                json.dumps({k: results[k] for k in ("threads_before_load", "threads_after_load",
                            "lm_connections_before_load", "lm_connections_after_load", "workers")}),
                flush=True,
            )  # fmt: skip
        finally:
            stop_process(proc)
            server_log.seek(0)
            log = server_log.read()
            results["unclosed_client_sessions"] = log.count("Unclosed client session")
            print(f"server log: {results['unclosed_client_sessions']} 'Unclosed client session' warnings", flush=True)
    results["dead_lm"] = probe_dead_lm(args.dead_timeout)
    print("dead LM:", json.dumps(results["dead_lm"]), flush=True)
    results["damaged_index"] = probe_damaged_index()
    print("damaged index:", json.dumps(results["damaged_index"], ensure_ascii=False), flush=True)
    results["concurrent_builds"] = probe_concurrent_builds()
    print("concurrent builds:", json.dumps(results["concurrent_builds"]), flush=True)
    results["promotion"] = probe_promotion()
    print("promotion:", json.dumps(results["promotion"]), flush=True)
    failures = findings(results)
    for line in failures:
        print("FAIL:", line, flush=True)
    print(f"{len(failures)} probe(s) failed", flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 1 if failures else 0


FEW_THREADS = 8  # the LM loop, asyncio's default executor, uvicorn's: a fixed few beside the workers


def findings(results: dict) -> list[str]:
    """The probes' figures that break a promise of the README (empty: every probe held)."""
    out = []
    workers = results.get("workers", 0)
    grown = results.get("threads_after_load", 0) - results.get("threads_before_load", 0)
    if grown > workers + FEW_THREADS:  # idle worker threads may stay (anyio prunes them on its next call)
        out.append(f"threads grew by {grown} over the load, more than --workers {workers} + {FEW_THREADS}")
    peak = results.get("abandoned", {}).get("thread_growth", 0)
    if peak > workers + FEW_THREADS:
        out.append(f"threads peaked {peak} above the start, more than --workers {workers} + {FEW_THREADS}")
    if results.get("lm_connections_after_load", 0) > max(workers, 1):
        out.append(f"{results['lm_connections_after_load']} connections to the LM left open after the load")
    if results.get("unclosed_client_sessions"):
        out.append(f"{results['unclosed_client_sessions']} 'Unclosed client session' warnings in the server log")
    if results["planted_secret"]["responses_with_the_secret"]:
        out.append(f"the upstream secret reached {results['planted_secret']['responses_with_the_secret']}")
    out += [f"oversized profile ({k}) got {v['status']}" for k, v in results["oversized_profile"].items()
            if v["status"] != 422 or v["lm_calls"]]  # fmt: skip
    for case, r in results["damaged_index"].items():
        if r["tracebacks"] or r["index_exit"] != 0 or r["search_after_exit"] != 0 or not r["index_note"]:
            out.append(f"damaged index ({case}) not repaired with a note: {r}")
    builds = results["concurrent_builds"]
    if (
        builds["refused_with_one_line"] != builds["builds"] - 1
        or builds["duplicate_keys"]
        or builds["leftover_folders"]
    ):
        out.append(f"concurrent builds: {builds}")
    if not results["promotion"]["champion_is_best"]:
        out.append(f"promotion: {results['promotion']}")
    return out


def run_and_exit(limit_s: float = 1800.0) -> None:
    """Run `main` and leave the process, whatever threads a library left behind.

    Native threads that chromadb and litellm start (tokio, sqlx, aiohttp loops) can keep the interpreter waiting at
    shutdown; a bench must end on its own, so after the results are written the process exits with `os._exit`. A
    watchdog dumps every thread's stack and exits 1 if the whole run takes longer than `limit_s`.
    """
    import faulthandler

    faulthandler.dump_traceback_later(limit_s, exit=True)
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run_and_exit()
