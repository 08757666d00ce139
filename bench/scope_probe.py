"""Scope probe: which questions the out-of-scope guard keeps and which it blocks, with the learned scope model
(`retrievers/scope_model.py`, the default) and with the older condition words and dense cuts (``scope_model =
false``), in the same run.

Sets: symptom statements that name no medicine and off-topic requests written for this project
(``trainsets/scope/probe.jsonl``), a longer list of off-topic requests across everyday topics, health-adjacent ones
included (``trainsets/scope/off_topic.jsonl``), and the retrieval dev/test splits (in-scope questions and their
out-of-scope ones). Prints, per set, the in-scope questions refused and the out-of-scope questions kept; ``--show``
lists them.

    python bench/scope_probe.py [--index-dir DIR] [--show]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))


def load_sets() -> dict[str, list[tuple[str, bool]]]:
    """(question, in scope) per set."""

    def rows(path: Path) -> list[dict]:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

    scope = ROOT / "trainsets" / "scope"
    sets = {
        "probe": [(r["question"], r["in_scope"]) for r in rows(scope / "probe.jsonl")],
        "off_topic": [(r["question"], False) for r in rows(scope / "off_topic.jsonl")],
    }
    for split in ("dev", "test"):
        path = ROOT / "trainsets" / "retrieval" / f"{split}.jsonl"
        sets[f"retrieval {split}"] = [(r["question"], r["kind"] != "oos") for r in rows(path)]
    return sets


def run(searcher, sets, show: bool) -> dict:
    out = {}
    for name, items in sets.items():
        refused = [q for q, inside in items if inside and searcher.retrieve(q).out_of_scope]
        kept = [q for q, inside in items if not inside and not searcher.retrieve(q).out_of_scope]
        n_in = sum(1 for _, inside in items if inside)
        n_out = len(items) - n_in
        out[name] = {"in_scope": n_in, "refused": len(refused), "out_of_scope": n_out, "kept": len(kept)}
        blocked = f"{1 - len(kept) / n_out:.3f}" if n_out else "-"
        print(f"  {name:<14} in scope {n_in:>3}, refused {len(refused):>2} | off-topic {n_out:>3}, blocked {blocked}")
        if show:
            for q in refused:
                print(f"      refused: {q}")
            for q in kept:
                print(f"      kept:    {q}")
    return out


def main(argv: list[str] | None = None) -> int:
    from yaksa.commands._backend import open_searcher_or_explain
    from yaksa.errors import UserError

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", help="index folder (default: $YAKSA_INDEX_DIR or ~/.cache/yaksa/index)")
    parser.add_argument("--show", action="store_true", help="list each refused and each kept question")
    args = parser.parse_args(argv)
    try:
        searcher = open_searcher_or_explain(args.index_dir)  # a missing or broken index: one line saying what to run
    except UserError as e:
        print(f"bench/scope_probe.py: error: {e}", file=sys.stderr)
        return 2
    sets = load_sets()
    print("with the scope model (names and symptom rules first, the model for the rest):")
    run(searcher, sets, args.show)
    searcher.settings = searcher.settings.updated(scope_model=False)
    print("with the condition words and the dense cuts instead:")
    run(searcher, sets, args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
