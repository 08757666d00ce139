"""The aspect vocabulary: mined from leaflet sentences with real Kiwi, the shipped data, and each reviewed rule."""

import json

import pytest

from retrievers.aspects import MINED_SHARE, load_vocabulary
from retrievers.corpus import load_corpus
from retrievers.lexicon import Lexicon
from retrievers.mine_aspects import SEEDS_PATH, WORDS_PATH, idf_table, leaflet_sentences, mine
from retrievers.tokenizer import KiwiTokenizer
from yaksa.testing.mini_index import MINI_CORPUS


@pytest.fixture(scope="module")
def tok():
    return KiwiTokenizer()


@pytest.fixture(scope="module")
def mini_sentences(tok):
    return [tok(s) for s in leaflet_sentences(load_corpus(MINI_CORPUS))]


def test_mining_finds_the_words_that_go_with_a_seed_and_not_common_ones(mini_sentences):
    mined = mine({"driving": {"seeds": ["운전"]}}, mini_sentences, min_count=1)["driving"]
    assert "졸음" in mined  # 복용 후 졸음이 나타날 수 있으므로 운전 및 기계조작 시 주의하십시오
    assert "복용" not in mined  # in most sentences: no association


def test_sentence_idf_ranks_rare_words_above_common_ones(mini_sentences):
    idf, unseen = idf_table(mini_sentences, min_df=1)
    assert idf["졸음"] > idf["복용"]
    assert unseen >= max(idf.values())


def test_the_shipped_vocabulary_is_the_miners_output_for_the_shipped_seeds():
    seeds = json.loads(SEEDS_PATH.read_text(encoding="utf-8"))["aspects"]
    words = json.loads(WORDS_PATH.read_text(encoding="utf-8"))
    assert set(words["aspects"]) == set(seeds)
    assert "졸음" in words["aspects"]["driving"]  # mined over the full corpus
    assert {"착용", "소프트"} <= set(words["aspects"]["lens"])
    assert words["idf"]["졸음"] > words["idf"]["복용"]


@pytest.mark.parametrize(
    ("question", "aspect"),
    [
        ("감기약 먹고 운전해도 돼요?", "driving"),
        ("수면제 먹은 다음날 차 끌고 출장 가도 돼요?", "driving"),  # 차를 끌다: to drive
        ("변비약 우유랑 먹어도 돼요", "food"),
        ("소화제 빈속에 먹어도 돼요?", "meal"),
        ("담배 피우면서 붙여도 돼요", "smoking"),
        ("실수로 두 번 먹었어요", "overdose"),
        ("체했는데 소화제 얼만큼 먹어요?", "dose"),  # 얼만큼: how much, as 얼마나 먹어요
        ("마그비 얼마나 먹어야 효과 있어요", "duration"),  # 1개월 정도 복용하여도 증상의 개선이 없을 경우
        ("아이가 감기약을 한병 다 마셔버렸어요", "overdose"),
        ("유통기한 지난 약 먹어도 돼요", "expiry"),
        ("먹고 언제부터 효과가 나요", "onset"),
        ("알약 씹어 먹어도 되나요", "crushing"),
        ("파스 붙이고 샤워해도 돼요", "washing"),
        ("어제 깜빡하고 못 먹었어요", "missed"),
        ("게보린 먹고 3시간 지났는데 또 먹어도 돼요?", "timing"),  # taking it again: how long apart
        ("서캐가 아직 보여요 내일 다시 써도 돼요?", "timing"),
        ("안약 넣고 렌즈 바로 껴도 돼요", "lens"),
        ("모유 수유 중인데 먹어도 돼요", "breastfeeding"),
        ("7살 아이 먹여도 돼요", "children"),
        ("80대 아버지 드려도 될까요", "elderly"),
        ("변비약 언제 먹어요 자기 전에?", "timing"),
        ("며칠까지 먹어도 돼요", "duration"),
        ("무좀약 가려운거 없어지면 바르는거 중단해도 되나요", "duration"),  # 증상이 감소하더라도 4주 동안 계속
        ("티눈밴드 붙였는데 이따 수영장 가도 되나요?", "washing"),  # 붙인 채로 물 속에 들어가는 경우
        ("이제 안 아픈데 그만 먹어도 돼요?", "duration"),
        ("석달째 바르고 있는데 계속 발라도 괜찮은건가요?", "duration"),  # whether to go on using it
        ("파니틴정 2주 넘게 먹어도 되나요? 주말에 술약속도 있어서요", "duration"),  # 14일 이상 복용하지 마십시오
        ("열흘 이상 붙여도 돼요?", "duration"),  # whether beyond a period
        ("연고 계속 발라두 돼요?", "duration"),  # going on with it, the ending as typed
        ("무좀 크림 몇주나 발라야 되는지 궁금해요", "duration"),  # 피부진균병인 경우 3~4주
        ("이 영양제 몇달 먹어도 돼요?", "duration"),
        ("네일라카 며칠에 한번 바르는거예요", "dose"),  # how often: 첫째달은 이틀에 한번씩
        ("무좀약 매일 발라야 돼요?", "dose"),  # must it be daily: how often, not whether to go on
        ("변비약 계속 먹으면 안되나요", "duration"),
        ("냉장고에 보관해야 하나요", "storage"),
        ("1포 다 안먹이면 남은건 언제까지 먹일수있어요?", "storage"),  # 잔량은 … 2일 이내 사용 (보관법)
        ("먹고 술 마셔도 돼요", "alcohol"),
        ("임신 12주인데 먹어도 되나요", "pregnancy"),
        ("하루에 몇 번 먹어요", "dose"),
        ("스트렙실 그냥 깨물어 먹으면 안돼요", "crushing"),  # 깨물거나 부수지 말고: the leaflets' word
        ("코 스프레이 남편이랑 같이 써도 되나요", "sharing"),  # 가능한 공동으로 사용하지 마십시오
        ("가루약 물이랑 같이 먹어요? 그냥 털어넣어요?", "water"),  # 물 없이 복용합니다
        ("알약 물 없이 먹어도 돼요", "water"),
        ("타이레놀 매일 먹으면 내성 생겨요?", "dependence"),
        ("관장약 자주 쓰면 습관될까봐요", "dependence"),
        ("먹고 20분 있다가 토했는데 한알 더 먹어도 돼요?", "vomited"),
        ("가글 시켜도 돼요? 실수로 삼키면 어떡해요", "overdose"),  # 내복용으로 사용하지 마십시오
        ("작년 봄에 뜯어서 쓰던 안약 또 써도 돼요", "storage"),  # opened: 개봉 후 4주가 지나면
    ],
)
def test_each_reviewed_question_word_raises_its_aspect(tok, question, aspect):
    assert aspect in load_vocabulary().asked(question, tok(question))


