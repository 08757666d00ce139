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
