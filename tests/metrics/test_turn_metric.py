"""The turn metric (intent F1 + score agreement) and the labelled turns it is computed on."""

from collections import Counter

import dspy
import pytest
from dspy.utils import DummyLM

from metrics.turn import intent_f1, score_agreement, turn_metric
from programs.turn import TurnEvaluator
from programs.turn.no_lm import BAND_SCORES
from signatures.turn import Intent
from trainsets.turns import load_turns


def test_intent_f1():
    assert intent_f1(["GENERATION"], ["GENERATION"]) == 1.0
    assert intent_f1(["GENERATION", "OPTIMIZATION"], ["GENERATION"]) == pytest.approx(2 / 3)
    assert intent_f1(["GENERATION"], ["DEBUGGING"]) == 0.0
    assert intent_f1(["FOLLOW_UP"], ["follow-up"]) == 1.0
    assert intent_f1(["GENERATION"], None) == 0.0


def test_score_agreement():
    assert score_agreement(70, 70) == 1.0
    assert score_agreement(70, 77.5) == pytest.approx(0.7)
    assert score_agreement(20, 90) == 0.0
    assert score_agreement(70, None) == 0.0


def test_turn_metric_and_its_bootstrap_form():
    gold = dspy.Example(intents=["GENERATION", "OPTIMIZATION"], score=70.0)
    assert turn_metric(gold, dspy.Prediction(intents=["GENERATION", "OPTIMIZATION"], score=77.5)) == pytest.approx(0.85)
    assert turn_metric(gold, dspy.Prediction(intents=["GENERATION"], score=70.0)) == pytest.approx(5 / 6)
    assert turn_metric(gold, dspy.Prediction(intents=["GENERATION", "OPTIMIZATION"], score=78.0), trace=[]) is True
    assert turn_metric(gold, dspy.Prediction(intents=["GENERATION", "OPTIMIZATION"], score=81.0), trace=[]) is False
    assert turn_metric(gold, dspy.Prediction(intents=["GENERATION"], score=70.0), trace=[]) is False
    assert turn_metric(gold, dspy.Prediction(intents=["GENERATION", "OPTIMIZATION"], score=None), trace=[]) is False


def test_labelled_turns_cover_every_intent_both_languages_and_multi_intent_turns():
    turns = load_turns()
    assert 35 <= len(turns) <= 50
    assert len({t.id for t in turns}) == len(turns)
    intents = Counter(name for t in turns for name in t.intents)
    assert set(intents) == set(Intent.__args__)
    assert min(intents.values()) >= 4
    assert sum(len(t.intents) > 1 for t in turns) >= 5
    assert Counter(t.lang for t in turns).keys() == {"ko", "en"}
    for turn in turns:
        assert set(turn.rubrics) == {"clarity", "problem_relevance", "examples", "rules", "context"}
        assert set(turn.rubrics.values()) <= set(BAND_SCORES)  # gold scores are band values
        assert turn.score == round(sum(turn.rubrics.values()) / 5, 1)
        assert turn.prompt.strip()


def test_the_no_lm_baseline_is_scored_by_the_metric():
    turns = load_turns()
    program = TurnEvaluator()
    with dspy.context(lm=None):
        scores = [turn_metric(t, program(**t.inputs())) for t in turns]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert 0.6 < sum(scores) / len(scores) < 1.0


def _two_intent_lm() -> DummyLM:
    rubric = {"score": 80, "reason": "scripted"}
    rubrics = dict.fromkeys(("clarity", "problem_relevance", "examples", "rules", "context"), rubric)
    return DummyLM(
        {
            "(Generation)": {"rubrics": rubrics, "final_reasoning": "g", "score": 85},
            "(Optimization)": {"rubrics": rubrics, "final_reasoning": "o", "score": 70},
            "[[ ## user_prompt ## ]]": {"intents": ["GENERATION", "OPTIMIZATION"]},
        }
    )


def _two_intent_turns(n: int) -> list[dspy.Example]:
    return [
        dspy.Example(prompt=f"코드 작성 {i}", intents=["GENERATION", "OPTIMIZATION"], score=77.5).with_inputs("prompt")
        for i in range(n)
    ]


def test_dspy_evaluate_runs_the_program_in_threads_that_run_evaluations_in_threads():
    lm = _two_intent_lm()
    with dspy.context(lm=lm):
        result = dspy.Evaluate(devset=_two_intent_turns(12), metric=turn_metric, num_threads=4, display_progress=False)(
            TurnEvaluator()
        )
    assert result.score == 100.0
    assert len(lm.history) == 12 * 3


def test_bootstrap_few_shot_collects_demos_from_the_parallel_evaluations():
    with dspy.context(lm=_two_intent_lm()):
        optimizer = dspy.BootstrapFewShot(metric=turn_metric, max_bootstrapped_demos=2, max_labeled_demos=0)
        compiled = optimizer.compile(TurnEvaluator(), trainset=_two_intent_turns(3))
    assert len(compiled.analyze_intent.demos) == 2
    assert len(compiled.evaluate.demos) == 2
    eval_types = {demo.eval_type for demo in compiled.evaluate.demos}
    assert eval_types <= {"코드 생성 요청 (Generation)", "최적화 요청 (Optimization)"}
