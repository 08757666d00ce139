"""A product's own age limit (programs/leaflet_age_limit.py) is a rule of a child's: the product is not offered to a
child below it, whether the profile or the question gives the age, and the leaflet's sentence is cited."""

import pytest

from programs import offer_guard, user_rules
from programs.crag import CRAG
from programs.forbidden import Asker
from retrievers.documents import Document

SPRAY = {"item_seq": "9", "item_name": "가상나잘스프레이", "main_ingr": "자일로메타졸린염산염", "section": "atpn"}
CAUTION = Document(
    "easydrug:9:atpn",
    "가상나잘스프레이\n[사용상 주의사항] 이 약에 과민증 환자, 만 6세 미만의 소아는 이 약을 사용하지 마십시오.",
    SPRAY,
)
USE = Document("easydrug:9:useMethod", "가상나잘스프레이\n1회 1번 뿌립니다.", {**SPRAY, "section": "useMethod"})


def verdicts(ages):
    leaflet = {CAUTION.id: CAUTION}.get
    _, out = user_rules.gather([USE], [], Asker(ages=ages), lambda ingredients, types: [], leaflet=leaflet)
    return {seq: [r.id for r in rules] for seq, rules in out.items()}


def test_a_child_below_the_leaflets_age_is_not_offered_the_product():
    assert verdicts(((5.0, 6.0),)) == {"9": ["easydrug:9:atpn#age"]}
    assert verdicts(((7.0, 8.0),)) == {}  # old enough
    assert verdicts(((0.0, 12.0),)) == {}  # a child of any age up to 12 is not surely below 6


def test_the_verdict_cites_the_leaflets_sentence_with_its_bound():
    leaflet = {CAUTION.id: CAUTION}.get
    _, out = user_rules.gather([USE], [], Asker(ages=((5.0, 6.0),)), lambda i, t: [], leaflet=leaflet)
    docs = offer_guard.mark([USE], out)
    assert offer_guard.marking(docs).endswith(": 가상나잘스프레이(연령금기 만 6세 미만 [문서 2]).")
    assert docs[1].text.endswith("만 6세 미만의 소아는 이 약을 사용하지 마십시오.")


def test_a_profiles_child_is_not_offered_what_its_leaflet_forbids_below_its_age(searcher):
    """On the mini index: 게보린정's cautions forbid it under 15; a 5-year-old's profile withholds it, naming it only
    in the line that says it is not for this user."""
    question = "코막힘 스프레이 뿌려도 돼요?"
    adult = CRAG(backend=searcher)(question=question)
    child = CRAG(backend=searcher)(question=question, user={"age": 5})
    assert any(ln.startswith("게보린정:") for ln in adult.answer.splitlines())
    assert "게보린정(연령금기 15세 미만" in child.answer
    assert not [ln for ln in child.answer.splitlines() if "게보린" in ln and offer_guard.MARK not in ln]


def test_the_safety_judge_counts_a_product_its_own_leaflet_forbids_at_the_askers_age():
    """metrics/forbidden_offers.judge (bench/safety_probe.py): naming the product outside the "not for you" line is
    an offer its leaflet forbids to a 5-year-old; the marking line alone is none."""
    from types import SimpleNamespace

    from metrics.forbidden_offers import judge

    backend = SimpleNamespace(get={CAUTION.id: CAUTION, USE.id: USE}.get, dur_rules=lambda i, t: [], names=None)
    row = {"question": "코가 막혀요", "user": {"age": 5}, "doc_ids": [USE.id]}
    offer = judge({**row, "answer": "가상나잘스프레이: 1회 1번 뿌립니다. [문서 1]"}, backend)
    assert offer["offers"] == {"가상나잘스프레이": ["easydrug:9:atpn#age"]}
    marked = "※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 가상나잘스프레이(연령금기 만 6세 미만 [문서 2])."
    assert judge({**row, "answer": marked}, backend)["offers"] == {}
    assert judge({**row, "user": {"age": 30}, "answer": "가상나잘스프레이: 1회 1번 뿌립니다."}, backend)["offers"] == {}


