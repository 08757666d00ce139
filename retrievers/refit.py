"""What refitting a shipped JSON model shares (`python -m retrievers.scope_model`, `python -m retrievers.aspect_model`):
the ``--out`` argument, checked before minutes of fitting; the training files' SHA-256, which the shipped model
records so a test fails when they change without a refit; and writing the model, each fault said in one line.

Example:
    >>> from pathlib import Path
    >>> parse_out([], "retrievers.x", Path(__file__), "A model.").out == Path(__file__)
    True
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fail(module: str, message: str) -> SystemExit:
    """The one-line fault a refit ends with: ``<module>: error: <message>``."""
    return SystemExit(f"{module}: error: {message}")


def parse_out(argv: list[str] | None, module: str, default: Path, description: str) -> argparse.Namespace:
    """The refit's arguments (``--out``, default `default`); a folder that is not there is said at once."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=description)
    parser.add_argument("--out", type=Path, default=default, help=f"where to write the model (default {default})")
    args = parser.parse_args(argv)
    if not args.out.parent.is_dir():
        raise fail(module, f"cannot write {args.out}: no folder {args.out.parent}")
    return args


def digests(paths: list[Path]) -> dict[str, str]:
    """Each training file's SHA-256, by its path in the repository."""
    return {p.relative_to(ROOT).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def write_model(data: dict, out: Path, module: str) -> None:
    """Write the fitted model as one line of JSON."""
    try:
        out.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as e:
        raise fail(module, f"cannot write {out}: {e}") from None
