"""Kinds of prescription-only medicine a question names (retrievers/not_covered.py): found as people write them,
and left out when a leaflet of the index contains one of their ingredients (the corpus has the last word)."""

import pytest

from retrievers.documents import Document
from retrievers.names import NameIndex
from retrievers.not_covered import prescribed_phrase, prescription_kinds


def names_of(*leaflets: tuple[str, str], rules=()) -> NameIndex:
    docs = [
        Document(f"easydrug:{i}:efcy", "x", {"item_name": name, "item_seq": str(i), "main_ingr": ingredient})
        for i, (name, ingredient) in enumerate(leaflets, 1)
    ]
    docs += [Document(f"dur:cc:{i}", "x", {"ingredient": w}) for i, w in enumerate(rules, 1)]
    return NameIndex.from_documents(docs)


def test_a_kind_is_found_as_written_with_its_ingredients_dur_knows():
    names = names_of(("게보린정", "아세트아미노펜"), rules=["암로디핀", "로사르탄"])
    assert prescription_kinds("혈압 약 먹는데 부작용이 뭐예요", names) == {"혈압 약": ("암로디핀", "로사르탄")}
    assert prescription_kinds("게보린 부작용", names) == {}


def test_a_kind_inside_a_longer_one_counts_once_and_case_does_not_matter():
    names = names_of(("게보린정", "아세트아미노펜"))
    assert list(prescription_kinds("고혈압약이랑 당뇨약 같이 먹는데요", names)) == ["고혈압약", "당뇨약"]
    assert list(prescription_kinds("adhd약 먹으면 입맛 없나요", names)) == ["adhd약"]


def test_a_kind_one_of_whose_ingredients_has_a_leaflet_is_no_prescription_kind():
    # an index where a leaflet contains 메트포르민 has a medicine of the kind: the question is not about a missing one
    with_leaflet = names_of(("게보린정", "아세트아미노펜"), ("가상메트정", "메트포르민"))
    assert prescription_kinds("당뇨약 부작용", with_leaflet) == {}
    assert list(prescription_kinds("당뇨약 부작용", names_of(("게보린정", "아세트아미노펜")))) == ["당뇨약"]


def test_an_antibiotic_swallowed_is_a_prescription_kind_and_an_ointment_is_not():
    """먹는 항생제: every antibiotic taken by mouth is prescribed; the leaflets have antibiotic ointments."""
    names = names_of(("후시딘연고", "퓨시드산나트륨"), rules=["독시사이클린"])
    assert prescription_kinds("항생제 먹는 동안 유산균 먹어도 돼요?", names) == {"항생제": ("독시사이클린",)}
    assert prescription_kinds("항생제 먹는 중인데 겔포스 같이 먹어도 되나요", names) == {"항생제": ("독시사이클린",)}
    assert prescription_kinds("항생제 연고 상처에 발라도 돼요?", names) == {}


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("병원에서 받은 스테로이드 코 스프레이는 오래 써도 괜찮나요", "병원에서 받은 스테로이드 코 스프레이는"),
        ("피부과에서 처방받은 연고 얼굴에 발라도 돼요", "피부과에서 처방받은 연고"),
        ("소아과에서 받은 해열제 시럽 냉장보관 해야돼요?", "소아과에서 받은 해열제 시럽"),
        ("처방받은 약 먹는데 감기약 같이 먹어도 돼요", "처방받은 약"),  # the cold medicine is another one
        ("심바스타틴이랑 클래리스로마이신 같이 처방받았는데 괜찮나", ""),  # prescribed, said of named drugs
        ("병원에서 감기약 지어서 먹고 있는데 타이레놀 먹어도 돼요", ""),
        ("게보린 부작용", ""),
        ("약국에서 지은 가루약 남은거 먹어도 돼요", "약국에서 지은 가루약"),  # dispensed at a pharmacy
        ("약국에서 산 감기약 먹어도 돼요", ""),  # bought there: an over-the-counter medicine
        ("약봉투에 식후 30분이라고 써있는데 바로 먹어도 돼요", "약봉투에"),  # the dispensing envelope
        ("피부과에서 소론도 받아서 먹는데 끊어도 돼요", "피부과에서 소론도 받아서"),  # the name between
        ("동네 내과에서 약 받았는데 타이레놀 같이 먹어도 돼요", "내과에서 약 받았"),
        ("항생제 일주일치 받았는데 다 먹어야 돼요", "항생제 일주일치 받"),  # a days' supply: dispensed, and its name
        ("위장약 3일치 받아왔는데 감기약 같이 먹어도 돼요", "위장약 3일치 받"),  # the cold medicine is another one
        ("병원에서 3일분 약 받았어요", "병원에서 3일분 약 받았"),
        ("내과에서 진료 받았는데 감기약 먹어도 돼요", ""),  # a consultation, no medicine
        ("효과에서 차이 받았", ""),  # 효과 is no clinic
        ("애기 기침땜에 병원서 지어온 가루약이랑 물약 남은거 먹여도 되요?", "병원서 지어온 가루약이랑"),  # 에서 said 서
    ],
)
def test_a_medicine_the_question_says_a_clinic_gave_is_read_with_its_words(question, phrase):
    assert prescribed_phrase(question) == phrase


def test_every_word_a_kind_is_named_by_in_the_leaflets_is_in_the_corpus():
    """The leaflet words of each kind are how the leaflets write it: each occurs in the corpus's leaflets."""
    import json

    from retrievers.corpus import corpus_dir
    from retrievers.not_covered import KINDS, kind_leaflet_words

    text = (corpus_dir() / "easydrug" / "easydrug.jsonl").read_text(encoding="utf-8")
    kinds = json.loads(KINDS.read_text(encoding="utf-8"))["classes"]
    assert all(w in text for k in kinds for w in k["leaflet_words"])
    assert kind_leaflet_words("혈압약 먹는데 감기약 먹어도 돼요")[:2] == ("혈압강하제", "고혈압")


def test_a_kind_prescribed_only_as_a_pill_counts_when_the_question_swallows_it():
    """먹는 탈모약 (finasteride, dutasteride) is prescribed; the minoxidil solution a leaflet has is applied."""
    names = names_of(("마이녹실액5%", "미녹시딜"), rules=["피나스테리드", "두타스테리드"])
    assert prescription_kinds("남편이 탈모약 먹는데 임신 준비 중이면 끊어야 하나요?", names) == {
        "탈모약": ("피나스테리드", "두타스테리드")
    }
    assert list(prescription_kinds("남편 탈모약 쪼개진 거 맨손으로 만졌어요", names)) == ["탈모약"]
    assert prescription_kinds("탈모약 바르고 머리 감아도 돼요", names) == {}
    assert prescription_kinds("탈모약 하루에 몇 번 발라요", names) == {}


def test_vaccines_and_emergency_contraception_are_kinds_the_leaflets_lack():
    """Given at a clinic or prescribed, neither has a leaflet; a regular pill's levonorgestrel leaflet is no
    emergency contraceptive, so the kind lists only ulipristal."""
    names = names_of(("가상피임정", "레보노르게스트렐"))
    assert prescription_kinds("사후피임약 먹고 나서 생리는 언제 해요", names) == {"사후피임약": ()}
    assert prescription_kinds("독감 예방접종 맞은 날 술 마셔도 되나요", names) == {"예방접종": ()}
    assert prescription_kinds("피임약 먹는 중인데 생리가 늦어요", names) == {}
