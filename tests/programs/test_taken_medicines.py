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


def test_a_leaflet_naming_only_the_kind_of_the_users_medicine_is_quoted():
    """와파린 is an 항응고제: a leaflet that lists 항응고제 (not the name) among the medicines to ask about is its word
    on the user's medicine; a sentence naming the medicine itself comes first."""
    meta = {"item_seq": "1", "item_name": "가상이부프로펜캡슐", "section": "atpn"}
    kind = "당뇨약, 항응고제, 이뇨제와 함께 복용 시 의사 또는 약사와 상의하십시오."
    doc = Document("easydrug:1:atpn", f"가상이부프로펜캡슐\n과민증 환자는 복용하지 마십시오. {kind}", meta)
    assert taken_medicines.lines(["와파린"], [doc], {"1"}, quoted="")[1] == f"가상이부프로펜캡슐: {kind} [문서 1]"
    named = Document("easydrug:1:atpn", f"가상이부프로펜캡슐\n{kind} 와파린을 복용하는 사람은 상의하십시오.", meta)
    assert "와파린을" in taken_medicines.lines(["와파린"], [named], {"1"}, quoted="")[1]
    assert taken_medicines.lines(["타이레놀"], [doc], {"1"}, quoted="") == []  # no kind the leaflets name


def test_a_product_that_only_shares_a_quoted_sentence_is_not_an_answered_one():
    """A class answer offers the products it names; another leaflet cited beside the same sentence is not offered, so
    the user's-medicine line is never taken from it (it would read as offering that product)."""
    from programs.extractive import answered_products

    first = Document("easydrug:1:efcy", "가상산\n두통에 사용합니다.", {"item_seq": "1", "item_name": "가상산"})
    second = Document("easydrug:2:efcy", "가상캡슐\n두통에 사용합니다.", {"item_seq": "2", "item_name": "가상캡슐"})
    assert answered_products(["가상산: 두통에 사용합니다. [문서 1, 2]"], [first, second]) == {"1"}
    assert answered_products(["두통에 사용합니다. [문서 1, 2]"], [first, second]) == {"1", "2"}  # none named


def test_a_sentence_the_answer_quotes_cut_is_not_quoted_again():
    """The question's own quote, cut to the items around a word (… 고혈압, 부종 …), is that sentence: the line for the
    medicine taken does not repeat it under its own lead."""
    meta = {"item_seq": "1", "item_name": "가상콜드액", "section": "atpn"}
    sentence = "복용 전에 수두, 간장질환, 당뇨병, 고혈압, 부종, 와파린을 복용하는 사람은 의사와 상의하십시오."
    doc = Document("easydrug:1:atpn", f"가상콜드액\n{sentence}", meta)
    cut = "가상콜드액: 복용 전에 수두, … 고혈압, 부종, 와파린을 복용하는 사람은 의사와 상의하십시오. [문서 1]"
    assert taken_medicines.lines(["와파린"], [doc], {"1"}, quoted=cut) == []
    assert taken_medicines.lines(["와파린"], [doc], {"1"}, quoted="")[1].startswith("가상콜드액: 복용 전에")


def test_a_shorter_sentence_quoted_whole_is_not_the_longer_one_naming_the_medicine():
    """Another product's "아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오", quoted whole, is not the
    longer list that also forbids MAO 억제제: the line for a user on one is still added."""
    meta = {"item_seq": "1", "item_name": "가상코프액", "section": "intrc"}
    tail = "아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오."
    doc = Document("easydrug:1:intrc", f"가상코프액\nMAO 억제제를 복용하는 사람, {tail}", meta)
    quoted = f"다른가상정: {tail} [문서 2]"
    assert taken_medicines.lines(["MAO 억제제"], [doc], {"1"}, quoted=quoted)[1].startswith("가상코프액: MAO")
