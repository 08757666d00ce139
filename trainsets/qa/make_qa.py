"""Make the train / dev QA sets for compiling and evaluating CRAG: ``python trainsets/qa/make_qa.py``.

Three sources, all from the shipped corpus (식품의약품안전처 e약은요 and DUR 성분 규칙):

* leaflet questions: a product and one of its sections, asked formally or colloquially; the reference answer is the
  section's first sentences; gold is that section's document id;
* DUR questions: 병용금기 pairs ("A 먹는데 B 같이 먹어도 돼?") and 임부금기 / 노인주의 ingredients; the reference is the
  rule's sentence;
* the colloquial questions of ``trainsets/retrieval/dev.jsonl`` (product / ingredient / DUR kinds, reference from
  their first gold document) and its out-of-scope questions (``out_of_scope: true``, no reference).

The retrieval *test* set is left out. Everything is drawn with ``random.Random(SEED)``, so the files are reproducible.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEED = 20260312
N_LEAFLET = 60
N_DUR = 24
N_COLLOQUIAL = 36
N_OOS = 8
DEV_SHARE = 0.35
HERE = Path(__file__).resolve().parent

TEMPLATES = {
    "efcy": ["{p}은 어디에 쓰는 약인가요?", "{p} 무슨 약이에요?", "{p} 효능이 뭐야"],
    "useMethod": ["{p}은 어떻게 복용하나요?", "{p} 하루에 몇 번 먹어요?", "{p} 먹는 법 알려줘"],
    "atpnWarn": ["{p}을 먹으면 안 되는 사람은 누구인가요?", "{p} 먹기 전에 조심할 거 있어요?"],
    "atpn": ["{p} 복용 시 주의사항은 무엇인가요?", "{p} 먹을 때 주의할 점 있어?"],
    "intrc": ["{p}과 같이 먹으면 안 되는 약이 있나요?", "{p} 다른 약이랑 같이 먹어도 돼요?"],
    "se": ["{p}의 부작용은 무엇인가요?", "{p} 먹고 속이 이상한데 부작용인가요?", "{p} 부작용 있어?"],
    "depositMethod": ["{p}은 어떻게 보관하나요?", "{p} 냉장고에 넣어야 돼요?"],
}
DUR_TEMPLATES = {
    "ac": ["{a} 먹는데 {b} 같이 먹어도 돼?", "{a}와 {b}를 함께 복용해도 되나요?"],
    "cc": ["임신 중인데 {a} 성분 약 먹어도 되나요?", "임산부가 {a} 먹어도 돼?"],
    "fc": ["70대 어머니가 {a} 드셔도 괜찮나요?", "노인이 {a} 복용할 때 주의할 점은?"],
}


def reference(text: str, sentences: int = 2, chars: int = 300) -> str:
    """The body of a document (after its title line and section label), cut to its first sentences."""
    body = text.split("\n", 1)[-1]
    body = re.sub(r"^\[[^\]]+\]\s*", "", body)
    parts = re.split(r"(?<=[.다요])\s+", body)
    return " ".join(parts[:sentences])[:chars].strip()


def product_name(doc) -> str:
    from retrievers.corpus import clean_product_name

    return clean_product_name(doc.metadata.get("item_name", ""))


def make(seed: int = SEED) -> tuple[list[dict], list[dict]]:
    from retrievers.corpus import load_corpus

    rng = random.Random(seed)
    docs = load_corpus()
    by_id = {d.id: d for d in docs}
    leaflets = sorted((d for d in docs if d.id.startswith("easydrug:") and len(d.text) > 60), key=lambda d: d.id)
    rows: list[dict] = []
    for doc in rng.sample(leaflets, N_LEAFLET):
        section = doc.metadata["section"]
        template = rng.choice(TEMPLATES.get(section, TEMPLATES["efcy"]))
        rows.append(
            {
                "question": template.format(p=product_name(doc)),
                "answer": reference(doc.text),
                "gold": [doc.id],
                "kind": f"leaflet:{section}",
                "out_of_scope": False,
            }
        )
    for code, templates in DUR_TEMPLATES.items():
        pool = sorted((d for d in docs if d.id.startswith(f"dur:{code}:")), key=lambda d: d.id)
        for doc in rng.sample(pool, N_DUR // len(DUR_TEMPLATES)):
            m = doc.metadata
            rows.append(
                {
                    "question": rng.choice(templates).format(a=m["ingredient"], b=m.get("partner", "")),
                    "answer": reference(doc.text, 2),
                    "gold": [doc.id],
                    "kind": f"dur:{code}",
                    "out_of_scope": False,
                }
            )
    retrieval = [json.loads(line) for line in (ROOT / "trainsets/retrieval/dev.jsonl").read_text().splitlines()]
    answerable = [r for r in retrieval if r["kind"] != "oos" and r["gold"] and r["gold"][0] in by_id]
    for r in rng.sample(answerable, N_COLLOQUIAL):
        rows.append(
            {
                "question": r["question"],
                "answer": reference(by_id[r["gold"][0]].text),
                "gold": r["gold"],
                "kind": f"colloquial:{r['kind']}",
                "out_of_scope": False,
            }
        )
    for r in rng.sample([r for r in retrieval if r["kind"] == "oos"], N_OOS):
        rows.append({"question": r["question"], "answer": "", "gold": [], "kind": "oos", "out_of_scope": True})
    seen, unique = set(), []
    for row in rows:
        if row["question"] not in seen:
            seen.add(row["question"])
            unique.append(row)
    rng.shuffle(unique)
    for i, row in enumerate(unique, 1):
        row["id"] = f"qa-{i:03d}"
    n_dev = round(len(unique) * DEV_SHARE)
    return unique[n_dev:], unique[:n_dev]


def write(rows: list[dict], path: Path) -> str:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    path.write_text(text, encoding="utf-8")
    return hashlib.sha256(text.encode()).hexdigest()[:12]


if __name__ == "__main__":
    train, dev = make()
    print("train", len(train), write(train, HERE / "train.jsonl"))
    print("dev", len(dev), write(dev, HERE / "dev.jsonl"))
