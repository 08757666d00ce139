"""The turn log: every intent's evaluation of one prompt turn, and their aggregate (the seed's aggregate_turn_log)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class RubricResult:
    """One rubric's score (0-100) and why."""

    score: float
    reason: str


@dataclass(frozen=True)
class IntentEvaluation:
    """One intent's evaluation of the turn; ``status`` is "ok", or "failed" with ``error`` saying why."""

    intent: str
    node: str
    eval_type: str
    criterion: str
    status: str
    scored_by: str
    score: float | None = None
    rubrics: dict[str, RubricResult] = field(default_factory=dict)
    final_reasoning: str = ""
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class TurnLog:
    """A judged turn: its intents, metrics, per-intent evaluations and the turn score (their mean)."""

    prompt: str
    intents: list[str]
    intent_source: str
    lm: str | None
    metrics: dict[str, int | bool]
    evaluations: list[IntentEvaluation]
    turn_score: float | None
    notes: list[str]

    def to_dict(self) -> dict:
        return asdict(self)


def aggregate_turn_log(
    prompt: str,
    intents: list[str],
    evaluations: list[IntentEvaluation],
    metrics: dict[str, int | bool],
    intent_source: str,
    lm: str | None = None,
    notes: list[str] | None = None,
) -> TurnLog:
    """Collect the evaluations of a turn; the turn score is the mean over the evaluations that succeeded.

    Example:
        >>> ok = lambda i, s: IntentEvaluation(i, "", "", "", "ok", "lm", score=s)
        >>> aggregate_turn_log("p", ["GENERATION", "OPTIMIZATION"], [ok("GENERATION", 85), ok("OPTIMIZATION", 70)],
        ...                    {}, "lm").turn_score
        77.5
    """
    notes = list(notes or [])
    scores = [e.score for e in evaluations if e.ok and e.score is not None]
    failed = [e for e in evaluations if not e.ok]
    if failed:
        names = ", ".join(e.intent for e in failed)
        if scores:
            notes.append(f"{len(failed)} of {len(evaluations)} evaluations failed ({names}); the mean is over the rest")
        else:
            notes.append(f"every evaluation failed ({names}); the turn has no score")
    turn_score = round(sum(scores) / len(scores), 2) if scores else None
    return TurnLog(prompt, list(intents), intent_source, lm, dict(metrics), list(evaluations), turn_score, notes)
