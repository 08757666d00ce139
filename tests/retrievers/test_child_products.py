"""A child's question about a brand prefers the brand's product that doses the child (issue 27, item 4), read from
the products' own 용법·용량 (real leaflet text, two products of one brand)."""

import pytest

from retrievers.candidates import Candidates
from retrievers.class_products import ClassProducts
from retrievers.documents import Document
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import analyse

SYRUP = (
    "어린이부루펜시럽 (이부프로펜)\n[용법·용량] 11~14세는 1회 200~250 mg (10~13 mL), "
    "7~10세는 1회 150~200 mg (8~10 mL), "
    "3~6세는 1회 100~150 mg (5~8 mL), 1~ 2세는 1회 50~100 mg (3~5 mL)을 1일 3~4회 복용합니다."
)
TABLET = (
    "부루펜정200밀리그램 (이부프로펜)\n[용법·용량] 경증 및 중등도의 동통이나 감기에는 성인 1회 1~2정(200~400 mg) "
    "1일 3~4회 복용합니다."
)


def _leaflet(seq: str, name: str, section: str, text: str) -> Document:
    meta = {"item_seq": seq, "item_name": name, "main_ingr": "이부프로펜", "section": section}
    return Document(f"easydrug:{seq}:{section}", text, meta)


@pytest.fixture(scope="module")
def policy():
    docs = [
        _leaflet("197700120", "부루펜정200밀리그램(이부프로펜)", "useMethod", TABLET),
        _leaflet(
            "197700120", "부루펜정200밀리그램(이부프로펜)", "efcy", "부루펜정200밀리그램\n[효능·효과] 감기로 인한 발열"
        ),
        _leaflet("198601920", "어린이부루펜시럽(이부프로펜)", "useMethod", SYRUP),
        _leaflet("198601920", "어린이부루펜시럽(이부프로펜)", "efcy", "어린이부루펜시럽\n[효능·효과] 감기로 인한 발열"),
    ]
    names = NameIndex.from_documents(docs)
    return Candidates(docs, names, ClassProducts.from_documents(docs), Lexicon.load())


def _weights(policy, question: str) -> dict[str, float]:
    qa = analyse(question, policy.names, Lexicon.load())
    return {policy.docs[i].id: w for i, w in policy.name_candidates(qa).items()}


def test_the_brand_brings_its_childrens_edition(policy):
    found = policy.names.match("부루펜 몇 알")
    assert "198601920" in found.family and "197700120" in found.products


@pytest.mark.parametrize("question", ["부루펜 6살 몇 미리 먹여요", "20개월 아기 부루펜 먹여도 돼요"])
def test_a_young_childs_question_puts_the_product_dosing_the_child_first(policy, question):
    weights = _weights(policy, question)
    assert weights["easydrug:198601920:useMethod"] == 1.0
    assert weights["easydrug:197700120:useMethod"] < 1.0


@pytest.mark.parametrize(
    "question",
    [
        "부루펜 하루에 몇 알 먹어요",  # no child: the named tablet leads
        "어른 부루펜 반 쪼개서 6살 애한테 먹여도 돼요",  # the adults' product is what is asked about
        "중학생 딸 부루펜 먹여도 돼요",  # an adolescent takes the adults' forms
    ],
)
def test_otherwise_the_named_product_leads(policy, question):
    weights = _weights(policy, question)
    assert weights["easydrug:197700120:useMethod"] == 1.0
    assert weights["easydrug:198601920:useMethod"] < 1.0


def test_a_band_the_child_is_not_in_does_not_count(policy):
    """The syrup doses 1 to 14: a child of 5 is in a band; the tablet doses adults only."""
    from retrievers.age_doses import child_ages, doses_child

    assert doses_child(SYRUP, child_ages("5살 아이"))
    assert not doses_child(TABLET, child_ages("5살 아이"))
    assert not doses_child(SYRUP, child_ages("3개월 아기"))  # the youngest band starts at 1


