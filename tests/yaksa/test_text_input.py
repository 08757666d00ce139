"""Bad bytes at every edge: CLI arguments (a real subprocess, so argv carries invalid UTF-8), stdin lines, files and
HTTP bodies give one-line errors (exit 2 / 400), and a batch reports a bad line and goes on."""

import io
import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from yaksa import cli
from yaksa.commands import _backend
from yaksa.testing.fake_backend import FakeBackend
from yaksa.testing.serve_app import make_app
from yaksa.text_input import TextInputError, check_json, clean_text, decode_line, read_text, stdin_lines

ROOT = Path(__file__).resolve().parents[2]


def test_clean_text_rejects_escaped_bytes_and_lone_surrogates_and_drops_controls():
    assert clean_text("게보린\x00 부작용\t\n") == "게보린 부작용\t\n"
    for bad in ("게보린\udcff", "\ud800x", os.fsdecode(b"\xea\xb2\x8c\xff")):
        with pytest.raises(TextInputError, match="QUESTION is not valid UTF-8 text"):
            clean_text(bad, "QUESTION")


def test_decoding_bytes_names_the_bad_byte_and_keeps_good_lines():
    assert decode_line("타이레놀\r\n".encode(), "line 1") == "타이레놀\r\n"
    with pytest.raises(TextInputError, match=r"line 2 is not valid UTF-8 text .*byte 3: 0xff"):
        decode_line(b"ab\xff\n", "line 2")
    lines = list(stdin_lines(io.BytesIO(b"a\n\xc0\xaf\nb\n")))
    assert lines[0] == (1, "a")
    assert lines[2] == (3, "b")
    assert isinstance(lines[1][1], TextInputError)


def test_files_and_json(tmp_path):
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(TextInputError, match=f"{binary} is not valid UTF-8 text"):
        read_text(binary)
    with pytest.raises(TextInputError, match="cannot read"):
        read_text(tmp_path / "missing.json")
    deep = json.loads("[" * 30 + "]" * 30)
    with pytest.raises(TextInputError, match="nested more than"):
        check_json(deep, "--user")
    assert check_json({"medicines": ["타이레놀"]}, "--user") == {"medicines": ["타이레놀"]}


def run_yaksa(*args: bytes, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "YAKSA_INDEX_DIR": "/nonexistent-index", "PYTHONUTF8": "1"}
    return subprocess.run(
        [sys.executable.encode(), b"-m", b"yaksa.cli", *args], input=stdin, capture_output=True, env=env, timeout=120
    )


@pytest.mark.parametrize("command", [b"ask", b"search"])
def test_invalid_utf8_argument_is_a_one_line_error(command):
    r = run_yaksa(command, b"\xea\xb2\x8c\xeb\xb3\xb4\xeb\xa6\xb0 \xff\xfe garbage")
    err = r.stderr.decode()
    assert r.returncode == 2, err
    assert err.count("\n") == 1, err
    assert "not valid UTF-8 text" in err, err
    assert "Traceback" not in err


@pytest.fixture
def fake_ask(monkeypatch):
    monkeypatch.setattr(_backend, "open_backend", lambda: FakeBackend())
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_user_from_a_binary_file_or_nested_too_deep_is_one_line(fake_ask, tmp_path, capsys):
    blob = tmp_path / "profile.bin"
    blob.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    cases = {f"@{blob}": "profile.bin is not valid UTF-8", "[" * 100_000 + "]" * 100_000: "nested too deeply"}
    cases['{"medicines": ' + "[" * 50 + "]" * 50 + "}"] = "nested more than"
    for value, message in cases.items():
        assert cli.main(["ask", "게보린 부작용", "--user", value]) == 2
        err = capsys.readouterr().err
        assert message in err
        assert err.count("\n") == 1


def test_search_batch_reports_a_bad_line_and_goes_on(mini_index, monkeypatch, capsys):
    from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder

    open_searchers_with_hash_embedder(monkeypatch)
    stdin = io.TextIOWrapper(io.BytesIO("게보린 부작용\n".encode() + b"\xff\xfe\xfd\n" + "베아제 보관\n".encode()))
    monkeypatch.setattr("sys.stdin", stdin)
    assert cli.main(["search", "--json", "-", "-k", "2", "--index-dir", str(mini_index[0])]) == 0
    captured = capsys.readouterr()
    first, bad, third = (json.loads(line) for line in captured.out.strip().splitlines())
    assert first
    assert bad == []
    assert third
    assert "베아제" in third[0]["metadata"]["item_name"]
    assert "line 2 is not valid UTF-8 text" in captured.err


@pytest.mark.parametrize("path", ["/v1/ask", "/v1/ask/stream"])
def test_http_lone_surrogates_are_400_and_invalid_bytes_too(path):
    c = TestClient(make_app(), raise_server_exceptions=False)
    bodies = [
        b'{"question": "\\udcff"}',
        b'{"question": "ok", "user": {"medicines": ["\\ud800"]}}',
        '{"question": "게보린 '.encode() + b'\xff"}',
    ]
    for body in bodies:
        r = c.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400, r.text
        assert r.json()["error"] in ("bad_text", "bad_request"), r.text
    r = c.post(path, content=bodies[0], headers={"content-type": "application/json"})
    assert "question is not valid UTF-8 text" in r.json()["message"]
    assert c.post(path, json={"question": "게보린 부작용"}).status_code == 200


@pytest.mark.parametrize(
    "written",
    [
        unicodedata.normalize("NFD", "게보린 부작용"),  # decomposed Hangul, as some keyboards and macOS send it
        "게\u200b보린\ufeff 부작용",  # a zero-width space and a byte-order mark inside the name
        "게보\u00ad린 부\u200d작용",  # a soft hyphen, a zero-width joiner
    ],
)
def test_decomposed_or_invisible_characters_find_the_product_as_written_plainly(mini_index, monkeypatch, capsys,
                                                                                written):  # fmt: skip
    from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder

    open_searchers_with_hash_embedder(monkeypatch)
    assert written != "게보린 부작용"
    found = {}
    for query in ("게보린 부작용", written):
        assert cli.main(["search", query, "--json", "-k", "3", "--index-dir", str(mini_index[0])]) == 0
        found[query] = [hit["id"] for hit in json.loads(capsys.readouterr().out)]
    assert found[written] == found["게보린 부작용"]
    assert found[written][0] == "easydrug:197900277:se"


def test_a_question_from_python_is_normalised_as_one_from_the_cli():
    from programs.question import clean_question

    assert clean_question(unicodedata.normalize("NFD", "타이레놀\u200b 먹고 술")) == ("타이레놀 먹고 술", [])
