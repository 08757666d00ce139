"""The intent router (the seed's intent_router): which evaluations a turn's intents call for. A pure function."""

from __future__ import annotations

from collections.abc import Iterable

from programs.turn.intents import INTENTS, IntentSpec

FALLBACK_INTENT = "HINT_OR_QUERY"


def normalize_intent(name: str) -> str:
    """Spell an intent name the canonical way: " follow-up " -> "FOLLOW_UP"."""
    return "_".join(name.strip().upper().replace("-", " ").split())


def route_intents(intents: Iterable[str]) -> list[IntentSpec]:
    """Choose one evaluation per intent, in the order given, each intent once.

    Unknown names are dropped; when none is left the turn is evaluated as HINT_OR_QUERY, the general request.

    Args:
        intents: Intent names, from ``AnalyzeIntent`` or the keyword rules.

    Returns:
        The ``IntentSpec`` (evaluation node, eval type, Rules criterion) of each evaluation to run.

    Example:
        >>> [spec.node for spec in route_intents(["GENERATION", "optimization", "GENERATION"])]
        ['eval_generation', 'eval_optimization']
    """
    names = list(dict.fromkeys(normalize_intent(name) for name in intents))
    specs = [INTENTS[name] for name in names if name in INTENTS]
    return specs or [INTENTS[FALLBACK_INTENT]]
