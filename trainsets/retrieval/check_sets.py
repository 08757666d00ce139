"""Validate the retrieval question sets (dev.jsonl, test.jsonl) against the shipped corpus.

Checks: every line is a JSON object with id/question/gold/kind/note; question ids are unique;
kinds are known; every gold id exists in ``load_corpus()``; gold ids fit the kind (DUR rows for
``dur``, efcy sections for ``symptom``, leaflet sections otherwise, none for ``oos``); no
question text appears in both splits. Prints counts per kind and exits 1 on any error.

Example:
    $ python trainsets/retrieval/check_sets.py
    dev: 220 questions  product_section=99 ingredient_section=22 dur=33 symptom=33 oos=33
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from retrievers.corpus import load_corpus  # noqa: E402

KINDS = ("product_section", "ingredient_section", "dur", "symptom", "oos")
FIELDS = ("id", "question", "gold", "kind", "note")
SPLITS = ("dev", "test")


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _gold_errors(row: dict, ids: set[str]) -> list[str]:
    kind, gold = row["kind"], row["gold"]
    errors = [f"unknown gold id {g}" for g in gold if g not in ids]
    if len(set(gold)) != len(gold):
        errors.append("duplicate gold ids")
    if kind == "oos":
        if gold:
            errors.append("oos question with gold ids")
    elif not gold:
        errors.append("empty gold")
    elif kind == "dur" and not all(g.startswith("dur:") for g in gold):
        errors.append("dur question with non-DUR gold")
    elif kind == "symptom" and not all(g.startswith("easydrug:") and g.endswith(":efcy") for g in gold):
        errors.append("symptom gold must be efcy sections")
    elif kind in ("product_section", "ingredient_section") and not all(g.startswith("easydrug:") for g in gold):
        errors.append(f"{kind} gold must be leaflet sections")
    if kind == "symptom" and len(gold) > 30 and row.get("gold_rule") != "all efcy sections naming the symptom":
        errors.append("symptom gold longer than 30")
    return errors


def check_split(path: Path, ids: set[str]) -> tuple[list[dict], list[str]]:
    """Rows of one split and the errors found in it."""
    rows, errors, seen = [], [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"{path.name}:{n}: bad JSON ({exc})")
            continue
        missing = [f for f in FIELDS if f not in row]
        if missing:
            errors.append(f"{path.name}:{n}: missing fields {missing}")
            continue
        if row["id"] in seen:
            errors.append(f"{path.name}:{n}: duplicate id {row['id']}")
        seen.add(row["id"])
        if row["kind"] not in KINDS:
            errors.append(f"{path.name}:{n}: unknown kind {row['kind']!r}")
            continue
        if not row["question"].strip():
            errors.append(f"{path.name}:{n}: empty question")
        errors += [f"{path.name}:{n} ({row['id']}): {e}" for e in _gold_errors(row, ids)]
        rows.append(row)
    return rows, errors


def main() -> int:
    ids = {d.id for d in load_corpus()}
    splits, errors = {}, []
    for name in SPLITS:
        rows, errs = check_split(HERE / f"{name}.jsonl", ids)
        splits[name], errors = rows, errors + errs
    all_ids = [r["id"] for rows in splits.values() for r in rows]
    errors += [f"question id {i} used in both splits" for i, c in Counter(all_ids).items() if c > 1]
    shared = {_norm(r["question"]) for r in splits["dev"]} & {_norm(r["question"]) for r in splits["test"]}
    errors += [f"question in both dev and test: {q}" for q in sorted(shared)]
    for dup_split, rows in splits.items():
        texts = Counter(_norm(r["question"]) for r in rows)
        errors += [f"{dup_split}: repeated question {q}" for q, c in texts.items() if c > 1]

    def products(rows: list[dict]) -> set[str]:
        return {g.split(":")[1] for r in rows if r["kind"] == "product_section" for g in r["gold"]}

    overlap = products(splits["dev"]) & products(splits["test"])
    for name, rows in splits.items():
        counts = Counter(r["kind"] for r in rows)
        print(f"{name}: {len(rows)} questions  " + " ".join(f"{k}={counts.get(k, 0)}" for k in KINDS))
    print(f"product_section products shared by dev and test: {len(overlap)}")
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
