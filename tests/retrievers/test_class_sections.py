"""A class's side effect (두통약 먹었더니 속이 메슥거려요): the symptom's words find medicines *for* nausea, so the
class's own 이상반응 sections that list it join the candidates (retrievers/candidates.py `class_sections`)."""

import numpy as np

from retrievers.candidates import CLASS_WEIGHT, Candidates
from retrievers.class_products import ClassProducts
from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import analyse


def _doc(seq: str, name: str, section: str, text: str) -> Document:
    meta = {"item_seq": seq, "item_name": name, "main_ingr": "", "section": section}
    return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", meta)


DOCS = [
    _doc("1", "두통정", "efcy", "[효능·효과] 두통, 치통, 생리통의 진통"),
    _doc("1", "두통정", "se", "[이상반응] 구역, 구토, 식욕부진이 나타날 수 있습니다."),
    _doc("2", "속편해액", "efcy", "[효능·효과] 구역, 구토, 위부불쾌감"),
    _doc("2", "속편해액", "se", "[이상반응] 발진이 나타날 수 있습니다."),
]


def test_the_class_side_effect_sections_join_when_the_symptom_found_other_medicines():
    policy = Candidates(DOCS, NameIndex.from_documents(DOCS), ClassProducts.from_documents(DOCS), Lexicon.load())
    qa = analyse("두통약 먹었더니 속이 메슥거려요", policy.names, Lexicon.load())
    scores = np.array([0.0, 3.0, 5.0, 0.0])  # BM25: the nausea medicine's efficacy first, then 두통정's 이상반응
    found = [2]  # retrieval found only the medicine for nausea
    joined = policy.class_members(qa, found, {}, scores, ["se"])
    assert joined.get(1) == CLASS_WEIGHT  # 두통정's 이상반응
    assert 2 not in joined  # not a headache medicine
    assert 1 not in policy.class_members(qa, found, {})  # without the frame's side-effect aspect: nothing joins


def test_a_class_none_of_whose_products_was_found_joins_with_its_asked_sections():
    """세살 아들 … 관장약 … 남은거 또 써도: retrieval found only other products' 보관법; the products the class word
    names join with the sections the question asks (their 보관법 here), found or not."""
    docs = [
        _doc("1", "그린관장약", "efcy", "[효능·효과] 변비, 장내용물의 배설"),
        _doc("1", "그린관장약", "depositMethod", "[보관법] 실온에서 보관하십시오."),
        _doc("2", "가스현탁액", "depositMethod", "[보관법] 뚜껑을 꼭 닫아 보관하십시오."),
    ]
    policy = Candidates(docs, NameIndex.from_documents(docs), ClassProducts.from_documents(docs), Lexicon.load())
    qa = analyse("관장약 남은거 뚜껑 닫아서 보관해도 되나요", policy.names, Lexicon.load())
    scores = np.array([0.0, 1.0, 4.0])
    joined = policy.class_members(qa, [2], {}, scores)
    assert 1 in joined and 2 not in joined  # 그린관장약's 보관법, not the suspension's
    assert policy.class_members(qa, [2], {}) == {}  # no scores to choose the class's sections by: nothing joins