@pytest.mark.parametrize(
    "question, aspect",
    [
        ("아이가 시럽 먹고 토했어요 부작용인가요", "vomited"),  # vomiting told alone is a side effect
        ("유당불내성 있는데 먹어도 돼요", "dependence"),  # 내성 inside 불내성
        ("7살 딸 시골 할머니댁 가는데 멀미약 몇미리", "elderly"),  # where she is driven to, not who takes it
        ("이 연고 바르고 다른 연고 또 발라도 돼요", "timing"),  # another one on top, not the same one again
        ("가글 일주일째 쓰는데 이가 누렇게 변했어요", "duration"),  # how long it has been: told, not asked
        ("가글 시켜도 돼요? 실수로 삼키면 어떡해요", "crushing"),  # swallowed by mistake, not swallowed whole
        ("두통에 며칠 먹었는데 귀에서 삐 소리가 나요", "duration"),  # how long it was taken: told, not asked
        ("뜨거운 물에 데였는데 후시딘 발라도 돼요?", "heat"),  # a scald: what happened, not heat on a patch
        ("임신 몇주차부터 먹으면 안돼요?", "duration"),  # the week of a pregnancy, not how long it is taken
        ("몇달째 먹고 있는데 속이 쓰려요", "duration"),  # how long it has been: told, not asked
        ("네일라카 며칠에 한번 바르는거예요", "duration"),  # how often, not how long
        ("무좀약 매일 발라야 돼요?", "duration"),
        ("마그비 얼마나 먹어야 효과 있어요", "dose"),  # how long until it works, not how much
        ("멀미약 배 타기 얼마 전에 먹어야 효과 있어요", "duration"),  # how long before, not how long taken
    ],
)
def test_a_situation_needing_a_second_word_or_inside_a_longer_one_is_not_asked(tok, question, aspect):
    assert aspect not in load_vocabulary().asked(question, tok(question))


def test_a_question_with_no_aspect_word_asks_none(tok):
    assert load_vocabulary().asked("게보린 부작용 알려줘", tok("게보린 부작용 알려줘")) == []


