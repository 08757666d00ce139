"""bench/lm_calls.py's fixed backend speaks the whole `SearchBackend` protocol, so the bench runs the program."""

import inspect
import subprocess
import sys
from pathlib import Path

from retrievers.backend import SearchBackend

ROOT = Path(__file__).resolve().parents[2]


def test_the_fixed_backend_has_every_method_programs_use():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from lm_calls import FixedBackend
    finally:
        sys.path.remove(str(ROOT / "bench"))
    wanted = {n for n, v in vars(SearchBackend).items() if inspect.isfunction(v) and not n.startswith("_")}
    assert wanted <= {n for n in dir(FixedBackend) if callable(getattr(FixedBackend, n))}


def test_the_bench_runs_on_the_fixed_backend():
    out = subprocess.run(
        [sys.executable, "bench/lm_calls.py", "--backend", "fixed", "--limit", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
