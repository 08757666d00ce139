"""A claim the asker heard (…다는데 진짜예요?): its words, and the notice when no quoted sentence speaks of it — read
alone and through the CRAG program over the real mini index."""

import pytest

from metrics.answer_eval import answer_row
from programs.claim_check import (
    asked_effect,
    claim_notice,
    claim_nouns,
    claim_word,
    effect_notice,
    effect_word,
    heard_claim,
)
from programs.crag import CRAG
from yaksa.prediction_json import prediction_json


@pytest.mark.parametrize(
    "question, claim",
    [
        ("수면제 오래 먹으면 치매 온다던데 사실이에요?", "수면제 오래 먹으면 치매 온다"),
        ("피임약 자몽주스랑 먹으면 안 된다는 말이 있던데 진짜예요?", "피임약 자몽주스랑 먹으면 안 된다"),
        ("비타민이랑 같이 먹으면 흡수 잘된다고 들었어요 맞나요?", "비타민이랑 같이 먹으면 흡수 잘된다"),
        ("어제 병원 갔는데, 물 많이 마시면 빨리 낫는다더라 진짜?", "물 많이 마시면 빨리 낫는다"),
        ("의사가 위염이라던데 맞나요?", "의사가 위염이라"),
        ("진통제 매일 먹으면 내성 생긴다던데 ㄹㅇ이에요 아니에요?", "진통제 매일 먹으면 내성 생긴다"),  # ㄹㅇ: 진짜
        ("부루펜 먹으면 속 쓰리대요 진짜?", "부루펜 먹으면 속 쓰리"),
        ("철분제 먹으면 변비 생긴다던데 저만 그런가요", "철분제 먹으면 변비 생긴다"),
        ("알레르기약 과일주스랑 같이 먹으면 안된다던데요", "알레르기약 과일주스랑 같이 먹으면 안된다"),  # ends there
        (
            "친구가 그러는데 부루펜 먹으면 위장관출혈 생긴다던데 맞나요?",
            "부루펜 먹으면 위장관출혈 생긴다",
        ),  # who said it
        ("인터넷에서 봤는데 수면제 먹으면 치매 온다던데 사실?", "수면제 먹으면 치매 온다"),
        ("고2 아들이 담배를 끊겠다는데 니코레트 사줘도 될까요?", ""),  # what he said; the question is another
        ("10개월 아기 빈혈 있다는데 훼럼키드 먹여도 되나요?", ""),
        ("모유수유 중에 철분제 먹어도 되나요? 출산하고 빈혈이래요", ""),  # a report after the question
        ("의사가 위염이라던데 그렇다면 겔포스 먹어도 되나요?", ""),  # a diagnosis, then the question
        ("아이가 두통이 심하다고 해서 게보린 먹였는데 사실 걱정돼요", ""),  # a report, no claim asked about
        ("타이레놀 먹어도 되나요?", ""),  # nothing heard
        ("게보린 먹고 속이 쓰려요", ""),
    ],
)
def test_the_claim_is_the_clause_before_the_hearsay_ending(question, claim):
    assert heard_claim(question) == claim


@pytest.mark.parametrize(
    "question, names, words",
    [
        ("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?", (), ["내성"]),  # the class word chose the products
        ("임산부 두통약 타이레놀은 먹어도 된다던데 맞나요?", ("타이레놀",), []),  # who, what, "may I": no claim
        ("할머니가 드시면 치매 온다던데 진짜예요?", (), ["치매"]),  # 할머니 is who it is for
        ("스멕타 먹어도 안전하다고 들었어요 맞나요?", ("스멕타",), []),  # a judgement, not what it is about
        ("포타겔 먹으면 변비 생긴다던데요", ("포타겔",), ["변비"]),  # beside a name, a symptom is what was heard
        ("변비약 먹으면 변비 더 생긴다던데요", (), []),  # with no name, the symptom chose the products
        ("포타겔 먹으면 변비 생긴다던데요", (), []),  # 포타겔, a word Kiwi does not know, is a name, not the claim
        ("제산제를 오렌지주스랑 먹으면 안된다는데 왜요?", (), ["오렌지", "주스"]),
        ("해열제 복용하면 내성 생긴다던데 진짜?", (), ["내성"]),  # 복용: in nearly every leaflet sentence
        ("감기약 먹으면 젖양이 줄어든다던데 진짜에요?", (), ["젖"]),  # a body's word of one syllable is a word too
    ],
)
def test_the_claims_own_words(question, names, words):
    assert claim_nouns(question, names) == words