@pytest.mark.parametrize("question", ["입술에 물집 잡혔어요", "수술 받고 먹어도 되나요", "배탈나서 설사를 계속 해요"])
def test_a_one_syllable_or_symptom_word_inside_another_word_raises_no_aspect(tok, question):
    assert load_vocabulary().asked(question, tok(question)) == []  # 술 in 입술 / 수술; 계속 of a symptom


def test_seeds_match_sentences_but_not_inside_common_words():
    vocab = load_vocabulary()
    assert vocab.match("overdose", "함수용으로만 사용하고, 내복용으로 사용하지 마십시오.") == 1.0  # not to swallow
    assert vocab.match("sunlight", "햇빛 노출시 피부 과민반응, 두드러기, 홍반 등이 나타날 수 있습니다.") == 1.0
    assert vocab.match("alcohol", "이 약은 알콜 중독시 해독제로 사용할 수 없습니다.") == 1.0  # as 20 leaflets spell it
    assert vocab.match("sunlight", "햇빛을 많이 보고 정상적인 식사를 하는 어린이에게는 필요하지 않습니다.") < 1.0
    assert vocab.match("overdose", "이 약은 외용으로만 사용하고 내복하지 마십시오.") == 1.0
    assert vocab.match("alcohol", "복용 중에는 음주하지 마십시오.") == 1.0
    assert vocab.match("alcohol", "수술 후에는 의사와 상의하십시오.") == 0.0  # 술 is no seed: it is in 수술
    # the leaflets' own words for drinking too much: a hangover medicine's efficacy speaks to drinking
    assert vocab.match("alcohol", "이 약은 과음, 구역질(숙취, 술을 마신 후의 구역질)에 사용합니다.") == 1.0
    assert vocab.match("crushing", "갈색 병에 보관하십시오.") == 0.0  # 갈 is no seed: it is in 갈색
    # a long treatment the patient had (장기간의 고용량 스테로이드 치료 후) is no period of using the medicine
    assert vocab.match("duration", "장기이식 후, 장기간의 고용량 스테로이드 치료 후인 환자는 복용하지 마십시오.") == 0.0
    assert vocab.match("duration", "장기간의 사용은 피하십시오.") == 1.0
    # a treatment's period: what 몇주나 발라요 asks
    assert vocab.match("duration", "치료기간은 피부진균병인 경우 3~4주, 어루러기인 경우 1~3주를 사용합니다.") == 1.0
    assert vocab.match("driving", "졸음이 올 수 있습니다.") == MINED_SHARE  # a mined word only
    assert vocab.match("storage", "사용잔액은 재사용 하지 않고 버립니다.") == 1.0  # what is left: kept or not


@pytest.mark.parametrize(
    "question",
    [
        "어린이 물약 먹여도 돼요",
        "물파스 발라도 돼요",
        "약물 알레르기 있어요",
        "타이레놀 다른 약물과 함께 먹어도 돼요?",  # another drug, not water
        "콧물이랑 기침이 같이 나요",
        "음식물이랑 같이 먹어도 되나요",
    ],
)
def test_water_is_asked_only_in_its_own_words_not_inside_a_medicines_name(tok, question):
    assert "water" not in load_vocabulary().asked(question, tok(question))


def test_water_seeds_mark_taking_with_water_not_another_drug_or_washing():
    vocab = load_vocabulary()
    assert vocab.match("water", "1일 3~6회 물 없이 복용합니다.") == 1.0
    assert vocab.match("water", "1일 3회 소량의 물과 함께 복용합니다.") == 1.0
    assert vocab.match("water", "다른 약물과 함께 복용하지 마십시오.") == 0.0  # 약물과 함께: another drug
    assert vocab.match("water", "눈에 들어간 경우 충분한 물로 씻어 내십시오.") == 0.0  # washing
    assert vocab.match("water", "충분한 물과 함께 씻어내십시오.") == 0.0
    assert vocab.match("water", "물과 함께 복용하십시오.") == 1.0  # a sentence's start counts as the leading space


def test_symptom_and_class_words_are_the_targets_of_a_question():
    assert Lexicon.load().target_words("감기약 먹고 운전해도 돼요") == ["감기"]
    assert Lexicon.load().target_words("운전해도 돼요") == []


@pytest.mark.parametrize(
    "question",
    ["한알로 안되면 두알 먹어도 되나요", "반 알만 먹여도 돼요", "파스 2장 붙여도 돼요", "하루 3번씩 먹어도 돼요"],
)
def test_an_amount_with_its_counter_asks_the_dose(tok, question):
    assert "dose" in load_vocabulary().asked(question, tok(question))


