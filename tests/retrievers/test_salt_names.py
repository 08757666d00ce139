"""Ingredients the corpus names two ways: an acid written first (L-아스파르트산-L-오르니틴, 글루콘산클로르헥시딘) and
one name in two transliterations (락툴로오즈/락툴로오스). Real leaflets from the shipped corpus, real Searcher."""

import json
import shutil

import pytest

from retrievers.candidates import COMBINATION_WEIGHT, OTHER_FORM_PENALTY
from retrievers.names import NAMES_VERSION, NameIndex, ingredient_key, ingredient_keys, load_names, save_names

LEAFLETS = {
    "198601922": "헤파멜즈산(L-아스파르트산-L-오르니틴)",
    "200301508": "레보골드액 (L-아르기닌염산염, L-오르니틴염산염, L-시트룰린)",
    "201211097": "듀락칸이지시럽(락툴로오즈농축액)",
    "201209553": "장쾌락시럽(락툴로오스농축액)",
    "199600446": "성광알파헥시딘5%액(글루콘산클로르헥시딘액)",
    "200307984": "박티그라(클로르헥시딘아세트산염)",
}


def test_an_acid_written_first_is_the_salt_of_the_medicine_after_it():
    assert "오르니틴" in ingredient_keys("L-아스파르트산-L-오르니틴")
    assert "페니라민" in ingredient_keys("말레인산페니라민")
    assert {"클로르헥시딘", "글루콘산클로르헥시딘"} <= ingredient_keys("글루콘산클로르헥시딘액20%")
    assert "토코페롤" in ingredient_keys("초산토코페롤50%")


def test_a_salt_transliterated_is_the_salt_written_in_korean():
    """독시라민석시네이트 (아졸정) and 독시라민숙신산염 (아론정) are one medicine: the 노인주의 rule on 독시라민
    binds both."""
    from programs.forbidden import Product, forbidding_rules
    from programs.forbidden import asker as who
    from retrievers.documents import Document

    assert "독시라민" in ingredient_keys("독시라민석시네이트") & ingredient_keys("독시라민숙신산염")
    names = NameIndex()
    same = lambda a, b: names.canonical(a) == names.canonical(b)  # noqa: E731
    rule = Document(
        "dur:fc:1",
        "[노인주의] 독시라민(Doxylamine)은(는) 노인(고령자)에게 사용할 때 주의가 필요합니다. 대상 제형: 정제.",
        {"dur_type": "노인주의", "ingredient": "독시라민", "partner": ""},
    )
    elderly = who(None, "70대 엄마 수면유도제 드려도 돼요")
    assert forbidding_rules(Product("1", "아졸정", ("독시라민석시네이트",)), [rule], elderly, same) == [rule]


def test_an_acid_before_a_mineral_or_a_hydrate_is_the_medicine_itself():
    assert "칼슘" not in ingredient_keys("글루콘산칼슘수화물")
    assert "글루콘산" in ingredient_keys("글루콘산칼슘수화물")
    assert "수화물" not in ingredient_keys("오로트산수화물")
    assert "제일철" not in ingredient_keys("글루콘산제일철수화물")


DUR_ONLY = ("아기오락스", "밀크시슬", "니코틴산")  # DUR rows' ingredients that no leaflet writes as such


def test_an_ingredient_dur_names_is_the_leaflets_preparation_of_it():
    """아락실과립's 아기오락스 원료과립 is the 아기오락스 of the 임부금기 rule, 밀크시슬열매건조엑스 is 밀크시슬 (also
    spelt 밀크씨슬): each joins the leaflets' key, so the rule binds the product and the name finds it. 니코틴산아미드
    is another compound than 니코틴산, not a preparation of it."""
    from retrievers.documents import Document

    def leaflet(seq: str, name: str, ingredient: str) -> Document:
        return Document(f"easydrug:{seq}:efcy", "x", {"item_name": name, "item_seq": seq, "main_ingr": ingredient})

    docs = [
        leaflet("198400661", "아락실과립", "아기오락스 원료과립(Agiolax pregranules)"),
        leaflet("202200851", "리버칼에프연질캡슐350밀리그램(밀크시슬열매건조엑스)", "밀크시슬열매건조엑스"),
        leaflet("201110262", "아미나엑스정(니코틴산아미드)", "니코틴산아미드"),
        *(Document(f"dur:cc:{i}", "x", {"ingredient": w}) for i, w in enumerate(DUR_ONLY, 1)),
    ]
    names = NameIndex.from_documents(docs)
    assert names.canonical("아기오락스") == names.canonical("아기오락스 원료과립(Agiolax pregranules)")
    assert names.ingredient_products[names.canonical("아기오락스")] == {"198400661"}
    assert names.match("밀크씨슬 먹어도 돼요").ingredients == names.match("밀크시슬").ingredients == {"밀크시슬열매"}
    assert names.canonical("니코틴산") != names.canonical("니코틴산아미드")
    assert not names.ingredient_products.get(names.canonical("니코틴산"))
    # the 임부금기 rule on 아기오락스 forbids 아락실과립 to a pregnant asker
    from programs.forbidden import Product, forbidding_rules
    from programs.forbidden import asker as who

    same = lambda a, b: names.canonical(a) == names.canonical(b)  # noqa: E731
    text = "[임부금기] 아기오락스(Agiolax)은(는) 임부(임신부)에게 사용하면 안 되는 성분입니다. 대상 제형: 과립제."
    rule = Document("dur:cc:9", text, {"dur_type": "임부금기", "ingredient": "아기오락스", "partner": ""})
    product = Product("198400661", "아락실과립", ("아기오락스 원료과립(Agiolax pregranules)",))
    assert forbidding_rules(product, [rule], who(None, "임신 20주인데 변비약 먹어도 돼요"), same) == [rule]