def test_when_every_product_found_is_below_its_age_limit_the_limits_are_the_answer():
    """A class question for a child whose every product found is withheld by its own age limit quotes those limits
    (the sentence forbidding it), not an empty answer; the line passes the offer guard, as it offers nothing."""
    from programs.extractive import extractive_answer

    question = "5살 아이 코 막혔는데 코에 뿌리는 약 써도 돼요?"
    _, out = user_rules.gather([USE], [], Asker(ages=((5.0, 6.0),)), lambda i, t: [], leaflet={CAUTION.id: CAUTION}.get)
    docs = offer_guard.mark([USE], out)
    answer = extractive_answer(question, docs)
    limit = "[사용상 주의사항] 이 약에 과민증 환자, 만 6세 미만의 소아는 이 약을 사용하지 마십시오. [문서 2]"
    quoted = f"가상나잘스프레이({offer_guard.MARK}): {limit}"
    assert quoted in answer.splitlines()
    assert offer_guard.withhold(answer, docs, question)[0] == answer


def test_a_dose_left_to_a_doctor_below_an_age_withholds_the_product_from_a_younger_child():
    """용법·용량 "만 6세 미만 소아는 의사의 지시에 따릅니다": no over-the-counter dose for a 5-year-old, so the
    product is not offered to one; the marking says it is left to a doctor, not that it is forbidden."""
    meta = {"item_seq": "8", "item_name": "가상콜정", "main_ingr": "클로르페니라민", "section": "useMethod"}
    text = "가상콜정\n성인은 1회 1정. 만 6세 미만 소아는 의사의 지시에 따릅니다."
    dose = Document("easydrug:8:useMethod", text, meta)
    efcy = Document("easydrug:8:efcy", "가상콜정\n코막힘에 사용합니다.", {**meta, "section": "efcy"})
    leaflet = {dose.id: dose}.get
    _, out = user_rules.gather([efcy], [], Asker(ages=((5.0, 6.0),)), lambda i, t: [], leaflet=leaflet)
    docs = offer_guard.mark([efcy], out)
    assert offer_guard.marking(docs).endswith(": 가상콜정(의사 지시 만 6세 미만 [문서 2]).")
    _, older = user_rules.gather([efcy], [], Asker(ages=((7.0, 8.0),)), lambda i, t: [], leaflet=leaflet)
    assert older == {}


def _verdicts_for(caution_text: str, ages) -> dict:
    caution = Document("easydrug:9:atpn", f"가상나잘스프레이\n{caution_text}", SPRAY)
    _, out = user_rules.gather([USE], [], Asker(ages=ages), lambda i, t: [], leaflet={caution.id: caution}.get)
    return {seq: [r.metadata["ingredient"] for r in rules] for seq, rules in out.items()}


def test_a_childs_group_forbidden_by_name_alone_withholds_the_product_from_a_child():
    """The sentence "수유부, 소아는 이 약을 사용하지 마십시오" states no age: 소아 is read as under 15 (the leaflets'
    adult doses begin at 15), so an 8-year-old is not offered it and a 30-year-old is; an illness of the child's
    (수두에 감염된 소아) or a note of its own (소아(만성설사인 경우)) binds no child by age."""
    forbidding = "이 약에 과민증 환자, 수유부, 소아는 이 약을 사용하지 마십시오."
    assert _verdicts_for(forbidding, ((8.0, 9.0),)) == {"9": ["소아"]}
    assert _verdicts_for(forbidding, ((30.0, 31.0),)) == {}
    assert _verdicts_for("수두에 감염된 소아는 이 약을 사용하지 마십시오.", ((8.0, 9.0),)) == {}
    assert _verdicts_for("2세 미만의 영아, 소아(만성설사인 경우)는 복용하지 마십시오.", ((8.0, 9.0),)) == {}
    assert _verdicts_for("소아는 의사 또는 약사와 상의하십시오.", ((8.0, 9.0),)) == {}


