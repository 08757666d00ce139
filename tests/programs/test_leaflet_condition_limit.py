"""A product whose own leaflet forbids it with a condition the user's profile lists is not offered, over the real
mini index: 부루펜정200밀리그램's 사용상 주의사항 forbids it to 기관지천식 patients; 게보린정's does not
(programs/leaflet_condition_limit.py)."""

from metrics.forbidden_offers import judge
from programs import leaflet_condition_limit
from programs.condition_check import unspoken_conditions
from programs.crag import CRAG
from programs.forbidden import asker
from programs.profile import UserProfile
from retrievers.documents import Document

BRUFEN = "부루펜정200밀리그램"
QUESTION = "머리가 아파요 진통제 뭐 먹어요?"


def test_a_condition_in_the_profile_withholds_the_product_whose_leaflet_forbids_it(searcher):
    plain = CRAG(backend=searcher)(question=QUESTION)
    assert BRUFEN in plain.answer.splitlines()[0]  # offered to someone without the condition
    user = {"conditions": ["기관지천식"]}
    pred = CRAG(backend=searcher)(question=QUESTION, user=user)
    lines = pred.answer.splitlines()
    assert lines[0].startswith("※") and f"{BRUFEN}(설명서 기관지천식 금지 [문서" in lines[0]  # said why not
    assert lines[1] == "효능·효과가 질문과 맞는 제품입니다: 게보린정."
    step = next(s for s in pred.trace["steps"] if s["step"] == "dur_rules")
    assert any(r.endswith("#condition") for rules in step["forbidden"].values() for r in rules)
    row = {"question": QUESTION, "user": user, "answer": pred.answer, "doc_ids": [c["id"] for c in pred.citations]}
    assert judge(row, searcher)["offers"] == {}


def test_a_condition_is_found_as_the_leaflet_writes_it_and_a_consulting_clause_forbids_nothing():
    meta = {"item_seq": "5", "item_name": "가상수면정", "section": "atpn"}
    text = "가상수면정\n고혈압 환자는 상의하십시오. 녹내장, 전립선 비대 환자는 이 약을 복용하지 마십시오."
    rule = leaflet_condition_limit.condition_rule(Document("easydrug:5:atpn", text, meta), ("전립선비대증",))
    assert rule is not None and rule.metadata["ingredient"] == "전립선비대증 금지"
    assert rule.text.endswith("녹내장, 전립선 비대 환자는 이 약을 복용하지 마십시오.")
    assert leaflet_condition_limit.condition_rule(Document("easydrug:5:atpn", text, meta), ("고혈압",)) is None
    who = asker(UserProfile.from_dict({"conditions": ["전립선비대증"]}))
    assert who.conditions == ("전립선비대증",)


def test_a_disease_of_an_organ_is_the_impairment_the_leaflet_forbids(searcher):
    """게보린정's leaflet forbids it to 중증 신장애 patients: a user whose profile says 만성신부전 (kidney failure) is
    one, though the leaflet never writes 신부전; a disease of another organ withholds nothing."""
    plain = CRAG(backend=searcher)(question=QUESTION)
    assert "게보린정" in plain.answer.splitlines()[0]
    pred = CRAG(backend=searcher)(question=QUESTION, user={"conditions": ["만성신부전"]})
    assert "게보린정(설명서 만성신부전 금지 [문서" in pred.answer.splitlines()[0]
    other = CRAG(backend=searcher)(question=QUESTION, user={"conditions": ["전립선비대증"]})
    assert "게보린정" in other.answer.splitlines()[0] and "금지" not in other.answer.splitlines()[0]


def test_an_organ_disease_maps_up_to_its_organs_general_words_never_across():
    meta = {"item_seq": "6", "item_name": "가상진통정", "section": "atpn"}
    text = "가상진통정\n갑상선기능이상, 중증 간장애 환자는 이 약을 복용하지 마십시오."
    doc = Document("easydrug:6:atpn", text, meta)
    for condition in ("갑상선기능항진증", "갑상선 기능 저하증", "간경화", "B형 간염"):
        assert leaflet_condition_limit.condition_rule(doc, (condition,)) is not None, condition
    for condition in ("신부전", "고혈압", "심부전"):
        assert leaflet_condition_limit.condition_rule(doc, (condition,)) is None, condition
    exact = Document("easydrug:6:atpn", "가상진통정\n갑상선기능항진 환자는 이 약을 복용하지 마십시오.", meta)
    assert leaflet_condition_limit.condition_rule(exact, ("갑상선기능저하증",)) is None  # not across


