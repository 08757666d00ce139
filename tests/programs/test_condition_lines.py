"""A profile's conditions inform the answer (programs/condition_lines.py): the answered product's caution naming the
condition is added, cut to the items around it; the question's own quotes stay as without a profile."""

from programs import condition_lines
from programs.crag import CRAG
from retrievers.documents import Document

QUESTION = "게보린 하루에 몇 알까지 먹어요?"


def test_the_caution_naming_the_users_condition_is_added(searcher):
    plain = CRAG(backend=searcher)(question=QUESTION).answer
    ill = CRAG(backend=searcher)(question=QUESTION, user={"conditions": ["고혈압"]}).answer
    lead = condition_lines.LEAD.format(names="고혈압")
    assert lead not in plain and "고혈압" not in plain
    assert lead in ill
    added = ill.splitlines()[ill.splitlines().index(lead) + 1]
    assert added.startswith("게보린정: ") and "고혈압" in added and "상의하십시오" in added and "[문서" in added
    assert "…" in added  # the long list is cut to the items around the condition
    quotes = [ln for ln in plain.splitlines() if "[문서" in ln]
    assert all(q in ill for q in quotes)  # the question's own quotes stay


def test_no_line_when_no_answered_caution_names_it_or_the_answer_says_it():
    meta = {"item_seq": "1", "item_name": "가상정", "section": "atpn"}
    doc = Document("easydrug:1:atpn", "가상정\n당뇨병 환자는 의사 또는 약사와 상의하십시오.", meta)
    assert condition_lines.lines(["당뇨"], [doc], set(), quoted="") == []  # not an answered product
    assert condition_lines.lines(["고혈압"], [doc], {"1"}, quoted="") == []  # not named
    assert condition_lines.lines(["당뇨"], [doc], {"1"}, quoted="당뇨병 환자는 상의하십시오.") == []
    efficacy = Document("easydrug:1:efcy", "가상정\n당뇨병성 신경통에 사용합니다.", {**meta, "section": "efcy"})
    assert condition_lines.lines(["당뇨"], [efficacy], {"1"}, quoted="") == []  # no caution
    assert condition_lines.lines(["당뇨"], [doc], {"1"}, quoted="")[1].startswith("가상정: 당뇨병 환자는")


def test_a_named_product_withheld_from_the_user_still_quotes_its_caution_on_the_users_condition(searcher):
    answer = CRAG(backend=searcher)(question="게보린 먹어도 되나요", user={"age": 5, "conditions": ["고혈압"]}).answer
    assert "사용자에게 맞지 않는 약" in answer  # withheld: 15세 미만
    lead = condition_lines.LEAD.format(names="고혈압")
    assert lead in answer
    added = answer.splitlines()[answer.splitlines().index(lead) + 1]
    assert added.startswith("게보린정: ") and "고혈압" in added