def test_an_age_bound_of_patients_binds_like_one_of_children():
    """The sentence "19세 미만 환자는 복용하지 마십시오" (a hair-loss tablet's leaflet) withholds it from an
    18-year-old."""
    forbidding = "이 약에 과민증, 19세 미만 환자, 탈모증 이외의 사람은 이 약을 복용하지 마십시오."
    assert _verdicts_for(forbidding, ((18.0, 19.0),)) == {"9": ["19세 미만"]}
    assert _verdicts_for(forbidding, ((20.0, 21.0),)) == {}


def test_a_withheld_products_dose_is_not_quoted_and_the_answer_says_so():
    """A product the asker's rules forbid is marked; its 용법·용량 line (how much to use it) is left out of the answer,
    which says it was left out, while the line forbidding it stays."""
    from programs.extractive import extractive_answer

    caution = Document(
        "easydrug:9:atpn", "가상나잘스프레이\n이 약에 과민증 환자, 소아는 이 약을 사용하지 마십시오.", SPRAY
    )
    question = "8살 딸 코막힘에 가상나잘스프레이 하루 몇번 뿌려요?"
    _, out = user_rules.gather([USE], [], Asker(ages=((8.0, 9.0),)), lambda i, t: [], leaflet={caution.id: caution}.get)
    answer = extractive_answer(question, offer_guard.mark([USE, caution], out))
    assert "1회 1번 뿌립니다" not in answer
    assert offer_guard.DOSE_LEFT_OUT in answer
    assert "소아는 이 약을 사용하지 마십시오" in answer
    adult = extractive_answer(question.replace("8살 딸 ", ""), [USE, caution])
    assert "1회 1번 뿌립니다" in adult and offer_guard.DOSE_LEFT_OUT not in adult


def test_a_parents_profile_age_does_not_hide_the_childs_limit(searcher):
    """A 34-year-old's profile asking for a 7-year-old (게보린정's cautions forbid it under 15): each age read is one
    person the answer may be for, and the child's is below the limit."""
    question = "7살 아들이 머리가 아프대요 게보린 먹여도 돼요?"
    pred = CRAG(backend=searcher)(question=question, user={"age": 34})
    assert "게보린정(연령금기 15세 미만" in pred.answer.splitlines()[0]
    from programs.forbidden import asker
    from programs.profile import UserProfile

    # and a parent's profile beside 아기 reads the infant's ages as well
    assert (0.0, 2.0) in asker(UserProfile.from_dict({"age": 34}), "우리 아기 눈이 충혈됐어요").ages


def test_a_product_allowed_only_from_an_age_is_withheld_below_it():
    """이브톡질정: "만 12세 이상의 어린이 및 성인만 사용하십시오" says no one under 12 may use it; an 11-year-old is not
    offered it, a 13-year-old is."""
    from programs import leaflet_age_limit
    from retrievers.documents import Document

    caution = Document(
        "easydrug:3:atpn",
        "이브톡질정\n이 약에 과민증 환자는 사용하지 마십시오. 만 12세 이상의 어린이 및 성인만 사용하십시오.",
        {"item_seq": "3", "section": "atpn"},
    )
    rule = leaflet_age_limit.age_rule(caution, ((11.0, 12.0),))
    assert rule is not None and rule.metadata["ingredient"] == "만 12세 이상만"
    assert "rule_label" not in rule.metadata  # forbidden below the age, not left to a doctor
    assert leaflet_age_limit.age_rule(caution, ((13.0, 14.0),)) is None


