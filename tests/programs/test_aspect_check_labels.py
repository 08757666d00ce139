"""The answer's section labels are not read as words of its quotes by the no-LM aspect check
(programs/aspect_check.py)."""

from retrievers.documents import Document
from retrievers.question_frame import QuestionFrame


def test_a_section_label_is_no_word_of_its_quote():
    """[상호작용(함께 먹으면 안 되는 약·음식)] holds 음식: the label the answer puts first does not make a line on an
    antibiotic answer "may I take it in milk" (programs/aspect_check.answer_quotes)."""
    from programs.aspect_check import self_check

    doc = Document(
        "easydrug:3:intrc",
        "겔포스현탁액\n[상호작용(함께 먹으면 안 되는 약·음식)] 테트라사이클린계 항생물질과 함께 사용하지 마십시오.",
        {"section": "intrc", "item_name": "겔포스현탁액"},
    )
    frame = QuestionFrame("겔포스 우유에 타서 마셔도 되나요?", aspects=("food_drink",))
    answer = "[상호작용(함께 먹으면 안 되는 약·음식)] 테트라사이클린계 항생물질과 함께 사용하지 마십시오. [문서 1]"
    check, notice = self_check(frame, answer, [doc])
    assert check.missed == ("food_drink",)
    assert notice == "※ 찾은 설명서에는 음식·음료에 대한 내용이 없습니다."