@pytest.mark.parametrize(
    "question", ["한번 먹어봤는데 괜찮나요", "두통이 심해요", "두 알레르기약 같이 먹어도", "부루펜정200 먹어도"]
)
def test_a_number_word_that_is_no_amount_asks_no_dose(tok, question):
    """한번 is "once, to try"; 두통 and 알레르기 begin with a number word or a counter, and a strength is no amount."""
    assert "dose" not in load_vocabulary().asked(question, tok(question))


def test_a_period_of_days_or_months_speaks_to_how_long():
    vocab = load_vocabulary()
    assert vocab.match("duration", "1개월 정도 복용하여도 증상의 개선이 없을 경우 의사와 상의하십시오.") == 1.0
    assert vocab.match("duration", "7일 이상 복용하여도 증상이 좋아지지 않으면 복용을 중지하십시오.") == 1.0
    assert vocab.match("duration", "5~6회 복용하여도 좋아지지 않으면 상의하십시오.") == 0.0  # doses, no period


@pytest.mark.parametrize(
    "sentence",
    [
        "만 3개월 이상 만 2세 미만의 영․유아는 의사와 상의하십시오.",  # an age: who may take it
        "생후 6개월 이상의 소아에게 사용합니다.",
        "3개월 이상의 영아는 1회 2.5 mL",
        "1주 이상 지속 또는 재발되는 기침 환자는 상의하십시오.",  # how long a symptom has lasted
        "MAO억제제를 복용하고 있거나 복용을 중단한 후 2주 이내의 사람은 복용하지 마십시오.",  # since another stopped
    ],
)
def test_an_age_a_symptoms_length_or_the_weeks_since_another_medicine_are_no_period_of_use(sentence):
    """The cautions list these in almost every cold and allergy leaflet: read as periods, they outranked the
    sentence a question about alcohol asked for whenever it also said 매일."""
    assert load_vocabulary().match("duration", sentence) == 0.0


def test_keeping_an_enteric_coating_whole_speaks_to_crushing():
    """장용정 부숴서 먹어도: the leaflets say 장용피막을 파손하지 않도록 (조갑파손, nail damage, is not it)."""
    vocab = load_vocabulary()
    assert vocab.match("crushing", "이 약의 장용피막을 파손하지 않도록 유의하십시오.") == 1.0
    assert vocab.match("crushing", "조갑파손, 탈모가 나타날 수 있습니다.") < 1.0


def test_a_days_dose_taken_in_parts_is_no_splitting_of_a_tablet():
    """분할 복용 (a day's dose in two or three parts) told a 변비약 쪼개서 question it may split a tablet; 씹지 말고
    still answers it."""
    vocab = load_vocabulary()
    assert vocab.match("crushing", "변비증에는 1일 8정(2 g)을 1~2회 분할 복용합니다.") == 0.0
    assert vocab.match("crushing", "장용성 정제이므로 깨물거나 부수지 말고 그대로 복용하십시오.") == 1.0


def test_how_long_an_opened_pack_may_be_used_speaks_to_expiry():
    """인공눈물 개봉하고 한달 지났는데: 개봉 후 4주가 지나면 사용하지 마십시오 answers it (the notice said it did not);
    a line only on keeping it cold after opening does not."""
    vocab = load_vocabulary()
    assert vocab.match("expiry", "개봉 후 4주가 지나면 사용하지 마십시오.") == 1.0
    assert vocab.match("expiry", "용기 개봉 후 3개월 이내에 복용하십시오.") == 1.0
    assert vocab.match("expiry", "개봉 후에는 냉장 보관하십시오.") < 1.0


def test_changing_a_patch_is_no_grinding_of_a_tablet(tok):
    """갈아 붙이다 is putting on a new patch; 갈아서 먹다 still asks about crushing."""
    vocab = load_vocabulary()
    assert "crushing" not in vocab.asked("파스 몇 시간마다 갈아 붙여야 돼요", tok("파스 몇 시간마다 갈아 붙여야 돼요"))
    assert "crushing" not in vocab.asked("파스 하루에 몇번 갈아줘요", tok("파스 하루에 몇번 갈아줘요"))
    assert "crushing" in vocab.asked("알약 갈아서 먹어도 돼요", tok("알약 갈아서 먹어도 돼요"))
    assert "crushing" in vocab.asked("약 갈아 먹여도 되나요 파스 말고", tok("약 갈아 먹여도 되나요 파스 말고"))