@pytest.fixture(scope="module")
def salt_index(tmp_path_factory):
    """An index of the mini corpus plus six real leaflets (`LEAFLETS`)."""
    from retrievers.corpus import corpus_dir
    from retrievers.index_builder import build_index
    from yaksa.testing.hash_embedder import HashEmbedder
    from yaksa.testing.mini_index import MINI_CORPUS

    root = tmp_path_factory.mktemp("salt_corpus")
    shutil.copytree(MINI_CORPUS, root / "corpus")
    rows = (corpus_dir() / "easydrug" / "easydrug.jsonl").read_text(encoding="utf-8").splitlines()
    chosen = [r for r in rows if json.loads(r)["itemSeq"] in LEAFLETS]
    assert len(chosen) == len(LEAFLETS)
    with (root / "corpus" / "easydrug" / "easydrug.jsonl").open("a", encoding="utf-8") as f:
        f.write("\n".join(chosen) + "\n")
    build_index(root / "corpus", root / "index", embedder=HashEmbedder(), shipped_vectors=None, progress=False)
    return root / "index"


@pytest.fixture(scope="module")
def searcher(salt_index):
    from retrievers.index_open import open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder

    return open_searcher(salt_index, embedder=HashEmbedder(), shared=False)


def test_an_ingredient_asked_by_its_base_name_reaches_the_products_of_its_salt(searcher):
    """오르니틴: 헤파멜즈산 (the aspartate salt alone) answers before 레보골드액 (ornithine among three)."""
    hits = searcher.retrieve("오르니틴 간장약 효능").hits
    assert hits[0].id == "easydrug:198601922:efcy"
    assert hits[0].scores["product"] == 0.9
    combination = next(h for h in hits if h.id == "easydrug:200301508:efcy")
    assert combination.scores["product"] == COMBINATION_WEIGHT


def test_two_transliterations_of_one_ingredient_are_one_ingredient(searcher):
    names = searcher.names
    assert names.canonical("락툴로오즈농축액") == names.canonical("락툴로오스농축액")
    assert names.ingredient_products[names.canonical("락툴로오스")] == {"201211097", "201209553"}
    top = searcher.retrieve("락툴로오즈 시럽 하루에 몇번 먹어요").hits[:2]
    assert {h.id for h in top} == {"easydrug:201211097:useMethod", "easydrug:201209553:useMethod"}
    assert {h.scores["product"] for h in top} == {0.9}  # a spelling is not a salt: neither goes first


def test_a_salt_named_as_the_corpus_writes_it_puts_its_products_first(searcher):
    """글루콘산클로르헥시딘: the gluconate solution before the acetate dressing; 클로르헥시딘 alone: both alike."""
    hits = searcher.retrieve("글루콘산클로르헥시딘 희석").hits
    named = {h.doc.metadata["item_seq"]: h.scores["product"] for h in hits}
    assert named["199600446"] == 0.9
    assert named["200307984"] == round(0.9 - OTHER_FORM_PENALTY, 4)
    plain = searcher.retrieve("클로르헥시딘 소독약 쓰는 법").hits
    assert {h.scores["product"] for h in plain if h.doc.metadata["item_seq"] in {"199600446", "200307984"}} == {0.9}


def test_an_index_whose_name_dictionary_is_older_re_reads_the_names(salt_index, searcher, tmp_path):
    """An index built before these keys: its names.json has no version and the two lactulose spellings apart. The
    searcher re-reads the names from the index's documents (and says so) instead of answering with the old keys."""
    from retrievers.index_open import STALE_NAMES_NOTE, open_searcher
    from yaksa.testing.hash_embedder import HashEmbedder

    index = tmp_path / "index"
    shutil.copytree(salt_index, index)
    data = json.loads((index / "names.json").read_text(encoding="utf-8"))
    del data["version"]
    data["ingredients"]["락툴로오즈"] = data["ingredients"]["락툴로오즈농축액"] = "락툴로오즈"
    data["ingredient_products"]["락툴로오즈"] = ["201211097"]
    data["ingredient_products"]["락툴로오스"] = ["201209553"]
    (index / "names.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_names(index / "names.json").canonical("락툴로오즈") == "락툴로오즈"  # what the file says

    reopened = open_searcher(index, embedder=HashEmbedder(), shared=False)
    assert reopened.names.canonical("락툴로오즈") == reopened.names.canonical("락툴로오스")
    result = reopened.retrieve("락툴로오즈 시럽 하루에 몇번 먹어요")
    assert STALE_NAMES_NOTE in result.warnings
    assert STALE_NAMES_NOTE not in searcher.retrieve("락툴로오즈 시럽 하루에 몇번 먹어요").warnings


def test_names_keep_their_version_through_json(tmp_path):
    save_names(NameIndex(), tmp_path / "names.json")
    assert load_names(tmp_path / "names.json").version == NAMES_VERSION


def test_a_metal_after_an_inorganic_anion_is_half_the_medicine():
    """탄산마그네슘's DUR 임부금기 row must not bind 개비스콘 (탄산칼슘, 탄산수소나트륨): cut to 탄산, all three would
    be one ingredient. A metal after a medicine's acid is still its salt (디클로페낙나트륨 is 디클로페낙)."""
    carbonates = [ingredient_key(n) for n in ("탄산마그네슘", "탄산칼슘", "탄산수소나트륨")]
    assert len(set(carbonates)) == 3 and "탄산" not in carbonates
    assert ingredient_key("산화마그네슘") != ingredient_key("수산화마그네슘")
    assert ingredient_key("디클로페낙나트륨") == "디클로페낙"
