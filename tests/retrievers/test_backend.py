"""`SearchBackend` declares everything programs read of a backend: the searcher and the fakes have every member, and
programs and the app read none through getattr."""

import ast
import inspect
from pathlib import Path

from retrievers.backend import SearchBackend
from yaksa.testing.fake_backend import FakeBackend

ROOT = Path(__file__).resolve().parents[2]


def members() -> set[str]:
    methods = {n for n, v in vars(SearchBackend).items() if inspect.isfunction(v) and not n.startswith("_")}
    return methods | set(SearchBackend.__annotations__)


def test_the_protocol_declares_the_readers_and_the_searches():
    assert members() >= {
        "docs",
        "by_id",
        "names",
        "lexicon",
        "tokenizer",
        "query_coverage",
        "retrieve",
        "get",
        "dur_rules",
    }


def test_the_searcher_and_the_fake_backend_have_every_member(mini_searcher):
    for backend in (mini_searcher, FakeBackend()):
        assert all(hasattr(backend, m) for m in members()), type(backend).__name__
    assert FakeBackend().names is None and mini_searcher.names is not None


def test_no_program_reads_a_backend_through_getattr():
    found = []
    for pkg in ("programs", "yaksa", "metrics"):
        for path in (ROOT / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("getattr", "hasattr"):
                    if "backend" in ast.unparse(node.args[0]):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found
