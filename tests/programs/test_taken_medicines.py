"""A profile's medicines inform the answer (programs/taken_medicines.py): the answered product's leaflet sentence that
names the medicine is added; the question's own quotes stay as without a profile."""

from programs import offer_guard, taken_medicines
from programs.crag import CRAG
from retrievers.documents import Document

QUESTION = "부루펜 하루에 몇 번 먹어요?"


def test_the_leaflet_sentence_naming_the_users_medicine_is_added(searcher):
    plain = CRAG(backend=searcher)(question=QUESTION).answer
    taking = CRAG(backend=searcher)(question=QUESTION, user={"medicines": ["와파린"]}).answer
    assert "와파린" not in plain
    lead = taken_medicines.LEAD.format(names="와파린")
    assert lead in taking
    added = taking.splitlines()[taking.splitlines().index(lead) + 1]
    assert added.startswith("부루펜정200밀리그램: ") and "와파린" in added and "[문서" in added
    quotes = [ln for ln in plain.splitlines() if "[문서" in ln]
    assert all(q in taking for q in quotes)  # the question's own quotes stay


def test_no_line_from_a_product_not_for_the_user_or_not_answered():
    meta = {"item_seq": "1", "item_name": "가상정", "section": "atpn"}
    doc = Document("easydrug:1:atpn", "가상정\n와파린을 복용하는 사람은 상의하십시오.", meta)
    assert taken_medicines.lines(["와파린"], [doc], set(), quoted="") == []  # not an answered product
    assert taken_medicines.lines(["와파린"], [doc], {"1"}, quoted="와파린을 복용하는 사람은 상의하십시오.") == []
    forbidden = offer_guard.mark([doc], {"1": [Document("dur:ac:1", "[병용금기] 와파린", {"dur_type": "병용금기"})]})
    from programs.extractive import answered_products

    assert answered_products(["가상정: 와파린을 복용하는 사람은 상의하십시오. [문서 1]"], forbidden) == set()
