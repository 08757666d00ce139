"""Prompt turns with gold intents and gold rubric scores, for compiling and evaluating the turn evaluator.

See README.md here for how the gold labels were set.
"""

from __future__ import annotations

import json
from pathlib import Path

import dspy

TURNS_PATH = Path(__file__).with_name("turns.jsonl")
INPUTS = ("prompt", "ai_reply", "problem_title", "algorithms")


def load_turns(path: str | Path = TURNS_PATH) -> list[dspy.Example]:
    """Load labelled turns as ``dspy.Example``s whose inputs are the turn and whose labels are the gold.

    Example:
        >>> turns = load_turns()
        >>> sorted(turns[0].inputs().keys()), sorted(turns[0].labels().keys())
        (['ai_reply', 'algorithms', 'problem_title', 'prompt'], ['id', 'intents', 'lang', 'rubrics', 'score'])
    """
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [dspy.Example(**row).with_inputs(*INPUTS) for row in rows]
