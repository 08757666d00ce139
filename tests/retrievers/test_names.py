import pytest

from retrievers.corpus import load_corpus
from retrievers.names import NameIndex, ingredient_keys, load_names, product_keys, question_forms, save_names
from retrievers.not_covered import supplement_words


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
    assert key in found.keys
    assert found.products


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


def test_ingredient_keys_drop_concentrations_forms_and_complex_salts():
    assert "폴리크레줄렌" in ingredient_keys("폴리크레줄렌액50%")
    assert "폴리사카리드철" in ingredient_keys("폴리사카리드철착염")
    assert "은행엽" in ingredient_keys("은행엽건조엑스")
    assert ingredient_keys("살리실산") == {"살리실산"}  # an acid is not a powder (산) to strip


def test_one_canonical_key_for_every_spelling_of_an_ingredient(names):
    canon = names.canonical("세티리진염산염")
    assert canon
    assert names.canonical("염산세티리진") == canon == names.canonical("세티리진")
    assert names.canonical("") == ""
    assert names.canonical("(주)") == ""


def test_common_spellings_find_the_corpus_ingredient(names):
    assert names.match("하이드로퀴논 크림 부작용").ingredients == {names.canonical("히드로퀴논")}
    assert names.canonical("은행엽엑스") in names.match("은행잎추출물 혈액순환제").ingredients
    assert names.canonical("폴리크레줄렌액50%") in names.match("폴리크레줄렌 입병약").ingredients
    surface = names.surface_keys(names.canonical("히드로퀴논"))
    assert "히드로퀴논" in surface
    assert "하이드로퀴논" not in surface  # BM25 searches the corpus's own spelling


def test_question_forms_map_everyday_words_to_product_name_forms():
    assert question_forms("클리어틴 크림 발라도 돼요") == ["크림"]
    assert question_forms("안약 넣고 렌즈 껴도 되나") == ["점안액"]
    assert question_forms("두통약 추천") == []


def test_spelling_variants_round_trip_through_json(names, tmp_path):
    save_names(names, tmp_path / "n.json")
    back = load_names(tmp_path / "n.json")
    assert back.variants == names.variants
    assert "하이드로퀴논" in back.variants
    assert back.surface_keys(back.canonical("히드로퀴논")) == names.surface_keys(names.canonical("히드로퀴논"))


def test_a_brand_name_brings_its_family_members_apart(names):
    found = names.match("겔포스 식전에 먹어요 식후에 먹어여?")
    assert found.products
    assert {"199400883", "201708580"} <= found.family  # 겔포스엠, 겔포스엘
    assert not found.products & found.family
    assert names.family("정") == set()  # too short a key to make a family


@pytest.mark.parametrize(
    "query, spelt_right",
    [
        ("타이래놀 콜드 먹고 졸려요", "타이레놀 콜드 먹고 졸려요"),
        ("부루팬 먹는중에", "부루펜 먹는중에"),
        ("개보린 부작용", "게보린 부작용"),
    ],
)
def test_a_name_written_with_a_same_sounding_vowel_is_found(names, query, spelt_right):
    """ㅐ and ㅔ sound alike: people write 타이래놀 for 타이레놀; the name is found as if spelt right."""
    found, right = names.match(query), names.match(spelt_right)
    assert right.products
    assert (found.keys, found.products) == (right.keys, right.products)


def test_the_start_of_a_brand_written_with_a_same_sounding_vowel_is_found(names):
    """마데카솔 is only the start of its products' names (마데카솔케어연고): written 마대카솔, it is found the same,
    and the answer can say how it was read."""
    found, right = names.match("마대카솔 얼굴에 발라도 되요"), names.match("마데카솔 얼굴에 발라도 되요")
    assert right.products
    assert (found.keys, found.products) == (right.keys, right.products)
    assert found.heard == {"마대카솔": "마데카솔"}


