"""The learned answering-section prior (retrievers/section_model.py, read by programs/extractive.py): when no word of
the question is in any sentence, the section the model reads as answering it leads the answer."""

import pytest

from programs import extractive
from retrievers.documents import Document


def leaflet(section: str, text: str, label: str) -> Document:
    meta = {"item_seq": "1", "item_name": "가나다연고", "section": section, "section_label": label}
    return Document(f"easydrug:1:{section}", f"가나다연고\n[{label}] {text}", meta)


CAUTIONS = "사용상 주의사항"
DOCS = [
    leaflet("efcy", "이 약은 상처, 화상, 급성 및 만성 피부염, 습진의 보조치료에 사용합니다.", "효능·효과"),
    leaflet("atpn", "이 약에 과민증 환자, 감염성 또는 삼출성 피부병 환자는 이 약을 사용하지 마십시오.", CAUTIONS),
    leaflet("useMethod", "1일 1~수회 환부에 바릅니다.", "용법·용량"),
    leaflet("se", "발진, 가려움, 홍반 등이 나타날 수 있습니다.", "이상반응(부작용)"),
]


def first_quoted(question: str) -> str:
    text = extractive.extractive_answer(question, DOCS, names=["가나다연고"])
    return next(line for line in text.splitlines() if line.startswith("["))


@pytest.mark.parametrize(
    "question", ["가나다연고 무좀 있는 발에 발라도 되나요", "가나다연고 진물 나는 데 발라도 돼요?"]
)
def test_a_may_i_question_about_a_condition_no_sentence_names_is_answered_by_the_warnings(question, monkeypatch):
    assert first_quoted(question).startswith("[사용상 주의사항]")
    monkeypatch.setattr(extractive, "SECTION_MODEL_WEIGHT", 0.0)
    assert first_quoted(question).startswith("[효능·효과]")


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("가나다연고 하루에 몇 번 발라요", "[용법·용량]"),
        ("가나다연고 바르고 나서 빨갛게 올라왔어요", "[이상반응(부작용)]"),
    ],
)
def test_a_question_whose_words_find_their_section_keeps_it(question, section):
    assert first_quoted(question).startswith(section)
