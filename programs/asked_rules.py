"""The DUR rule of what a question asks about the product it names: how long (투여기간주의). 오트리빈 코스프레이
며칠까지 뿌려도 — the brand's leaflet chosen may say nothing of days, while DUR gives
xylometazoline sprays 7 days at most; retrieval, reading every product's rows alike, may have put another
ingredient's row first.

The rows come from the backend by the named products' ingredients and the asked aspect's rule type, and are kept only
when they bind one of those products (its ingredient, and any combination the row names, in a form it lists:
`programs.user_rules.binds_one_of`), so a rule for another form or mix is not read as this product's.

Example:
    >>> from retrievers.documents import Document
    >>> spray = Document("easydrug:1:atpn", "x", {"item_seq": "1", "item_name": "오트리빈0.05%비강분무액",
    ...                                           "main_ingr": "자일로메타졸린염산염"})
    >>> rule = Document("dur:ec:9", "[투여기간주의] … 7일 … 대상 제형: 일반액상분무제.",
    ...                 {"ingredient": "자일로메타졸린", "dur_code": "ec", "combination": ""})
    >>> [d.id for d in asked_rules(("duration",), [spray], lambda ingredients, codes: [rule])]
    ['dur:ec:9']
    >>> asked_rules(("side_effects",), [spray], lambda ingredients, codes: [rule])
    []
"""

from __future__ import annotations

from collections.abc import Callable

from programs.forbidden import Product
from programs.user_rules import binds_one_of
from retrievers.documents import Document

# an aspect asked of a named product -> the DUR rule type that speaks to it for the product's ingredient (who the
# medicine is for is the profile's and the population's rules, `programs/user_rules.py`); not a dose: the frame reads
# one in 반 잘라서 먹어도 too, where a daily maximum (용량주의) would push out "으깨거나 씹거나 … 그대로 삼켜서"
ASPECT_CODES = {"duration": "ec"}


def asked_rules(
    aspects, named: list[Document], dur_rules: Callable[[list[str], list[str]], list[Document]]
) -> list[Document]:
    """The DUR rows of the types the `aspects` ask that bind one of the products of the `named` leaflet documents
    (`dur_rules`: the backend's, ingredients and rule codes -> rows); [] when none is asked or none binds."""
    codes = list(dict.fromkeys(ASPECT_CODES[a] for a in aspects if a in ASPECT_CODES))
    products = list({p.item_seq: p for p in (Product.of(d) for d in named if d.id.startswith("easydrug:"))}.values())
    ingredients = list(dict.fromkeys(i for p in products for i in p.ingredients))
    if not codes or not ingredients:
        return []
    try:
        rows = dur_rules(ingredients, codes)
    except Exception:  # noqa: BLE001 - a backend without DUR rules: the answer without them
        return []
    return [r for r in rows if binds_one_of(r, products)]
