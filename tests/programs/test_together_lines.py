"""A leaflet line on another medicine used with it (아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오)
answers a question about two medicines whatever section it is in (programs/extractive.py, `TOGETHER_SECTIONS`)."""

from programs import extractive
from retrievers.documents import Document
from retrievers.question_frame import QuestionFrame


def _doc(section: str, label: str, text: str) -> Document:
    meta = {"item_seq": "5", "item_name": "타이레놀정500밀리그람", "section": section, "main_ingr": "아세트아미노펜"}
    return Document(f"easydrug:5:{section}", f"타이레놀정500밀리그람 (아세트아미노펜)\n[{label}] {text}", meta)


DOCS = [
    _doc("intrc", "상호작용", "바르비탈계 약물, 삼환계 항우울제를 투여한 환자는 의사 또는 약사와 상의하십시오."),
    _doc(
        "atpnWarn",
        "사용 전 경고",
        "아세트아미노펜으로 일일 최대 용량(4,000 mg)을 초과하여 복용하지 마십시오. "
        "아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오.",
    ),
]


def test_a_line_on_another_medicine_taken_with_it_is_quoted_for_two_medicines():
    question = "종합감기약 먹었는데 타이레놀 추가로 먹어도 돼요?"
    frame = QuestionFrame(question, aspects=("interactions",))  # as read with the index's names
    quotes = extractive.choose(question, DOCS, max_sentences=3, names=["타이레놀"], frame=frame)
    texts = [q.text for q in quotes]
    assert any("다른 제품과 함께 복용하지 마십시오" in t for t in texts)


def test_the_line_is_no_answer_to_a_question_about_one_medicine():
    quotes = extractive.choose("타이레놀 하루 최대 몇 알 먹어요", DOCS, max_sentences=1)
    assert "다른 제품과 함께" not in quotes[0].text