@pytest.mark.parametrize(
    "query,spelt_right,heard",
    [
        ("마데카졸 까진 데 발라도 돼요", "마데카솔 까진 데 발라도 돼요", {"마데카졸": "마데카솔"}),  # ㅈ for ㅅ
        ("클래리틴 먹으면 졸려요?", "클라리틴 먹으면 졸려요?", {"클래리틴": "클라리틴"}),  # ㅐ for ㅏ
        ("뉴브이로또 넣고 렌즈 껴도 돼요", "뉴브이로토 넣고 렌즈 껴도 돼요", {"뉴브이로또": "뉴브이로토"}),  # ㄸ for ㅌ
    ],
)
def test_a_name_written_one_letter_off_is_found(names, query, spelt_right, heard):
    """One consonant or vowel of one syllable swapped for a like one (ㅈ/ㅅ, ㅐ/ㅏ, ㄸ/ㅌ): the name is found as if
    spelt right, and the answer can say how it was read."""
    found, right = names.match(query), names.match(spelt_right)
    assert right.products
    assert (found.keys, found.products) == (right.keys, right.products)
    assert found.heard == heard


@pytest.mark.parametrize(
    "query,misread",
    [
        ("치질연고 추천해주세요", "치젤연고"),  # a kind in the leaflets' words (치질 + 연고)
        ("동전파스 어디에 붙여요", "동전파프"),  # the form 파스 is written right
        ("멜라토닌 먹어도 돼요", "멜라토닝"),  # a final consonant apart
        ("비타민디 먹어도 돼요", "비타민씨"),  # ㄷ and ㅆ are not swapped for one another
        ("간질약 데파코트 먹는 딸 아스피린 먹여도", "데마코트"),  # nor ㅍ and ㅁ: a prescription drug, no steroid cream
    ],
)
def test_words_one_letter_off_a_name_that_are_other_words_are_not_read_as_it(names, query, misread):
    assert misread not in names.match(query).keys


def test_an_ordinary_word_of_the_language_is_never_read_one_letter_off():
    """아이디어 is one letter off 아이티어(플러스점안액) but a word of its own (the searcher's Kiwi dictionary)."""
    from retrievers.documents import Document

    names = NameIndex.from_documents(
        [Document("easydrug:1:efcy", "x", {"item_seq": "1", "item_name": "아이티어플러스점안액"})]
    )
    assert names.match("아이디어 좀 주세요").keys == ["아이티어"]
    names.know_common_words({"아이디어"}.__contains__)
    assert not names.match("아이디어 좀 주세요").keys


@pytest.mark.parametrize(
    "query,spelt_right",
    [("페스탈 플러스 한번에 몇알", "훼스탈 플러스 한번에 몇알"), ("파이투벤 먹어도 돼요", "화이투벤 먹어도 돼요")],
)
def test_an_f_written_as_today_finds_a_brand_written_the_old_way(names, query, spelt_right):
    """훼스탈 (Festal) and 화이투벤 write an f as ㅎ with a w-vowel; people write it ㅍ today (페스탈, 파이투벤)."""
    found, right = names.match(query), names.match(spelt_right)
    assert right.products
    assert found.products == right.products


def test_a_name_in_brackets_after_a_kind_is_a_word_of_its_own(names):
    """인공눈물(눈앤점안액): the bracket parts the words as a space does, and the brand in it is found."""
    assert names.match("인공눈물(눈앤점안액) 넣고 운전해도 돼요?").products == names.match("눈앤점안액 넣고").products
    assert names.match("눈앤점안액 넣고").products


def test_same_sounding_vowels_do_not_make_ordinary_words_names(names):
    assert not names.match("배가 아파요 약 추천해주세요").keys
    assert not names.match("애기가 열이 나요").keys
    assert names.match("에드빌 먹어도 돼요").keys == ["애드빌"]


@pytest.mark.parametrize(
    "query, name",
    [
        ("펙소페나진 하루 몇알", "펙소페나딘"),
        ("디펜히드라인 수면제 먹고 술", "디펜히드라민"),
        ("카보시스테인 가래약 부작용", "카르보시스테인"),  # holds 시스테인, a name of its own
        ("사카로마이세스 보울라디 유산균", "사카로마이세스보울라르디균"),  # written apart and misspelt
    ],
)
def test_a_misspelt_name_one_or_two_syllables_off_is_read_as_the_closest_name(names, query, name):
    found = names.match(query)
    assert name in found.keys
    assert list(found.heard.values()) == [name]
    assert "시스테인" not in found.keys


