"""A condition the asker has, which the named product's leaflet warns against, leads a "may I" answer
(programs/asker_condition.py, read by programs/extractive.py)."""

import pytest

from programs import extractive
from programs.asker_condition import asker_nouns, conditions, drank
from retrievers.documents import Document

LONG_WARNING = (
    "이 약에 과민증 환자, " + ", ".join(f"피부질환{i}" for i in range(30)) + ", 보통여드름, 주사(딸기코) 환자는 "
    "이 약을 사용하지 마십시오."
)


def leaflet(section: str, text: str, label: str) -> Document:
    meta = {"item_seq": "1", "item_name": "가나다지크림", "section": section, "section_label": label}
    return Document(f"easydrug:1:{section}", f"가나다지크림\n[{label}] {text}", meta)


DOCS = [
    leaflet("efcy", "이 약은 습진, 접촉피부염, 가려움에 사용합니다.", "효능·효과"),
    leaflet("atpn", LONG_WARNING, "사용상 주의사항"),
    leaflet("useMethod", "1일 수회 환부에 바릅니다.", "용법·용량"),
]


def answer(question: str) -> str:
    return extractive.extractive_answer(question, DOCS, names=["가나다지크림"])


def quoted(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("[")]


def test_a_warning_of_the_askers_condition_leads_and_keeps_the_condition_in_its_excerpt(monkeypatch):
    question = "가나다지크림 여드름 난데도 발라도 돼요? 가려워요"  # 가려워요: the frame reads efficacy too
    body = quoted(answer(question))
    assert body[0].startswith("[사용상 주의사항]")
    assert "보통여드름" in body[0] and "…" in body[0]  # the long list is cut, the condition kept
    monkeypatch.setattr(extractive, "CONDITION_LEADS", False)
    assert quoted(answer(question))[0].startswith("[효능·효과]")


def test_what_the_product_treats_is_no_condition_and_a_question_not_asking_may_i_is_not_read():
    # the 효능 line saying it is for 습진 answers, though "있는데 발라도 되나요" reads as a caution question
    # (retrievers/section_model.py)
    assert quoted(answer("가나다지크림 습진 있는데 발라도 되나요?"))[0].startswith("[효능·효과]")
    assert not quoted(answer("가나다지크림 여드름 얼마나 발라요"))[0].startswith("[사용상 주의사항]")


def test_beside_who_it_is_for_what_the_product_treats_is_only_why_it_is_used():
    assert quoted(answer("중학생 딸 습진 있는데 가나다지크림 발라줘도 돼요?"))[0].startswith("[사용상 주의사항]")


@pytest.mark.parametrize(
    ("question", "names", "expected"),
    [
        ("저용량 아스피린 먹고 있는데 목 아파서 스트렙실 먹어도 될까요?", ["아스피린"], ()),  # 용량 is no condition
        ("감기 기운 있어서 종합감기약 먹었는데 우먼스타이레놀 먹어도 돼요?", ["종합감기약"], ()),  # another medicine
        ("녹내장 있는데 멀미약 먹어도 돼요?", ["멀미약"], ("녹내장",)),
        ("임신 중인데 여드름 크림 발라도 되나요", [], ("여드름",)),  # who it is for is the population rules'
    ],
)
def test_the_conditions_read_are_diseases_or_symptoms_not_medicines_or_who_it_is_for(question, names, expected):
    assert conditions(asker_nouns(question), [DOCS[0]], names) == expected


def test_an_asker_who_has_drunk_gets_the_line_forbidding_it_to_drinkers_first():
    """소주 두병 마셨는데 먹어도 돼요: the leaflet's "알코올을 복용한 사람은 이 약을 복용하지 마십시오" (the tail of a
    long list) leads, before the dose and before lines on drinking while taking it; asking about drinking later (먹고
    술 마셔도) is no such state."""
    drinker = (
        "이 약에 과민증, "
        + ", ".join(f"질환{i}" for i in range(40))
        + ", 알코올을 복용한 사람은 이 약을 복용하지 마십시오."
    )
    docs = [
        leaflet("efcy", "이 약은 두통, 치통에 사용합니다.", "효능·효과"),
        leaflet("useMethod", "성인은 1회 1~2정씩, 1일 3~4회(4~6시간 마다) 필요시 복용합니다.", "용법·용량"),
        leaflet("intrc", "알코올을 투여한 환자, 와파린과 함께 복용 시 의사 또는 약사와 상의하십시오.", "상호작용"),
        leaflet("atpn", drinker + " 복용 중에 음주하지 마십시오.", "사용상 주의사항"),
    ]
    question = "어제 회식에서 소주 두병 마셨는데 아침에 머리가 깨질거 같아요 가나다지크림 먹어도 되나요?"
    body = quoted(extractive.extractive_answer(question, docs, names=["가나다지크림"]))
    assert body[0].startswith("[사용상 주의사항]") and "알코올을 복용한 사람은" in body[0]
    assert drank("가나다지크림 먹고 술 마셔도 돼요?") == ()


def test_a_disease_of_an_organ_raises_the_leaflets_warning_for_its_impairment():
    """신부전 (kidney failure): a word Kiwi reads as a name and the leaflet never writes; its warning is for 신장애."""
    docs = [
        leaflet("efcy", "이 약은 변비에 사용합니다.", "효능·효과"),
        leaflet("useMethod", "1일 3회 1정 복용합니다.", "용법·용량"),
        leaflet("atpn", "신장애, 설사 환자는 이 약을 복용하지 마십시오. 고령자는 상의하십시오.", "사용상 주의사항"),
    ]
    assert "신부전" in asker_nouns("신부전 있는 엄마 가나다지크림 드려도 돼요?")
    question = "신부전 있는 엄마 가나다지크림 드려도 돼요?"
    body = quoted(extractive.extractive_answer(question, docs, names=["가나다지크림"]))
    assert body[0].startswith("[사용상 주의사항] 신장애, 설사 환자는 이 약을 복용하지 마십시오.")


