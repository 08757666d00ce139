from programs.extractive import extractive_answer
from programs.shared_ingredient import shared_ingredient, shared_note
from retrievers.documents import Document


def _leaflet(seq: str, name: str, ingredients: str, text: str, section: str = "se") -> Document:
    meta = {
        "item_name": name,
        "item_seq": seq,
        "main_ingr": ingredients,
        "section": section,
        "section_label": "이상반응",
    }
    return Document(f"easydrug:{seq}:{section}", f"{name}\n[이상반응] {text}", meta)


DOCS = [
    _leaflet("1", "알보큐액(폴리크레줄렌액50%)", "폴리크레줄렌액50%", "바른 부위가 일시적으로 따끔거릴 수 있습니다."),
    _leaflet("2", "폴리덤액", "폴리크레줄렌액50%", "바른 부위가 일시적으로 따끔거릴 수 있습니다."),
    _leaflet("3", "구내염케어액", "폴리크레줄렌액50%,리도카인", "바른 부위가 일시적으로 따끔거릴 수 있습니다."),
    _leaflet("4", "게보린정", "아세트아미노펜,카페인무수물", "구역, 구토가 나타날 수 있습니다."),
]


def test_an_ingredient_question_names_the_products_that_share_it():
    shared = shared_ingredient("폴리크레줄렌 바르면 너무 따가워요", DOCS)
    assert shared.ingredient == "폴리크레줄렌"
    assert shared.products == ["알보큐액", "폴리덤액", "구내염케어액"] and shared.sources == [1, 2, 3]
    note = shared_note(shared, cited={1, 2})
    assert "여러 제품에 들어 있습니다" in note and "알보큐액 [문서 1], 폴리덤액 [문서 2] 등" in note
    assert "[문서 3]" not in note  # only documents the answer quotes are cited


def test_no_note_for_a_product_question_or_a_single_product():
    assert shared_ingredient("폴리덤액 바르면 따가워요", DOCS) is None  # the question names a product
    assert shared_ingredient("아세트아미노펜 먹고 토했어요", DOCS) is None  # one product has it here
    assert shared_ingredient("입병약 따가워요", DOCS) is None  # no ingredient named


def test_the_no_lm_answer_says_many_products_contain_the_ingredient():
    answer = extractive_answer("폴리크레줄렌 바르면 따가워요 정상이에요?", DOCS[:3], sections=["se"])
    assert "폴리크레줄렌 성분은 여러 제품에 들어 있습니다" in answer
    assert "따끔거릴 수 있습니다. [문서 1, 2, 3]" in answer  # the sentence they share, quoted once
    plain = extractive_answer("폴리덤액 바르면 따가워요", DOCS[1:2], sections=["se"])
    assert "여러 제품" not in plain
