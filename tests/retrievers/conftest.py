"""Retrieval tests use the session-wide mini index of tests/conftest.py."""

from yaksa.testing.mini_index import MINI_CORPUS  # noqa: F401  (re-exported for the tests)
