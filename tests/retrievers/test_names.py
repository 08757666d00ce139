import pytest

from retrievers.corpus import load_corpus
from retrievers.names import NameIndex, ingredient_keys, load_names, product_keys, save_names


@pytest.fixture(scope="module")
def names():
    return NameIndex.from_documents(load_corpus())


def test_product_keys_drop_export_name_strength_and_dosage_form():
    keys = product_keys("게보린정(수출명:돌로린정)")
    assert {"게보린정", "게보린"} <= keys
    assert "부루펜" in product_keys("부루펜정200밀리그램(이부프로펜)")
    assert "판콜" in product_keys("판콜에이내복액")  # 내복액 then the 에이 variant


def test_ingredient_keys_drop_salts_and_prefixes():
    assert "세티리진" in ingredient_keys("세티리진염산염")
    assert "세티리진" in ingredient_keys("염산세티리진")
    assert "메틸에페드린" in ingredient_keys("dl-메틸에페드린염산염")


@pytest.mark.parametrize(
    "query,key",
    [
        ("게보린 먹고 속이 쓰려요", "게보린"),
        ("게보린먹고속쓰려요", "게보린"),
        ("게보린정 부작용", "게보린정"),
        ("판콜 부작용", "판콜"),
        ("이지엔6 몇알", "이지엔6"),
    ],
)
def test_products_are_found_despite_spacing_and_forms(names, query, key):
    found = names.match(query)
    assert key in found.keys and found.products


def test_ingredients_are_found(names):
    assert "세티리진" in names.match("세티리진 임신중에 먹어도 돼요").ingredients


def test_common_words_are_not_names(names):
    assert not names.match("두통에 먹는 약").products
    assert not names.match("배에 가스가 차요").products
    assert not names.match("삼성전자 주가").keys


def test_names_round_trip_through_json(names, tmp_path):
    save_names(names, tmp_path / "n.json")
    back = load_names(tmp_path / "n.json")
    assert back.match("게보린 부작용").products == names.match("게보린 부작용").products
