"""Load test of `yaksa serve`: N concurrent streaming clients on 127.0.0.1 against a scripted LM with a fixed delay.

The server runs in its own process (uvicorn, the real app and CRAG program over the in-memory fake backend, every
LM call sleeping ``--delay`` seconds); the clients are asyncio tasks in this process, each asking ``--requests``
questions one after another on ``POST /v1/ask/stream``. Bounded: ``--clients`` x ``--requests`` questions, and
everything stops after ``--time-cap`` seconds whatever is left (unfinished questions count as errors).

Prints throughput, p50 / p99 time to the first event (``accepted``) and to the final answer (``answer``), and
errors (non-200, ``error`` events, streams without an answer, exceptions).

    python bench/serve.py [--clients 50] [--requests 2] [--delay 0.2] [--time-cap 120] [--out bench/out/serve.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

QUESTIONS = ["게보린 먹고 속이 쓰려요", "타이레놀 효능", "게보린 복용법", "타이레놀 부작용", "게보린 주의사항"]


def serve(port: int, delay: float, clients: int, workers: int) -> None:
    """The server process: the app over the fake backend and a scripted LM that sleeps `delay` per call."""
    import uvicorn

    from yaksa.app import ServeSettings
    from yaksa.testing.serve_app import make_app, slow_lm

    settings = ServeSettings(max_concurrent=max(64, clients), workers=workers, scores="quality", api_token=None)
    app = make_app(lms=slow_lm(delay).roles(), settings=settings)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q / 100 * len(values) + 0.5) - 1))]


async def one(client, url: str, question: str, result: dict) -> None:
    start = time.perf_counter()
    first = answer = None
    try:
        async with client.stream("POST", url + "/v1/ask/stream", json={"question": question}) as r:
            if r.status_code != 200:
                result["errors"].append(f"HTTP {r.status_code}")
                return
            buffer = ""
            async for text in r.aiter_text():
                buffer += text
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    event = next((ln[6:].strip() for ln in block.split("\n") if ln.startswith("event:")), "")
                    now = time.perf_counter() - start
                    if first is None:
                        first = now
                    if event == "answer":
                        answer = now
                    elif event == "heartbeat":
                        result["heartbeats"] += 1
                    elif event == "error":
                        result["errors"].append(f"error event: {block[-200:]}")
                        return
        if answer is None:
            result["errors"].append("stream ended without an answer")
            return
        result["first"].append(first)
        result["answer"].append(answer)
        result["total"].append(time.perf_counter() - start)
    except Exception as e:  # a refused connection, a reset, a timeout
        result["errors"].append(f"{type(e).__name__}: {str(e)[:120]}")


async def load(url: str, clients: int, requests: int, time_cap: float) -> dict:
    import httpx

    result = {"first": [], "answer": [], "total": [], "errors": [], "heartbeats": 0}
    limits = httpx.Limits(max_connections=clients + 10, max_keepalive_connections=clients + 10)

    async def client_loop(c, i):
        for j in range(requests):
            await one(c, url, QUESTIONS[(i + j) % len(QUESTIONS)], result)

    start = time.perf_counter()
    async with httpx.AsyncClient(timeout=httpx.Timeout(time_cap, connect=10), limits=limits) as c:
        tasks = [asyncio.create_task(client_loop(c, i)) for i in range(clients)]
        done, pending = await asyncio.wait(tasks, timeout=time_cap)
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    elapsed = time.perf_counter() - start
    unfinished = clients * requests - len(result["answer"]) - len(result["errors"])
    if unfinished > 0:
        result["errors"].extend(["unfinished at the time cap"] * unfinished)
    result["elapsed_s"] = elapsed
    return result


def summary(result: dict, args) -> dict:
    def ms(v):
        return None if v is None else round(v * 1000, 1)

    n = len(result["answer"])
    return {
        "clients": args.clients,
        "requests_per_client": args.requests,
        "lm_delay_s": args.delay,
        "server_workers": args.workers,
        "answered": n,
        "errors": len(result["errors"]),
        "error_kinds": sorted(set(result["errors"]))[:5],
        "elapsed_s": round(result["elapsed_s"], 2),
        "throughput_qps": round(n / result["elapsed_s"], 2) if result["elapsed_s"] else None,
        "first_event_ms": {"p50": ms(percentile(result["first"], 50)), "p99": ms(percentile(result["first"], 99))},
        "answer_ms": {"p50": ms(percentile(result["answer"], 50)), "p99": ms(percentile(result["answer"], 99))},
        "done_ms": {"p50": ms(percentile(result["total"], 50)), "p99": ms(percentile(result["total"], 99))},
        "heartbeats": result["heartbeats"],
        "mean_answer_ms": ms(statistics.fmean(result["answer"])) if n else None,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=50)
    p.add_argument("--requests", type=int, default=2, help="questions per client, one after another")
    p.add_argument("--delay", type=float, default=0.2, help="seconds per scripted LM call")
    p.add_argument("--time-cap", type=float, default=120.0, help="stop everything after this many seconds")
    p.add_argument("--workers", type=int, default=32, help="server threads running the program (yaksa serve --workers)")
    p.add_argument("--port", type=int, default=0, help="server port on 127.0.0.1 (default: a free one)")
    p.add_argument("--out", help="write the figures as JSON here")
    p.add_argument("--_serve", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if not (1 <= args.clients <= 500 and 1 <= args.requests <= 100 and 0 < args.time_cap <= 900):
        p.error("bounds: 1-500 clients, 1-100 requests each, a time cap of at most 900 s")
    if args._serve:
        serve(args._serve, args.delay, args.clients, args.workers)
        return 0
    from yaksa.testing.serve_app import free_port

    port = args.port or free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, __file__, "--_serve", str(port), "--delay", str(args.delay)]
    cmd += ["--clients", str(args.clients), "--workers", str(args.workers)]
    server = subprocess.Popen(cmd, cwd=ROOT)
    try:
        _wait_ready(url, server)
        result = asyncio.run(load(url, args.clients, args.requests, args.time_cap))
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    figures = summary(result, args)
    print(json.dumps(figures, ensure_ascii=False, indent=1))
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0 if figures["errors"] == 0 else 1


def _wait_ready(url: str, server: subprocess.Popen, timeout: float = 60.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start in time")


if __name__ == "__main__":
    sys.exit(main())
