"""What only a doctor can judge (how serious a symptom is, whether to go to the emergency room or be tested again)
is in no leaflet (programs/general_question.DIAGNOSIS): asked beside a medicine, the no-LM answer opens by saying so
before what the leaflets say of it; asked of a test result alone, it quotes nothing. The real `Searcher` on the mini
index."""

from programs.crag import CRAG
from programs.general_question import DIAGNOSIS_ANSWER, DOCTOR_NOTICE


def test_whether_to_go_to_the_emergency_room_is_said_to_be_beyond_the_leaflets(searcher):
    question = (
        "4살 딸 열이 39.5도인데 부루펜 먹인지 두시간 지나도 안떨어져요 지금 응급실 가야하나요 아님 지켜봐도 되나요"
    )
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(DOCTOR_NOTICE)
    assert next(s for s in pred.trace["steps"] if s["step"] == "doctor_visit")["flagged"]
    assert pred.trace["outcome"] == "not_in_leaflets"
    # a test result's seriousness, no medicine named: the leaflets diagnose nothing, and nothing is quoted
    result = CRAG(backend=searcher)(question="건강검진에서 간수치가 높게 나왔는데 심각한건가요 재검 받아야되나요")
    assert result.answer.startswith(DIAGNOSIS_ANSWER) and "[문서" not in result.answer
