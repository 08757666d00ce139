"""A class word chooses the products (retrievers/class_products.py, the searcher's class feature) and counts as a
drug signal for the scope guard, over the real searcher on the mini corpus."""

import pytest

from retrievers.candidates import CLASS_WEIGHT
from retrievers.class_products import ClassProducts, class_terms
from retrievers.lexicon import Lexicon

COLD = "196800036"  # 판콜에이내복액: 감기의 여러 증상
DIGESTIVE = "198700405"  # 베아제정: 소화불량


def test_class_terms_are_the_stem_and_the_rule_words():
    lex = Lexicon.load()
    assert class_terms("감기약", lex)[0] == "감기"
    assert "불면" in class_terms("수면유도제", lex)  # the rule it matches, not a stem the leaflets never write
    assert class_terms("청약", lex) == ()  # a one-syllable stem names nothing


@pytest.mark.parametrize(
    ("word", "written"),
    [
        ("지사제", "설사"),
        ("진해거담제", "기침"),
        ("완하제", "변비"),
        ("항히스타민제", "알레르기성비염"),
        ("위장약", "위산과다"),  # the leaflets' 위장 is the gas relievers' 위장관 내 가스; an antacid is for 위산과다
    ],
)
def test_a_class_whose_stem_no_leaflet_writes_is_read_by_what_it_is_for(word, written):
    """지사제 (止瀉: stops diarrhoea): 효능 sections say 설사, never 지사; the class's rule word names its
    products."""
    from retrievers.documents import Document

    efficacy = Document(
        "easydrug:1:efcy", f"어느약\n이 약은 {written}에 사용합니다.", {"item_seq": "1", "section": "efcy"}
    )
    other = Document("easydrug:2:efcy", "다른약\n이 약은 두통에 사용합니다.", {"item_seq": "2", "section": "efcy"})
    assert ClassProducts.from_documents([efficacy, other]).products([word], Lexicon.load()) == {"1"}


def test_members_are_read_from_the_efficacy_sections(searcher):
    index = ClassProducts.from_documents(searcher.docs)
    cold = index.products(["감기약"], Lexicon.load())
    assert COLD in cold and DIGESTIVE not in cold
    assert DIGESTIVE in index.products(["소화제"], Lexicon.load())


def test_a_class_question_weighs_its_members_and_only_them(searcher):
    result = searcher.retrieve("감기약 먹고 운전해도 돼요?")
    cold = searcher.class_products.products(["감기약"], searcher.lexicon)
    weighed = [h for h in result.candidates if h.scores["product"] > 0]
    assert weighed and all(h.doc.metadata["item_seq"] in cold for h in weighed)
    assert all(h.scores["product"] == CLASS_WEIGHT for h in weighed)
    assert result.hits[0].doc.metadata["item_seq"] in cold


def test_a_named_product_is_never_overridden_by_its_class(searcher):
    result = searcher.retrieve("게보린 같은 두통약 부작용")
    assert all(h.scores["product"] != CLASS_WEIGHT for h in result.candidates)


@pytest.mark.parametrize(
    "question, blocked",
    [
        ("가래약 먹어도 돼요?", False),  # 가래 is in 효능 sections
        ("안약 넣고 렌즈 껴도 돼요", False),  # a dosage form
        ("지사제 아이한테 먹여도 돼요?", False),  # a class known by what it is for (설사)
        ("부동산 청약 조건이 뭐에요", True),  # ends in 약, names no medicine
    ],
)
def test_a_known_kind_of_medicine_keeps_a_question_in_scope(searcher, question, blocked):
    assert searcher.retrieve(question).out_of_scope is blocked


def test_a_class_word_written_with_a_same_sounding_vowel_is_read_as_the_class(searcher):
    result = searcher.retrieve("소화재 빈속에 먹어도 되나")  # 재 for 제: ㅐ and ㅔ sound alike
    assert not result.out_of_scope
    assert result.read_as == {"소화재": "소화제"}
    weighed = [h for h in result.candidates if h.scores["product"] == CLASS_WEIGHT]
    assert weighed and DIGESTIVE in {h.doc.metadata["item_seq"] for h in weighed}


def test_a_one_syllable_stem_before_약_or_제_is_no_kind_of_medicine(searcher):
    assert searcher.retrieve("실제로 현재 숙제 예약 어떻게 해요").out_of_scope  # 실제, 현재 (현제), 숙제, 예약


def test_the_joined_search_finds_what_a_scan_of_every_text_finds(searcher):
    index = searcher.class_products
    for terms in [("감기",), ("해열", "발열"), ("변비",), ("없는말",), ("",), ("통",)]:
        scan = {seq for seq, text in index.efficacy.items() if any(t in text for t in terms)}
        assert index._with_terms(terms) == scan, terms


def test_a_symptom_with_a_form_named_chooses_the_symptoms_products_in_that_form(searcher):
    """발톱 무좀 … 약국 네일라카 names no class: the products for the symptom in the form named are the candidates
    retrieval must not miss. On the mini corpus, 체함 is in 베아제정's, 훼스탈플러스정's and 겔포스엠현탁액's 효능;
    현탁액 leaves 겔포스엠현탁액."""
    from retrievers.query_analysis import analyse

    def chosen(question):
        return searcher.candidates.symptom_in_form(analyse(question, searcher.names, searcher.lexicon, 1000))

    assert chosen("체했을 때 현탁액 하루 몇 번 먹어요") == {"199400883"}
    assert chosen("체했을 때 하루 몇 번 먹어요") == set()  # no form named
    assert chosen("소화불량 현탁액") == set()  # no product for the symptom in that form: the form narrows nothing


def test_a_product_whose_name_says_no_form_is_of_the_form_its_use_says():
    """신신파스아렉스 ends in no form word; its 용법 says 부착합니다, so it is one of the 파스 a question asks about
    (the rules that bind forms still read it as any form: `product_kinds` is unchanged)."""
    from retrievers.documents import Document
    from retrievers.form_kinds import ANY, product_kinds

    def doc(seq, name, section, text):
        meta = {"item_seq": seq, "item_name": name, "section": section}
        return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", meta)

    docs = [
        doc("1", "가나파스아렉스", "efcy", "근육통에 사용합니다."),
        doc("1", "가나파스아렉스", "useMethod", "1일 1~2회 질환 부위에 부착합니다."),
        doc("2", "다라연고{수출명:다라파스타}", "efcy", "구내염에 사용합니다."),
        doc("2", "다라연고{수출명:다라파스타}", "useMethod", "1일 수회 환부에 바릅니다."),
        doc("3", "마바카타플라스마", "efcy", "요통에 사용합니다."),
    ]
    index = ClassProducts.from_documents(docs)
    assert index.of_form("파스") == {"1", "3"}  # 다라파스타 is applied, not stuck on
    assert ANY in product_kinds("가나파스아렉스")
    assert ClassProducts({d.metadata["item_seq"]: "" for d in docs}, {"1": "가나파스아렉스"}).of_form("파스") == set()
