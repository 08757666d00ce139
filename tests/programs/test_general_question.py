"""A question about medicines in general (programs/general_question.py) is in scope, quotes no product's leaflet and
says the leaflets do not cover it, with no LM call: the real `Searcher` on the mini index."""

import pytest

from programs.crag import CRAG
from programs.general_question import ANSWER, TRADE_ANSWER
from programs.outcome import NOT_IN_LEAFLETS


@pytest.mark.parametrize(
    "question",
    [
        "전문의약품이랑 일반의약품 차이가 뭐에요? 왜 어떤건 처방전 있어야돼요",
        "처방약이랑 약국약 차이",
        "먹다남은 약 어떻게 버려요? 그냥 쓰레기통에 버려도 됨?",
    ],
)
def test_a_question_about_medicines_in_general_is_told_the_leaflets_do_not_cover_it(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert not pred.out_of_scope
    assert pred.answer.startswith(ANSWER)
    assert not [c for c in pred.citations if c["cited"]] and "[문서" not in pred.answer
    assert pred.trace["outcome"] == NOT_IN_LEAFLETS and pred.trace["lm_calls"]["total"] == 0


def test_a_question_naming_a_medicine_is_answered_about_it(searcher):
    pred = CRAG(backend=searcher)(question="게보린 남은 거 버려야 하나요?")
    assert not pred.answer.startswith(ANSWER)


@pytest.mark.parametrize(
    "question",
    [
        "중학생 아들이 밤에 편의점 가서 타이레놀 사올 수 있어요? 미성년자한테도 팔아요?",
        "게보린 처방전 없이 살 수 있나요",
        "감기약 먹고 운전하다 걸리면 처벌받아요?",
        "게보린 비행기에 들고 타도 되나요? 세관에서 걸리나",
        "일요일 밤인데 애가 열이 나요 지금 문 연 약국 어떻게 찾아요",
        "게보린 먹는 중인데 헌혈 가능한가요?",
        "약국에서 산 감기약도 연말정산 의료비 공제 되나요?",
        "판콜에이 약국에서 얼마정도 해요? 10병짜리 박스로 사면 더 싼가요",  # what it costs
    ],
)
def test_trade_law_and_travel_are_beyond_the_leaflets_whatever_is_named(searcher, question):
    """Who may buy it, the law, carrying it abroad, an open pharmacy, giving blood: no leaflet says them, whatever
    product the question names, and nothing is quoted as if it answered."""
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(TRADE_ANSWER)
    assert not [c for c in pred.citations if c["cited"]] and "[문서" not in pred.answer
    assert pred.trace["outcome"] == NOT_IN_LEAFLETS and pred.trace["lm_calls"]["total"] == 0


@pytest.mark.parametrize(
    "question",
    [
        "약국에서 파는 인공눈물 하루 몇 번 넣어요?",  # which one, as sold
        "요즘 잠이 안와요 약국에서 살수 있는 약 있어요?",  # which one may be bought: the leaflets answer
        "편의점에서 산 타이레놀 몇 알 먹어요?",  # where it was bought is no question
        "해외직구한 멜라토닌 먹어도 되나요?",  # taking it is asked
        "감기약 먹고 운전해도 돼요?",
        "졸피뎀 하루 최대 용량이 얼마에요",  # how much is a dose, not a price
        "목스프레이 뿌리고 바로 운전하면 음주단속에 걸려요?",  # a breath test: the spray's leaflet answers
    ],
)
def test_buying_or_a_place_only_mentioned_is_no_trade_question(question):
    from programs.general_question import TRADE

    assert not TRADE.search(question)


def test_no_leaflet_speaks_of_trade_law_travel_or_pets():
    """The words `TRADE` and `ANIMAL` read are none of the leaflets' own: what they ask, no leaflet sentence answers."""
    from programs.general_question import ANIMAL, TRADE
    from retrievers.corpus import load_corpus

    said = [d.id for d in load_corpus() if d.source == "easydrug" and (TRADE.search(d.text) or ANIMAL.search(d.text))]
    assert not said


@pytest.mark.parametrize(
    "question",
    [
        "강아지가 발을 다쳤는데 후시딘 발라줘도 되나요?",
        "고양이 눈곱 끼는데 사람 인공눈물 넣어도 돼요",
        "우리집 댕댕이 설사하는데 게보린 먹여도됨?",  # 댕댕이: a pet's word, no unknown medicine's name
    ],
)
def test_a_pets_medicine_is_beyond_the_leaflets(searcher, question):
    from programs.general_question import ANIMAL_ANSWER

    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(ANIMAL_ANSWER)  # no notice that the pet's word is an unknown medicine's name
    assert not [c for c in pred.citations if c["cited"]] and pred.trace["outcome"] == NOT_IN_LEAFLETS


@pytest.mark.parametrize(
    "question",
    [
        "충치 치료하고 마취가 아직 안 풀렸는데 밥 먹어도 되나요?",
        "내시경 하기 전에 밥 먹어도 되나요?",
        "5살 딸 열이 나는데 열 내리면 바로 어린이집 보내도 돼요?",  # a symptom; may one do what no medicine is
        "아이 구내염이면 어린이집 며칠 쉬어야 하나요",  # when to go back, asked of a symptom
    ],
)
def test_a_question_naming_no_medicine_quotes_no_leaflet_as_if_it_were_the_one(searcher, question):
    """No product, ingredient, kind or symptom named, yet something particular asked (밥 먹어도): whatever
    leaflet retrieval found would be quoted as the medicine asked about; the answer says no medicine was named."""
    from programs.general_question import NO_TARGET_ANSWER

    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(NO_TARGET_ANSWER)
    assert not [c for c in pred.citations if c["cited"]] and pred.trace["outcome"] == NOT_IN_LEAFLETS


@pytest.mark.parametrize(
    "question",
    ["머리가 너무 아파요", "게보린 밥 먹고 먹어요?", "열이 나는데 먹여도 되나요?", "트로키 그냥 씹어 삼켜도 되나요?"],
)
def test_a_symptom_or_a_medicine_told_is_answered(searcher, question):
    from programs.general_question import NO_TARGET_ANSWER

    pred = CRAG(backend=searcher)(question=question)
    assert not pred.answer.startswith(NO_TARGET_ANSWER)
    assert [c for c in pred.citations if c["cited"]]


@pytest.mark.parametrize(
    "question",
    [
        "가만히 누워있는데도 심장이 두근두근 빨리 뛰어요 무슨 병인가요?",
        "며칠째 머리가 지끈거리는데 어디가 안 좋은 건가요",
        "열이 사흘째 안 떨어져요 병원 가봐야 하나요?",
    ],
)
def test_what_illness_a_symptom_is_is_beyond_the_leaflets(searcher, question):
    """A diagnosis asked with no medicine named: a symptom's products' efficacy would read as the answer; the
    answer says the leaflets do not diagnose and quotes nothing."""
    from programs.general_question import DIAGNOSIS_ANSWER

    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(DIAGNOSIS_ANSWER)
    assert not [c for c in pred.citations if c["cited"]] and pred.trace["outcome"] == NOT_IN_LEAFLETS


@pytest.mark.parametrize(
    "question",
    ["게보린 먹었는데 계속 아파요 병원 가봐야 하나요?", "두근거림에 먹는 약 있어요? 무슨 병인지 모르겠어요"],
)
def test_a_diagnosis_asked_beside_a_medicine_is_answered_about_the_medicine(searcher, question):
    from programs.general_question import DIAGNOSIS_ANSWER

    assert not CRAG(backend=searcher)(question=question).answer.startswith(DIAGNOSIS_ANSWER)


@pytest.mark.parametrize(
    "question",
    [
        "감기 걸렸을때 좋은 음식 뭐 있어요",
        "변비에 좋은 과일 추천해주세요",
        "목감기엔 무슨 차 마시면 좋아요?",
        "물을 하루 2리터씩 마시면 변비가 좀 나아지나요",
    ],
)
def test_which_food_helps_an_illness_is_beyond_the_leaflets(searcher, question):
    """Which food, fruit or tea is good for an illness, no medicine named: the products of its symptom read as the
    answer; the answer says the leaflets do not say which food helps and quotes nothing."""
    from programs.general_question import FOOD_ANSWER

    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(FOOD_ANSWER)
    assert not [c for c in pred.citations if c["cited"]] and pred.trace["outcome"] == NOT_IN_LEAFLETS


@pytest.mark.parametrize(
    "question",
    [
        "감기약 먹을 때 좋은 음식 있어요?",
        "장염일 때 먹으면 안 되는 음식 있나요",
        "멀미약 먹고 차 타도 돼요?",
        "변비약 먹고 물 많이 마시면 효과 좋아요?",
    ],
)
def test_food_asked_of_a_medicine_or_to_avoid_is_answered_from_the_leaflets(searcher, question):
    """Food beside a medicine, or what not to eat (설사 시 … 생음식 … 먹지 마십시오), is what leaflets say."""
    from programs.general_question import FOOD_ANSWER

    assert not CRAG(backend=searcher)(question=question).answer.startswith(FOOD_ANSWER)


@pytest.mark.parametrize(
    ("question", "nothing"),
    [
        ("여드름 있는 얼굴로 낮에 햇빛 받아도 괜찮은가요", True),  # a symptom, and may one go out: no medicine
        ("여드름 겔 바른 얼굴로 낮에 햇빛 받아도 괜찮은가요", False),  # the symptom's medicine, by its form
        ("여드름 젤타입 약 바르고 햇빛 받아도 돼요", False),
        ("입술 물집에 크림 바른 채로 햇빛 받아도 되나요", False),
    ],
)
def test_a_symptoms_medicine_said_by_its_form_is_a_medicine_named(question, nothing):
    """A form word (겔, 크림) or how it is used (바른) beside a symptom speaks of that symptom's medicine: the question
    goes on to its products, not to the answer that no medicine was named."""
    from programs.general_question import names_nothing
    from retrievers.question_frame import QuestionFrame, Targets

    symptom = "여드름" if "여드름" in question else "물집"
    frame = QuestionFrame(question, Targets(symptoms=(symptom,)), aspects=("cautions",))
    assert names_nothing(frame) is nothing