def test_the_most_particular_word_is_the_one_leaflets_use_least():
    # 교차 is rarer in leaflet sentences than 간격 (every dosing sentence has an interval)
    assert claim_word("해열제 교차복용 할 때 2시간 간격이면 된다던데 맞아요?") == "교차"


def test_a_word_no_leaflet_uses_yields_to_one_they_do():
    # 엄마 is in no leaflet sentence (it is who said it); 위장관출혈's words are
    question = "엄마가 부루펜 먹으면 위장관출혈 생긴다던데 맞나요?"
    assert "엄마" in claim_nouns(question, ("부루펜",))
    assert claim_word(question, ("부루펜",)) != "엄마"


def test_a_notice_only_when_no_quoted_sentence_carries_the_word():
    question = "철분제 먹으면 변비 생긴다던데 저만 그런가요"
    assert claim_notice(question, ["식욕부진, 변비, 흑변이 나타날 수 있습니다."]) == ""
    notice = claim_notice(question, ["철 결핍성 빈혈에 사용합니다."])
    assert notice == "※ 찾은 설명서에는 '철분제 먹으면 변비 생긴다'는 내용이 없습니다."
    # 하루 is written 1일: "약사가 하루 세번 먹으라는데" is answered by "1일 3회"
    assert claim_notice("약사가 게보린 하루 세번 먹으라는데 진짜?", ["1일 3회까지 복용합니다."], "하루") == ""
    assert claim_notice("약사가 게보린 하루 세번 먹으라는데 진짜?", ["공복을 피하십시오."], "하루")
    assert (
        claim_notice("부루펜 먹으면 속 쓰리대요 진짜?", [], "속")
        == "※ 찾은 설명서에는 '부루펜 먹으면 속 쓰리다'는 내용이 없습니다."
    )
    assert claim_notice("타이레놀 먹어도 되나요?", []) == ""


def _claim_steps(pred) -> list[dict]:
    return [s for s in pred.trace["steps"] if s["step"] == "claim_check"]


def test_a_claim_the_leaflets_do_not_speak_of_is_said_so(searcher):
    question = "게보린 매일 먹으면 내성 생긴다는데 진짜예요?"
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith("※ 찾은 설명서에는 '게보린 매일 먹으면 내성 생긴다'는 내용이 없습니다.")
    assert "[문서" in pred.answer  # what the leaflet does say is still quoted
    assert _claim_steps(pred) == [
        {"step": "claim_check", "claim": "게보린 매일 먹으면 내성 생긴다", "word": "내성", "flagged": True}
    ]
    assert pred.trace["outcome"] == "not_in_leaflets"
    row = answer_row({"question": question, "gold": [], "answerable": False}, prediction_json(pred), 1.0)
    assert row["self_check_flagged"] and row["outcome"] == "not_in_leaflets"


def test_who_said_it_is_not_taken_for_the_claim(searcher):
    pred = CRAG(backend=searcher)(question="친구가 그러는데 부루펜 먹으면 위장관출혈 생긴다던데 맞나요?")
    assert "위장관출혈" in pred.answer and "내용이 없습니다" not in pred.answer
    assert [s["word"] for s in _claim_steps(pred)] == ["위장관"]


def test_a_claim_the_quoted_sentence_speaks_of_gets_no_notice(searcher):
    pred = CRAG(backend=searcher)(question="부루펜 먹으면 위장관출혈 생긴다던데 맞아요?")
    assert "위장관출혈" in pred.answer
    assert "내용이 없습니다" not in pred.answer
    assert [s["flagged"] for s in _claim_steps(pred)] == [False]
    assert pred.trace["outcome"] == "answered"


def test_a_claims_situation_word_is_found_as_the_leaflets_write_it():
    """햇빛 보면 안된다는데: the leaflets say 자외선 and 옥외활동, never 햇빛 (their 햇빛 is vitamin D's)."""
    question = "케토프로펜 파스 붙이고 햇빛 보면 안된다는데 진짜인가요?"
    assert claim_word(question) == "햇빛"
    sun = "사용 후 2주까지는 날씨에 관계없이 옥외활동을 피하고 자외선에 노출되지 않도록 합니다."
    assert claim_notice(question, [sun]) == ""
    assert claim_notice(question, ["이 약에 과민증 환자는 사용하지 마십시오."]).startswith("※ 찾은 설명서에는")


