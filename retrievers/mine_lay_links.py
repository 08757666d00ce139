"""Learn which leaflet words answer a question's everyday words: `python -m retrievers.mine_lay_links`.

People ask in their own words (입이 바싹 말라요, 누워서 뿌리면, 자기 전에) and the leaflets answer in theirs
(구강건조, 비스듬히 눕거나, 취침 시). `trainsets/sentence_pairs/` holds questions written for sampled leaflet
sentences, each with the part of the sentence that answers it. Over those pairs, a question morpheme *q* is linked to
a morpheme *s* of the answering part when *s* is not in the question itself, they meet in one pair in a thousand at
least (`PAIRS_PER_LINK`; `MIN_PAIR` at least), at least `MIN_SHARE` of the pairs asking *q* are answered with *s*, and
*s* is at least `MIN_LIFT` times likelier beside *q* than in any answer; both are Hangul words, *s* of two syllables
or more (세, 회 are in every dose line). The sentence ranker (`programs/sentences.py`) then reads a sentence carrying
*s* as speaking the question's *q*. Pairs whose question is near an evaluated one (`retrievers.unseen`) are left out.
Written to `data/lay_links.json` with the training files' digests; no link is written by hand.

Example:
    >>> pairs = [(("입", "마르"), ("구강", "건조")), (("입", "마르", "밤"), ("구강", "건조")), (("밤",), ("취침",)),
    ...          (("밤", "먹"), ("취침",)), (("먹",), ("복용",))] * 2
    >>> mine_links(pairs, min_pair=2, min_share=0.3, min_lift=1.5)["마르"]
    ['건조', '구강']
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from retrievers.refit import ROOT, digests, fail, parse_out, write_model

DATA = Path(__file__).parent / "data"
LINKS_PATH = DATA / "lay_links.json"
PAIRS_DIR = ROOT / "trainsets" / "sentence_pairs"
# pairs a link is seen in: one pair in `PAIRS_PER_LINK` at least, and `MIN_PAIR` at least (real-dev gold phrases:
# 3,814 pairs, 2 / 3 / 4 gave 0.734 / 0.740 / 0.746; 6,165 pairs, 4 / 5 / 6 / 8 gave 0.746 / 0.746 / 0.754 / 0.754;
# 8,539 pairs, 6 / 8 / 10 each gave 0.754)
PAIRS_PER_LINK = 1000
MIN_PAIR = 4
MIN_SHARE = 0.3  # of the pairs whose question has q, the share answered with s (6,165 pairs, 6: 0.25 / 0.3 / 0.35 gave
# 0.754 / 0.757 / 0.757)
MIN_LIFT = 4.0  # P(s | q) / P(s): s is particular to q, not a word every answer has (복용, 의사)
MAX_LINKS = 3  # per question word, the most frequent first
MODULE = "retrievers.mine_lay_links"
_HANGUL = re.compile(r"^[가-힣]+$")  # numbers and Latin letters are no words to link (1회, 10세, mg)


def mine_links(
    pairs: list[tuple[tuple[str, ...], tuple[str, ...]]],
    min_pair: int | None = None,
    min_share: float = MIN_SHARE,
    min_lift: float = MIN_LIFT,
    max_links: int = MAX_LINKS,
) -> dict[str, list[str]]:
    """Links from (question morphemes, answer morphemes) pairs: see the module docstring. `min_pair`: by default
    one pair in `PAIRS_PER_LINK`, `MIN_PAIR` at least."""
    n = len(pairs)
    min_pair = min_pair if min_pair is not None else max(MIN_PAIR, round(n / PAIRS_PER_LINK))
    asked, answered, both = Counter(), Counter(), Counter()
    for question, answer in pairs:
        q_set = {q for q in question if _HANGUL.match(q)}
        a_set = {s for s in answer if len(s) > 1 and _HANGUL.match(s)}  # one syllable (세, 회) is in every answer
        asked.update(q_set)
        answered.update(a_set)
        both.update((q, s) for q in q_set for s in a_set - q_set if q != s and q not in s and s not in q)
    links: dict[str, list[tuple[int, float, str]]] = {}
    for (q, s), k in both.items():
        share = k / asked[q]
        lift = share / (answered[s] / n)
        if k >= min_pair and share >= min_share and lift >= min_lift:
            links.setdefault(q, []).append((-k, -lift, s))
    return {q: [s for _, _, s in sorted(found)[:max_links]] for q, found in sorted(links.items())}


def tokenizer_version() -> str:
    """The Kiwi release the pairs were tokenised with (another release may split a few words otherwise)."""
    from importlib.metadata import version

    return f"kiwipiepy {version('kiwipiepy')}"


def pair_files(folder: Path = PAIRS_DIR) -> list[Path]:
    return sorted(folder.glob("*.jsonl"))


def read_pairs(paths: list[Path]) -> list[dict]:
    """The pairs of the training files, less those whose question is near an evaluated one."""
    from retrievers.unseen import evaluated_questions, far_from

    rows = [json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    return far_from(rows, evaluated_questions())


def tokenised(rows: list[dict]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each pair as (the question's morphemes less its product's name, the answering part's morphemes)."""
    from retrievers.tokenizer import KiwiTokenizer

    tokens = KiwiTokenizer()  # the tokenizer the sentence ranker reads questions and sentences with
    out = []
    for r in rows:
        name = "".join(str(r.get("product", "")).split())
        question = tuple(t for t in tokens(r["question"]) if t not in name)
        out.append((question, tuple(tokens(r["item"]))))
    return out


def main(argv: list[str] | None = None) -> None:
    args = parse_out(argv, MODULE, LINKS_PATH, "Learn the everyday-word -> leaflet-word links.")
    paths = pair_files()
    if not paths:
        raise fail(MODULE, f"no training pairs in {PAIRS_DIR}")
    rows = read_pairs(paths)
    links = mine_links(tokenised(rows))
    data = {
        "note": "question morpheme -> leaflet morphemes of the sentences that answer it; fitted by "
        f"python -m {MODULE} on {len(rows)} pairs (see the module docstring)",
        "trained_on": digests(paths),
        "tokenizer": tokenizer_version(),
        "pairs": len(rows),
        "links": links,
    }
    write_model(data, args.out, MODULE)
    print(f"{len(links)} question words linked, from {len(rows)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
