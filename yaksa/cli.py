"""The ``yaksa`` command line. Each subcommand lives in yaksa/commands/<name>.py and exposes
``register(subparsers)``; this file only wires them and turns known errors into one-line messages."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from yaksa import __version__
from yaksa.errors import UserError, explain
from yaksa.text_input import TextInputError

COMMANDS = (
    "index",
    "search",
    "eval_retrieval",
    "ask",
    "eval_turn",
    "compile",
    "evaluate",
    "ablation",
    "compare",
    "bench",
    "tune_retrieval",
    "fit_relevance",
    "fit_self_check",
    "eval_answers",
    "serve",
    "local_lm",
)


def quiet_environment() -> None:
    """Offline-friendly defaults for the libraries we drive (no telemetry, local price map)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="yaksa",
        description="Korean drug Q&A over the MFDS e약은요 leaflets and DUR rules with Corrective RAG (DSPy).",
    )
    parser.add_argument("--version", action="version", version=f"yaksa {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"yaksa.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"yaksa.commands.{name}":
                continue  # command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    quiet_environment()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except (UserError, TextInputError) as e:
        print(f"yaksa: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader (e.g. `| head`) went away: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:  # a damaged index, a bad config or model file: one line (yaksa/errors.py)
        message = explain(e)
        if message is None:
            raise
        print(f"yaksa: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("yaksa: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