def test_not_eating_right_after_using_it_speaks_to_meals(tok):
    """구내염 연고 바르고 바로 밥 먹어도: the leaflets say 사용 후 바로 음식을 먹지 마십시오."""
    vocab = load_vocabulary()
    question = "구내염 연고 바르고 바로 밥 먹어도 돼요?"
    assert "meal" in vocab.asked(question, tok(question))
    assert vocab.match("meal", "사용 후 바로 음식을 먹지 마십시오.") == 1.0
    assert vocab.match("meal", "사용 후 음식을 바로 드시지 마십시오.") == 1.0
    assert vocab.match("meal", "이 약을 복용하기 전에 음식을 삼키기 어렵거나 삼킬 때 통증이 있는 경우") < 1.0


def test_sunlight_is_asked_in_peoples_words_and_found_in_the_leaflets():
    """햇빛 받아도 되나요: the leaflets say 자외선, 옥외활동, 태양광선; their 햇빛 is a vitamin D line."""
    vocab = load_vocabulary()
    assert "sunlight" in vocab.asked("케토톱 붙이고 바로 밖에 나가서 햇빛 받아도 되나요?")
    assert vocab.match("sunlight", "옥외활동을 피하고 자외선에 노출되지 않도록 합니다.") == 1.0
    assert vocab.match("sunlight", "치료 중에는 태양광선에 노출되는 것을 피하십시오.") == 1.0
    vitamin_d = "이 약을 복용하기 전에 햇빛을 많이 보고 정상적인 식사를 하는 어린이는 상의하십시오."
    assert vocab.match("sunlight", vitamin_d) < 1.0


def test_an_expiry_date_is_asked_as_people_name_it_and_found_as_leaflets_do():
    """유효기간 is what people write; the leaflets write 사용기한, 유통기한 and 사용기간."""
    vocab = load_vocabulary()
    assert "expiry" in vocab.asked("마데카솔 유효기간 두달 지났는데 발라도 되나요?")
    assert vocab.match("expiry", "사용기간이 경과된 제품은 사용하지 마십시오.") == 1.0


def test_a_question_about_the_hours_of_sleep_asks_when_to_use_it():
    vocab = load_vocabulary()
    assert "timing" in vocab.asked("니코레트 패치 잘때도 붙이고 자요?")
    assert "timing" in vocab.asked("노스카나겔 자는 동안 발라둬도 되나요")
    assert "timing" not in vocab.asked("잘 모르겠는데 하루 몇 번 발라요")  # 잘 alone is no sleep


def test_washing_hair_and_a_dose_taken_late_are_asked_as_people_say_them():
    vocab = load_vocabulary()
    assert "washing" in vocab.asked("마이녹실 바르고 몇시간 있다가 머리 감아야 돼요?")
    assert "missed" in vocab.asked("피임약 새 팩 첫 알을 하루 늦게 먹었어요")
    assert "missed" not in vocab.asked("늦게 자는데 수면유도제 먹어도 돼요")  # late to bed is no dose missed


def test_the_hours_between_doses_speak_to_when_to_take_it():
    """몇 시간 지나야 또 먹어요: "4~6시간 마다" says it, as "4시간 이상 간격" does."""
    vocab = load_vocabulary()
    assert "timing" in vocab.asked("타이레놀 먹고 몇 시간 지나야 또 먹을 수 있어요?")
    assert vocab.match("timing", "1회 1~2정씩, 1일 3~4회(4~6시간 마다) 필요시 복용합니다.") == 1.0
    assert vocab.match("timing", "매 4~6시간마다 필요시 1포씩 복용합니다.") == 1.0
    assert vocab.match("timing", "1회 1~2정씩, 1일 3회 복용합니다.") == 0.0


def test_a_question_word_written_with_a_space_is_read_as_written(tok):
    """The reviewed list writes some question words with a space (효과 언제, 털어 넣): read with the question's spaces
    ignored, like the rest."""
    vocab = load_vocabulary()
    assert "onset" in vocab.asked("효과 언제 나요", tok("효과 언제 나요"))


def test_a_word_inside_another_aspects_longer_word_asks_that_aspect_only(tok):
    """언제 asks when to take it, but 언제쯤 효과 asks when it works: the longer word said decides."""
    vocab = load_vocabulary()
    assert vocab.asked("변비약 먹고 언제쯤 효과 나요?", tok("변비약 먹고 언제쯤 효과 나요?")) == ["onset"]
    assert vocab.asked("변비약 언제 먹어요", tok("변비약 언제 먹어요")) == ["timing"]


