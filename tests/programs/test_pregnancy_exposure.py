"""A medicine used before the pregnancy was known (programs/pregnancy_exposure.py): the no-LM answer says the
leaflets do not tell what that use did, reads the tablets and days as told (no dose or overdose asked), and still
quotes what the leaflets say of pregnancy; the real `Searcher` on the mini index."""

import pytest

from programs.crag import CRAG
from programs.pregnancy_exposure import NOTICE


@pytest.mark.parametrize(
    "question",
    [
        "임신인줄 모르고 타이레놀 두알 먹었어요 지금 5주래요 어떡하죠",
        "타이레놀 사흘 먹었는데 테스트기 해보니 임신이래요",
        "게보린 먹다가 나중에 임신 알았어요 괜찮나요ㅠ",
    ],
)
def test_a_use_made_before_the_pregnancy_was_known_is_told_the_leaflets_do_not_say_what_it_did(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(NOTICE)
    assert next(s for s in pred.trace["steps"] if s["step"] == "pregnancy_exposure")["flagged"]
    assert "과량 복용에 대한 내용" not in pred.answer and "복용 기간에 대한 내용" not in pred.answer
    assert "임부" in pred.answer  # what the leaflets do say of pregnancy


def test_a_pregnant_woman_asking_before_she_uses_it_gets_no_such_notice(searcher):
    assert NOTICE not in CRAG(backend=searcher)(question="임신 중인데 타이레놀 먹어도 되나요?").answer
