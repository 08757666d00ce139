"""The LM-call budget, the per-question Run, the user profile and the ablation profiles."""

import dspy
import pytest

from programs.ablations import ABLATIONS, ablation_settings
from programs.budget import BudgetExhausted, LMBudget
from programs.profile import ProfileError, UserProfile
from programs.run import Run
from programs.settings import CragSettings
from yaksa.testing.scripted_lm import ScriptedLM


def test_budget_counts_per_role_and_refuses_past_its_limit():
    budget = LMBudget(2)
    budget.charge("query")
    budget.charge("query")
    with pytest.raises(BudgetExhausted):
        budget.charge("judge")
    assert budget.by_role == {"query": 2, "generate": 0, "verify": 0, "judge": 0}
    assert budget.remaining == 0
    assert LMBudget(None).remaining == float("inf")


def test_run_charges_records_and_switches_off_an_unreachable_role():
    lm = ScriptedLM(generate=[ConnectionError("APIConnectionError: refused")])
    run = Run(lms={"generate": lm}, budget_limit=5)
    with pytest.raises(Exception, match="refused"):
        run.call("generate", dspy.Predict("question -> answer"), question="q")
    assert not run.has_lm("generate")
    assert run.unreachable() == ["generate"]
    assert run.trace.lm_calls["generate"] == 1
    assert run.trace.errors
    with pytest.raises(RuntimeError):
        run.call("generate", dspy.Predict("question -> answer"), question="q")
    assert run.budget.used == 1


def test_profile_from_dict_summary_slots_and_dur_types():
    p = UserProfile.from_dict({"age": "8", "sex": "male", "conditions": "천식, 비염", "medicines": []})
    assert p.summary() == "8세 남성, 질환: 천식, 비염"
    assert p.dur_types() == ["특정연령대금기"]
    assert p.slots() == {"나이": "8", "성별": "남성", "질환": "천식, 비염"}
    pregnant = UserProfile.from_dict({"conditions": ["임신 12주"]})
    assert pregnant.pregnant
    assert pregnant.dur_types() == ["임부금기"]
    assert UserProfile.from_dict(None).empty
    assert UserProfile().summary() == ""


@pytest.mark.parametrize("bad", [[1], {"age": -1}, {"age": "old"}, {"age": True}, {"medicines": [1]}, {"x": 1}])
def test_bad_profiles_are_refused(bad):
    with pytest.raises(ProfileError):
        UserProfile.from_dict(bad)


def test_six_ablation_profiles_add_one_idea_each():
    assert list(ABLATIONS) == [
        "baseline",
        "self_refine_heuristic",
        "self_refine_llm_quality",
        "self_refine_dynamic_query",
        "self_refine_full_safety",
        "full_context_engineering",
    ]
    assert ablation_settings("baseline").refine_strategy == "basic_rag"
    assert not ablation_settings("self_refine_heuristic").llm_quality
    assert ablation_settings("self_refine_llm_quality").llm_quality
    assert not ablation_settings("self_refine_llm_quality").dynamic_query
    assert ablation_settings("self_refine_dynamic_query").dynamic_query
    assert not ablation_settings("self_refine_dynamic_query").safety_checks
    assert ablation_settings("self_refine_full_safety").safety_checks
    assert ablation_settings() == CragSettings()
    assert ablation_settings(lm_call_budget=5).lm_call_budget == 5
    with pytest.raises(KeyError):
        ablation_settings("nope")
    with pytest.raises(ValueError):
        CragSettings(refine_strategy="magic")
