"""The turn evaluator: scores a user's prompt turn to an AI (coding-problem sessions) on five rubrics by intent."""

from programs.turn.evaluate_turn import Turn
from programs.turn.evaluator import TurnEvaluator
from programs.turn.text_features import TextFeatures, text_features
from programs.turn.turn_log import IntentEvaluation, TurnLog

__all__ = ["IntentEvaluation", "TextFeatures", "Turn", "TurnEvaluator", "TurnLog", "text_features"]
