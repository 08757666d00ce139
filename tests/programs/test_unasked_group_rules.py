"""A group's DUR rule (임부금기 …) among the documents of a question asking about no group, from an asker nobody in
particular, is left out of the answer's context (programs/answer_context.py, user_rules.unasked_group_rules): quoted
first it would read as the user's rule. Over the real searcher on the mini index."""

from programs.answer_context import context_documents
from programs.run import Run
from programs.settings import CragSettings
from programs.state import QuestionState

PREGNANCY_RULE = "dur:cc:2158"  # 이부프로펜's 임부금기 row


def context_ids(searcher, question: str) -> tuple[list[str], QuestionState]:
    st = QuestionState(question, run=Run(budget_limit=0))
    st.result = searcher.retrieve(question)
    docs = [h.doc for h in st.result.hits] + [searcher.get(PREGNANCY_RULE)]
    return [d.id for d in context_documents(CragSettings(), searcher, st, docs)], st


def test_a_pair_asked_by_anyone_leaves_the_ingredients_pregnancy_rule_out(mini_searcher):
    ids, st = context_ids(mini_searcher, "부루펜 먹으면서 게보린 같이 먹어도 돼요?")
    assert PREGNANCY_RULE not in ids
    assert any(PREGNANCY_RULE in s.get("dropped", ()) for s in st.trace.steps if s["step"] == "stray_rules")


def test_the_rule_stays_for_a_pregnant_asker_and_for_a_question_about_cautions(mini_searcher):
    assert PREGNANCY_RULE in context_ids(mini_searcher, "임신 중인데 부루펜 먹어도 돼요?")[0]
    assert PREGNANCY_RULE in context_ids(mini_searcher, "부루펜 주의할 점 알려줘")[0]
