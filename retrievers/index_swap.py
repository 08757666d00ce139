"""``--rebuild`` writes the new index beside the working one and swaps it in at the end.

The new index is built in a temporary sibling folder (``.<name>.rebuild-XXXX``). Only when it is complete is the
working folder renamed aside and the new one renamed into its place (two renames on one file system, microseconds
apart), and the old one deleted. An interrupted or failed rebuild removes its temporary folder and leaves the working
index as it was; a rebuild killed outright leaves the folder for the next build to clear (`clear_leftovers`, run under
the build lock). A crash between the two renames leaves the old index aside, and the next build puts it back.

Example:
    >>> root = Path(tempfile.mkdtemp()) / "index"
    >>> with rebuilt_beside(root) as fresh:       # an exception in the block would leave `root` as it was
    ...     _ = (fresh / "manifest.json").write_text("{}")
    >>> [p.name for p in root.iterdir()], [p.name for p in root.parent.iterdir()]
    (['manifest.json'], ['index'])
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _siblings(root: Path, kind: str) -> list[Path]:
    return sorted(root.parent.glob(f".{root.name}.{kind}-*")) if root.parent.is_dir() else []


def clear_leftovers(root: Path) -> list[Path]:
    """Remove the temporary folders of rebuilds that were killed; put back an index left aside by a crash between
    the swap's two renames. Returns what was removed or restored. Call only while holding the build lock."""
    touched = []
    for aside in _siblings(root, "old"):
        if not root.exists():
            os.replace(aside, root)
        else:
            shutil.rmtree(aside, ignore_errors=True)
        touched.append(aside)
    for fresh in _siblings(root, "rebuild"):
        shutil.rmtree(fresh, ignore_errors=True)
        touched.append(fresh)
    return touched


@contextlib.contextmanager
def rebuilt_beside(root: Path) -> Iterator[Path]:
    """Yield an empty sibling folder to build into; on success it replaces `root`, on failure it is removed."""
    root.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{root.name}.rebuild-", dir=root.parent))
    try:
        fresh.chmod(_folder_mode(root))  # mkdtemp makes it private; the index keeps the mode it had
        yield fresh
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    swap_in(fresh, root)


def _folder_mode(root: Path) -> int:
    """The mode of the existing index folder, else what a plain mkdir would give (0o777 less the umask)."""
    if root.is_dir():
        return root.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o777 & ~umask


def swap_in(fresh: Path, root: Path) -> None:
    """Put the folder `fresh` at `root`, then delete what was there."""
    if not root.exists():
        os.replace(fresh, root)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{root.name}.old-", dir=root.parent))
    os.replace(root, aside)  # a directory replaces an empty directory
    try:
        os.replace(fresh, root)
    except BaseException:
        os.replace(aside, root)
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    shutil.rmtree(aside, ignore_errors=True)
