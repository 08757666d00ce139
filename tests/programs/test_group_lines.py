"""A list of products for a pregnant, nursing or elderly asker quotes each listed product's caution that names them
(programs/group_lines.py), over the real mini index: 훼스탈플러스정 asks 임부 to consult first."""

from programs.crag import CRAG

QUESTION = "소화가 안돼요 소화제 추천해주세요"
CONSULT = "훼스탈플러스정: 이 약을 복용하기 전에 알레르기 체질인 환자, 임부 또는 임신하고 있을 가능성이 있는 여성은"


def test_a_pregnant_asker_is_told_what_the_listed_products_say_of_pregnancy(searcher):
    pred = CRAG(backend=searcher)(question=QUESTION, user={"pregnant": True})
    assert pred.answer.splitlines()[2].startswith("효능·효과가 질문과 맞는 제품입니다: 훼스탈플러스정")
    assert "설명서가 임부에 대해 적은 내용입니다:" in pred.answer
    assert CONSULT in " ".join(pred.answer.split())  # the leaflets write some spaces as no-break spaces


def test_nobody_in_particular_gets_no_such_lines(searcher):
    pred = CRAG(backend=searcher)(question=QUESTION)
    assert "설명서가" not in pred.answer and CONSULT not in " ".join(pred.answer.split())


def test_an_elderly_asker_gets_the_lines_naming_the_elderly(searcher):
    pred = CRAG(backend=searcher)(question="두통약 뭐 먹어요", user={"age": 75})
    assert pred.answer.splitlines()[0].startswith("효능·효과가 질문과 맞는 제품입니다: 게보린정")
    lead = pred.answer.index("설명서가 고령자에 대해 적은 내용입니다:")
    assert "고령자" in pred.answer[lead:].splitlines()[1]


def test_a_class_question_about_a_situation_adds_the_answered_products_line_on_the_asker(searcher):
    """감기약 먹고 운전해도 돼요 from a pregnant user: the answer quotes 판콜에이내복액's drowsiness line, and then what
    its leaflet says of 임부 (it forbids nothing, so it stays an answer)."""
    pred = CRAG(backend=searcher)(question="감기약 먹고 운전해도 돼요?", user={"pregnant": True})
    assert "판콜에이내복액: 복용 후 졸음이 나타날 수 있으므로 운전" in pred.answer
    lead = pred.answer.index("설명서가 임부에 대해 적은 내용입니다:")
    line = pred.answer[lead:].splitlines()[1]
    assert line.startswith("판콜에이내복액:") and "임부" in line