def test_close_spelling_leaves_ordinary_words_and_particles_alone(names):
    for query in ("알레르기 비염 약", "시큰시큰해요 무릎이 아파요", "소화불량 약 추천", "베라파밀과 같이 먹어도"):
        assert not names.match(query).heard, query
    assert names.match("로라타딘 먹으면 졸려요").heard == {}  # spelt right: nothing was read otherwise


def test_a_number_shared_with_a_name_does_not_make_a_misspelling_of_it(names):
    """콘택600 is no 콘600 (콘600정): with the 600 both write, the letters 콘택 and 콘 are what differ."""
    assert "콘600" in names.products
    assert "콘600" not in names.match("콘택600 몇시간마다 먹어요?").keys
    assert names.match("펙소페나진 하루 몇알").heard == {"펙소페나진": "펙소페나딘"}  # no number: read as before


def test_a_child_is_no_products_name_but_the_names_it_starts_are(names):
    assert names.match("아이가 매번 토해요").keys == []  # 아이 is a child, not 아이골드정 or 아이플러스
    assert "아이골드정" in names.match("아이골드정 먹어도 돼요").keys
    old = NameIndex.from_documents(load_corpus())
    old.products["아이"] = set(old.products["아이골드"])  # an index saved before 아이 was a stop key
    assert old.match("아이가 매번 토해요").keys == []


def test_a_remembered_match_is_the_callers_own_copy(names):
    first = names.match("게보린 먹고 속이 쓰려요")
    first.keys.append("바뀐것")
    first.products.clear()
    again = names.match("게보린 먹고 속이 쓰려요")
    assert "바뀐것" not in again.keys and again.products and "게보린" in again.keys


def _leaflets(*names_: str) -> NameIndex:
    from retrievers.documents import Document

    return NameIndex.from_documents(
        Document(f"easydrug:{i}:efcy", "x", {"item_name": n, "item_seq": str(i)}) for i, n in enumerate(names_, 1)
    )


def test_a_brand_word_and_a_form_word_find_the_brands_product_of_that_form():
    """미놀 트로키, 화이투벤 스프레이, 니코레트 패치: the brand's products whose name holds the form."""
    index = _leaflets(
        "미놀에프트로키(페퍼민트맛)", "미놀노즈점비액(자일로메타졸린염산염)", "화이투벤큐연질캡슐",
        "화이투벤나잘스프레이0.05%(자일로메타졸린염산염)", "니코레트껌2밀리그람(니코틴)", "니코레트인비지패취(니코틴)",
    )  # fmt: skip
    assert index.match("감기약 먹는 중인데 미놀 트로키도 같이 먹어도 되나요?").products == {"1"}
    assert not index.match("미놀 먹어도 되나요").products  # a two-syllable word alone names nothing
    assert "4" in index.match("어른용 화이투벤 스프레이 뿌려줘도 될까요").products
    assert "6" in index.match("니코레트 패치 잘때도 붙이고 자요?").products


def test_a_leaflet_word_before_a_form_word_is_no_brand():
    index = _leaflets("아이톡시럽", "아이톡캡슐")
    assert not index.match("아이 시럽 몇 미리 먹여요").products  # 아이: a child, a word the leaflets use


def test_a_brand_and_form_already_found_as_one_name_add_nothing():
    index = _leaflets("카네스텐질정(클로트리마졸)", "카네스텐질정200밀리그램", "카네스텐크림(클로트리마졸)")
    found = index.match("카네스텐 질정 며칠 넣어요")
    assert found.keys == ["카네스텐질정"]


def test_a_brand_and_a_form_word_find_the_childrens_edition_of_that_form_and_not_the_brands_tablets():
    """부루펜 시럽: the syrup is the children's edition (어린이부루펜시럽); the tablets the brand word alone names
    are its siblings, not what is asked about."""
    index = _leaflets(
        "부루펜정200밀리그램(이부프로펜)", "부루펜정400밀리그램(이부프로펜)", "어린이부루펜시럽(이부프로펜)"
    )
    assert index.match("부루펜 먹어도 돼요").products == {"1", "2"}
    found = index.match("부루펜 시럽 개봉하고 얼마나 보관 가능해요?")
    assert found.products == {"3"}
    assert {"1", "2"} <= found.family
    both = index.match("부루펜정200밀리그램이랑 부루펜 시럽 같이 먹어도 돼요?")  # a tablet named in its own word stays
    assert {"1", "3"} <= both.products


