"""A "which medicine" question asking a form none of the listed products has (귀에 넣는 약 있나요: the leaflets hold
no ear drops) says so before the list of products whose 효능 fits (programs/extractive.py `FORM_NOT_FOUND`)."""

from programs import extractive
from retrievers.documents import Document
from retrievers.question_frame import QuestionFrame, Targets


def _efficacy(seq: str, name: str, text: str) -> Document:
    meta = {"item_seq": seq, "item_name": name, "section": "efcy", "section_label": "효능·효과"}
    return Document(f"easydrug:{seq}:efcy", f"{name}\n[효능·효과] {text}", meta)


DOCS = [_efficacy("1", "가상통증정", "이 약은 두통, 치통, 귀통증의 완화에 사용합니다.")]


def _answer(question: str) -> str:
    frame = QuestionFrame(question, Targets(symptoms=("귀",)), aspects=("efficacy",))
    return extractive.extractive_answer(question, DOCS, frame=frame)


def test_a_form_no_listed_product_has_is_said_before_the_list():
    answer = _answer("귀가 쿡쿡 쑤셔요 약국에서 파는 귀에 넣는 약 있나요?")
    assert extractive.PRODUCT_LIST in answer and "가상통증정" in answer
    assert answer.index(extractive.FORM_NOT_FOUND) < answer.index(extractive.PRODUCT_LIST)


def test_no_notice_when_the_question_asks_no_form():
    assert extractive.FORM_NOT_FOUND not in _answer("귀가 쿡쿡 쑤셔요 무슨 약 먹어야 돼요?")
