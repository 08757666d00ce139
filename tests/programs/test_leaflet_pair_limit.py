"""A product whose own leaflet forbids taking it with a kind of medicine the user takes is not offered
(programs/leaflet_pair_limit.py): over the real mini index, 게보린정 ("다른 소염(항염)진통제, 다른 해열진통제 …
복용하지 마십시오") and 부루펜정 ("다른 비스테로이드성 소염진통제와 함께") for a user on aspirin."""

import pytest

from metrics.forbidden_offers import judge
from programs import leaflet_pair_limit, offer_guard
from programs.crag import CRAG
from retrievers.corpus import load_corpus
from retrievers.documents import Document

QUESTION = "머리가 아파요 진통제 뭐 먹어요?"


def _row(pred, user: dict) -> dict:
    return {"question": QUESTION, "user": user, "answer": pred.answer, "doc_ids": [c["id"] for c in pred.citations]}


def test_a_user_on_aspirin_is_offered_no_painkiller_whose_leaflet_forbids_another(searcher):
    plain = CRAG(backend=searcher)(question=QUESTION)
    assert plain.answer.startswith("효능·효과가 질문과 맞는 제품입니다: 게보린정, 부루펜정200밀리그램")
    user = {"medicines": ["아스피린"]}
    pred = CRAG(backend=searcher)(question=QUESTION, user=user)
    marking = pred.answer.splitlines()[0]
    assert "게보린정(설명서 해열진통제 병용 금지" in marking
    assert "부루펜정200밀리그램(설명서 소염진통제 병용 금지" in marking
    assert "게보린정(사용자에게 맞지 않는 약): [상호작용" in pred.answer  # the line that says why
    assert judge(_row(pred, user), searcher)["offers"] == {}
    assert set(judge(_row(plain, user), searcher)["offers"]) == {"게보린정", "부루펜정200밀리그램"}


def test_a_medicine_of_another_kind_forbids_nothing_here(searcher):
    pred = CRAG(backend=searcher)(question=QUESTION, user={"medicines": ["와파린"]})
    assert "설명서 해열진통제 병용 금지" not in pred.answer and "설명서 소염진통제 병용 금지" not in pred.answer


def test_a_consulting_line_forbids_nothing():
    consult = "다른 해열진통제와 함께 복용 시 의사 또는 약사와 상의하십시오."
    assert leaflet_pair_limit.forbids(consult, ("해열진통제",)) == ""
    assert leaflet_pair_limit.forbids("다른 해열진통제와 함께 복용하지 마십시오.", ("소염진통제",)) == ""


def test_each_kinds_ingredient_is_one_the_leaflets_use_for_what_the_kind_is_for():
    """`KINDS` is domain knowledge, checked against the corpus: each of its ingredients that a single-ingredient
    product holds has such a product whose 효능 says what each of its kinds treats (a 해열진통제 fever or pain, a
    소염진통제 inflammation or pain), and the table names every ingredient by its canonical key."""
    from retrievers.name_keys import ingredient_key

    purpose = {"해열진통제": ("진통", "해열", "통증", "발열"), "소염진통제": ("소염", "진통", "염증", "통증")}
    assert all(ingredient_key(i) == i for i in leaflet_pair_limit.KINDS)
    said: dict[str, set[str]] = {}
    for doc in load_corpus():
        ingredients = [i.strip() for i in str(doc.metadata.get("main_ingr", "")).split(",") if i.strip()]
        if doc.id.endswith(":efcy") and len(ingredients) == 1:
            key = ingredient_key(ingredients[0])
            for kind in leaflet_pair_limit.KINDS.get(key, ()):
                if any(w in doc.text for w in purpose[kind]):
                    said.setdefault(key, set()).add(kind)
    assert said, "the corpus has single-ingredient painkillers"
    assert all(said[key] == set(leaflet_pair_limit.KINDS[key]) for key in said), said