def test_a_brand_and_a_form_word_find_a_combination_under_the_brand_written_with_that_form():
    """써스펜 좌약: the suppository is 복합써스펜좌약 (a combination under the brand, its form written 좌약, which a
    question's 좌약 reads as 좌제); the brand's tablets and syrups step back as its siblings."""
    index = _leaflets("써스펜8시간이알서방정650밀리그램(아세트아미노펜)", "써스펜나이트시럽", "복합써스펜좌약")
    found = index.match("써스펜 좌약 몇시간 간격으로 넣어요")
    assert found.products == {"3"}
    assert {"1", "2"} <= found.family
    assert index.match("써스펜 먹어도 돼요").products == {"1", "2"}  # the brand alone: not the suppository


def test_er_after_a_brand_finds_its_extended_release_tablet_spaced_or_attached():
    """세토펜 이알 / 세토펜이알: the brand's 8시간이알서방정, not its plain tablets or syrup."""
    index = _leaflets(
        "세토펜정325밀리그램(아세트아미노펜)", "세토펜현탁액(아세트아미노펜)", "세토펜8시간이알서방정(아세트아미노펜)"
    )
    assert index.match("세토펜 이알 반 잘라서 먹어도 돼요").products == {"3"}
    assert index.match("세토펜이알 쪼개도 되나요").products == {"3"}
    assert index.match("세토펜 먹어도 돼요").products == {"1", "2"}  # the brand alone: its plain products


def test_a_patch_word_finds_a_brands_transdermal_system_and_not_for_an_ingredient():
    """니코틴엘 패치: 니코틴엘TTS20 is the brand's patch; 니코틴 패치 names the ingredient's patches, no one brand."""
    index = _leaflets("니코틴엘껌2밀리그램(니코틴)", "니코틴엘TTS20(니코틴)", "니코스탑-10패취(니코틴)")
    assert index.match("니코틴엘 패치 몇주 붙여요").products == {"2"}
    assert index.match("니코틴 패치 붙이고 담배 피워도 돼요").products != {"2"}  # no pair made of an ingredient


def test_a_form_inside_a_name_found_whole_is_no_brand_and_form():
    index = _leaflets("콜대원키즈콜드시럽", "콜드샷시럽", "콜드윈시럽")
    assert index.match("콜대원키즈 콜드시럽 먹여도 돼요").products == {"1"}


def test_a_one_syllable_form_as_its_own_word_after_a_brand_names_the_brands_gel():
    """벤작 겔: 벤작에이씨겔; 겔 is read as a form only as a word of its own (겔포스 holds it too)."""
    index = _leaflets("벤작에이씨겔2.5%(과산화벤조일)", "겔포스엠현탁액")
    assert index.match("임신 중인데 벤작 겔 발라도 돼요").products == {"1"}
    assert index.match("벤작 겔이요").products == {"1"}


def test_the_form_right_after_the_brand_says_which_of_its_products():
    """아이엔 점안액: 아이엔점안액, not 아이엔젤톡톡점안액, whose name has the form further on."""
    index = _leaflets("아이엔점안액(순)", "아이엔젤톡톡점안액(트레할로스)")
    assert index.match("인공눈물 하루 몇번 넣어요 아이엔 점안액이요").products == {"1"}
    assert index.match("아이엔젤톡톡 점안액 몇번 넣어요").products == {"2"}


def test_a_word_names_add_after_their_brand_names_no_product_alone():
    """플러스: one name starts with it, many carry it after their brand; 인사돌 플러스 (a product the corpus lacks) is
    not 플러스디정. Written whole, 플러스디정 is still found."""
    index = _leaflets(
        "플러스디정(콜레칼시페롤)", *(f"브랜드{i}플러스정" for i in range(25)), "아로나민골드정", "케어번연고"
    )
    assert "1" not in index.match("인사돌 플러스는 하루에 몇 알 먹어요").products
    assert index.match("플러스디정 몇 알 먹어요").products == {"1"}
    assert index.extends_names("플러스") and not index.extends_names("케어번")


