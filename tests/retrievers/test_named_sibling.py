"""A name that is the whole of one product's name (strength and form aside) means that product, not a sibling with a
variant the question does not write (화이투벤큐 → 화이투벤큐연질캡슐, not 화이투벤큐플러스연질캡슐); a form the question
names still decides first. Real leaflet names, two sections each."""

import pytest

from retrievers.candidates import Candidates
from retrievers.class_products import ClassProducts
from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.name_keys import name_stem, product_keys
from retrievers.names import NameIndex
from retrievers.query_analysis import analyse

PRODUCTS = {
    "201300036": "화이투벤큐연질캡슐",
    "202300071": "화이투벤큐플러스연질캡슐",
    "199702966": "버물리에스액",
    "200410090": "버물리플라스타",
}


@pytest.fixture(scope="module")
def policy():
    docs = [
        Document(f"easydrug:{seq}:{sec}", f"{name}\n졸음이 나타날 수 있습니다.", {"item_seq": seq, "item_name": name})
        for seq, name in PRODUCTS.items()
        for sec in ("atpn", "useMethod")
    ]
    for d in docs:
        d.metadata["section"] = d.id.rsplit(":", 1)[1]
    names = NameIndex.from_documents(docs)
    return Candidates(docs, names, ClassProducts.from_documents(docs), Lexicon.load())


def _weights(policy, question: str) -> dict[str, float]:
    qa = analyse(question, policy.names, Lexicon.load())
    return {policy.docs[i].id.split(":")[1]: w for i, w in policy.name_candidates(qa).items()}


def test_the_stem_keeps_the_variant_and_drops_strength_and_form():
    assert name_stem("화이투벤큐플러스연질캡슐") == "화이투벤큐플러스"
    assert name_stem("화이투벤큐연질캡슐") == "화이투벤큐"
    assert "로게인폼" in product_keys("로게인5%폼에어로졸")  # 에어로졸, the leaflets' other spelling, is a form


def test_the_whole_name_ranks_above_its_variant(policy):
    weights = _weights(policy, "화이투벤큐 먹고 운전해도 돼요?")
    assert weights["201300036"] == 1.0
    assert weights["202300071"] < 1.0
    assert _weights(policy, "화이투벤큐플러스 먹고 운전해도 돼요?")["202300071"] == 1.0  # the variant written


def test_a_form_the_question_names_decides_before_the_whole_name(policy):
    weights = _weights(policy, "아기 모기물린데 버물리 액 발라도 돼요?")
    assert weights["199702966"] == 1.0  # 버물리에스액, though 버물리플라스타 is the whole name 버물리
