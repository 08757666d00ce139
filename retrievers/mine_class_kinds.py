"""Mine the words leaflets use for the kind of medicine each symptom's medicines are.

Run as `python -m retrievers.mine_class_kinds` (after `yaksa index`).

A leaflet warns against "다른 해열진통제, 감기약과 함께 복용하지 마십시오": another medicine of its own kind, said as
the kind. Someone asking "감기약 먹었는데 두통약 또 먹어도 돼요" names the kind by its symptom (두통약), a word no
warning uses. For each symptom of the expansion rules (their head word: 두통, 멀미, 불면 …), the products whose
효능 names it are read, and each "다른 X제/X약" their 상호작용 and 주의사항 sections say is counted once per product; a
kind said by at least `MIN_SHARE` of them (and at least `MIN_PRODUCTS` products) is the symptom's kind word, the
most often said first: 두통 → 해열진통제, 멀미 → 진토제, 불면 → 최면진정제. Written to `data/class_kinds.json`; no
word is listed by hand.

Example:
    >>> products = [("두통, 발열에 사용", "다른 해열진통제, 다른 감기약과 함께 복용하지 마십시오")] * 3
    >>> products += [("두통에 사용", "다른 해열진통제와 함께 복용하지 마십시오"), ("위염에 사용", "다른 위장약과")]
    >>> mine_class_kinds(["두통", "위염"], products, min_products=2)
    {'두통': ['해열진통제', '감기약']}
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

DATA = Path(__file__).parent / "data"
CLASS_KINDS_PATH = DATA / "class_kinds.json"
MIN_PRODUCTS = 10  # a symptom needs this many products to say which kind its medicines are
MIN_SHARE = 0.4  # a kind said by at least this share of them
MAX_KINDS = 3
WARNING_SECTIONS = ("intrc", "atpn", "atpnWarn")
# 다른 해열진통제, 다른 해열진통제·감기약: a kind of three letters or more ending in 제 or 약 (다른 약 is none)
_OTHER_KIND = re.compile(r"다른\s*([가-힣·ㆍ]{2,16}?(?:제|약))(?=[,\s와과및이을를등)]|$)")
_JOINED = re.compile(r"[·ㆍ]")


def kinds_said(text: str) -> set[str]:
    """The kinds of medicine a warning says "다른 …" of.

    >>> sorted(kinds_said("다른 해열진통제·감기약, 진정약과 함께 복용하지 마십시오. 다른 약과"))
    ['감기약', '해열진통제']
    """
    out: set[str] = set()
    for match in _OTHER_KIND.finditer(text):
        out.update(k for k in _JOINED.split(match.group(1)) if len(k) >= 3 and k.endswith(("제", "약")))
    return out


def mine_class_kinds(
    heads: list[str],
    products: list[tuple[str, str]],
    min_products: int = MIN_PRODUCTS,
    min_share: float = MIN_SHARE,
) -> dict[str, list[str]]:
    """Per symptom head, the kinds enough of the products treating it say (see the module docstring); `products`:
    (효능 text, warnings text) per product."""
    said = [(efcy, kinds_said(warnings)) for efcy, warnings in products]
    out: dict[str, list[str]] = {}
    for head in sorted(set(heads)):
        treating = [kinds for efcy, kinds in said if head in efcy]
        if len(treating) < min_products:
            continue
        count = Counter(k for kinds in treating for k in kinds)
        kept = sorted((k for k, n in count.items() if n / len(treating) >= min_share), key=lambda k: (-count[k], k))
        if kept:
            out[head] = kept[:MAX_KINDS]
    return out


def products_of(docs) -> list[tuple[str, str]]:
    """(효능 body, warnings bodies joined) per product of the leaflet documents, in item order."""
    efcy: dict[str, str] = {}
    warnings: dict[str, list[str]] = {}
    for d in docs:
        seq, section = d.metadata.get("item_seq"), d.metadata.get("section")
        if not seq or d.source == "dur":
            continue
        body = d.text.partition("\n")[2]
        if section == "efcy":
            efcy[seq] = body
        elif section in WARNING_SECTIONS:
            warnings.setdefault(seq, []).append(body)
    return [(efcy[seq], " ".join(warnings.get(seq, []))) for seq in sorted(efcy)]


def rule_heads() -> list[str]:
    """The expansion rules' head words (each rule's own symptom: 두통, 멀미 …)."""
    from retrievers.lexicon import Lexicon

    return [adds[0] for _, adds in Lexicon.load().expansion_rules if adds]


def main(argv: list[str] | None = None) -> None:
    from retrievers.index_store import IndexCorrupt, IndexPaths, default_index_dir, read_docs

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index-dir", default=None, help="the index whose documents are mined (default: yaksa's)")
    args = parser.parse_args(argv)
    try:
        docs = read_docs(IndexPaths(Path(args.index_dir) if args.index_dir else default_index_dir()))
    except (IndexCorrupt, OSError) as exc:  # no index there, or a damaged one: say so, write nothing
        parser.error(str(exc))
    products = products_of(docs)
    kinds = mine_class_kinds(rule_heads(), products)
    out = {"version": 1, "products": len(products), "min_share": MIN_SHARE, "kinds": kinds}
    CLASS_KINDS_PATH.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(kinds)} symptoms with a kind word from {len(products)} products -> {CLASS_KINDS_PATH}")


if __name__ == "__main__":
    main()