def test_a_names_last_syllable_that_looks_like_a_particle_is_read_as_written(names):
    """판토가 한달 먹었는데: a product name begins with 판토가 (판토가캅셀), so 가 is no subject particle here; the 판토
    family (판토-에이내복액 …) is not what was written. A particle after a whole name is still dropped."""
    found = names.match("판토가 한달 먹었는데 머리 빠지는게 그대로에요")
    assert found.keys == ["판토가"]
    assert _item_names(found) == {"판토가캅셀"}
    assert names.match("게보린은 하루에 몇 번").keys == ["게보린"]
    assert names.match("타이레놀이 안 들어요").keys == ["타이레놀"]


def test_a_word_written_inside_a_few_names_names_them(names):
    """브이로토 is 뉴브이로토이엑스점안액 (뉴 before it); 글루코사민 is the ingredient 결정글루코사민황산염, 크레아틴 no
    part of 판크레아틴 (pancreatin: 판 is no word of the leaflets). A form word
    (목스프레이) or a word names add to a brand (플러스) is not read inside names."""
    assert "뉴브이로토이엑스점안액" in _item_names(names.match("브이로토 안약 하루에 몇번 넣어요"))
    assert names.match("글루코사민 먹은지 2주째인데").ingredients == {"결정글루코사민"}  # its canonical key
    # a supplement's name one syllable after which another substance is named is not that substance (판크레아틴)
    assert not names.match("헬스하는데 크레아틴 먹어도 돼요").keys
    assert supplement_words("헬스하는데 크레아틴 먹어도 돼요", names) == ["크레아틴"]
    assert supplement_words("판크레아틴 든 소화제 하루 몇번", names) == []  # the enzyme, written whole
    assert not names._take_inside("목스프레이", type(names.match(""))())
    assert not names._take_inside("플러스", type(names.match(""))())


def _item_names(found) -> set[str]:
    by_seq = {d.metadata["item_seq"]: d.metadata["item_name"] for d in load_corpus() if d.id.startswith("easydrug")}
    return {by_seq[s] for s in found.products}


def test_no_name_is_read_inside_names_in_text_that_is_not_a_question_or_from_digits(names):
    """An answer's "0.05% 수용액" is inside the key 시노카자일로나잘스프레이액005% only as characters: the grounding
    check must not read a product there, and a question's strength is no name either."""
    sentence = "피부의 창상부위 소독 시 0.05% 수용액을 사용하십시오."
    assert names.match(sentence, readings=False).keys == []
    assert not names._take_inside("005%", type(names.match(""))())


def test_a_word_before_a_brand_extension_that_begins_no_name_is_a_brand_the_corpus_lacks(names):
    """인사돌 플러스: 플러스 is a word names add after their brand (counted from the names), and 인사돌 begins none, so
    it is a brand the corpus lacks (Kiwi reads it as 인사 + 돌, two known nouns). A brand the corpus has, or a word
    the leaflets use (비타민), is not."""
    assert names.brands_before_extensions("인사돌 플러스는 하루에 몇 알 먹어요?") == ["인사돌"]
    assert names.brands_before_extensions("타이레놀 플러스 먹어도 돼요") == []
    assert names.brands_before_extensions("비타민 골드 먹어도 돼요") == []


