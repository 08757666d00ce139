"""A list of products for a pregnant, nursing or elderly asker quotes each listed product's caution that names them
(programs/group_lines.py), over the real mini index: 훼스탈플러스정 asks 임부 to consult first."""

from programs import group_lines
from programs.crag import CRAG
from retrievers.documents import Document

QUESTION = "소화가 안돼요 소화제 추천해주세요"
META = {"item_seq": "1", "item_name": "게보린정", "section": "atpn"}
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


def test_a_nursing_asker_stated_in_the_question_gets_the_products_for_it(searcher):
    """수유중인데 두통약 머(뭐) 먹어요: a product list (the products for a headache, each one's efficacy, not whatever
    cautions name 수유부), the product whose leaflet forbids 수유부 withheld, each listed one's line on 수유부 once."""
    lines = CRAG(backend=searcher)(question="수유중인데 두통약 머 먹어요").answer.splitlines()
    assert any(line.startswith("효능·효과가 질문과 맞는 제품입니다:") and "게보린정" in line for line in lines)
    assert any(line.startswith("게보린정: [효능·효과]") for line in lines)
    assert any(line.startswith("※") and "부루펜정200밀리그램(설명서 수유부 금지" in line for line in lines)
    nursing = [line for line in lines if "수유부" in line and not line.startswith("※")]
    assert nursing and len(nursing) == len(set(nursing))


def test_a_product_whose_line_on_the_asker_is_quoted_already_gets_it_once():
    """The answer's lead quoted the caution cut to the items naming the group ("…"): not quoted again below."""
    doc = Document("easydrug:1:atpn", "게보린정\n알레르기 체질, 고령자, 수유부는 의사 또는 약사와 상의하십시오.", META)
    quoted = "게보린정: 알레르기 체질, … 수유부는 의사 또는 약사와 상의하십시오. [문서 1]"
    assert group_lines.lines(("nursing",), [doc], ["1"], quoted=quoted) == []
    assert group_lines.lines(("nursing",), [doc], ["1"], quoted="")[1].startswith("게보린정: 알레르기 체질")
