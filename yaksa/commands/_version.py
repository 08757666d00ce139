"""The code version a run logs: the package version, the git commit, and ``.dirty`` when tracked files changed."""

from __future__ import annotations

import subprocess


def code_version() -> str:
    from yaksa import __version__

    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "-uno"], capture_output=True, text=True, timeout=5)
        return f"{__version__}+{rev}{'.dirty' if dirty.stdout.strip() else ''}"
    except (OSError, subprocess.SubprocessError):
        return __version__