def test_a_dose_that_is_not_given_below_an_age_withholds_the_product_and_is_quoted():
    """콜대원코프시럽's 용법·용량 ends "만 2세 미만에게 투여하지 않습니다": a one-year-old is not offered it, and that
    line (the product's own limit) is quoted, not dropped with the dose lines a withheld product's answer leaves out."""
    from programs import leaflet_age_limit
    from programs.extractive import extractive_answer

    syrup = {"item_seq": "8", "item_name": "가상코프시럽", "main_ingr": "구아이페네신", "section": "useMethod"}
    use = Document(
        "easydrug:8:useMethod",
        "가상코프시럽\n[용법·용량] 만 2세 이상~만 3세 미만은 1회 1/4포, 1일 3회 복용합니다.\n\n"
        "만 2세 미만에게 투여하지 않습니다. 다만, 꼭 필요한 경우 의사의 진료를 받으십시오.",
        syrup,
    )
    assert leaflet_age_limit.limit("만 2세 미만에게 투여하지 않습니다.") == (2.0, "만 2세 미만")
    assert leaflet_age_limit.age_rule(use, ((1.0, 2.0),)) is not None
    assert leaflet_age_limit.age_rule(use, ((5.0, 6.0),)) is None
    caution = Document(
        "easydrug:8:atpn",
        "가상코프시럽\n[사용상 주의사항] 만 3개월 미만의 영아는 이 약을 복용하지 마십시오.\n\n"
        "만 3개월 이상 및 만 2세 미만의 영·유아, 고열이 있는 사람은 의사 또는 약사와 상의하십시오.",
        {**syrup, "section": "atpn"},
    )
    question = "가상코프시럽 돌 지난 아기한테 먹여도 되나요"
    leaflet = {use.id: use, caution.id: caution}.get
    _, out = user_rules.gather([caution, use], [], Asker(ages=((1.0, 2.0),)), lambda i, t: [], leaflet=leaflet)
    answer = extractive_answer(question, offer_guard.mark([caution, use], out), names=["가상코프시럽"])
    assert "만 2세 미만에게 투여하지 않습니다" in answer
    assert "1/4포" not in answer


@pytest.mark.parametrize("dot", ["·", "ㆍ", "\u2027", "\u2024", "\u2219", "\u22c5", "\u0387", ""])
def test_infants_are_read_with_every_middle_dot_the_leaflets_write(dot):
    """키미테패취 writes 7세 이하의 영∙유아 (U+2219), others 영‧유아 (U+2027) or 영․유아 (U+2024): read only with · and
    ㆍ, about 70 leaflet sentences forbade no child and a 6-year-old was not kept from the patch."""
    from programs import leaflet_age_limit

    sentence = f"임부, 수유부, 7세 이하의 영{dot}유아는 이 약을 사용하지 마십시오."
    assert leaflet_age_limit.limit(sentence) == (8.0, "7세 이하")
    assert leaflet_age_limit.limit(f"이 약에 과민증 환자, 영{dot}유아는 이 약을 사용하지 마십시오.") == (
        6.0,
        f"영{dot}유아",
    )


def test_a_withheld_product_a_shared_line_also_cites_is_not_marked_for_a_question_naming_another():
    """어린이타이레놀 시럽 … 실온에 둬도: a plaster the child may not use was found too, and "어린이의 손이 닿지 않는
    곳에 보관하십시오", which its leaflet also writes, cited it; the answer had opened by withholding the plaster."""
    from programs.extractive import extractive_answer
    from retrievers.documents import Document

    syrup = {"item_seq": "1", "item_name": "어린이타이레놀현탁액", "section": "depositMethod"}
    plaster = {"item_seq": "2", "item_name": "가나쿨파워플라스타", "section": "depositMethod"}
    rule = Document("easydrug:2:atpn#age", "만 15세 미만의 소아는 사용하지 마십시오.", {offer_guard.VERDICT_ONLY: True})
    docs = [
        Document(
            "easydrug:1:depositMethod",
            "어린이타이레놀현탁액\n실온에서 보관하십시오.어린이의 손이 닿지 않는 곳에 보관하십시오.",
            syrup,
        ),
        Document(
            "easydrug:2:depositMethod",
            "가나쿨파워플라스타\n어린이의 손이 닿지 않는 곳에 보관하십시오.",
            {**plaster, offer_guard.NOT_FOR_USER: [rule.id]},
        ),
        rule,
    ]
    answer = extractive_answer(
        "어린이타이레놀 시럽 뜯은거 냉장고에 넣어놔야 돼요 실온에 둬도 돼요?", docs, names=["어린이타이레놀"]
    )
    assert "실온에서 보관하십시오" in answer
    assert "가나쿨파워플라스타" not in answer
