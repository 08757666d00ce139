"""One shared evaluation routine (the seed's ``_evaluate_turn``) and its eight thin entry points, one per intent.

Every entry point judges the same prompt the same way; only the eval type and the Rules criterion change. With a
predictor (an ``EvaluateTurn`` module) the LM scores the rubrics; with none, the metric bands do. A failing LM call
or a malformed answer marks that evaluation failed with its reason instead of raising, so one intent's failure
never loses the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from programs.turn.intents import INTENTS, IntentSpec
from programs.turn.no_lm import NO_LM_NOTE, band_scores, mean_score
from programs.turn.rubrics import RUBRIC_KEYS, rubric_guide
from programs.turn.text_features import TextFeatures
from programs.turn.turn_log import IntentEvaluation, RubricResult


@dataclass(frozen=True)
class Turn:
    """One prompt turn to judge: the user's prompt, the AI's reply and the problem, when given."""

    prompt: str
    ai_reply: str = ""
    problem_title: str = ""
    algorithms: tuple[str, ...] = ()


def evaluate_turn(
    turn: Turn, spec: IntentSpec, features: TextFeatures, predictor: Callable | None = None
) -> IntentEvaluation:
    """Judge a turn as one kind of request.

    Args:
        turn: The turn.
        spec: The intent to judge it as (eval type and Rules criterion).
        features: The prompt's text features, the metrics the rubrics read.
        predictor: An ``EvaluateTurn`` predictor; None scores from the metric bands alone.

    Returns:
        The ``IntentEvaluation``: "ok" with the score, rubrics and reasoning, or "failed" with the error.

    Example:
        >>> from programs.turn.text_features import text_features
        >>> turn = Turn("DP로 풀어줘")
        >>> evaluate_turn(turn, INTENTS["GENERATION"], text_features(turn.prompt)).scored_by
        'metric bands'
    """
    if predictor is None:
        return _from_bands(turn, spec, features)
    base = dict(intent=spec.name, node=spec.node, eval_type=spec.eval_type, criterion=spec.criterion, scored_by="lm")
    try:
        prediction = predictor(
            problem_title=turn.problem_title,
            required_algorithms=list(turn.algorithms),
            metrics=features.as_dict(),
            rubric_guide=rubric_guide(spec.criterion),
            eval_type=spec.eval_type,
            rules_criterion=spec.criterion,
            user_prompt=turn.prompt,
            ai_reply=turn.ai_reply,
        )
        score = float(prediction.score)
        if not 0 <= score <= 100:
            raise ValueError(f"score {score} is outside 0-100")
        rubrics = {key: getattr(prediction.rubrics, key) for key in RUBRIC_KEYS}
    except Exception as error:  # any failure of this one evaluation is reported, not raised
        return IntentEvaluation(**base, status="failed", error=_one_line(error))
    return IntentEvaluation(
        **base,
        status="ok",
        score=score,
        rubrics={key: RubricResult(float(r.score), r.reason) for key, r in rubrics.items()},
        final_reasoning=prediction.final_reasoning,
    )


def _from_bands(turn: Turn, spec: IntentSpec, features: TextFeatures) -> IntentEvaluation:
    verdicts = band_scores(features, turn.prompt, turn.problem_title, turn.algorithms)
    score = mean_score(verdicts)
    return IntentEvaluation(
        intent=spec.name,
        node=spec.node,
        eval_type=spec.eval_type,
        criterion=spec.criterion,
        status="ok",
        scored_by="metric bands",
        score=score,
        rubrics={key: RubricResult(v.score, v.reason) for key, v in verdicts.items()},
        final_reasoning=f"{NO_LM_NOTE} 다섯 루브릭 점수의 평균: {score:g}점. "
        f"Rules 기준({spec.criterion})은 LM 없이는 판단하지 않습니다.",
    )


def _one_line(error: Exception, limit: int = 300) -> str:
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def eval_system_prompt(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as a system prompt (role, scope, answer style)."""
    return evaluate_turn(turn, INTENTS["SYSTEM_PROMPT"], features, predictor)


def eval_rule_setting(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as rule setting (constraints for the session)."""
    return evaluate_turn(turn, INTENTS["RULE_SETTING"], features, predictor)


def eval_generation(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as a code generation request."""
    return evaluate_turn(turn, INTENTS["GENERATION"], features, predictor)


def eval_optimization(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as an optimisation request."""
    return evaluate_turn(turn, INTENTS["OPTIMIZATION"], features, predictor)


def eval_debugging(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as a debugging request."""
    return evaluate_turn(turn, INTENTS["DEBUGGING"], features, predictor)


def eval_test_case(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as a test case request."""
    return evaluate_turn(turn, INTENTS["TEST_CASE"], features, predictor)


def eval_hint_query(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as a hint or a question."""
    return evaluate_turn(turn, INTENTS["HINT_OR_QUERY"], features, predictor)


def eval_follow_up(turn: Turn, features: TextFeatures, predictor: Callable | None = None) -> IntentEvaluation:
    """Judge the turn as a follow-up to an earlier answer."""
    return evaluate_turn(turn, INTENTS["FOLLOW_UP"], features, predictor)


ENTRY_POINTS: dict[str, Callable[..., IntentEvaluation]] = {
    "eval_system_prompt": eval_system_prompt,
    "eval_rule_setting": eval_rule_setting,
    "eval_generation": eval_generation,
    "eval_optimization": eval_optimization,
    "eval_debugging": eval_debugging,
    "eval_test_case": eval_test_case,
    "eval_hint_query": eval_hint_query,
    "eval_follow_up": eval_follow_up,
}
