"""Widen symptom questions' gold to every efficacy section that names the symptom.

A symptom question ("콧물이 줄줄 나는데 뭐 먹어요") is answered by any product whose efficacy section lists
the symptom; the note of each question starts with its keyword(s) ("비염/콧물 (top 30 of ...)"). Capped
recall@5 against this full set asks: are the top five all products for that symptom?

    python trainsets/retrieval/symptom_gold.py   # rewrites dev.jsonl and test.jsonl in place
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from retrievers.corpus import load_corpus

HERE = Path(__file__).resolve().parent


def keywords(note: str) -> list[str]:
    head = re.split(r"\s*\(", note, maxsplit=1)[0]
    return [k.strip() for k in re.split(r"[/,]", head) if k.strip()]


def main() -> None:
    efcy = [d for d in load_corpus() if d.id.endswith(":efcy")]
    for split in ("dev", "test"):
        path = HERE / f"{split}.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for row in rows:
            if row["kind"] != "symptom" or row.get("gold_rule") == "all efcy sections naming the symptom":
                continue
            keys = keywords(row["note"])
            matched = sorted(d.id for d in efcy if any(k in d.text.split("\n", 1)[-1] for k in keys))
            row["gold"] = sorted(set(row["gold"]) | set(matched))
            row["gold_rule"] = "all efcy sections naming the symptom"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(split, sum(r["kind"] == "symptom" for r in rows), "symptom questions widened")


if __name__ == "__main__":
    main()
