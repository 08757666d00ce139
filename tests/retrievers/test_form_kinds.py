"""Dosage forms read from product names (retrievers/form_kinds.py), checked against the leaflets themselves."""

import re

import pytest

from retrievers.corpus import load_corpus
from retrievers.form_kinds import JIL_BRANDS, binds, product_kinds


def test_a_name_ending_like_a_vaginal_form_is_one_exactly_when_its_leaflet_treats_the_vagina():
    """질정 / 질크림 endings: each product whose 효능 speaks of no vaginal condition is a brand ending in 질
    (마스질정 is clemastine tablets), and each such brand's leaflet indeed says nothing vaginal."""
    seen = {}
    for doc in load_corpus():
        name = str(doc.metadata.get("item_name", ""))
        base = re.sub(r"\(.*", "", name).strip()
        if doc.id.endswith(":efcy") and re.search(r"질(?:정|크림)$", base):
            seen[base] = bool(re.search(r"질염|질증|질\s*내|질칸디다", doc.text))
    assert seen, "the corpus has vaginal tablets"
    assert {b for b, vaginal in seen.items() if not vaginal} == set(JIL_BRANDS)
    assert all(("vaginal" in product_kinds(b)) == vaginal for b, vaginal in seen.items())


def test_a_tablet_rule_binds_a_tablet_whose_brand_ends_in_jil():
    """[노인주의] 클레마스틴 … 대상 제형: 정제/나정 binds 마스질정 (offered to an 80-year-old as a vaginal form)."""
    assert binds(("정제", "나정"), "마스질정(클레마스틴푸마르산염)")
    assert not binds(("정제", "나정"), "카네스텐질정(클로트리마졸)")


@pytest.mark.parametrize(
    ("question", "forms"),
    [
        ("니코틴 껌 씹을 때 커피 마셔도 되나요", ["껌"]),
        ("니코틴껌을 하루 몇 개 씹어요", ["껌"]),
        ("여드름 젤 타입 바르고 자도 돼요", ["겔"]),  # as names write it (젤 is mostly a brand's syllable)
        ("겔포스 먹고 젤리 먹어도 돼요", []),  # a brand's syllable and a sweet are no forms
        ("껌딱지처럼 붙는 파스", ["파스"]),
    ],
)
def test_one_letter_forms_are_read_as_words(question, forms):
    from retrievers.form_kinds import question_forms

    assert question_forms(question) == forms
