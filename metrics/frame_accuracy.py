"""Per-field accuracy of question understanding (`QuestionFrame`) against the real-question labels.

Fields, each right or wrong per question:
* ``aspects``: the frame's first aspect is one the label lists, and every labelled aspect is among the frame's
  (``aspects_primary`` and ``aspects_recall`` report the two halves, ``aspects_exact`` the sets being equal);
* ``population``: the group, exactly (None when the question names nobody);
* ``products``: as many products as labelled, each labelled product containing a recognised name or the reverse;
* ``classes``: every labelled class found (a found class inside the labelled one or the reverse) and none extra;
* ``other_drugs``: both empty or both not; ``comparison``: the same truth value.

Example:
    >>> from retrievers.population import Population
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> row = {"aspects": ["driving"], "population": {"group": None}, "other_drugs": [], "comparison": False,
    ...        "targets": {"products": [], "classes": ["감기약"]}}
    >>> frame = QuestionFrame("감기약 먹고 운전", Targets(classes=("감기약",)), ("driving",), Population())
    >>> field_right(row, frame)["aspects"], field_right(row, frame)["classes"]
    (True, True)
"""

from __future__ import annotations

from retrievers.names import squash

FIELDS = ("aspects", "population", "products", "classes", "other_drugs", "comparison")


def _close(a: str, b: str) -> bool:
    a, b = squash(a), squash(b)
    return bool(a and b) and (a in b or b in a)


def field_right(row: dict, frame) -> dict[str, bool]:
    """Right or wrong per field (and the aspect halves) for one labelled row."""
    labelled = list(row["aspects"])
    got = list(frame.aspects)
    primary = bool(got) and got[0] in labelled
    recall = all(a in got for a in labelled)
    want_products = row["targets"].get("products", [])
    got_products = list(frame.targets.products)
    products = len(want_products) == len(got_products) and all(
        any(_close(w, g) for g in got_products) for w in want_products
    )
    want_classes = row["targets"].get("classes", [])
    got_classes = list(frame.targets.classes)
    classes = all(any(_close(w, g) for g in got_classes) for w in want_classes) and all(
        any(_close(w, g) for w in want_classes) for g in got_classes
    )
    return {
        "aspects": primary and recall,
        "aspects_primary": primary,
        "aspects_recall": recall,
        "aspects_exact": set(got) == set(labelled),
        "population": frame.population.group == row["population"].get("group"),
        "products": products,
        "classes": classes,
        "other_drugs": bool(frame.other_drugs) == bool(row["other_drugs"]),
        "comparison": bool(frame.comparison) == bool(row["comparison"]),
    }


def frame_accuracy(rows: list[dict], frames: list) -> dict[str, float]:
    """The share of rows right per field (rounded to 4 places), with ``n``."""
    if not rows:
        return {"n": 0}
    marks = [field_right(r, f) for r, f in zip(rows, frames, strict=True)]
    out = {"n": len(rows)}
    for key in marks[0]:
        out[key] = round(sum(m[key] for m in marks) / len(marks), 4)
    return out
