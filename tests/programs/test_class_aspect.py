"""A class question's situation read in the class's other products' sections (programs/class_aspect.py): the
section's text is what speaks of the situation, not the product's name above it."""

from programs.class_aspect import aspect_documents
from programs.sentences import SentenceRanker
from retrievers.documents import Document


def test_a_seed_inside_a_product_name_does_not_make_its_section_speak_of_the_situation():
    friends = Document("easydrug:1:atpn", "프렌즈아이점안액\n눈에 넣기 전에 손을 씻으십시오.", {})
    lens = Document("easydrug:2:atpn", "누네점안액\n콘택트렌즈를 뺀 후 점안하고 15분 후에 착용하십시오.", {})
    docs = {d.id: d for d in (friends, lens)}
    ranker = SentenceRanker("인공눈물 넣고 렌즈 바로 껴도 돼요")
    assert "lens" in ranker.situations
    added = aspect_documents(ranker, ["1", "2"], set(), docs.get)
    assert [d.id for d in added] == ["easydrug:2:atpn"]


def test_with_no_situation_asked_the_questions_own_words_choose_the_sections(monkeypatch):
    """70대 아버지 전립선비대 있으신데 수면유도제 드려도 될까요: no situation word, but 전립선 is what a class member's
    주의사항 must speak of; only that sentence of it is added. Without the content words nothing would be."""
    from programs import class_aspect

    prostate = Document(
        "easydrug:2:atpn", "슬립정\n눈에 넣지 마십시오. 전립선 비대 등 배뇨곤란 환자는 의사와 상의하십시오.", {}
    )
    other = Document("easydrug:3:atpn", "잠정\n임부는 복용하지 마십시오.", {})
    docs = {d.id: d for d in (prostate, other)}
    ranker = SentenceRanker("70대 아버지 전립선비대 있으신데 수면유도제 드려도 될까요")
    added = aspect_documents(ranker, ["3", "2"], set(), docs.get)
    assert [(d.id, d.text) for d in added] == [
        ("easydrug:2:atpn", "슬립정\n전립선 비대 등 배뇨곤란 환자는 의사와 상의하십시오.")
    ]
    monkeypatch.setattr(class_aspect, "CONTENT_WORDS", False)
    assert aspect_documents(ranker, ["3", "2"], set(), docs.get) == []


def test_an_age_stated_puts_the_members_whose_dose_band_takes_it_in_first():
    """중딩 14살 딸 해열제 몇알: every member's 용법 speaks of a dose; those writing a band that holds 14 come first,
    ahead of retrieval's order (an adult capsule's "성인은 1회 1캡슐" is no 14-year-old's dose)."""
    adult = Document("easydrug:1:useMethod", "덱스캡슐\n성인은 1회 1캡슐(300 mg), 1일 2~4회 복용합니다.", {})
    banded = Document(
        "easydrug:2:useMethod", "해열정\n만 12세 이상 소아 및 성인은 1회 1~2정씩, 1일 3~4회 복용합니다.", {}
    )
    docs = {d.id: d for d in (adult, banded)}
    ranker = SentenceRanker("중딩 14살 딸 해열제 몇알 먹이면 돼요?")
    assert ranker.ages == (14, 15)
    added = aspect_documents(ranker, ["1", "2"], set(), docs.get, limit=1)
    assert [d.id for d in added] == ["easydrug:2:useMethod"]