def test_a_prescription_kind_taken_raises_the_warning_for_the_condition_it_treats():
    """혈압약 먹는중인데 … 마셔도 괜찮나요: taking a blood-pressure medicine says the asker has 고혈압, which the named
    product's caution names; that line answers "may I" before the dose."""
    docs = [
        leaflet("efcy", "이 약은 감기의 여러 증상의 완화에 사용합니다.", "효능·효과"),
        leaflet("useMethod", "성인은 1회 1병을 1일 3회 복용합니다.", "용법·용량"),
        leaflet(
            "atpn",
            "이 약을 복용하기 전에 당뇨병, 고혈압, 부종 환자는 의사 또는 약사와 상의하십시오.",
            "사용상 주의사항",
        ),
    ]
    question = "혈압약 먹는중인데 감기기운 있어서 가나다지크림 한병 마셔도 괜찮나요?"
    body = quoted(extractive.extractive_answer(question, docs, names=["가나다지크림"]))
    assert body[0].startswith("[사용상 주의사항]") and "고혈압" in body[0]


def test_of_the_warnings_of_the_askers_condition_the_one_forbidding_it_leads():
    """위궤양 있는데 … 먹어도: the 소화성궤양 line that forbids the product answers before the one that sends
    소화성궤양 경험자 to a pharmacist."""
    docs = [
        Document(
            "easydrug:2:atpn",
            "가상소염정\n이 약을 복용하기 전에 소화성궤양 경험자, 고혈압 환자는 의사 또는 약사와 상의하십시오.\n"
            "이 약에 과민증 환자, 소화성궤양, 심한 혈액이상 환자는 이 약을 복용하지 마십시오.",
            {"item_seq": "2", "item_name": "가상소염정", "section": "atpn"},
        ),
        Document(
            "easydrug:2:efcy",
            "가상소염정\n이 약은 두통, 치통, 생리통에 사용합니다.",
            {"item_seq": "2", "item_name": "가상소염정", "section": "efcy"},
        ),
    ]
    quotes = extractive.choose("위궤양 있는데 가상소염정 먹어도 괜찮을까요?", docs, names=["가상소염정"])
    assert "복용하지 마십시오" in quotes[0].text


def test_a_disease_the_question_states_leads_a_class_answer_with_the_caution_naming_it():
    """녹내장 있는데 감기약 같이: no product named, the caution of a class product naming the asker's disease answers
    first, as a named product's would, before the interaction line the "같이" asks (programs/extractive.py)."""

    def section(name, sec, label, body, seq):
        meta = {"item_name": name, "section": sec, "section_label": label, "item_seq": seq}
        return Document(f"easydrug:{seq}:{sec}", f"{name}\n[{label}] {body}", meta)

    caution = (
        "이 약을 복용하기 전에 수두 또는 인플루엔자에 감염되어 있는 어린이, 임부, 고령자, 간장질환, 신장질환, "
        "심장질환, 갑상선질환, 당뇨병, 고혈압, 녹내장 환자는 의사 또는 약사와 상의하십시오."
    )
    docs = [
        section("가나콜드정", "atpn", "사용상 주의사항", caution, "1"),
        section("가나콜드정", "intrc", "상호작용", "다른 감기약, 해열진통제, 진정제와 함께 복용하지 마십시오.", "1"),
        section("다라콜드정", "atpn", "사용상 주의사항", "복용 후 졸음이 올 수 있으니 운전 시 주의하십시오.", "2"),
    ]
    chosen = extractive.choose("녹내장 있는데 감기약 같이 먹어도 되나요", docs, sections=["atpn", "intrc"])
    assert "녹내장" in chosen[0].text and "상의하십시오" in chosen[0].text


def test_a_stated_disease_keeps_the_item_the_leaflet_writes_it_as_when_a_long_list_is_cut():
    """만성신부전으로 투석하는데 이지엔6애니: the leaflet's list writes it 신장장애 (as 위궤양 is its 위장관궤양); the
    list is cut to the items naming the asker's condition as the leaflets write it, not quoted whole or cut to
    others."""
    from retrievers.documents import Document

    sentence = (
        "이 약에 과민증 환자, 위장관궤양, 위장관출혈, 심한 혈액이상, 심한 간장애, 심한 신장장애, 심한 심장기능부전, "
        "심한 고혈압, 기관지천식, 아스피린 또는 다른 소염진통제에 의한 천식, 두드러기, 알레르기 반응 경험 환자, "
        "심장동맥 우회로술 전후 통증발생 환자, 임신 말기 3개월 기간의 임부, 수유부, 항암요법으로 고용량 "
        "메토트렉세이트를 투여 중인 환자는 이 약을 복용하지 마십시오."
    )
    meta = {"item_seq": "1", "item_name": "이지엔6애니연질캡슐", "section": "atpn"}
    docs = [Document("easydrug:1:atpn", f"이지엔6애니연질캡슐\n{sentence}", meta)]
    quotes = extractive.choose("만성신부전으로 투석하는데 이지엔6애니 먹어도 되나요", docs, names=["이지엔6애니"])
    assert "심한 신장장애" in quotes[0].text and "…" in quotes[0].text