def test_a_stomach_or_duodenal_ulcer_is_the_peptic_ulcer_the_leaflet_forbids():
    """위궤양 in a profile is one of the leaflet's 소화성궤양 환자 (most leaflets write the general word); 위염 is
    not."""
    meta = {"item_seq": "7", "item_name": "가상소염정", "section": "atpn"}
    doc = Document("easydrug:7:atpn", "가상소염정\n소화성궤양, 심한 혈액이상 환자는 이 약을 복용하지 마십시오.", meta)
    for condition in ("위궤양", "십이지장 궤양"):
        assert leaflet_condition_limit.condition_rule(doc, (condition,)) is not None, condition
    assert leaflet_condition_limit.condition_rule(doc, ("위염",)) is None


def test_a_condition_the_question_states_withholds_the_product_as_a_profiles_does(searcher):
    """위궤양 있는데: the one taking it has the disease 부루펜정200밀리그램's leaflet forbids it with
    (위장관궤양), said in the question instead of a profile; 게보린정's leaflet does not, so it is still offered."""
    question = "위궤양 있는데 머리가 아파요 진통제 뭐 먹어요?"
    pred = CRAG(backend=searcher)(question=question)
    first = pred.answer.splitlines()[0]
    assert first.startswith("※") and f"{BRUFEN}(설명서 위궤양 금지 [문서" in first, pred.answer
    assert asker(None, question).conditions == ("위궤양",)
    assert asker(None, QUESTION).conditions == ()


def test_blood_in_the_stool_said_in_everyday_words_is_the_condition_antidiarrhoeals_forbid():
    question = "여행가서 설사하는데 열도 나고 변에 피가 좀 섞여요 로페라미드 먹어도 돼요?"
    said = asker(None, question).conditions
    assert said == ("혈변",)
    line = "이 약에 과민증 환자, 24개월 미만의 영아, 혈변 및 고열이 있는 세균성 설사 환자는 이 약을 복용하지 마십시오."
    assert leaflet_condition_limit.forbids(line, said) == "혈변"


def test_the_skin_around_the_eyes_named_in_everyday_words_is_where_creams_forbid_themselves():
    """눈두덩 / 눈 바로 밑 is the leaflets' 눈 주위 (about 115 creams, gels, plasters and sprays forbid use there);
    티눈 is no eye."""
    said = asker(None, "눈두덩에 모기 물렸는데 버물리 발라도 되나요").conditions
    assert said == ("눈 주위",)
    line = "30개월 이하의 유아, 눈 주위, 점막, 습진, 상처 부위, 민감한 피부에 이 약을 사용하지 마십시오."
    assert leaflet_condition_limit.forbids(line, said) == "눈 주위"
    assert asker(None, "코 시술하고 눈 바로 밑까지 멍들었는데 멍크림 발라도").conditions == ("눈 주위",)
    assert asker(None, "티눈 주위에 티눈액 발라도 되나요").conditions == ()


def test_epilepsy_by_its_newer_name_is_the_leaflets_gan_jil_never_a_liver_disease():
    """뇌전증 in a profile is the 간질 환자 a leaflet forbids; 간질환 (a liver disease) that holds the same letters is
    not it, and the condition check reads a leaflet's 간질 및 발작 as speaking of it."""
    meta = {"item_seq": "8", "item_name": "가상진해정", "section": "atpn"}
    epilepsy = Document(
        "easydrug:8:atpn", "가상진해정\n이 약에 과민증 환자, 간질 환자, 소아는 이 약을 복용하지 마십시오.", meta
    )
    liver = Document("easydrug:8:atpn", "가상진해정\n녹내장, 급·만성 간질환 환자는 이 약을 복용하지 마십시오.", meta)
    assert leaflet_condition_limit.condition_rule(epilepsy, ("뇌전증",)) is not None
    assert leaflet_condition_limit.condition_rule(liver, ("뇌전증",)) is None
    seizures = Document("easydrug:8:atpn", "가상진해정\n노인, 간질 및 발작 위험성이 있는 환자는 상의하십시오.", meta)
    assert unspoken_conditions("뇌전증 있는데 가상진해정 먹어도 되나요", [seizures], lambda d: True) == []