@pytest.mark.parametrize(
    ("text", "question"),
    [
        # a full-width tilde between the bounds (48 dose sections of the corpus write one)
        ("만 7세 이상 ～ 만 11세 미만은 1회 7.5 mL, 만 3세 이상 ～ 만 7세 미만은 1회 5 mL를 복용합니다.", "4살 딸"),
        # a table's youngest row written as one bound, in months
        ("1~6세 유아는 1일 5~10 mL, 12개월 미만의 영아는 1일 5 mL를 복용합니다.", "10개월 애기"),
    ],
)
def test_a_dose_table_as_the_leaflets_write_it_doses_the_child(text, question):
    from retrievers.age_doses import child_ages, doses_child, for_older_only, oldest_age

    assert doses_child(text, child_ages(question))
    assert not for_older_only(text, oldest_age(question))


def test_a_young_childs_class_question_prefers_the_class_products_dosing_the_child(policy):
    """아기 해열제 몇 미리: of the fever medicines found, the syrup that doses a baby, not the adults' tablet."""
    from retrievers.candidates import CLASS_WEIGHT

    qa = analyse("아기 해열제 몇 미리 먹여요", policy.names, Lexicon.load())
    weights = {policy.docs[i].id: w for i, w in policy.class_members(qa, list(range(len(policy.docs))), {}).items()}
    assert weights["easydrug:198601920:efcy"] == CLASS_WEIGHT
    assert weights["easydrug:197700120:efcy"] < CLASS_WEIGHT
    adult = analyse("해열제 한번에 얼마나 먹어요", policy.names, Lexicon.load())
    weights = {policy.docs[i].id: w for i, w in policy.class_members(adult, list(range(len(policy.docs))), {}).items()}
    assert weights["easydrug:197700120:efcy"] == weights["easydrug:198601920:efcy"] == CLASS_WEIGHT
    # 몇 알 counts tablets (name_words.SAID_FORMS): the tablet, not the syrup, is what it asks about
    qa = analyse("해열제 몇 알 먹어요", policy.names, Lexicon.load())
    weights = {policy.docs[i].id: w for i, w in policy.class_members(qa, list(range(len(policy.docs))), {}).items()}
    assert weights["easydrug:197700120:efcy"] == CLASS_WEIGHT > weights["easydrug:198601920:efcy"]


GENERIC = TABLET.replace("부루펜정200밀리그램", "가나이부프로펜정")


@pytest.fixture(scope="module")
def by_ingredient():
    """The two products above and a tablet named after the ingredient (as many generics are)."""
    docs = [
        _leaflet("197700120", "부루펜정200밀리그램(이부프로펜)", "useMethod", TABLET),
        _leaflet("198601920", "어린이부루펜시럽(이부프로펜)", "useMethod", SYRUP),
        _leaflet("200000001", "가나이부프로펜정", "useMethod", GENERIC),
    ]
    names = NameIndex.from_documents(docs)
    return Candidates(docs, names, ClassProducts.from_documents(docs), Lexicon.load())


@pytest.mark.parametrize("question", ["이부프로펜 6살 몇 미리 먹여요", "6살 아들 열나는데 이부프로펜 먹여도 되나요"])
def test_a_young_childs_question_naming_an_ingredient_puts_its_product_dosing_the_child_first(by_ingredient, question):
    weights = _weights(by_ingredient, question)
    syrup = weights["easydrug:198601920:useMethod"]
    assert syrup > weights["easydrug:197700120:useMethod"]
    assert syrup > weights.get("easydrug:200000001:useMethod", 0.0)  # named after the ingredient, still an adult's


def test_an_ingredient_question_with_no_child_keeps_the_products_alike(by_ingredient):
    weights = _weights(by_ingredient, "이부프로펜 몇 알 먹어요")
    assert weights["easydrug:198601920:useMethod"] <= weights["easydrug:197700120:useMethod"]