def test_a_time_waited_before_it_works_asks_onset_but_not_a_wait_before_washing(tok):
    """몇 분 있다 효과 나요 asks how soon it works; 몇 시간 있다가 머리 감아요 asks when to wash, not the effect."""
    vocab = load_vocabulary()
    for question in ("탁센 먹으면 몇분있다 효과나요?", "먹고 몇 시간 있다가 효과 나와요", "몇 분 지나야 효과 있어요"):
        assert "onset" in vocab.asked(question, tok(question)), question
    question = "마이녹실 바르고 몇시간 있다가 머리 감아야 돼요?"
    assert "onset" not in vocab.asked(question, tok(question))


def test_hours_a_plaster_is_worn_ask_no_time_between_doses(tok):
    """몇시간 붙이고 있어야: how long it is worn (its 용법), not how long apart; 몇 시간 간격 still asks that."""
    vocab = load_vocabulary()
    worn = "케토톱 한번 붙이면 몇시간 붙이고 있어야되요?"
    assert "timing" not in vocab.asked(worn, tok(worn))
    apart = "타이레놀 몇시간 간격으로 먹어요"
    assert "timing" in vocab.asked(apart, tok(apart))


def test_a_time_window_of_another_instruction_is_no_onset():
    """우유 섭취 후 1시간 이내 and 점안 후 15분 이내 are windows of other instructions, not how soon it works."""
    vocab = load_vocabulary()
    assert vocab.match("onset", "우유 섭취 후 1시간 이내에 이 약을 복용하지 마십시오.") == 0.0
    assert vocab.match("onset", "보통 2~4주면 치료효과가 나타나나 재발방지를 위해 계속 바릅니다.") == 1.0
    # the time it takes, written with the effect first or as a time taken
    assert vocab.match("onset", "이 약의 효과는 복용 후 1∼2일(24∼48시간)내에 분명하게 나타납니다.") == 1.0
    assert vocab.match("onset", "장 운동을 일으키는데 1~4일(24시간에서 96시간)정도 소요됩니다.") == 1.0


def test_finishing_a_meal_or_a_course_is_no_overdose(tok):
    vocab = load_vocabulary()
    for question in ("밥 다 먹었는데 약 먹어도 돼요", "약을 다 먹었는데 또 사야 하나요"):
        assert "overdose" not in vocab.asked(question, tok(question))


@pytest.mark.parametrize("question", ["어제 소주 두병 마셔서 타이레놀 먹어도 되나요", "맥주 3병 마시고 두통약"])
def test_an_amount_of_a_drink_is_no_dose(tok, question):
    """소주 두병: what was drunk; the question asks about alcohol, not how much medicine to take."""
    asked = load_vocabulary().asked(question, tok(question))
    assert "alcohol" in asked and "dose" not in asked


def test_next_week_is_no_drinking(tok):
    """다음주 holds 음주 across its syllables (다-음주): 음주 is read only where a word starts."""
    vocab = load_vocabulary()
    next_week, drank = "아스피린 매일 먹는데 다음주에 이 뽑아요", "어제 음주했는데 두통약 먹어도"
    assert "alcohol" not in vocab.asked(next_week, tok(next_week))
    assert "alcohol" in vocab.asked(drank, tok(drank))


def test_an_amount_of_a_liquid_medicine_is_a_dose(tok):
    assert "dose" in load_vocabulary().asked("판피린 한병 더 마셔도 되나요", tok("판피린 한병 더 마셔도 되나요"))


def test_swimming_asked_is_washing_but_a_swim_told_is_not(tok):
    """수영장 가도 되나요 asks about water on the skin (이 약을 붙인 채로 물 속에 들어가는 경우 …); 수영장 다녀와서 눈이
    따가운데 tells why the eye drops are wanted."""
    vocab = load_vocabulary()
    told = "수영장 다녀와서 눈이 따가운데 하루에 몇번까지 넣어요?"
    assert "washing" not in vocab.asked(told, tok(told))
    assert vocab.match("washing", "이 약을 붙인 채로 물 속에 들어가는 경우에는 약고가 녹을 수 있습니다.") == 1.0


