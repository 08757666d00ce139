"""llama-cpp-python's OpenAI-compatible server for one local model (`yaksa.local_models`), on 127.0.0.1 only.

Weight repacking into llama.cpp's extra buffer types is off on CPUs that advertise AMX: the AMX matrix kernels of
llama-cpp-python 0.3.36 crash with a segmentation fault on the first decode on such machines (seen on the 2-core
build machines, with Qwen and Gemma alike). ``--repack on`` forces it back.

    python -m yaksa.local_server --model 0.5b --port 8080        # or: yaksa local-lm --model 0.5b
    yaksa ask "게보린 먹고 속이 쓰려요" --lm openai/qwen2.5-coder-0.5b --api-base http://127.0.0.1:8080/v1

Example:
    >>> llama_argv("/m.gguf", "q", 8080)[:4]
    ['--model', '/m.gguf', '--model_alias', 'q']
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from yaksa import local_models


def cpu_has_amx(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """True when the CPU advertises AMX (``amx_int8`` in /proc/cpuinfo)."""
    try:
        return " amx_int8" in Path(cpuinfo).read_text(errors="replace")
    except OSError:
        return False


def disable_repacking() -> None:
    """Load models without llama.cpp's extra buffer types (AMX, CPU weight repacking)."""
    import llama_cpp.llama_cpp as low

    default = low.llama_model_default_params
    if getattr(default, "yaksa_patched", False):
        return

    def params():
        p = default()
        p.use_extra_bufts = False
        return p

    params.yaksa_patched = True
    low.llama_model_default_params = params


def llama_argv(model_path: str, alias: str, port: int, n_ctx: int = 4096, threads: int | None = None) -> list[str]:
    """The arguments of ``llama_cpp.server`` for one model on 127.0.0.1:`port`."""
    threads = threads or max(1, os.cpu_count() or 1)
    return [
        "--model", model_path, "--model_alias", alias, "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(n_ctx), "--n_threads", str(threads),
    ]  # fmt: skip


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model",
        default=local_models.DEFAULT,
        help=f"{', '.join(local_models.CHOICES)} (installed by the local / local-1.5b extras) or a GGUF file",
    )
    p.add_argument("--alias", help="model name the server announces (default: the model's)")
    p.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1")
    p.add_argument("--n-ctx", type=int, default=4096, help="context window in tokens")
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: all cores)")
    p.add_argument(
        "--repack", choices=["auto", "on", "off"], default="auto", help="weight repacking (auto: off on AMX CPUs)"
    )


def serve(args) -> int:
    """Check and assemble the model, print how to use it, and run the server until interrupted."""
    if Path(args.model).suffix == ".gguf":
        path, alias = Path(args.model), Path(args.model).stem
        if not path.is_file():
            raise local_models.LocalModelError(f"{path}: no such GGUF file")
    else:
        path, alias = local_models.model_path(args.model), local_models.alias(args.model)
    alias = args.alias or alias
    try:
        import llama_cpp.server.__main__ as server
    except ImportError:
        raise local_models.LocalModelError(
            "llama-cpp-python's server is not installed: pip install -e '.[local]'"
        ) from None
    if args.repack == "off" or (args.repack == "auto" and cpu_has_amx()):
        disable_repacking()
    url = f"http://127.0.0.1:{args.port}/v1"
    print(f"yaksa: serving {path.name} as openai/{alias} at {url}", file=sys.stderr)
    print(f"yaksa: use it with: yaksa ask QUESTION --lm openai/{alias} --api-base {url}", file=sys.stderr)
    sys.argv = ["llama_cpp.server", *llama_argv(str(path), alias, args.port, args.n_ctx, args.threads or None)]
    server.main()
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m yaksa.local_server", description=__doc__.splitlines()[0])
    add_arguments(p)
    args = p.parse_args(argv)
    try:
        return serve(args)
    except local_models.LocalModelError as e:
        print(f"yaksa: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