def test_the_keys_holding_a_word_are_those_a_scan_of_every_key_finds(names):
    """`_keys_holding` searches the keys joined once; it finds what a scan of every key finds, in the same order:
    keys holding the word after their start, none that starts with it."""
    keys = sorted({*names.products, *names.ingredients})
    words = {k[i : i + n] for k in keys[::7] for n in (2, 3, 4) for i in (0, 1, len(k) // 2) if len(k) > i + n}
    assert len(words) > 500
    for word in words:
        assert names._keys_holding(word, 10**6) == [k for k in keys if word in k and not k.startswith(word)], word
    assert len(names._keys_holding("정", 3)) == 3  # stops at the number asked for


def test_a_form_written_with_a_word_of_the_name_picks_the_products_holding_both():
    """클리어틴 스팟크림: the brand's solution is what 클리어틴 matches as a key, but 스팟크림 names its spot creams
    (클리어틴이부스팟톡크림), whose keys hold both 스팟 and the cream; the solution steps back to a sibling."""
    from retrievers.documents import Document
    from retrievers.names import NameIndex

    def leaflet(seq: str, name: str) -> Document:
        return Document(f"easydrug:{seq}:efcy", "x", {"item_name": name, "item_seq": seq})

    names = ("클리어틴외용액2%", "클리어틴이부스팟톡크림", "클리어틴이부더블스팟톡크림")
    index = NameIndex.from_documents([leaflet(str(n), name) for n, name in enumerate(names, 1)])
    found = index.match("클리어틴 스팟크림 바르고 화장해도 되나요")
    assert found.products == {"2", "3"} and "1" in found.family
    assert index.match("클리어틴 바르고 화장해도 되나요").products == {"1"}


def test_an_everyday_word_that_begins_names_is_no_name():
    """어린이 begins 어린이타이레놀현탁액 and 어린이부루펜시럽, but 어린이 종합감기시럽 names neither: a stop key (an
    everyday word) is no prefix of a name, while the name written whole, spaced or not, still reads."""
    from retrievers.documents import Document

    docs = [
        Document(f"easydrug:{i}:efcy", "x", {"item_seq": str(i), "item_name": n})
        for i, n in enumerate(["어린이타이레놀현탁액", "어린이부루펜시럽", "코뚜에스시럽"])
    ]
    index = NameIndex.from_documents(docs)
    assert index.match("코뚜에스시럽 먹는데 어린이 종합감기시럽이랑 같이 먹여도 돼요").products == {"2"}
    assert index.match("어린이 부루펜 시럽 몇 미리 먹여요").products == {"1"}


def test_a_word_after_the_brand_that_one_of_its_names_holds_picks_that_product():
    """니코틴엘 로젠즈: no dosage form, but the word its lozenge's name holds after the brand
    (니코틴엘로젠즈민트향트로키); the gum the brand key matched steps back to a sibling. 사탕 says the lozenge form
    (`name_words.QUESTION_FORMS`: 트로키), as 로젠즈 does; a word no name holds (씹어) changes nothing."""
    from retrievers.documents import Document

    names = (
        "니코틴엘껌2밀리그램(니코틴)",
        "니코틴엘로젠즈민트향트로키1밀리그램(니코틴타르타르산염수화물)",
        "니코틴엘TTS10(니코틴)",
    )
    docs = [Document(f"easydrug:{i}:efcy", "x", {"item_seq": str(i), "item_name": n}) for i, n in enumerate(names, 1)]
    index = NameIndex.from_documents(docs)
    assert index.match("니코틴엘 로젠즈 사탕 그냥 씹어먹으면 안되나요").products == {"2"}
    assert index.match("니코틴엘 사탕 그냥 씹어먹으면 안되나요").products == {"2"}
    assert index.match("니코틴엘 그냥 씹어먹으면 안되나요").products != {"2"}


def test_an_everyday_noun_is_no_misspelt_name():
    """아이스크림 is two syllables off 아이지크림, but Kiwi knows it whole as a common noun: no close-spelling match;
    목스프레이 is a body part and a form, no same-sounding 목앤스프레이."""
    from retrievers.documents import Document
    from retrievers.tokenizer import KiwiTokenizer

    docs = [Document("easydrug:1:efcy", "x", {"item_seq": "1", "item_name": "아이지크림"})]
    index = NameIndex.from_documents(docs)
    index.know_common_words(KiwiTokenizer().common_noun)  # as the searcher tells it
    assert not index.match("편도 수술하고 아이스크림 먹여도 되나요").keys
    sprays = NameIndex.from_documents(
        [Document("easydrug:2:efcy", "x", {"item_seq": "2", "item_name": "목앤스프레이"})]
    )
    assert not sprays.match("목스프레이 뿌리고 운전해도 돼요").keys


def test_a_form_after_a_brand_heard_with_another_vowel_picks_that_form():
    """타이래놀 이알: the brand is heard as 타이레놀, and the form after it chooses the 8시간이알서방정, as it does
    after 타이레놀 이알."""
    from retrievers.documents import Document

    names = ("타이레놀정500밀리그람(아세트아미노펜)", "타이레놀8시간이알서방정(아세트아미노펜)")
    docs = [Document(f"easydrug:{i}:efcy", "x", {"item_seq": str(i), "item_name": n}) for i, n in enumerate(names, 1)]
    index = NameIndex.from_documents(docs)
    assert index.match("타이레놀 이알 쪼개서 먹어도 돼요").products == {"2"}
    assert index.match("타이래놀 이알 쪼개서 먹어두 되나요").products == {"2"}


def test_a_two_syllable_brand_no_dictionary_knows_begins_its_products_names():
    """탄툼 (of 삼아탄툼액, whose house prefix 삼아 the keys drop): Kiwi knows no such word, so it may begin a name;
    two syllables Kiwi knows (하루, 파스) never do, nor does 탄툼 when the matcher is told nothing."""
    from retrievers.documents import Document
    from retrievers.tokenizer import KiwiTokenizer

    meta = {"item_seq": "1", "item_name": "삼아탄툼액(벤지다민염산염)", "entp_name": "삼아제약(주)"}
    other = {"item_seq": "2", "item_name": "하루파스에스", "entp_name": "가나제약(주)"}
    docs = [Document("easydrug:1:efcy", "x", meta), Document("easydrug:2:efcy", "x", other)]
    index = NameIndex.from_documents(docs)
    assert not index.match("집에 있는 탄툼 가글 시켜도 될까요").products
    index.know_unknown_words(KiwiTokenizer().unknown_noun)  # as the searcher tells it
    assert index.match("집에 있는 탄툼 가글 시켜도 될까요").products == {"1"}
    assert not index.match("하루 두번 파스 붙여도 돼요").products


def test_a_kind_of_medicine_after_a_house_brand_names_no_product_alone():
    """그린관장약 is 녹십자's enema; 관장약 alone is what every enema is: beside 렉크린 it is the kind, not a second
    product (the named product's own 3∼12세 line had given way to the other enema's)."""
    from retrievers.documents import Document

    docs = [
        Document(
            "easydrug:1:efcy", "x", {"item_seq": "1", "item_name": "그린관장약(농글리세린)", "entp_name": "녹십자"}
        ),
        Document("easydrug:2:efcy", "x", {"item_seq": "2", "item_name": "렉크린액", "entp_name": "가나제약"}),
    ]
    index = NameIndex.from_documents(docs)
    assert index.match("렉크린 관장약 써보려는데 어떤 자세로 넣어요").products == {"2"}
    assert index.match("그린관장약 써도 돼요").products == {"1"}


def test_a_two_syllable_brand_with_gel_written_onto_it_names_the_brands_gel():
    """벤작겔: 벤작 alone is too short to be read inside a word, and 겔 is no form word of its own; written together
    they are the brand's gel (벤작에이씨겔2.5%), not a close spelling of another gel."""
    from retrievers.documents import Document
    from retrievers.names import NameIndex

    docs = [
        Document(f"easydrug:{seq}:efcy", "x", {"item_seq": seq, "item_name": name})
        for seq, name in (("1", "벤작에이씨겔2.5%"), ("2", "세비타비겔"), ("3", "벤작정"))
    ]
    index = NameIndex.from_documents(docs)
    assert index.match("임신 5개월인데 여드름 때문에 벤작겔 발라도 되나요").products == {"1"}
    assert not index.match("여드름겔 추천해 주세요").products


@pytest.mark.parametrize(
    "question", ["아스피린 천식이 있는데 케토톱 붙여도 될까요", "아스피린천식 있으면 파스 못 붙여요"]
)
def test_a_condition_named_after_an_ingredient_names_no_medicine(names, question):
    """아스피린 천식 is the asker's illness (the leaflets' 아스피린천식 또는 경험자): 케토톱 is the medicine asked
    about, and no aspirin tablet's leaflet is read as the one taken."""
    found = names.match(question)
    assert "아스피린" not in found.keys and not found.ingredients & {"아스피린"}
    assert "아스피린" in names.match("아스피린 먹는데 케토톱 붙여도 될까요").keys


def test_a_two_syllable_brand_kiwi_cuts_into_one_syllable_nouns_begins_its_products(searcher):
    """벤작 (Kiwi: 벤 + 작, a proper noun and a noun of one syllable each) begins 벤작에이씨겔's name: a word no
    dictionary knows whole, so the short-prefix reading takes it; 눈약 (눈 + 약) stays two words."""
    assert searcher.tokenizer.unknown_noun("벤작") and not searcher.tokenizer.unknown_noun("눈약")
