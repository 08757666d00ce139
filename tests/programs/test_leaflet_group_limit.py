"""A product whose own leaflet forbids it to pregnant or nursing women is not offered to such an asker (the profile or
the question), over the real mini index: 부루펜정200밀리그램's 사용상 주의사항 forbids it to "임신 말기 3개월 기간의
임부, 수유부" (programs/leaflet_group_limit.py)."""

import pytest

from metrics.forbidden_offers import judge
from programs import leaflet_group_limit, user_rules
from programs.crag import CRAG
from programs.forbidden import Asker, asker
from programs.profile import ProfileError, UserProfile
from retrievers.documents import Document

BRUFEN = "부루펜정200밀리그램"


def _row(pred, question: str, user: dict) -> dict:
    return {"question": question, "user": user, "answer": pred.answer, "doc_ids": [c["id"] for c in pred.citations]}


def test_a_nursing_asker_in_the_question_is_told_the_named_product_is_not_for_her(searcher):
    question = "모유 수유 중인데 부루펜 먹어도 돼요?"
    pred = CRAG(backend=searcher)(question=question)
    marking, _, rest = pred.answer.partition("\n")
    assert BRUFEN in marking and "설명서 수유부 금지" in marking
    first_quote = next(line for line in rest.splitlines() if "[문서" in line)
    assert "수유부" in first_quote and "복용하지 마십시오" in first_quote  # the line that forbids it leads
    assert judge(_row(pred, question, {}), searcher)["offers"] == {}


def test_a_nursing_profile_withholds_the_product_a_class_question_would_offer(searcher):
    question = "머리가 아파요 진통제 뭐 먹어요?"
    plain = CRAG(backend=searcher)(question=question)
    assert BRUFEN in plain.answer.splitlines()[0]  # offered when nobody is nursing
    user = {"breastfeeding": True}
    pred = CRAG(backend=searcher)(question=question, user=user)
    marking = pred.answer.splitlines()[0]
    assert BRUFEN in marking and "사용자에게 맞지 않는 약" in marking
    assert "게보린정" in pred.answer  # the other painkiller is still offered
    assert judge(_row(pred, question, user), searcher)["offers"] == {}
    # the judge sees the offer the unguarded answer makes to a nursing user
    assert BRUFEN in judge(_row(plain, question, user), searcher)["offers"]


def test_a_pregnant_asker_gets_the_leaflets_stage_in_the_verdict(searcher):
    pred = CRAG(backend=searcher)(question="임신 중인데 부루펜 먹어도 돼요?")
    assert "설명서 임신 말기 3개월 기간의 임부 금지" in pred.answer.splitlines()[0]


def test_gather_reads_the_leaflet_only_for_the_askers_groups():
    caution = Document(
        "easydrug:9:atpn",
        "어느크림\n[사용상 주의사항] 이 약에 과민증 환자, 임부 및 수유부는 이 약을 사용하지 마십시오.",
        {"item_seq": "9", "item_name": "어느크림", "section": "atpn"},
    )
    efcy = Document("easydrug:9:efcy", "어느크림\n상처에 바릅니다.", {"item_seq": "9", "section": "efcy"})
    docs = {caution.id: caution}.get
    _, nursing = user_rules.gather([efcy], [], Asker(nursing=True), lambda i, t: [], leaflet=docs)
    assert [r.id for r in nursing["9"]] == ["easydrug:9:atpn#nursing"]
    assert nursing["9"][0].metadata["ingredient"] == "수유부 금지"
    assert user_rules.gather([efcy], [], Asker(), lambda i, t: [], leaflet=docs) == ([], {})
    assert leaflet_group_limit.product_rule("9", (), docs) == []


def test_a_consulting_line_or_a_dose_limit_forbids_no_one():
    assert leaflet_group_limit.forbids("이 약을 복용하기 전에 임부, 수유부는 의사 또는 약사와 상의하십시오.") == {}
    assert leaflet_group_limit.forbids("임신 3개월 이내의 여성은 비타민A를 5,000 IU/일 이상 투여하지 마십시오.") == {}


