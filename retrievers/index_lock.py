"""One build at a time per index folder: an exclusive `fcntl.flock` on a lock file beside the folder.

The lock file sits next to the index (``<parent>/<name>.lock``), not inside it, because ``--rebuild`` replaces the
whole folder at the end; a lock inside it would be swapped away with the old folder. The kernel releases a flock when
its holder exits, however it exits, so a lock file left by a killed build never blocks the next one: only a running
build does. The holder's pid is written into the file for the message.

Example:
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp()) / "index"
    >>> with build_lock(root):                  # build here; meanwhile a second build of the folder is refused
    ...     try:
    ...         with build_lock(root):
    ...             pass
    ...     except IndexBusy:
    ...         print("busy")
    busy
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


class IndexBusy(RuntimeError):
    """Another build holds the index folder's lock."""


def lock_path(root: Path) -> Path:
    """The lock file of the index folder `root`."""
    return root.parent / f"{root.name}.lock"


@contextlib.contextmanager
def build_lock(root: Path) -> Iterator[Path]:
    """Hold the build lock of `root` for the block; raise IndexBusy at once if another process holds it."""
    path = lock_path(Path(root))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise IndexBusy(
                f"another `yaksa index` (pid {holder}) is building {root} (lock {path}): "
                "wait for it to finish, then run `yaksa index` again"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        yield path
    finally:
        os.close(fd)  # closing the descriptor releases the lock
