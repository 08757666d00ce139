"""The turn evaluator's metric: how well it named a turn's intents (F1) and how close its score came to the gold."""

from __future__ import annotations

from collections.abc import Iterable

from programs.turn.router import normalize_intent

SCORE_TOLERANCE = 25.0  # a miss of a whole score band (about 20-25 points) earns nothing
BOOTSTRAP_SCORE_GAP = 10.0


def intent_f1(gold: Iterable[str], predicted: Iterable[str]) -> float:
    """F1 of the predicted intent set against the gold set.

    Example:
        >>> intent_f1(["GENERATION", "OPTIMIZATION"], ["generation"])
        0.6666666666666666
    """
    gold_set = {normalize_intent(name) for name in gold}
    predicted_set = {normalize_intent(name) for name in predicted or ()}
    if not gold_set and not predicted_set:
        return 1.0
    hits = len(gold_set & predicted_set)
    if not hits:
        return 0.0
    precision, recall = hits / len(predicted_set), hits / len(gold_set)
    return 2 * precision * recall / (precision + recall)


def score_agreement(gold: float, predicted: float | None, tolerance: float = SCORE_TOLERANCE) -> float:
    """1.0 for the gold score, falling linearly to 0.0 at ``tolerance`` points away; 0.0 for no score.

    Example:
        >>> score_agreement(70, 77.5)
        0.7
    """
    if predicted is None:
        return 0.0
    return max(0.0, 1.0 - abs(float(gold) - float(predicted)) / tolerance)


def turn_metric(example, prediction, trace=None) -> float | bool:
    """Half intent F1, half score agreement; while bootstrapping demos, a pass/fail on both.

    Args:
        example: A labelled turn with gold ``intents`` and ``score``.
        prediction: The turn evaluator's output, with ``intents`` and ``score``.
        trace: Set by DSPy optimizers when bootstrapping; then a demo passes only with every intent right and the
            score within ``BOOTSTRAP_SCORE_GAP`` points.

    Returns:
        A score in [0, 1], or a bool while bootstrapping.

    Example:
        >>> import dspy
        >>> gold = dspy.Example(intents=["GENERATION", "OPTIMIZATION"], score=70.0)
        >>> turn_metric(gold, dspy.Prediction(intents=["GENERATION", "OPTIMIZATION"], score=77.5))
        0.85
    """
    f1 = intent_f1(example.intents, prediction.intents)
    agreement = score_agreement(example.score, prediction.score)
    if trace is not None:
        close = prediction.score is not None and abs(example.score - prediction.score) <= BOOTSTRAP_SCORE_GAP
        return f1 == 1.0 and close
    return 0.5 * f1 + 0.5 * agreement
