"""The params every scoring command (compile, evaluate, ablation) logs about its dev set, so ``yaksa compare`` can
show and check what each score was measured on: the dataset, its version (a content hash of the dev questions) and
the dev size.

Example:
    >>> import argparse
    >>> dataset_name(argparse.Namespace(program="crag", data=None))
    'trainsets/qa'
"""

from __future__ import annotations

from yaksa.commands import _promotion


def dataset_name(args) -> str:
    """The dev set's source: ``trainsets/qa`` (or ``trainsets/turns``) by default, else the ``--data`` folder."""
    if getattr(args, "data", None):
        return str(args.data)
    return "trainsets/turns" if getattr(args, "program", "crag") == "turn" else "trainsets/qa"


def dataset_params(args, dev: list, data_hash: str) -> dict:
    """``dataset``, ``dataset_version`` (what the dev questions are), ``dev_n`` and ``dataset_hash`` (the draw)."""
    return {
        "dataset": dataset_name(args)[-200:],
        "dataset_version": _promotion.dataset_version(dev),
        "dev_n": len(dev),
        "dataset_hash": data_hash,
    }
