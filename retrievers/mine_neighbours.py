"""Mine which symptoms go together from the leaflets: `python -m retrievers.mine_neighbours`.

The 이상반응 sections list effects by body system ("구역, 구토, 식욕부진, 위부불쾌감 …; 발진, 발적, 가려움 …"), so
two items that stand within `WINDOW` places of each other in many lists are about the same thing. For each item the
items most often beside it (at least `MIN_PAIR` times, PMI ≥ `MIN_PMI`) are its neighbours: 속쓰림 → 구역,
소화불량, 복부팽만 … . The sentence ranker lets a question's symptom word (속이 쓰려요) find a sentence that lists its
neighbours (구역, 구토, 식욕부진) when the leaflet does not use the word itself. Written to
`data/symptom_neighbours.json`; no word is listed by hand.

Example:
    >>> lists = [["구역", "구토", "식욕부진"], ["구토", "구역"], ["발진", "가려움"], ["가려움", "발진"]] * 3
    >>> mine_neighbours(lists, min_pair=3, min_pmi=0.0)["구역"]
    ['구토', '식욕부진']
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import Counter
from pathlib import Path

DATA = Path(__file__).parent / "data"
NEIGHBOURS_PATH = DATA / "symptom_neighbours.json"
WINDOW = 2  # items at most this many places apart in one list count as beside each other
MIN_PAIR = 3  # a neighbour stands beside the item in at least this many lists
MIN_PMI = 0.5  # and is at least e^0.5 (1.6) times likelier beside it than beside any item
MAX_NEIGHBOURS = 8  # the most frequent first
_ITEM = re.compile(r"^[가-힣]{2,8}$")  # a short Hangul noun: a symptom, not a clause
_BRACKETS = re.compile(r"\([^()]*\)")
_SPLIT = re.compile(r",\s*|ㆍ|·|\s및\s|\s또는\s")
_LEAD = re.compile(r"^(매우 드물게|때때로|드물게|흔하게|이 약)\s*")
_TAIL = re.compile(r"(등|증상)$")


def list_items(body: str) -> list[list[str]]:
    """The item lists of a section's sentences: comma-separated short nouns, in order, brackets dropped.

    >>> list_items("때때로 구역, 구토(토함), 식욕부진 등이 나타날 수 있습니다.")
    [['구역', '구토', '식욕부진']]
    """
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", _BRACKETS.sub("", _BRACKETS.sub("", body))):
        items: list[str] = []
        for part in _SPLIT.split(sentence):
            word = _LEAD.sub("", part.strip())
            word = re.sub(r"\s*등.*$", "", word)
            word = _TAIL.sub("", word) if len(word) > 3 else word
            if _ITEM.match(word) and word not in items:
                items.append(word)
        if len(items) >= 2:
            out.append(items)
    return out


def mine_neighbours(
    lists: list[list[str]], window: int = WINDOW, min_pair: int = MIN_PAIR, min_pmi: float = MIN_PMI
) -> dict[str, list[str]]:
    """Per item, the items beside it in the lists often enough (see the module docstring), the most frequent first."""
    count: Counter = Counter()
    pairs: Counter = Counter()
    for items in lists:
        count.update(items)
        for i, a in enumerate(items):
            for b in items[i + 1 : i + window + 1]:
                pairs[(a, b) if a < b else (b, a)] += 1
    total = sum(count.values())
    near: dict[str, list[tuple[int, str]]] = {}
    for (a, b), n in pairs.items():
        if n < min_pair or math.log(n * total / (count[a] * count[b] * 2 * window)) < min_pmi:
            continue
        near.setdefault(a, []).append((n, b))
        near.setdefault(b, []).append((n, a))
    return {w: [o for _, o in sorted(v, key=lambda x: (-x[0], x[1]))[:MAX_NEIGHBOURS]] for w, v in sorted(near.items())}


def main(argv: list[str] | None = None) -> None:
    from retrievers.index_store import IndexPaths, default_index_dir, read_docs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", default=None, help="the index whose documents are mined (default: yaksa's)")
    args = parser.parse_args(argv)
    docs = read_docs(IndexPaths(Path(args.index_dir) if args.index_dir else default_index_dir()))
    bodies = dict.fromkeys(d.text.partition("\n")[2] for d in docs if d.metadata.get("section") == "se")
    lists = [items for body in bodies for items in list_items(body)]
    near = mine_neighbours(lists)
    out = {"version": 1, "lists": len(lists), "window": WINDOW, "neighbours": near}
    NEIGHBOURS_PATH.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(near)} items with neighbours from {len(lists)} lists -> {NEIGHBOURS_PATH}")


if __name__ == "__main__":
    main()