def test_a_duration_seed_is_none_inside_a_longer_word():
    """장기 (a long period) is in 심장기능 and 장기이식 (an organ): those sentences speak of no duration, the
    shortest period (최단기간) does."""
    from retrievers.aspects import load_vocabulary

    vocab = load_vocabulary()
    assert vocab.match("duration", "심장기능저하 환자는 이 약을 복용하지 마십시오.") == 0.0
    assert vocab.match("duration", "장기이식 환자는 의사와 상의하십시오.") == 0.0
    assert vocab.match("duration", "장기간 복용하지 마십시오.") == 1.0
    assert vocab.match("duration", "이 약은 가능한 최단기간동안 최소 유효용량으로 복용하며") == 1.0


def test_two_each_time_asks_a_dose_and_two_taken_at_once_an_overdose():
    """한번에 두알씩 먹어도: a dose taken each time (씩), not too much taken; 한번에 두알 먹었어요 is."""
    from retrievers.aspects import load_vocabulary

    vocab = load_vocabulary()
    assert "overdose" not in vocab.asked("훼스탈한번에두알씩먹어도되요?", (), "훼스탈 한번에 두알씩 먹어도 되요?")
    assert "overdose" in vocab.asked("실수로한번에두알먹었어요", (), "실수로 한번에 두알 먹었어요")


def test_heat_is_asked_in_peoples_words_and_found_in_the_leaflets():
    """핫팩, 찜질, 전기장판: the leaflets say 전기모포 등으로 따뜻하게 하지 마십시오, 외부의 열이나 뜨거운 물에 노출하지
    마십시오; a dose dissolved in hot water (뜨거운 물 약 250 mL에 녹여) is no heat on the skin."""
    vocab = load_vocabulary()
    assert "heat" in vocab.asked("멘소래담 로션 바르고 그 위에 핫팩 올려놔도 되나요?")
    assert "heat" in vocab.asked("파스 붙이고 전기장판 틀고 자도 되나요")
    assert vocab.match("heat", "질환 부위를 회로나 전기모포 등으로 따뜻하게 하지 마십시오.") == 1.0
    assert vocab.match("heat", "적용부위를 싸거나 감지 않고, 외부의 열이나 뜨거운 물에 노출하지 마십시오.") == 1.0
    assert vocab.match("heat", "1회 1포를 끓지 않는 정도의 뜨거운 물 약 250 mL에 녹여 복용합니다.") < 1.0


def test_a_course_written_as_a_range_says_how_long():
    from retrievers.aspects import PERIOD

    assert PERIOD.search("칸디다성 귀두염인 경우 1~2주 사용합니다.")  # how long: no 'silent on duration' notice
    assert not PERIOD.search("3~6세는 1회 5~8 mL를 복용합니다.")


@pytest.mark.parametrize(
    "question",
    [
        "80대 어머니 허리에 케토톱 붙이고 밭일하러 나가셔도 되나요",
        "파스 붙이고 등산 가도 돼요",
        "여드름약 바르고 야외 활동",
    ],
)
def test_being_outdoors_asks_about_the_sun(question):
    """The leaflets' 옥외활동 (keep out of the sun for two weeks after a ketoprofen plaster), as people say it."""
    assert "sunlight" in load_vocabulary().asked(question)


def test_keeping_an_opened_single_use_container_asks_about_using_it_again():
    from programs.aspect_check import Quoted, speaks_to

    vocab = load_vocabulary()
    assert "reuse" in vocab.asked("일회용 인공눈물 뚜껑 다시 닫아뒀다가 다음날 써도 되나요")
    assert "reuse" not in vocab.asked("인공눈물 하루에 몇 번 넣어요")
    # asked in its own words, only a sentence about using it again answers it, not the storage temperature
    assert speaks_to("how_to_take", Quoted("점안 후 남은 액과 용기는 버립니다.", "useMethod"), by_words=("reuse",))
    assert not speaks_to("how_to_take", Quoted("15~25도에서 보관하십시오.", "depositMethod"), by_words=("reuse",))