def test_the_profile_reads_breastfeeding_as_a_flag_or_a_condition():
    assert UserProfile.from_dict({"breastfeeding": "false"}).breastfeeding is False
    assert UserProfile.from_dict({"breastfeeding": "yes"}).breastfeeding is True
    assert UserProfile.from_dict({"conditions": ["수유 중"]}).breastfeeding is True
    assert "수유 중" in UserProfile.from_dict({"breastfeeding": True}).summary()
    assert asker(UserProfile.from_dict({"breastfeeding": True})).groups == ("nursing", "women")
    with pytest.raises(ProfileError, match="breastfeeding must be true or false"):
        UserProfile.from_dict({"breastfeeding": "maybe"})


def test_beside_a_named_product_another_products_line_forbidding_it_to_the_asker_does_not_lead():
    """임신 중 맥시롱 먹어도: the named syrup's own line and rule answer; a whitening gel retrieval also found, whose
    leaflet forbids it to pregnant women too, is no answer to the question (its line leads a class question only)."""
    from programs import offer_guard
    from programs.extractive import extractive_answer

    def leaflet(seq, name, section, text):
        meta = {"item_seq": seq, "item_name": name, "section": section}
        return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", meta)

    syrup_efcy = leaflet("1", "가상롱액", "efcy", "[효능·효과] 구역, 구토에 사용합니다.")
    syrup_atpn = leaflet(
        "1", "가상롱액", "atpn", "[사용상 주의사항] 이 약에 과민증 환자, 임부는 이 약을 복용하지 마십시오."
    )
    gel_atpn = leaflet(
        "2", "가상미백겔", "atpn", "[사용상 주의사항] 구강내 상처가 있는 환자, 임부는 이 약을 사용하지 마십시오."
    )
    found = [syrup_atpn, gel_atpn, syrup_efcy]
    leaflets = {d.id: d for d in found}.get
    _, out = user_rules.gather(found, [], Asker(pregnant=True), lambda i, t: [], leaflet=leaflets)
    docs = offer_guard.mark(found, out)
    docs += [r for rules in out.values() for r in rules if r.id not in {d.id for d in docs}]
    answer = extractive_answer("임신 중인데 가상롱액 먹어도 될까요?", docs, names=["가상롱액"])
    assert "구강내 상처" not in answer
    assert "임부는 이 약을 복용하지 마십시오" in answer


MINOXIDIL_CAUTION = (
    "나녹시딜액5%\n[사용상 주의사항] 이 약에 과민증 환자, 여성 환자, 18세 미만 환자, 두피를 면도한 환자는 이 약을 "
    "사용하지 마십시오."
)


@pytest.mark.parametrize(
    ("profile", "question"),
    [
        (None, "30대 여자인데 정수리가 휑해요 발라도 돼요?"),
        (None, "와이프가 정수리 탈모인데 발라줘도 되나요"),
        ({"sex": "여"}, "정수리가 휑해요 발라도 돼요?"),
        ({"sex": "female"}, "탈모약 발라도 돼요?"),
    ],
)
def test_a_leaflets_prohibition_to_women_binds_a_woman_the_profile_or_the_question_names(profile, question):
    caution = Document("easydrug:5:atpn", MINOXIDIL_CAUTION, {"item_seq": "5", "section": "atpn"})
    efcy = Document("easydrug:5:efcy", "나녹시딜액5%\n남성형 탈모증의 치료에 사용합니다.", {"item_seq": "5"})
    who = asker(UserProfile.from_dict(profile) if profile else None, question)
    _, verdicts = user_rules.gather([efcy], [], who, lambda i, t: [], leaflet={caution.id: caution}.get)
    assert [r.id for r in verdicts["5"]] == ["easydrug:5:atpn#women"]
    assert verdicts["5"][0].metadata["ingredient"] == "여성 금지"


@pytest.mark.parametrize(
    ("profile", "question"),
    [(None, "정수리가 휑해요 발라도 돼요?"), ({"sex": "남"}, "탈모약 발라도 돼요?"), (None, "딸기 먹고 발라도 돼요?")],
)
def test_nobody_named_a_woman_is_not_held_to_it(profile, question):
    who = asker(UserProfile.from_dict(profile) if profile else None, question)
    assert "women" not in who.groups
