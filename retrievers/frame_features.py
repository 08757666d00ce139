"""What the question asks against what the top hits are: result-level features for the retrieval evaluator
(`retrievers.relevance`), read without an LM from the question's `QuestionFrame` and the top 5.

Fused scores say how well the hits match the question's words; they do not say whether the hits are what the
question asks. A question about one aspect of a kind of medicine (감기약 먹고 운전해도 돼요?) is answered by a few
particular leaflets among the dozens of that kind, and retrieval picks some of the kind with confidence; a symptom
question asking which medicine treats it ("기침이 멈추질 않아요") is answered by any of them. A top hit that speaks
to none of the asked aspects (술, 운전, 임신 … : the frame's aspects, their sections and the aspect vocabulary of
`retrievers/aspects.py`) has more often missed. The features, each in [0, 1]:

* ``kind_asks_particular``: no medicine is named, a class or symptom is the target, and something other than what
  it is for is asked.
* ``asks_for_medicine``: no medicine is named, a class or symptom is the target, and only what it is for is asked.
* ``top_speaks`` / ``speaks_share``: the top hit, and the share of the top 5, speak to an asked aspect (its section
  answers the aspect, or it carries one of the aspect's leaflet words).
* ``target_share``: the share of the top 5 whose product is an asked target: a named product (or one made of a named
  ingredient, or a DUR row of one), or, for a class or symptom question, a product whose efficacy text carries the
  class's or symptom's expansion terms (`retrievers/lexicon.py`).
* ``two_medicines``: two medicines are named, or another medicine is taken beside the one asked about.

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.question_frame import Targets
    >>> frame = QuestionFrame("감기약 먹고 운전해도 돼요?", Targets(classes=("감기약",)), ("driving",))
    >>> doc = Document("easydrug:1:atpn", "운전을 하지 마십시오.", {"item_seq": "1", "section": "atpn"})
    >>> f = frame_features(frame, [Hit(doc, 3.0, {})], efficacy=lambda seq: "감기의 제증상(콧물, 발열)")
    >>> f["kind_asks_particular"], f["top_speaks"], f["target_share"]
    (1.0, 1.0, 1.0)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from retrievers.aspects import load_vocabulary
from retrievers.documents import Hit
from retrievers.lexicon import Lexicon
from retrievers.names import squash
from retrievers.question_frame import FRAME_VOCAB, SECTION_ASPECT, WORDS_ONLY, QuestionFrame

FRAME_FEATURES = (
    "kind_asks_particular",
    "asks_for_medicine",
    "top_speaks",
    "speaks_share",
    "target_share",
    "two_medicines",
)
# the frame features the result model is fitted on: evidence about the top hits. kind_asks_particular and
# asks_for_medicine say what kind of question it is, not how well it was retrieved; fitted, they sent every class
# question with an aspect to a rewrite that rarely found more (real-dev), so they are reported, not fitted
FITTED = ("top_speaks", "speaks_share", "target_share", "two_medicines")
# a result that carries no frame (a test's fake backend, a result built by hand): a named question whose top hits are
# the named product's and speak to what is asked, the common case of the fit sets
NEUTRAL = {
    "kind_asks_particular": 0.0,
    "asks_for_medicine": 0.0,
    "top_speaks": 1.0,
    "speaks_share": 1.0,
    "target_share": 1.0,
    "two_medicines": 0.0,
}
ASPECT_SECTIONS: dict[str, frozenset[str]] = {
    a: frozenset(s for s, sa in SECTION_ASPECT.items() if sa == a) for a in set(SECTION_ASPECT.values())
}
KIND_SUFFIXES = ("약", "제")
# the frame's aspects whose leaflet section retrieval weighs as implied when the question's words ask another: two
# medicines read as taken together (단자민 사왔는데 판콜에스 마셨어요) ask their 상호작용
FRAME_IMPLIED = ("interactions",)


def implied_by_frame(frame: QuestionFrame, sections, implied) -> list[str]:
    """The leaflet sections of the frame's `FRAME_IMPLIED` aspects that neither `sections` nor `implied` hold.

    >>> implied_by_frame(QuestionFrame("x", aspects=("timing_food", "interactions")), ["useMethod"], [])
    ['intrc']
    """
    out = [s for a in frame.aspects if a in FRAME_IMPLIED for s in sorted(ASPECT_SECTIONS.get(a, ()))]
    return [s for s in dict.fromkeys(out) if not s.startswith("dur:") and s not in sections and s not in implied]


def section_of(hit: Hit) -> str:
    """A leaflet hit's section code, a DUR hit's ``dur:<code>``.

    >>> from retrievers.documents import Document
    >>> section_of(Hit(Document("dur:cc:1", "x", {"dur_code": "cc"}), 1.0, {}))
    'dur:cc'
    """
    meta = hit.doc.metadata
    return f"dur:{meta.get('dur_code', '')}" if hit.doc.source == "dur" else meta.get("section", "")


def speaks(frame: QuestionFrame, hit: Hit) -> float:
    """1.0 when the hit's section answers an asked aspect, else the best aspect-vocabulary match of its text (1.0 a
    seed word, 0.5 a mined one, 0.0 none)."""
    section = section_of(hit)
    if any(section in ASPECT_SECTIONS.get(a, ()) for a in frame.aspects):
        return 1.0
    vocab = load_vocabulary()
    wanted = [v for a in frame.aspects for v in FRAME_VOCAB.get(a, ()) if v in vocab.seeds and v not in WORDS_ONLY]
    return max((vocab.match(v, hit.doc.text) for v in dict.fromkeys(wanted)), default=0.0)


def kind_terms(frame: QuestionFrame, lexicon: Lexicon) -> set[str]:
    """What a class or symptom target's leaflets say: its rules' added terms and the word without 약/제.

    >>> from retrievers.question_frame import Targets
    >>> "변비" in kind_terms(QuestionFrame("변비약 우유랑", Targets(classes=("변비약",))), Lexicon.load())
    True
    """
    return set(_kind_terms((*frame.targets.classes, *frame.targets.symptoms), lexicon))


@functools.lru_cache(maxsize=1024)
def _kind_terms(words: tuple[str, ...], lexicon: Lexicon) -> frozenset[str]:
    terms: set[str] = set()
    for word in words:
        terms.update(lexicon.expand(word))
        terms.update(lexicon.heads(word))
        stem = word[:-1] if word.endswith(KIND_SUFFIXES) and len(word) > 2 else word
        if len(stem) >= 2:
            terms.add(stem)
    return frozenset(t for t in terms if len(squash(t)) >= 2)


def frame_features(
    frame: QuestionFrame | None,
    hits: list[Hit],
    named: bool | None = None,
    named_products: Iterable[str] = (),
    named_ingredients: Iterable[str] = (),
    efficacy: Callable[[str], str] | None = None,
    lexicon: Lexicon | None = None,
    canonical: Callable[[str], str] | None = None,
) -> dict[str, float]:
    """The `FRAME_FEATURES` of ranked `hits` for `frame` (`NEUTRAL` without a frame or hits).

    Args:
        named: whether retrieval recognised a medicine's name (default: the frame names a product or ingredient).
        named_products: item_seqs of the named products (and their brand siblings).
        named_ingredients: canonical keys of the named ingredients.
        efficacy: item_seq -> its efficacy text ("" when unknown), for a class or symptom question.
        canonical: an ingredient as a leaflet or DUR row writes it -> its canonical key (default: as written).
    """
    if frame is None or not hits:
        return dict(NEUTRAL)
    top5 = hits[:5]
    t = frame.targets
    named = bool(t.products or t.ingredients) if named is None else named
    kind = not named and bool(t.classes or t.symptoms)
    particular = any(a != "efficacy" for a in frame.aspects)
    said = [speaks(frame, h) for h in top5]
    in_target = _in_target(
        top5,
        named,
        set(named_products),
        set(named_ingredients),
        kind_terms(frame, lexicon or Lexicon.load()),
        efficacy,
        canonical or (lambda s: s),
    )
    two = len(t.products) + len(t.ingredients) >= 2 or bool(frame.other_drugs)
    return {
        "kind_asks_particular": float(kind and particular),
        "asks_for_medicine": float(kind and not particular),
        "top_speaks": said[0],
        "speaks_share": round(sum(said) / len(said), 4),
        "target_share": round(sum(in_target) / len(in_target), 4),
        "two_medicines": float(two),
    }


def _in_target(hits, named, products, ingredients, terms, efficacy, canonical) -> list[float]:
    """Per hit, whether its product is an asked target (1.0 / 0.0); all 1.0 when nothing could be checked."""
    out = []
    for h in hits:
        meta = h.doc.metadata
        if named:
            hit_ingredients = document_ingredients(h.doc, canonical)
            out.append(float(meta.get("item_seq") in products or bool(hit_ingredients & ingredients)))
        elif terms and efficacy is not None and h.doc.source != "dur":
            text = squash(efficacy(meta.get("item_seq", "")) or h.doc.text)
            out.append(float(any(squash(term) in text for term in terms)))
        else:
            out.append(1.0)
    return out


def document_ingredients(doc, canonical: Callable[[str], str]) -> set[str]:
    """The canonical keys of what a document is about: a leaflet's main ingredients, a DUR row's ingredient and
    partner."""
    meta = doc.metadata
    if doc.source == "dur":
        parts = (meta.get("ingredient") or "", meta.get("partner") or "")
    else:
        parts = tuple((meta.get("main_ingr") or "").split(","))
    return {canonical(p.strip()) for p in parts if p.strip()} - {""}
