"""Signatures of the turn evaluator: what a user wanted from one prompt turn, and how well it was written.

The turn evaluator judges a prompt a user wrote to an AI while solving a coding problem. It first names the
turn's intents (``AnalyzeIntent``), then scores the prompt once per intent (``EvaluateTurn``) on five rubrics:
clarity, problem relevance, examples, rules and context. Only the Rules criterion changes with the intent.
"""

from typing import Literal

import dspy
from pydantic import BaseModel, Field

Intent = Literal[
    "SYSTEM_PROMPT",
    "RULE_SETTING",
    "GENERATION",
    "OPTIMIZATION",
    "DEBUGGING",
    "TEST_CASE",
    "HINT_OR_QUERY",
    "FOLLOW_UP",
]


class RubricScore(BaseModel):
    """One rubric's score (0-100, read from the rubric's bands) and the reason for it."""

    score: float = Field(ge=0, le=100)
    reason: str


class RubricScores(BaseModel):
    """The five rubrics of a turn evaluation, each scored 0-100."""

    clarity: RubricScore
    problem_relevance: RubricScore
    examples: RubricScore
    rules: RubricScore
    context: RubricScore


class AnalyzeIntent(dspy.Signature):
    """Name what the user asks the AI for in this prompt turn of a coding-problem session.

    A turn may carry several intents (for example, "write it, and make it O(n log n)" is GENERATION and
    OPTIMIZATION). SYSTEM_PROMPT: gives the AI a role, scope or answer style. RULE_SETTING: sets rules or
    constraints for the rest of the session. GENERATION: asks for code. OPTIMIZATION: asks to make code faster or
    lighter. DEBUGGING: reports an error or wrong output and asks for a fix. TEST_CASE: asks for test cases, edge
    cases or counterexamples. HINT_OR_QUERY: asks for a hint, an explanation or a concept. FOLLOW_UP: continues or
    amends an earlier answer without a new request of the kinds above."""

    user_prompt: str = dspy.InputField(desc="the prompt the user wrote to the AI")
    problem_title: str = dspy.InputField(desc="the coding problem being solved; empty when not given")
    intents: list[Intent] = dspy.OutputField(desc="one or more intents, most important first, no repeats")


class EvaluateTurn(dspy.Signature):
    """You are a prompt-engineering expert. Judge how well the user wrote this prompt to an AI while solving a
    coding problem, from the point of view of `eval_type`.

    Score each of the five rubrics in `rubric_guide` from 0 to 100 by its score bands, using the quantitative
    metrics as evidence, not as the whole verdict. Rubric 4 (Rules) is judged against `rules_criterion`. The AI's
    reply is for reference only: judge the user's prompt, not the reply. Give each rubric a short reason, then the
    final reasoning, then an overall score from 0 to 100."""

    problem_title: str = dspy.InputField(desc="the coding problem being solved; empty when not given")
    required_algorithms: list[str] = dspy.InputField(desc="algorithms the problem calls for; empty when not given")
    metrics: dict[str, int | bool] = dspy.InputField(desc="quantitative text metrics of the user's prompt")
    rubric_guide: str = dspy.InputField(desc="the five rubrics with the metrics they read and their score bands")
    eval_type: str = dspy.InputField(desc="the kind of request this evaluation judges, from the turn's intent")
    rules_criterion: str = dspy.InputField(desc="what rubric 4 (Rules) asks of this kind of request")
    user_prompt: str = dspy.InputField(desc="the prompt the user wrote, the thing being judged")
    ai_reply: str = dspy.InputField(desc="the AI's reply, for reference only; empty when not given")
    rubrics: RubricScores = dspy.OutputField(desc="the five rubric scores, each with its reason")
    final_reasoning: str = dspy.OutputField(desc="how the rubric scores add up to the overall judgement")
    score: float = dspy.OutputField(desc="overall score of the prompt for this eval_type, 0 to 100")
