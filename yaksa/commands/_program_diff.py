"""``yaksa compare A B --diff``: what changed between two compiled programs, per predictor: the instructions as a
unified diff and the demos added, removed or changed (`diff_states` is pure; `resolve` reads a state).

A and B are JSON state paths, compile run ids, ``runs:/<id>/program`` or ``models:/yaksa-crag/3`` /
``models:/yaksa-crag@champion``; only the JSON state is read (nothing is unpickled).

Example:
    >>> a = {"p": {"signature": {"instructions": "Answer."}, "demos": []}}
    >>> b = {"p": {"signature": {"instructions": "Answer briefly."}, "demos": [{"question": "q", "answer": "a"}]}}
    >>> print(diff_states(a, b, "A", "B"))  # doctest: +NORMALIZE_WHITESPACE
    == p
    instructions:
    --- A
    +++ B
    @@ -1 +1 @@
    -Answer.
    +Answer briefly.
    demos: 1 added, 0 removed, 0 changed (0 -> 1)
      + q
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

from yaksa.errors import UserError

RUN_ID = re.compile(r"^[0-9a-f]{32}$")
HEADER_KEYS = ("program", "profile", "optimizer", "metric", "dev_score", "dataset_hash", "seed")
DEMO_KEYS = ("question", "prompt")  # the input that names a demo


def to_uri(ref: str) -> str:
    """A run id becomes the run's state artifact (``runs:/<id>/program``); anything else is kept.

    Example:
        >>> to_uri("0" * 32)
        'runs:/00000000000000000000000000000000/program'
    """
    return f"runs:/{ref}/program" if RUN_ID.match(ref) and not Path(ref).exists() else ref


def resolve(ref: str) -> dict:
    """The JSON state `ref` names; a one-line `UserError` when it is not a compiled program."""
    from programs.loading import StateError, fetch_state

    try:
        return fetch_state(to_uri(ref))
    except StateError as e:
        raise UserError(f"{ref} is not a compiled yaksa program: {e}") from None
    except Exception as e:  # an MLflow lookup of an unknown model / alias / run
        raise UserError(f"{ref} is not a compiled yaksa program: {type(e).__name__}: {str(e)[:200]}") from None


def predictors(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "yaksa" and isinstance(v, dict)}


def instructions(entry: dict) -> str:
    signature = entry.get("signature") if isinstance(entry.get("signature"), dict) else {}
    return str(signature.get("instructions") or "")


def demo_key(demo: dict) -> str:
    """The input a demo answers (its question), else the demo itself as JSON."""
    for key in DEMO_KEYS:
        if isinstance(demo, dict) and demo.get(key):
            return str(demo[key])
    return json.dumps(demo, ensure_ascii=False, sort_keys=True, default=str)


def diff_demos(a: list, b: list) -> dict:
    """{"added", "removed", "changed"}: the keys of the demos only in b, only in a, and in both with other content."""
    before = {demo_key(d): d for d in a or []}
    after = {demo_key(d): d for d in b or []}
    return {
        "added": [k for k in after if k not in before],
        "removed": [k for k in before if k not in after],
        "changed": [k for k in after if k in before and _canon(after[k]) != _canon(before[k])],
    }


def _canon(demo) -> str:
    if isinstance(demo, dict):
        demo = {k: v for k, v in demo.items() if k != "augmented"}
    return json.dumps(demo, ensure_ascii=False, sort_keys=True, default=str)


def diff_states(a: dict, b: dict, name_a: str = "A", name_b: str = "B") -> str:
    """The changes from state `a` to state `b`: header fields, then per predictor the instructions (unified diff)
    and the demos; ``no differences`` when they are the same."""
    out = []
    ha, hb = a.get("yaksa") or {}, b.get("yaksa") or {}
    for key in HEADER_KEYS:
        if ha.get(key) != hb.get(key):
            out.append(f"{key}: {ha.get(key)} -> {hb.get(key)}")
    pa, pb = predictors(a), predictors(b)
    for name in list(pa) + [n for n in pb if n not in pa]:
        lines = _predictor_diff(pa.get(name), pb.get(name), name_a, name_b)
        if lines:
            out += [f"== {name}", *lines]
    return "\n".join(out) if out else "no differences"


def _predictor_diff(a: dict | None, b: dict | None, name_a: str, name_b: str) -> list[str]:
    if a is None or b is None:
        return [f"only in {name_b if a is None else name_a}"]
    lines = []
    ia, ib = instructions(a), instructions(b)
    if ia != ib:
        diff = difflib.unified_diff(ia.splitlines(), ib.splitlines(), name_a, name_b, lineterm="")
        lines += ["instructions:", *diff]
    da, db = a.get("demos") or [], b.get("demos") or []
    changes = diff_demos(da, db)
    if any(changes.values()):
        counts = ", ".join(f"{len(v)} {k}" for k, v in changes.items())
        lines.append(f"demos: {counts} ({len(da)} -> {len(db)})")
        for mark, key in (("+", "added"), ("-", "removed"), ("~", "changed")):
            lines += [f"  {mark} {_short(k)}" for k in changes[key]]
    return lines


def _short(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