def test_a_dressing_over_what_was_applied_asks_about_covering_it():
    """밴드로 덮어도: the leaflets' 밀봉붕대법, asked in its own words; the notice names it when nothing answers."""
    from programs.aspect_check import Quoted, speaks_to

    vocab = load_vocabulary()
    assert "covering" in vocab.asked("무릎 까진데 마데카솔 바르고 밴드로 덮어놔도 되나요")
    assert "covering" not in vocab.asked("마데카솔 하루에 몇 번 발라요")
    line = Quoted("의사의 감독없이 밀봉붕대법을 사용하지 마십시오.", "atpn")
    assert speaks_to("how_to_take", line, by_words=("covering",))
    dose = Quoted("1일 1~2회 적당량을 환부에 바릅니다.", "useMethod")
    assert not speaks_to("how_to_take", dose, by_words=("covering",))
    from programs.aspect_check import WORDS, said_as

    assert said_as("how_to_take", ["how_to_take", "covering"]) == "covering" and "붕대" in WORDS["covering"]
    assert said_as("how_to_take", ["how_to_take", "reuse"]) == "reuse"


def test_a_skin_the_sun_burnt_is_no_question_of_going_out_in_the_sun(tok):
    """햇볕에 익어서 화끈거려요: a sunburn to treat, which the cautions on avoiding the sun do not answer; 햇볕 쬐어도
    still asks about the sun. The lexicon reads the burn as the leaflets' 일광피부염."""
    from retrievers.lexicon import Lexicon

    vocab = load_vocabulary()
    burnt = "바다 다녀와서 어깨가 햇볕에 익어서 화끈거려요 바를만한 연고 있나요"
    assert "sunlight" not in vocab.asked(burnt, tok(burnt))
    assert "sunlight" not in vocab.asked("햇빛에 탔는데 뭐 발라요", tok("햇빛에 탔는데 뭐 발라요"))
    assert "sunlight" in vocab.asked("케토톱 붙이고 햇볕 쬐어도 돼요", tok("케토톱 붙이고 햇볕 쬐어도 돼요"))
    assert "일광피부염" in Lexicon.load().expansion_terms(burnt)


def test_a_time_of_day_asks_when_to_take_it_only_beside_a_verb_of_using_it(tok):
    """밤에 열이 39도 넘는데 is when the fever comes, not when to give the syrup (the answer had said the leaflets are
    silent on when to take it); 밤에 먹어도, 아침저녁으로 발라요 still ask it."""
    vocab = load_vocabulary()
    fever = "6개월 아기 밤에 열이 39도 넘는데 어린이부루펜시럽 먹여도 되나요"
    assert "timing" not in vocab.asked(fever, tok(fever))
    for asked in ("지르텍 밤에 먹어도 돼요?", "연고 아침저녁으로 발라요?", "파스 저녁에만 붙여도 되나요"):
        assert "timing" in vocab.asked(asked, tok(asked)), asked


def test_drinking_as_people_spell_it_asks_about_alcohol(tok):
    """부루펜 먹구 쏘주 한잔: the answer had quoted side effects, not the 알코올 line; a coffee had is no drink."""
    vocab = load_vocabulary()
    for question in ("부루펜 먹구 쏘주 한잔 해도 댐?", "타이레놀 먹고 소맥 마셔도"):
        assert "alcohol" in vocab.asked(question, tok(question)), question
    assert "alcohol" not in vocab.asked("커피 한잔하고 먹어도 돼요", tok("커피 한잔하고 먹어도 돼요"))


def test_an_operation_ahead_and_a_drug_test_are_asked_in_peoples_words_and_found_in_the_leaflets():
    """사랑니 뽑기 전, 수술 잡혔는데: what to do before an operation, which a few leaflets say (수술(치과수술
    포함)을 하는 경우에는 … 알리십시오); 수술 후 진통제 asks what it is for. 소변검사 양성, 도핑: a drug test,
    which two leaflets speak of."""
    vocab = load_vocabulary()
    assert "surgery" in vocab.asked("사랑니 뽑기 전에 아스피린 먹던거 계속 먹어도 돼요?")
    assert "surgery" in vocab.asked("다음주에 무릎 수술 잡혔는데 타이레놀 끊어야 되나요")
    assert "surgery" not in vocab.asked("수술 후 통증에 진통제 뭐 먹어요")
    bleeding = "출혈의 위험이 있으므로 수술(치과수술 포함)을 하는 경우에는 의사에게 이 약을 복용하고 있음을 알리십시오."
    assert vocab.match("surgery", bleeding) == 1.0
    assert vocab.match("surgery", "수술후 동통(통증), 발치 후 통증에 사용합니다.") < 1.0
    assert "drug_test" in vocab.asked("지르텍 매일 먹는데 입사 전 소변검사에서 양성 나와요?")
    assert vocab.match("drug_test", "운동선수의 경우 도핑 검사 시 양성 반응을 일으킬 수 있으므로 주의하십시오.") == 1.0
