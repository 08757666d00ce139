"""Text from outside (CLI arguments, stdin lines, files, HTTP bodies) checked once at the edge: what reaches the
program is valid Unicode, and what is not gets a one-line error naming where it came from.

Python hands over invalid UTF-8 in command-line arguments as "surrogate-escaped" characters (U+DC80..U+DCFF), and
JSON can carry lone surrogates (``"\\udcff"``); both would crash much later (the tokenizer, the JSON encoder of an
answer). Here they are rejected: a question with garbage bytes is not a question anyone meant to ask. NUL and other
control characters (except tab and newlines) are dropped, decomposed Hangul is composed and invisible characters
(zero-width spaces, byte-order marks …) are removed (`retrievers.unicode_text.normalise`).

Example:
    >>> clean_text("게보린\\x00 부작용", "QUESTION")
    '게보린 부작용'
    >>> try:
    ...     clean_text("게보린\\udcff", "QUESTION")
    ... except TextInputError as e:
    ...     print(e)
    QUESTION is not valid UTF-8 text (an undecodable byte or lone surrogate at character 4)
    >>> decode_line(b"\\xea\\xb2\\x8c\\xeb\\xb3\\xb4\\xeb\\xa6\\xb0\\n", "stdin line 1")
    '게보린\\n'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from retrievers.unicode_text import normalise

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
MAX_JSON_DEPTH = 20


class TextInputError(ValueError):
    """Text that is not valid Unicode (the message is one line and says where it came from)."""


def clean_text(text: str, what: str = "the text") -> str:
    """`text` without control or invisible characters, in NFC; raises `TextInputError` when it holds invalid bytes or
    lone surrogates.

    Args:
        text: a CLI argument (maybe surrogate-escaped), a decoded line, a JSON string.
        what: how the error names it (``QUESTION``, ``question``, ``stdin line 3``).
    """
    bad = _SURROGATE.search(text)
    if bad is not None:  # an undecodable byte (surrogate-escaped) or a JSON "\udcff"
        where = f"character {bad.start() + 1}"
        raise TextInputError(f"{what} is not valid UTF-8 text (an undecodable byte or lone surrogate at {where})")
    return normalise(_CONTROL.sub("", text))


def decode_bytes(data: bytes, what: str) -> str:
    """`data` decoded as UTF-8 (a leading BOM dropped); raises `TextInputError` naming the first bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        where = f"byte {e.start + 1}: 0x{data[e.start]:02x}"
        raise TextInputError(f"{what} is not valid UTF-8 text (an undecodable byte at {where})") from None
    return clean_text(text, what)


def decode_line(line: bytes, what: str) -> str:
    """One line read as bytes (stdin in batch modes), decoded and cleaned (the newline kept)."""
    end = len(line) - len(line.rstrip(b"\r\n"))
    body = decode_bytes(line[: len(line) - end], what)
    return body + line[len(line) - end :].decode("ascii")


def read_text(path: str | Path, what: str | None = None) -> str:
    """A UTF-8 text file; `TextInputError` (one line, the file named) when it cannot be read or decoded."""
    name = what or str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise TextInputError(f"cannot read {name}: {e.strerror or e}") from None
    return decode_bytes(data, name)


def check_json(value: Any, what: str, depth: int = 0) -> Any:
    """`value` (parsed JSON) with every string cleaned; `TextInputError` on bad text or nesting past
    `MAX_JSON_DEPTH`."""
    if depth > MAX_JSON_DEPTH:
        raise TextInputError(f"{what} is nested more than {MAX_JSON_DEPTH} levels deep")
    if isinstance(value, str):
        return clean_text(value, what)
    if isinstance(value, dict):
        return {clean_text(str(k), what): check_json(v, what, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [check_json(v, what, depth + 1) for v in value]
    return value


def stdin_lines(stream=None):
    """``(line_number, text or TextInputError)`` for each line of `stream` (default: stdin, read as bytes), so a
    batch reports a bad line and goes on. The newline is dropped."""
    import sys

    stream = getattr(stream or sys.stdin, "buffer", stream or sys.stdin)
    for n, raw in enumerate(stream, 1):
        what = f"line {n}"
        try:
            text = decode_line(raw, what) if isinstance(raw, bytes) else clean_text(raw, what)
            yield n, text.rstrip("\r\n")
        except TextInputError as e:
            yield n, e


def read_stdin(stream=None) -> str:
    """All of `stream` (default: stdin, read as bytes), decoded and cleaned."""
    import sys

    stream = getattr(stream or sys.stdin, "buffer", stream or sys.stdin)
    data = stream.read()
    return decode_bytes(data, "stdin") if isinstance(data, bytes) else clean_text(data, "stdin")
