"""Mine the aspect vocabulary and the sentence IDF from the leaflets: `python -m retrievers.mine_aspects`.

For each aspect of `data/aspect_seeds.json` (food, driving, crushing …) the sentences of the e약은요 leaflets that
carry one of its seed morphemes are counted against all sentences; a morpheme that appears in at least `MIN_COUNT`
of them, with PMI ≥ `MIN_PMI` and with at least `MIN_SHARE` of its own sentences among them, is a word of that
aspect (식후 → 식사, 30분; 운전 → 졸음, 기계조작). The document frequency of every morpheme over leaflet sentences
gives the IDF the sentence ranker weights question words with. Both go to `data/aspect_words.json`.

Example:
    >>> sentences = [["식후", "복용"], ["식후", "우유"], ["공복", "우유"]] + [["두통", "사용"]] * 11
    >>> mine({"food": {"seeds": ["식후", "공복"]}}, sentences, min_count=2)["food"]
    {'우유': 1.54}
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections import Counter
from pathlib import Path

DATA = Path(__file__).parent / "data"
SEEDS_PATH = DATA / "aspect_seeds.json"
WORDS_PATH = DATA / "aspect_words.json"
MIN_COUNT = 5  # a mined word appears in at least this many aspect sentences
MIN_PMI = math.log(4)  # and is at least 4 times likelier in them than in any sentence
MIN_SHARE = 0.3  # and at least this share of its own sentences carry a seed
MAX_WORDS = 12  # mined words kept per aspect, the most frequent first
MAX_TOKENS = 20  # longer sentences (lists of conditions and drugs) are left out of the mining: they go with anything
MIN_DF = 1  # every morpheme a leaflet sentence uses (a rare one, 냄새 in one product's 주의사항, is the most telling)
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|\n+")


def leaflet_sentences(docs) -> list[str]:
    """The sentences of every leaflet section (the header line of product and ingredients dropped); DUR rows skipped."""
    out = []
    for d in docs:
        if d.source != "easydrug":
            continue
        body = d.text.partition("\n")[2]
        body = re.sub(r"^\[[^\]]*\]\s*", "", body)  # the section label
        out += [s.strip() for s in _SENTENCE_END.split(body) if len(s.strip()) > 3]
    return list(dict.fromkeys(out))


def mine(aspects: dict, sentences: list[list[str]], min_count: int = MIN_COUNT) -> dict[str, dict[str, float]]:
    """Per aspect, the morphemes (two or more characters, not numbers) that go with its seeds (word → PMI, rounded),
    the most frequent first."""
    sentences = [s for s in sentences if len(s) <= MAX_TOKENS]
    n = len(sentences)
    df = Counter(w for s in sentences for w in set(s))
    out = {}
    for name, spec in aspects.items():
        seeds = set(spec["seeds"])
        inside = [set(s) for s in sentences if seeds & set(s)]
        together = Counter(w for s in inside for w in s if w not in seeds and len(w) > 1 and not w[0].isdigit())
        scored = {}
        for w, c in together.items():
            if c < min_count or c / df[w] < MIN_SHARE:
                continue
            pmi = math.log((c / len(inside)) / (df[w] / n))
            if pmi >= MIN_PMI:
                scored[w] = (round(pmi, 2), c)
        best = sorted(scored.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))[:MAX_WORDS]  # ties by word
        out[name] = {w: pmi for w, (pmi, _) in best}
    return out


def idf_table(sentences: list[list[str]], min_df: int = MIN_DF) -> tuple[dict[str, float], float]:
    """IDF over sentences (log(N / df)) of morphemes in `min_df` or more of them, and the IDF of an unseen one."""
    n = len(sentences)
    df = Counter(w for s in sentences for w in set(s))
    return {w: round(math.log(n / c), 2) for w, c in sorted(df.items()) if c >= min_df}, round(math.log(n / 1), 2)


def main(argv: list[str] | None = None) -> None:
    from retrievers.index_store import IndexPaths, default_index_dir, read_docs
    from retrievers.tokenizer import KiwiTokenizer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", default=None, help="the index whose documents are mined (default: yaksa's)")
    args = parser.parse_args(argv)
    docs = read_docs(IndexPaths(Path(args.index_dir) if args.index_dir else default_index_dir()))
    texts = leaflet_sentences(docs)
    tokenizer = KiwiTokenizer()
    sentences = list(tokenizer.batch(texts))
    seeds = json.loads(SEEDS_PATH.read_text(encoding="utf-8"))["aspects"]
    idf, unseen = idf_table(sentences)
    aspects = mine(seeds, sentences)
    out = {"version": 1, "sentences": len(sentences), "aspects": aspects, "idf_unseen": unseen, "idf": idf}
    WORDS_PATH.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    for name, words in out["aspects"].items():
        print(name, ", ".join(words))


if __name__ == "__main__":
    main()
