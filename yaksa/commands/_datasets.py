"""The question sets of compile / evaluate / ablation / bench: their flags, reading JSON lines with one-line errors,
and the seeded train / dev draw with its hash (logged, so a run says which questions it saw).

Example:
    >>> draw([{"q": 1}, {"q": 2}, {"q": 3}], 2, seed=0)   # two rows, kept in file order
    [{'q': 2}, {'q': 3}]
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from yaksa.errors import UserError

ROOT = Path(__file__).resolve().parents[2]
QA_DIR = ROOT / "trainsets/qa"
TURN_FILE = ROOT / "trainsets/turns/turns.jsonl"


def add_data_args(p, train: bool = True) -> None:
    p.add_argument("--program", choices=("crag", "turn"), default="crag", help="which program (default crag)")
    p.add_argument("--data", type=Path, help="folder with train.jsonl and dev.jsonl (default trainsets/qa)")
    if train:
        p.add_argument("--train", type=int, default=20, help="training examples drawn (seeded) from train.jsonl")
    p.add_argument("--dev", type=int, default=20, help="dev examples drawn (seeded) from dev.jsonl (0: all)")
    p.add_argument("--seed", type=int, default=0, help="seed for the draws and the optimizer (default 0)")
    p.add_argument("--threads", type=int, default=2, help="evaluation threads (default 2)")
    p.add_argument("--index-dir", help="search index folder (default: the built index)")
    p.add_argument("--experiment", default="yaksa", help="MLflow experiment name (default yaksa)")


def read_jsonl(path: Path) -> list[dict]:
    from yaksa.text_input import read_text

    lines = read_text(path).splitlines()
    try:
        return [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as e:
        raise UserError(f"{path}: not JSON lines ({e.msg})") from None


def _require(rows: list, key: str, path: Path) -> None:
    """Each row is a JSON object with a non-empty text `key` (else a one-line error naming the file and line)."""
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not isinstance(row.get(key), str) or not row[key].strip():
            raise UserError(f"{path}: row {n} has no {key!r} text; every row needs one (see trainsets/qa/dev.jsonl)")


def draw(rows: list[dict], n: int | None, seed: int) -> list[dict]:
    """`n` rows drawn with ``random.Random(seed)`` in file order (all rows for n None/0 or n >= len)."""
    if not n or n >= len(rows):
        return list(rows)
    keep = sorted(random.Random(seed).sample(range(len(rows)), n))
    return [rows[i] for i in keep]


def datasets(args, train: bool = True) -> tuple[list, list, str]:
    """(train examples, dev examples, dataset hash) for the chosen program."""
    import dspy

    if args.program == "turn":
        rows = read_jsonl(args.data / "turns.jsonl" if args.data else TURN_FILE)
        _require(rows, "prompt", args.data / "turns.jsonl" if args.data else TURN_FILE)
        rng = random.Random(args.seed)
        order = list(range(len(rows)))
        rng.shuffle(order)
        n_dev = max(1, len(rows) // 3)
        dev_rows = [rows[i] for i in sorted(order[:n_dev])]
        train_rows = [rows[i] for i in sorted(order[n_dev:])]
        keys = ("prompt", "ai_reply", "problem_title", "algorithms")
    else:
        folder = args.data or QA_DIR
        train_rows = read_jsonl(folder / "train.jsonl") if train else []  # evaluate reads dev.jsonl only
        dev_rows = read_jsonl(folder / "dev.jsonl")
        keys = ("question",)
        for name, rows in (("train.jsonl", train_rows), ("dev.jsonl", dev_rows)):
            _require(rows, "question", folder / name)
    train_rows = draw(train_rows, getattr(args, "train", None), args.seed) if train else []
    dev_rows = draw(dev_rows, args.dev, args.seed)
    digest = hashlib.sha256(json.dumps([train_rows, dev_rows], ensure_ascii=False, sort_keys=True).encode())

    def example(row):
        return dspy.Example(**row).with_inputs(*[k for k in keys if k in row])

    return [example(r) for r in train_rows], [example(r) for r in dev_rows], digest.hexdigest()[:12]
