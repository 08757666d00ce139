"""Who a question is about, as people write it (retrievers/population.py): ages as numbers and in words, group
words, a verb of feeding someone, and words that only look like a group word."""

import pytest

from retrievers.population import Population, group_of_age, leaflet_words, read_population


@pytest.mark.parametrize(
    "question, group",
    [
        ("임신 12주인데 타이레놀 먹어도 돼요", "pregnant"),
        ("초기 임산부 감기약", "pregnant"),
        ("모유 수유 중인데 두통약 먹어도 되나요", "breastfeeding"),
        ("출산하고 모유 먹이는데 괜찮나요", "breastfeeding"),  # 먹이는데 is the mother nursing, not a child's dose
        ("출산 두달째 완모중인데 목 아파요 트로키 녹여먹어도", "breastfeeding"),  # 완모: nursing only, no formula
        ("18개월 아기 해열제 몇 ml", "infant"),
        ("애기한테 멀미약 먹여도 되나", "infant"),
        ("7살 아들 기침약", "child"),
        ("다섯 살 딸 해열제", "child"),
        ("중학생 딸이 생리통이 심한데 게보린 먹여도 괜찮을까요", "adolescent"),  # the particular word wins
        ("고2 아들 니코레트 사줘도 될까요", "adolescent"),
        ("80대 아버지 변비약 드려도 될까요", "elderly"),
        ("어르신 수면제", "elderly"),
        ("이거 먹여도 되나요", "child"),  # 먹여 says someone is fed: a child
        ("게보린 부작용 있어요?", None),
        ("40대 남자인데 탈모약", None),  # an adult age is nobody in particular
        ("아이크림 바르고 연고 발라도 돼요", None),  # 아이 inside 아이크림
        ("딸기맛 시럽 어른이 먹어도 되나요", None),  # 딸 inside 딸기
        ("일회용 안약 처음 딸때 한 방울 버려야 돼요?", None),  # 딸 때: when opening it
        ("딸 때문에 해열제 사러 왔는데 시럽도 있나요", "child"),  # 딸 때문에: a daughter
        ("주말에 시골 할머니댁 가는데 멀미약 뭐 먹어요", None),  # where someone lives, not who takes it
        ("부모님 집에 상비약 뭐 사다 놓을까요", "elderly"),  # spaced: 부모님 themselves
        ("어린이집 다니는 애 감기약", "child"),
    ],
)
def test_group_as_people_write_it(question, group):
    assert read_population(question).group == group


def test_a_recognised_product_name_is_no_group_word():
    assert read_population("아이엔점안액 렌즈 끼고 넣어도 돼요").group == "child"  # read without names: 아이
    assert read_population("아이엔점안액 렌즈 끼고 넣어도 돼요", names=["아이엔점안액"]).group is None


def test_ages_map_to_the_leaflets_groups():
    assert [group_of_age(a) for a in (0.9, 1.9, 2, 11, 12, 18, 19, 64, 65)] == [
        "infant",
        "infant",
        "child",
        "child",
        "adolescent",
        "adolescent",
        None,
        None,
        "elderly",
    ]


def test_stated_and_implied_groups_and_their_leaflet_words():
    assert read_population("7살 아들 기침약").stated
    assert not read_population("이거 먹여도 되나요").stated
    assert not Population().stated
    assert "수유부" in leaflet_words("breastfeeding") and leaflet_words(None) == ()


def test_a_school_year_is_a_word_of_its_own_not_an_ending_before_a_number():
    assert read_population("고2 딸 생리통약 먹여도 돼요").group == "adolescent"
    assert read_population("중1 아들 여드름 연고").group == "adolescent"
    # 먹고 2시간: the 고 of 먹고 beside a number is no second year of high school
    assert read_population("타이레놀 먹고 2시간 뒤에 이부프로펜 먹어도 돼요").group is None


def test_a_babys_age_counted_by_its_first_birthday_or_hundredth_day():
    from retrievers.population import stated_ages

    assert stated_ages("돌 지난 아기 감기약 먹여도 돼요") == (1.0, 2.0)
    assert stated_ages("돌쟁이 아기 가래가 심해요") == (1.0, 2.0)
    assert stated_ages("돌도 안 된 아기가 열이 나요") == (0.0, 1.0)
    low, high = stated_ages("백일 아기 분유를 자꾸 올려요")
    assert 0.25 < low < high < 0.4
    assert stated_ages("돌아가신 할머니가 드시던 약") is None  # 돌 begins another word
    assert read_population("돌 지난 아기 감기약").group == "infant"