def test_a_named_product_dosing_the_child_leads_over_the_brands_other_childrens_products():
    """써스펜 좌약 for a 2-year-old: the suppository named doses the child, so the brand's syrup (which also does) stays
    a sibling below it; the brand's children's product steps up only when the named one doses no child."""
    suppository = "복합써스펜좌약\n[용법·용량] 3~6세는 1회 2개, 1~2세는 1회 1~2개, 3~12개월은 1회 1개씩 삽입합니다."
    syrup = "써스펜데이시럽\n[용법·용량] 만 2세 이상~만 6세 미만 1회 5 mL, 만 6세 이상~만 12세 미만 1회 10 mL"
    docs = [
        _leaflet("1", "복합써스펜좌약", "useMethod", suppository),
        _leaflet("1", "복합써스펜좌약", "efcy", "복합써스펜좌약\n[효능·효과] 감기로 인한 발열"),
        _leaflet("2", "써스펜데이시럽", "useMethod", syrup),
        _leaflet("2", "써스펜데이시럽", "efcy", "써스펜데이시럽\n[효능·효과] 감기의 여러 증상"),
    ]
    names = NameIndex.from_documents(docs)
    policy = Candidates(docs, names, ClassProducts.from_documents(docs), Lexicon.load())
    weights = _weights(policy, "2살 딸 써스펜 좌약 넣었는데 열이 그대로예요")
    assert weights["easydrug:1:useMethod"] == 1.0
    assert weights["easydrug:2:useMethod"] < 1.0


APAP_SUSPENSION = (
    "어린이타이레놀현탁액 (아세트아미노펜)\n[용법·용량] 만 12세 이하의 소아는 1회 권장용량을 4-6시간마다 필요 시 "
    "복용합니다. 1일 5회(75 mg/kg)를 초과하여 복용하지 마십시오."
)
APAP_TABLET = (
    "타이레놀정500밀리그람 (아세트아미노펜)\n[용법·용량] 만 12세 이상 소아 및 성인은 1회 1~2정씩, 1일 3~4회(4~6시간 "
    "마다) 필요시 복용합니다."
)


@pytest.fixture(scope="module")
def two_brands():
    """Two brands, each with an adults' tablet and a children's liquid (real 용법·용량 lines)."""

    def leaflet(seq, name, ingredient, text):
        meta = {"item_seq": seq, "item_name": name, "main_ingr": ingredient, "section": "useMethod"}
        return Document(f"easydrug:{seq}:useMethod", text, meta)

    docs = [
        leaflet("197700120", "부루펜정200밀리그램(이부프로펜)", "이부프로펜", TABLET),
        leaflet("198601920", "어린이부루펜시럽(이부프로펜)", "이부프로펜", SYRUP),
        leaflet("202106092", "타이레놀정500밀리그람(아세트아미노펜)", "아세트아미노펜", APAP_TABLET),
        leaflet("202200525", "어린이타이레놀현탁액(아세트아미노펜)", "아세트아미노펜", APAP_SUSPENSION),
    ]
    names = NameIndex.from_documents(docs)
    return Candidates(docs, names, ClassProducts.from_documents(docs), Lexicon.load())


def test_a_childs_question_naming_two_brands_puts_each_brands_childrens_product_first(two_brands):
    """One brand's children's syrup dosing the child does not leave the other brand at its adults' tablet."""
    weights = _weights(two_brands, "4살 아들 타이레놀시럽 먹였는데 3시간 지나도 열나면 부루펜시럽 먹여도 되나요")
    assert weights["easydrug:202200525:useMethod"] == weights["easydrug:198601920:useMethod"] == 1.0
    assert weights["easydrug:202106092:useMethod"] < 1.0
    assert weights["easydrug:197700120:useMethod"] < 1.0


def test_a_form_said_of_a_brand_puts_the_member_of_that_form_first(two_brands):
    """No child in the question: the form said (시럽) chooses the brand's liquid, a 현탁액 by name, over the tablet
    the name is."""
    weights = _weights(two_brands, "타이레놀 시럽 하루 최대 몇 번까지 먹어요")
    assert weights["easydrug:202200525:useMethod"] == 1.0
    assert weights["easydrug:202106092:useMethod"] < 1.0
