"""The turn evaluator's signatures are typed and carry the seed's role and fields."""

import pydantic
import pytest

from signatures.turn import AnalyzeIntent, EvaluateTurn, RubricScore, RubricScores


def test_evaluate_turn_fields():
    assert list(EvaluateTurn.input_fields) == [
        "problem_title",
        "required_algorithms",
        "metrics",
        "rubric_guide",
        "eval_type",
        "rules_criterion",
        "user_prompt",
        "ai_reply",
    ]
    assert list(EvaluateTurn.output_fields) == ["rubrics", "final_reasoning", "score"]
    assert EvaluateTurn.output_fields["rubrics"].annotation is RubricScores
    assert "prompt-engineering expert" in EvaluateTurn.instructions


def test_analyze_intent_outputs_a_list_of_the_eight_intents():
    assert list(AnalyzeIntent.output_fields) == ["intents"]
    assert "FOLLOW_UP" in str(AnalyzeIntent.output_fields["intents"].annotation)


def test_rubric_scores_are_bounded_and_all_five_are_required():
    with pytest.raises(pydantic.ValidationError):
        RubricScore(score=101, reason="x")
    with pytest.raises(pydantic.ValidationError):
        RubricScores(clarity=RubricScore(score=90, reason="x"))
    assert list(RubricScores.model_fields) == ["clarity", "problem_relevance", "examples", "rules", "context"]