def test_an_allowed_sibling_is_not_withheld_for_a_forbidden_ones_stem():
    """키미테정 forbidden, 키미테패취 not: a line naming the patch stays (its name holds 키미테, the tablet's stem)."""
    tablet = Document("easydrug:1:efcy", "키미테정\nx", {"item_seq": "1", "item_name": "키미테정"})
    patch = Document("easydrug:2:efcy", "키미테패취\nx", {"item_seq": "2", "item_name": "키미테패취"})
    rule = Document("easydrug:1:intrc#pair", "키미테정\n해열진통제와 함께 복용하지 마십시오.", {"dur_type": "설명서"})
    docs = offer_guard.mark([tablet, patch], {"1": [rule]})
    answer, withheld = offer_guard.withhold("키미테패취: 멀미에 사용합니다. [문서 2]", docs, "멀미약 추천")
    assert "키미테패취: 멀미에 사용합니다." in answer and withheld == []
    _, withheld = offer_guard.withhold("키미테정: 멀미에 사용합니다. [문서 1]", docs, "멀미약 추천")
    assert withheld == ["키미테정"]


def test_a_diuretic_taken_is_forbidden_by_the_lines_naming_diuretics_or_its_own_kind():
    """A user on 히드로클로로티아지드 (a 티아지드계 이뇨제): 다푸러스액's "티아지드계 이뇨제(…)와 함께 복용하지
    마십시오" and a painkiller's "… 아스피린, 이뇨제, 리튬 … 함께 복용하지 마십시오" forbid it; a line naming another
    kind (칼륨보전이뇨제, 푸로세미드 이뇨제) or sending to a pharmacist does not."""
    thiazide = leaflet_pair_limit.kinds_of(["히드로클로로티아지드"])
    loop = leaflet_pair_limit.kinds_of(["푸로세미드"])
    licorice = "다른 한약제제, 감초함유제제, 티아지드계 이뇨제(트리클로르메티아지드)와 함께 복용하지 마십시오."
    painkiller = "이 약을 복용하는 동안 다른 소염진통제, ACE 억제제, 아스피린, 이뇨제, 리튬을 함께 복용하지 마십시오."
    others = "칼륨보전이뇨제, 푸로세미드 이뇨제를 함께 복용하지 마십시오."
    assert leaflet_pair_limit.forbids(licorice, thiazide) == "티아지드계 이뇨제"
    assert leaflet_pair_limit.forbids(painkiller, thiazide) == "이뇨제"
    assert leaflet_pair_limit.forbids(others, thiazide) == ""
    assert leaflet_pair_limit.forbids(licorice, loop) == "" and leaflet_pair_limit.forbids(others, loop) == "푸로세미드"
    assert leaflet_pair_limit.forbids("이뇨제와 함께 복용 시 의사 또는 약사와 상의하십시오.", thiazide) == ""


def test_a_blood_pressure_medicine_taken_is_forbidden_by_the_lines_naming_blood_pressure_medicines():
    """A decongestant's "혈압강하제, 항우울약과 함께 복용하지 마십시오" binds a user on 암로디핀, on a thiazide (which
    lowers blood pressure too) or on 혈압약 as people name the kind (its ingredients, retrievers/not_covered.py); a
    painkiller taken does not."""
    line = "혈압강하제, 항우울약과 함께 복용하지 마십시오."
    for medicine in ("암로디핀", "히드로클로로티아지드", "혈압약"):
        assert leaflet_pair_limit.forbids(line, leaflet_pair_limit.kinds_taken([medicine])) == "혈압강하제", medicine
    assert leaflet_pair_limit.forbids("항고혈압제를 함께 복용하지 마십시오.", leaflet_pair_limit.kinds_of(["발사르탄"]))
    assert leaflet_pair_limit.forbids(line, leaflet_pair_limit.kinds_of(["아스피린"])) == ""


@pytest.mark.parametrize(
    "sentence, medicine",
    [
        ("비타민D, 치아짓계 이뇨제와 함께 복용하지 마십시오.", "히드로클로로티아지드"),  # as 에디정 spells it
        ("칼슘 함유제제 또는 치아지드계 이뇨제와 함께 복용하지 마십시오.", "히드로클로로티아지드 12.5mg"),
        ("감초함유제제, 루프계 이뇨제(푸로세미드, 에타크린산)와 함께 복용하지 마십시오.", "토르세미드"),
        ("다른 소염진통제, 아스피린, 이뇨제, 리튬을 함께 복용하지 마십시오.", "로사르탄/히드로클로로티아지드"),
        ("다른 소염진통제, 아스피린, 이뇨제, 리튬을 함께 복용하지 마십시오.", "후로세미드"),
    ],
)
def test_the_leaflets_spellings_and_the_profiles_ways_of_writing_a_diuretic(sentence, medicine):
    assert leaflet_pair_limit.forbids(sentence, leaflet_pair_limit.kinds_of([medicine]))
