"""The questions the project is measured on, and keeping training questions away from them.

Training questions for the learned models (`retrievers.scope_model`, `retrievers.aspect_model`) are written for the
project; a question people often ask can still come out alike by chance. Fitting leaves out any training question
within `NEAR` (difflib's ratio) of an evaluated one, so the measured sets stay unseen.

Example:
    >>> far_from([{"question": "지르텍 아침에 먹어요?"}, {"question": "파스 샤워"}], ["지르텍은 아침에 먹어요?"])
    [{'question': '파스 샤워'}]
"""

from __future__ import annotations

import functools
import json
from difflib import SequenceMatcher
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVALUATION_SETS = (
    "trainsets/real_questions/dev.jsonl",
    "trainsets/real_questions/test.jsonl",
    "trainsets/retrieval/dev.jsonl",
    "trainsets/retrieval/test.jsonl",
    "trainsets/qa/dev.jsonl",
    "trainsets/scope/probe.jsonl",
    "trainsets/scope/off_topic.jsonl",
)
NEAR = 0.8  # a training question this similar to an evaluated one (difflib ratio) is left out of fitting


def evaluated_questions(root: Path = ROOT) -> list[str]:
    """Every question of the evaluation sets there are under `root`."""
    out: list[str] = []
    for path in EVALUATION_SETS:
        if (root / path).exists():
            lines = (root / path).read_text(encoding="utf-8").splitlines()
            out += [json.loads(line)["question"] for line in lines if line.strip()]
    return out


def near(question: str, evaluated: list[str], ratio: float = NEAR) -> bool:
    """Whether `question` is within `ratio` of one of the `evaluated` questions (difflib's ratio, the evaluated one
    as the second sequence). Each evaluated question's matcher is built once and kept: indexing the second sequence
    is what a `SequenceMatcher` costs, and a fit checks thousands of training questions against the same ones."""
    for other, matcher in _matchers(tuple(evaluated)):
        total = len(question) + len(other)
        if total and 2 * min(len(question), len(other)) / total <= ratio:
            continue  # real_quick_ratio's bound, without setting the matcher up
        matcher.set_seq1(question)
        if matcher.real_quick_ratio() > ratio and matcher.quick_ratio() > ratio and matcher.ratio() > ratio:
            return True
    return False


@functools.lru_cache(maxsize=4)
def _matchers(evaluated: tuple[str, ...]) -> tuple[tuple[str, SequenceMatcher], ...]:
    """One matcher per evaluated question, indexed as the second sequence."""
    out = []
    for other in evaluated:
        matcher = SequenceMatcher(None)
        matcher.set_seq2(other)
        out.append((other, matcher))
    return tuple(out)


def far_from(rows: list[dict], evaluated: list[str], ratio: float = NEAR) -> list[dict]:
    """`rows` less those whose ``question`` is `near` an evaluated question."""
    return [r for r in rows if not near(r["question"], evaluated, ratio)]