def test_a_seed_word_is_not_widened_to_its_siblings():
    """장기 손상 온다던데: 장기 (organs) is a duration seed; its siblings (계속, 연용) are no synonyms."""
    question = "진통제 많이 먹으면 장기 손상 온다던데 진짜예요?"
    assert claim_notice(question, ["계속 복용해도 증상이 좋아지지 않으면 상의하십시오."], "장기").startswith("※")


@pytest.mark.parametrize(
    "question, effect",
    [
        ("진통제 자주 먹으면 내성 생겨요?", "내성 생겨"),
        ("해열제 먹여도 열이 안 떨어지면 해열주사 맞히는 게 나아요?", "해열주사 맞히는 게 나"),
        ("게보린 먹으면 안 돼요?", ""),  # whether one may: the leaflets say
        ("부루펜 먹으면 속 쓰릴 때 어떡해요?", ""),  # what to do
        ("부루펜 먹으면 내성 생긴다던데 진짜예요?", ""),  # a claim heard: the claim check's
        ("타이레놀 하루에 몇 알 먹어요?", ""),
        ("변비약으로 살 빠지나요?", "살 빠지"),  # after the medicine it would come from
        ("이 연고로 흉터 없어져요?", "흉터 없어져"),
        ("타이레놀 시럽으로 바꿔도 돼요?", ""),  # whether one may
        ("하루 두 번으로 늘려도 되나요", ""),  # no medicine before 으로
    ],
)
def test_an_effect_asked_about_is_the_clause_after_the_condition(question, effect):
    assert asked_effect(question) == effect


def test_an_effect_word_is_no_section_word_and_is_read_as_a_word_of_its_own():
    assert effect_word("진통제 자주 먹으면 내성 생겨요?") == "내성"
    assert effect_word("바르고 바로 감으면 효과 없나요") is None  # 효과 asks what it is for
    intolerance = ["이 약에 과민증 환자, 갈락토오스 불내성 환자는 복용하지 마십시오."]
    assert effect_notice(intolerance, "내성") == "※ 찾은 설명서에는 '내성'에 대한 내용이 없습니다."
    assert effect_notice(["장기 복용 시 약물 내성이 생길 수 있습니다."], "내성") == ""


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("타이레놀 먹으면 살쪄요?", "체중 증가"),
        ("변비약 먹으면 살 빠져요?", "체중 감소"),
        ("지르텍 먹으면 살이 쪄요?", "체중 증가"),
    ],
)
def test_an_effect_without_a_noun_of_its_own_is_its_everyday_words_leaflet_word(question, word):
    """먹으면 살쪄요: no noun but 살 (one syllable); the everyday word reads as the leaflets write it
    (retrievers/data/lay_words.json), so a quoted list without weight gain gets the notice and one with it none."""
    assert effect_word(question) == word
    assert (
        effect_notice(["구역, 구토, 식욕부진이 나타날 수 있습니다."], word)
        == f"※ 찾은 설명서에는 '{word}'에 대한 내용이 없습니다."
    )
    assert effect_notice([f"드물게 {word}가 나타날 수 있습니다."], word) == ""
    assert effect_notice([f"드물게 {word.replace(' ', '')}가 나타날 수 있습니다."], word) == ""


def test_an_effect_the_leaflet_does_not_speak_of_is_said_so(searcher):
    """부루펜's leaflet on the mini index writes 갈락토오스 불내성, which says nothing of 내성."""
    question = "부루펜 자주 먹으면 내성 생겨요?"
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith("※ 찾은 설명서에는 '내성'에 대한 내용이 없습니다.")
    assert "[문서" in pred.answer
    steps = [s for s in pred.trace["steps"] if s["step"] == "effect_check"]
    assert steps == [{"step": "effect_check", "effect": "내성 생겨", "word": "내성", "flagged": True}]
    assert pred.trace["outcome"] == "not_in_leaflets"
    row = answer_row({"question": question, "gold": [], "answerable": False}, prediction_json(pred), 1.0)
    assert row["self_check_flagged"] and row["said_not_covered"]


def test_a_claim_asked_as_the_thing_said_is_read_as_heard_not_as_an_effect():
    """…먹으면 안된다는게 진짜에요?: what was heard (…안된다), asked whether it is so; "진짜" is not an effect the
    question asks about (it had been: "찾은 설명서에는 '진짜'에 대한 내용이 없습니다" over the fruit-juice line)."""
    from programs.claim_check import effect_word, heard_claim

    question = "알레그라 먹는데 오렌지주스랑 먹으면 안된다는게 진짜에요?"
    assert heard_claim(question).endswith("오렌지주스랑 먹으면 안된다")
    assert effect_word(question, names=("알레그라",)) is None
