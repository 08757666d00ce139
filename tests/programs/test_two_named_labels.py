"""An answer quoting the leaflets of two products the question names says whose each line is: under the first
one's heading, a capsule's dose must not read as the gargle's (real leaflet text)."""

from programs.extractive import extractive_answer
from retrievers.documents import Document


def _doc(seq: str, name: str, section: str, text: str) -> Document:
    meta = {"item_seq": seq, "item_name": name, "section": section}
    return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", meta)


GARGLE = _doc(
    "1",
    "조아구강청액(이소프로필메틸페놀)",
    "useMethod",
    "[용법·용량] 1회 15mL 1일 2～3회 원액 그대로 또는 소량의 물로 희석하여 입안을 헹구어 내거나 가글한 후 뱉습니다.",
)
CAPSULE = _doc(
    "2",
    "탁센연질캡슐(나프록센)",
    "useMethod",
    "[용법·용량] 성인은 1회 1~2캡슐(250~500 mg), 1일 2회(12시간마다) 물과 함께 복용합니다.",
)
QUESTION = "조아구강청액 물에 타서 가글해도 되나요? 탁센도 먹고있어요 하루 몇번 먹어요"


def test_each_line_names_its_product_when_two_named_products_are_quoted():
    answer = extractive_answer(QUESTION, [GARGLE, CAPSULE], names=["조아구강청액", "탁센"])
    lines = [ln for ln in answer.splitlines() if "[문서" in ln]
    assert len(lines) == 2
    assert any(ln.startswith("조아구강청액: ") for ln in lines)
    assert any(ln.startswith("탁센연질캡슐: ") and "캡슐" in ln for ln in lines)


def test_one_named_product_keeps_its_lines_unlabelled():
    answer = extractive_answer("조아구강청액 물에 타서 가글해도 되나요?", [GARGLE], names=["조아구강청액"])
    assert not any(ln.startswith("조아구강청액: ") for ln in answer.splitlines())
