"""Split the real-question set into dev (60 %) and test (40 %) and validate both against the shipped corpus.

The questions were written for this project in its own words, each modelled on a question people posted publicly
(the page is in ``source``); ``part_a`` holds questions that name a class of medicine or a symptom, ``part_b``
questions that name a product or an ingredient, ``part_c`` a later batch of both (2026-11-28, pages not used before,
written by someone who had not seen the system's answers), ``part_d`` another such batch (2026-11-29, pages not used
before, written by someone who had not seen the system's answers). The split is decided by the question ids alone,
within each part: ids ordered by their SHA-256, the first 60 % → dev, the rest → test. It was made before anything was
run on the questions, can be re-derived, and never depends on results. The test split is for reporting only: never
read its misses one by one to fix them.

Checks: fields and values; unique ids and questions; every gold id exists in ``load_corpus()``; every gold phrase is an
exact substring of one of its gold documents' text; unanswerable rows say why. Exits 1 on any error.

Example:
    $ python trainsets/real_questions/split_and_check.py
    dev: 264 questions (225 answerable); population none=175 ...
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from retrievers.corpus import load_corpus  # noqa: E402

PARTS = ("part_a.jsonl", "part_b.jsonl", "part_c.jsonl", "part_d.jsonl")
ASPECTS = set(
    "efficacy dosage how_to_take timing_food missed_dose duration onset side_effects cautions contraindication "
    "interactions alcohol food_drink driving pregnancy breastfeeding child_use elderly storage expiry comparison "
    "overdose smoking washing".split()
)
GROUPS = {None, "pregnant", "breastfeeding", "child", "infant", "adolescent", "elderly"}
UNANSWERABLE = {None, "not_in_corpus", "not_in_leaflets"}
FIELDS = (
    "id question source targets aspects population other_drugs comparison answerable unanswerable_kind gold "
    "gold_phrases".split()
)


def split_ids(ids: list[str], dev_share: float = 0.6) -> dict[str, str]:
    """``{id: "dev" | "test"}``: ids ordered by SHA-256, the first `dev_share` of them dev.

    >>> sorted(split_ids(["rq-a-001", "rq-a-002", "rq-a-003", "rq-a-004", "rq-a-005"]).values())
    ['dev', 'dev', 'dev', 'test', 'test']
    """
    ordered = sorted(ids, key=lambda i: hashlib.sha256(i.encode()).hexdigest())
    n_dev = round(dev_share * len(ordered))
    return {i: ("dev" if k < n_dev else "test") for k, i in enumerate(ordered)}


def row_errors(row: dict, texts: dict[str, str]) -> list[str]:
    errors = [f"missing {f}" for f in FIELDS if f not in row]
    if errors:
        return errors
    errors += [f"unknown aspect {a}" for a in row["aspects"] if a not in ASPECTS]
    if row["population"].get("group") not in GROUPS:
        errors.append(f"unknown population {row['population']}")
    if row["unanswerable_kind"] not in UNANSWERABLE or (row["answerable"] == (row["unanswerable_kind"] is not None)):
        errors.append("answerable and unanswerable_kind disagree")
    if not str(row["source"]).startswith("http"):
        errors.append("source is not a page address")
    errors += [f"unknown gold id {g}" for g in row["gold"] if g not in texts]
    gold_texts = [texts[g] for g in row["gold"] if g in texts]
    missing = [p for p in row["gold_phrases"] if not any(p in t for t in gold_texts)]
    errors += [f"phrase not in any gold document: {p!r}" for p in missing]
    if row["answerable"] and not (row["gold"] and row["gold_phrases"]):
        errors.append("answerable without gold documents and phrases")
    return errors


def main() -> int:
    texts = {d.id: d.text for d in load_corpus()}
    parts = {part: [json.loads(x) for x in (HERE / part).read_text(encoding="utf-8").splitlines()] for part in PARTS}
    rows = [r for part in PARTS for r in parts[part]]
    errors = [f"{r.get('id')}: {e}" for r in rows for e in row_errors(r, texts)]
    for what, key in (("id", "id"), ("question", "question")):
        errors += [f"duplicate {what}: {v}" for v, n in Counter(r[key] for r in rows).items() if n > 1]
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 1
    split = {i: s for part in PARTS for i, s in split_ids([r["id"] for r in parts[part]]).items()}
    for name in ("dev", "test"):
        chosen = [r for r in rows if split[r["id"]] == name]
        with open(HERE / f"{name}.jsonl", "w", encoding="utf-8") as f:
            for r in chosen:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        groups = Counter(r["population"]["group"] or "none" for r in chosen)
        print(
            f"{name}: {len(chosen)} questions ({sum(r['answerable'] for r in chosen)} answerable); population "
            + " ".join(f"{g}={n}" for g, n in groups.most_common())
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
