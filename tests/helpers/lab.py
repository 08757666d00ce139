"""Fixtures for the compile / evaluate / ablation / compare / bench tests: a throw-away MLflow sqlite store per test
(copied from one made per session, since creating the tables takes seconds), a fresh in-memory DSPy cache, the
fake search backend behind `_backend.open_backend`, a stub OpenAI server answering any signature, and a tiny QA set.

Import the fixtures into a test module with ``from tests.helpers.lab import *  # noqa: F403``.
"""

from __future__ import annotations

import json
import shutil

import pytest

from yaksa.testing.any_signature import any_signature
from yaksa.testing.mini_index import real_searcher
from yaksa.testing.stub_openai import StubOpenAI

TRAIN = [
    {"id": "t1", "question": "게보린 부작용", "answer": "위장 장애", "gold": ["easydrug:197900277:se"]},
    {"id": "t2", "question": "게보린 먹는 법", "answer": "1회 1정", "gold": ["easydrug:197900277:useMethod"]},
    {"id": "t3", "question": "타이레놀 효능", "answer": "발열 및 두통", "gold": ["easydrug:202106092:efcy"]},
    {"id": "t4", "question": "게보린 효과", "answer": "두통, 치통", "gold": ["easydrug:197900277:efcy"]},
]
DEV = [
    {"id": "d1", "question": "타이레놀 부작용", "answer": "발진, 구역", "gold": ["easydrug:202106092:se"]},
    {"id": "d2", "question": "오늘 날씨 어때", "answer": "", "gold": [], "out_of_scope": True},
]


_TEMPLATE: list = []  # one template store per test process, whichever module asks first


@pytest.fixture(scope="session")
def _template_db(tmp_path_factory):
    if not _TEMPLATE:
        import os

        import mlflow

        path = tmp_path_factory.mktemp("mlflow-template") / "mlflow.db"
        saved = os.environ.get("MLFLOW_TRACKING_URI")
        mlflow.set_tracking_uri(f"sqlite:///{path}")
        try:
            mlflow.search_experiments()  # creates the tables
        finally:
            mlflow.set_tracking_uri(saved)  # the template is copied, never tracked into
        _TEMPLATE.append(path)
    return _TEMPLATE[0]


@pytest.fixture
def mlflow_db(tmp_path, monkeypatch, _template_db):
    """MLFLOW_TRACKING_URI -> a fresh sqlite store under tmp_path (never the repo's mlruns/)."""
    store = tmp_path / "mlruns"
    store.mkdir()
    shutil.copy(_template_db, store / "mlflow.db")
    uri = f"sqlite:///{store / 'mlflow.db'}"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    import mlflow

    mlflow.set_tracking_uri(uri)
    yield uri
    if mlflow.active_run():
        mlflow.end_run()
    mlflow.dspy.autolog(disable=True)  # later tests must not trace into this store
    mlflow.flush_trace_async_logging()


@pytest.fixture
def fresh_cache():
    """A new in-memory DSPy cache with no disk cache, so LM-call counts do not depend on other tests (the previous
    cache comes back after the test, as tests/conftest.py does for every test)."""
    import dspy

    saved = dspy.cache
    dspy.configure_cache(enable_disk_cache=False, enable_memory_cache=True)
    yield
    dspy.cache = saved


@pytest.fixture
def backend(monkeypatch):
    from yaksa.commands import _backend

    fake = real_searcher()
    monkeypatch.setattr(_backend, "open_backend", lambda: fake)
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return fake


@pytest.fixture
def stub():
    with StubOpenAI([any_signature]) as server:
        yield server


@pytest.fixture
def qa_dir(tmp_path):
    folder = tmp_path / "qa"
    folder.mkdir()
    for name, rows in (("train", TRAIN), ("dev", DEV)):
        (folder / f"{name}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    return folder


@pytest.fixture
def lab(mlflow_db, fresh_cache, backend, stub, qa_dir, monkeypatch, tmp_path):
    """Everything a CLI test needs; ``lab.lm`` are the LM flags pointing at the stub."""
    monkeypatch.chdir(tmp_path)

    class Lab:
        pass

    lab = Lab()
    lab.uri, lab.backend, lab.stub, lab.qa = mlflow_db, backend, stub, qa_dir
    lab.lm = ["--lm", "openai/stub", "--api-base", stub.url]
    lab.data = ["--data", str(qa_dir), "--experiment", "test"]
    return lab


__all__ = ["_template_db", "mlflow_db", "fresh_cache", "backend", "stub", "qa_dir", "lab", "TRAIN", "DEV"]
