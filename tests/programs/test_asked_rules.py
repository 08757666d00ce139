"""How long or how much, asked of a named product: the DUR row of that type binding the product is read beside its
leaflet (programs/asked_rules.py, read by `graph.extractive_pool`). Rows and leaflet lines are the corpus's own."""

from programs import extractive
from programs.asked_rules import asked_rules
from retrievers.documents import Document

SPRAY = {
    "item_seq": "1",
    "item_name": "오트리빈멘톨0.1%분무제(자일로메타졸린염산염)",
    "main_ingr": "자일로메타졸린염산염",
}
ATPN = Document(
    "easydrug:1:atpn",
    "오트리빈멘톨0.1%분무제\n정해진 용법과 용량을 잘 지키십시오.3일간 사용하여도 증상이 좋아지지 않을 경우 "
    "사용을 중지하고 의사 또는 약사와 상의하십시오.",
    {**SPRAY, "section": "atpn"},
)


def _row(n: int, forms: str, combination: str = "") -> Document:
    text = f"[투여기간주의] 자일로메타졸린(Xylometazoline)의 최대 투여기간은 7일입니다. 대상 제형: {forms}."
    meta = {"dur_type": "투여기간주의", "dur_code": "ec", "ingredient": "자일로메타졸린", "combination": combination}
    return Document(f"dur:ec:{n}", text, meta)


SINGLE = _row(5425, "점비액제/일반액상분무제/정량액상분무제")
MIXED = _row(5426, "점비액제/일반액상분무제", combination="클로르페니라민")
TABLETS = _row(9, "정제")


def _rows(ingredients, codes):
    assert codes == ["ec"] and ingredients == ["자일로메타졸린염산염"]
    return [SINGLE, MIXED, TABLETS]


def test_a_duration_question_reads_the_row_binding_the_named_product():
    assert [d.id for d in asked_rules(("duration",), [ATPN], _rows)] == ["dur:ec:5425"]


def test_no_row_is_read_for_another_aspect_or_without_a_named_leaflet():
    assert asked_rules(("side_effects", "pregnancy"), [ATPN], _rows) == []
    assert asked_rules(("duration",), [SINGLE], _rows) == []


def test_the_row_is_quoted_in_the_answer_to_how_long():
    question = "오트리빈 코스프레이 며칠까지 뿌려도 돼요? 벌써 열흘째 쓰고있어요"
    docs = [ATPN, *asked_rules(("duration",), [ATPN], _rows)]
    quotes = [q.text for q in extractive.choose(question, docs, names=("오트리빈",))]
    assert any("최대 투여기간은 7일" in q for q in quotes)


def test_the_extractive_pool_reads_the_row():
    from programs import graph
    from programs.routing import GENERATE
    from programs.state import QuestionState
    from retrievers.documents import Hit
    from retrievers.question_frame import QuestionFrame, Targets
    from retrievers.result import RetrievalResult

    question = "오트리빈 코스프레이 며칠까지 뿌려도 돼요?"
    st = QuestionState(question=question)
    frame = QuestionFrame(question, Targets(products=("오트리빈",)), aspects=("duration",))
    st.result = RetrievalResult(question, [Hit(ATPN, 1.0)], names=["오트리빈"], frame=frame)
    st.docs, st.route = [ATPN], GENERATE
    pool = graph.extractive_pool(st, {ATPN.id: ATPN}.get, dur_rules=_rows)
    assert "dur:ec:5425" in [d.id for d in pool]
    assert [s["added"] for s in st.trace.steps if s["step"] == "asked_rules"] == [["dur:ec:5425"]]
