"""Questions about an ingredient many products share: say so, and name the representative products cited.

"폴리크레줄렌 바르면 따가워요?" is answered by the same section of several products made of that ingredient. The
answer should say that many products contain it, name the products quoted (those retrieval ranked first, which are
the ones whose section most of them share), and tell the user to check their own product's leaflet.

Example:
    >>> from retrievers.documents import Document
    >>> docs = [Document(f"easydrug:{n}:se", "...", {"item_name": name, "main_ingr": "폴리크레줄렌액50%"})
    ...         for n, name in [(1, "알보큐액"), (2, "폴리덤액")]]
    >>> shared = shared_ingredient("폴리크레줄렌 바르면 따가워요", docs)
    >>> shared.ingredient, shared.products
    ('폴리크레줄렌', ['알보큐액', '폴리덤액'])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from programs.citations import cite
from retrievers.corpus import clean_product_name
from retrievers.documents import Document
from retrievers.names import ingredient_key, ingredient_keys, product_keys, spelling_variants, squash

MIN_PRODUCTS = 2  # distinct products among the documents quoted that must share the named ingredient
MAX_NAMED = 3  # representative products named in the note


@dataclass
class SharedIngredient:
    """An ingredient the question names and several of the documents' products contain."""

    ingredient: str
    products: list[str] = field(default_factory=list)  # representative products, in retrieval order
    sources: list[int] = field(default_factory=list)  # 1-based document positions of those products


def shared_ingredient(question: str, docs: list[Document]) -> SharedIngredient | None:
    """The ingredient the question names that at least `MIN_PRODUCTS` of the documents' products contain, when the
    question names none of those products (a product question is about that product, not its ingredient)."""
    q = squash(question)
    found: dict[str, SharedIngredient] = {}
    for n, doc in enumerate(docs, 1):
        meta = doc.metadata
        if doc.source != "easydrug" or not meta.get("item_name"):
            continue
        product = clean_product_name(meta["item_name"].split("\n")[0])
        if any(len(k) >= 3 and k in q for k in product_keys(meta["item_name"], meta.get("entp_name", ""))):
            return None
        for ingr in (meta.get("main_ingr") or "").split(","):
            keys = ingredient_keys(ingr) if ingr.strip() else set()
            if not keys or not any(k in q for k in keys | spelling_variants(keys)):
                continue
            shared = found.setdefault(ingredient_key(ingr), SharedIngredient(ingredient_key(ingr)))
            if product not in shared.products:
                shared.products.append(product)
                shared.sources.append(n)
    best = max(found.values(), key=lambda s: len(s.products), default=None)
    return best if best and len(best.products) >= MIN_PRODUCTS else None


def shared_note(shared: SharedIngredient, cited: set[int] | None = None) -> str:
    """One line for the answer: many products contain the ingredient; the representative ones, cited (only those
    among the `cited` document positions when given, so the note cites nothing the answer does not quote)."""
    pairs = [(p, n) for p, n in zip(shared.products, shared.sources, strict=True) if cited is None or n in cited]
    pairs = pairs or list(zip(shared.products, shared.sources, strict=True))[:1]
    named = ", ".join(f"{p} {cite([n])}" for p, n in pairs[:MAX_NAMED])
    more = " 등" if len(shared.products) > len(pairs[:MAX_NAMED]) else ""
    return (
        f"{shared.ingredient} 성분은 여러 제품에 들어 있습니다(대표 제품: {named}{more}). "
        "제품마다 함량과 제형이 달라 내용이 다를 수 있으니 드시는 제품의 설명서를 확인하세요."
    )