def test_a_later_birthday_is_counted_by_the_native_number_before_it():
    """세 돌 아기 is three, not the one-year-old 돌 alone would say: a 만 2세 미만 limit does not bind them."""
    from programs.leaflet_age_limit import forbids_asker
    from retrievers.population import stated_ages

    assert stated_ages("세 돌 아기 감기약 먹여도 돼요") == stated_ages("세돌 아기 감기약") == (3, 4)
    assert stated_ages("두 돌 지난 아기 열나요") == (2, 3)
    assert not forbids_asker((2.0, "만 2세 미만"), (stated_ages("세 돌 아기 감기약"),))


def test_an_age_not_yet_reached_is_every_age_under_it():
    """두돌 안된 아기 is under two, not two: a 만 2세 미만 limit binds them (read as two, it bound no one)."""
    from programs.leaflet_age_limit import forbids_asker
    from retrievers.population import stated_ages

    assert stated_ages("콜대원 코프시럽 두돌 안된 아기한테 먹여도 되나요") == (0.0, 2)
    assert stated_ages("24개월도 안 된 애기 콧물") == (0.0, 2.0)
    assert stated_ages("3살 안 됐는데 감기약") == (0.0, 3)
    assert stated_ages("두돌 안됀 애기 기침시럽") == (0.0, 2)  # 안됀, 안됬: as people often type them
    assert stated_ages("세살 안됬는데 감기약") == (0.0, 3)
    assert stated_ages("두돌 지난 아기") == (2, 3)  # reached: the age it is
    assert forbids_asker((2.0, "만 2세 미만"), (stated_ages("두돌 안된 아기 감기약"),))


def test_a_school_year_with_its_number_states_the_ages_of_its_pupils():
    """초3 is 8 to 10, 중학교 2학년 13 to 15, 고1 15 to 17: a leaflet's 18세 미만 limit binds a 고1, not 고딩 alone."""
    from programs.leaflet_age_limit import forbids_asker
    from retrievers.population import stated_ages

    assert stated_ages("초3 아들 해열제") == stated_ages("초딩 3학년 아들 해열제") == (8, 10)
    assert stated_ages("초등 5학년 딸 두통약") == (10, 12)
    assert stated_ages("중학교 2학년 딸 생리통") == (13, 15)
    assert forbids_asker((18.0, "18세 미만"), (stated_ages("고1 아들 발톱무좀"),))
    assert stated_ages("고딩 딸 이부프로펜") is None  # no year: the group's ages
    assert stated_ages("임신 중 1주 지났어요") is None and stated_ages("먹고 2시간 뒤") is None


def test_who_a_question_is_about_is_read_the_same_when_remembered():
    from retrievers.population import read_population

    first = read_population("아이엔 점안액 렌즈 끼고 넣어도 돼요", names=["아이엔"])
    assert first.group is None and read_population("아이엔 점안액 렌즈 끼고 넣어도 돼요", names=["아이엔"]) == first
    assert read_population("아이엔 점안액 렌즈 끼고 넣어도 돼요").group == "child"  # the names given are part of it


def test_a_grown_up_fed_a_medicine_is_no_child():
    """먹여도 says someone is fed, a child when no one else is named; fed to a husband or a mother it says no child, so
    neither the population nor the asked aspects turn to children (an adult's hair-loss capsule is not withheld by a
    child's age limit)."""
    from retrievers.lexicon import Lexicon
    from retrievers.names import NameIndex
    from retrievers.question_frame import read_frame

    assert read_population("남편한테 감기약 먹여도 되나요").group is None
    assert read_population("엄마 허리에 파스 발라줘도 되나요").group is None
    assert read_population("엄마가 애기한테 해열제 먹여도 돼요").group == "infant"  # the child is named
    assert "child_use" not in read_frame("남편한테 감기약 먹여도 되나요", NameIndex(), Lexicon.load()).aspects
    assert "child_use" in read_frame("감기약 먹여도 되나요", NameIndex(), Lexicon.load()).aspects


@pytest.mark.parametrize(
    "question", ["할무니가 관절 파스 붙이고 텃밭일 하셔도 되나요", "울 할매 감기약 드셔도 돼요", "할부지 변비약"]
)
def test_a_grandparent_as_people_spell_them_is_the_elderly(question):
    """할무니, 할매, 할부지: who the question is about (read before as an unknown medicine's name, 할무니)."""
    assert read_population(question).group == "elderly"
