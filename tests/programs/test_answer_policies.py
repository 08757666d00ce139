"""What ships when a budget runs out (`out_of_budget`), which answer is kept as the best (`keep_best`), and the
fall back to the quoted answer (`to_extractive`): each reads the question's state and the program's parts."""

import pytest

from programs.answer_policies import keep_best, out_of_budget, to_extractive
from programs.crag import CRAG
from programs.notices import BUDGET_NOTICES, TIME_NOTICES
from programs.routing import GENERATE
from programs.run import Run
from programs.state import QuestionState
from yaksa.testing.fake_backend import FakeBackend


@pytest.fixture
def parts():
    return CRAG(backend=FakeBackend()).parts()


def answered(parts, answer="게보린은 속쓰림이 있을 수 있습니다 [문서 1]", verification="off") -> QuestionState:
    st = QuestionState("게보린 먹고 속이 쓰려요", run=Run(budget_limit=0))
    st.result = parts.backend.retrieve(st.question)
    st.docs = st.context_docs = st.result.documents[:2]
    st.answer, st.verification, st.method, st.mode = answer, verification, "lm", GENERATE
    return st


def test_the_last_verified_answer_ships_first_and_says_so(parts):
    st = answered(parts, "검증된 답 [문서 1]", "pass")
    st.last_passed = st.snapshot(None)
    st.answer, st.verification = "고치던 답", "fail"
    out_of_budget(parts, st, BUDGET_NOTICES)
    assert st.best["answer"].startswith("검증된 답 [문서 1]")
    assert st.best["answer"].endswith(BUDGET_NOTICES["passed"])


def test_the_best_evaluated_answer_ships_unless_it_failed_verification(parts):
    st = answered(parts, "평가한 답 [문서 1]", "pass")
    keep_best(st, 0.4)
    st.answer = "다음 답"
    out_of_budget(parts, st, TIME_NOTICES)
    assert st.best["answer"] == f"평가한 답 [문서 1]\n\n{TIME_NOTICES['best']}"
    failed = answered(parts, "틀린 답 [문서 1]", "failed")
    keep_best(failed, 0.9)
    out_of_budget(parts, failed, BUDGET_NOTICES)
    assert failed.method == "extractive" and "틀린 답" not in failed.best["answer"]


def test_an_answer_not_yet_verified_ships_as_unverified(parts):
    st = answered(parts)
    out_of_budget(parts, st, BUDGET_NOTICES)
    assert st.best["answer"].endswith(BUDGET_NOTICES["unverified"])
    assert st.best["answer"].startswith("게보린은 속쓰림이 있을 수 있습니다 [문서 1]")


def test_with_no_usable_answer_the_documents_are_quoted(parts):
    st = answered(parts, "", "off")
    out_of_budget(parts, st, BUDGET_NOTICES)
    assert (st.method, st.verification, st.mode) == ("extractive", "skipped (budget)", GENERATE)
    assert "[문서 1]" in st.best["answer"] and st.best["answer"].endswith(BUDGET_NOTICES["extractive"])
    assert st.best["context_docs"] == st.docs


def test_keep_best_replaces_only_a_worse_answer(parts):
    st = answered(parts, "첫 답")
    keep_best(st, 0.6)
    st.answer = "못한 답"
    keep_best(st, 0.3)
    assert st.best["answer"] == "첫 답" and st.best["score"] == 0.6
    st.answer = "나은 답"
    keep_best(st, 0.8)
    assert st.best["answer"] == "나은 답"


def test_to_extractive_quotes_the_context_with_the_notice(parts):
    st = answered(parts, "근거 없는 답")
    to_extractive(parts, st, "※ 바꿨습니다.")
    assert st.method == "extractive"
    assert "[문서 1]" in st.answer and st.answer.endswith("※ 바꿨습니다.")
    assert "근거 없는 답" not in st.answer
