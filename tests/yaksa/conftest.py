import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture
def ask_on_mini_index(monkeypatch):
    """`yaksa ask` answers from the real searcher over the mini corpus (never an index in the user's cache), with no
    LM, config file or web key from the environment, run from a folder with no yaksa.toml."""
    from yaksa.commands import _backend
    from yaksa.testing.mini_index import real_searcher

    monkeypatch.setattr(_backend, "open_backend", real_searcher)
    for name in ("YAKSA_LM", "YAKSA_API_BASE", "YAKSA_CONFIG", "TAVILY_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(Path(__file__).parent)
