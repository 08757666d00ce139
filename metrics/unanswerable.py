"""What an answer did with a question the corpus cannot answer: declined it, said the documents do not cover it, or
quoted a product the question is not about.

Three flags per answer (they can combine):

- **declined**: blocked as out of scope, or the answer cites no document (no ``[문서 N]`` citation marked cited).
- **said_not_covered**: the answer, notice lines included, says something was not found or the documents do not say
  it (`NOT_COVERED`: the program's no-document answer and unknown-name notice say 찾지 못…, its 정보 부족 notice,
  an LM's "… 내용이 없습니다"). None of these words occurs in the corpus, so a quoted sentence never sets it.
  The low-relevance hedge ("불완전할 수 있습니다") does not count.
- **quoted_unrelated**: the answer cites a document that is neither a gold document nor about a named target. A
  document is about a target when its head (a leaflet's product name and ingredients; a DUR rule's sentence, which
  names its ingredients) contains, spacing aside, a product the question names (the part before a bracket), an
  ingredient, or another drug it mentions. A question naming only a class or a symptom: when it is
  ``not_in_leaflets`` the class is in the corpus and its leaflets cannot be told from others by name, so nothing
  counts as unrelated; otherwise (``not_in_corpus``, or a row without the label) no document is about it and every
  cited document that is not gold counts.

Example:
    >>> ex = {"targets": {"products": [], "ingredients": ["루테인"]}, "unanswerable_kind": "not_in_corpus", "gold": []}
    >>> pred = {"answer": "… [문서 1]", "citations": [{"id": "easydrug:1:efcy", "product": "판콜에이내복액",
    ...     "cited": True}]}
    >>> outcome(ex, pred)
    {'declined': False, 'said_not_covered': False, 'quoted_unrelated': True}
"""

from __future__ import annotations

from metrics.gold_phrases import normalise

NOT_COVERED = ("찾지못", "내용이없", "나와있지않", "정보부족", "언급되어있지않", "정보가없")


def target_names(example: dict) -> list[str]:
    """The names a document must mention to be about the question: products (before a bracket), ingredients, other
    drugs, spacing removed.

    >>> target_names({"targets": {"products": ["후시딘연고(퓨시드산나트륨)"], "ingredients": ["아토르바스타틴"]},
    ...     "other_drugs": ["와파린"]})
    ['후시딘연고', '아토르바스타틴', '와파린']
    """
    targets = example.get("targets") or {}
    products = [p.split("(")[0] for p in targets.get("products") or []]
    names = [*products, *(targets.get("ingredients") or []), *(example.get("other_drugs") or [])]
    return [n for n in map(normalise, names) if n]


def about_target(head: str, names: list[str]) -> bool:
    """Whether a document head names one of `names` (spacing aside)."""
    flat = normalise(head)
    return any(n in flat for n in names)


def outcome(example: dict, pred: dict, doc_text=None) -> dict:
    """The three flags for one answer; `doc_text` (id -> text) gives document heads, else a citation's product."""
    cited = [c for c in pred.get("citations") or [] if c.get("cited")]
    gold = set(example.get("gold") or [])
    names = target_names(example)
    unknowable = not names and example.get("unanswerable_kind") == "not_in_leaflets"

    def head(c: dict) -> str:
        first_line = (doc_text(c["id"]) if doc_text else "").partition("\n")[0]
        return f"{c.get('product', '')} {first_line}"

    unrelated = [c for c in cited if c["id"] not in gold and not unknowable and not about_target(head(c), names)]
    flat = normalise(pred.get("answer", ""))
    return {
        "declined": bool(pred.get("out_of_scope")) or not cited,
        "said_not_covered": any(m in flat for m in NOT_COVERED),
        "quoted_unrelated": bool(unrelated),
    }
