"""Never offer a product the user's own rules forbid: the decision (programs/forbidden.py with dur_rule.py and
retrievers/form_kinds.py), the user's rules and verdicts (user_rules.py), the no-LM answer and the LM answer's guard
(offer_guard.py), the rule quoted with its forms (refinement.py), and the profile's yes/no."""

import pytest

from programs import extractive, notices, offer_guard, user_rules
from programs.forbidden import Asker, Product, applies, asker, forbidding_rules
from programs.profile import ProfileError, UserProfile
from programs.refinement import KnowledgeRefiner
from retrievers.documents import Document


def rule(code: str, kind: str, ingredient: str, tail: str, partner: str = "", n: int = 1) -> Document:
    text = f"[{kind}] {ingredient}(X)은(는) {tail}"
    return Document(f"dur:{code}:{n}", text, {"dur_type": kind, "ingredient": ingredient, "partner": partner})


def leaflet(seq: str, name: str, ingredients: str, section: str = "efcy", text: str = "") -> Document:
    meta = {"item_seq": seq, "item_name": name, "main_ingr": ingredients, "section": section}
    meta["section_label"] = {"efcy": "효능·효과", "useMethod": "용법·용량"}.get(section, section)
    return Document(
        f"easydrug:{seq}:{section}", f"{name} ({ingredients})\n[{section}] {text or '감기에 씁니다.'}", meta
    )


ACETAMINOPHEN_SR = rule(
    "bc", "특정연령대금기", "아세트아미노펜", "12세미만 환자에게 사용하면 안 됩니다. 대상 제형: 서방정."
)
EPHEDRINE = rule(
    "cc", "임부금기", "에페드린", "임부(임신부)에게 사용하면 안 되는 성분입니다(2등급). 대상 제형: 정제/캡슐."
)
IBUPROFEN = rule("cc", "임부금기", "이부프로펜", "임부(임신부)에게 사용하면 안 되는 성분입니다(2등급).", n=2)
CHLORPHENIRAMINE_SPRAY = rule(
    "bc", "특정연령대금기", "클로르페니라민", "12세미만 환자에게 사용하면 안 됩니다. 대상 제형: 일반액상분무제."
)
ELDERLY = rule("fc", "노인주의", "디펜히드라민", "노인(고령자)에게 사용할 때 주의가 필요합니다.")
PAIR = rule("ac", "병용금기", "이부프로펜", "메토트렉세이트와 함께 복용(병용)하면 안 됩니다.", partner="메토트렉세이트")
CHILD = Asker(ages=((5.0, 6.0),))


def test_a_rule_binds_only_the_forms_it_names():
    syrup = Product("1", "어린이타이레놀현탁액", ("아세트아미노펜",))
    sustained = Product("2", "타이레놀8시간이알서방정", ("아세트아미노펜",))
    assert forbidding_rules(syrup, [ACETAMINOPHEN_SR], CHILD) == []
    assert forbidding_rules(sustained, [ACETAMINOPHEN_SR], CHILD) == [ACETAMINOPHEN_SR]
    tablet = Product("3", "스노콜정", ("클로르페니라민말레산염",))
    assert forbidding_rules(tablet, [CHLORPHENIRAMINE_SPRAY], CHILD) == []  # a spray's rule, a tablet


def test_a_rule_without_forms_binds_every_form_and_a_form_not_read_is_bound():
    who = Asker(pregnant=True)
    for name in ("부루펜정200밀리그램(이부프로펜)", "어린이부루펜시럽", "부루펜겔", "이름만있는약"):
        assert forbidding_rules(Product("1", name, ("이부프로펜",)), [IBUPROFEN], who) == [IBUPROFEN], name
    assert forbidding_rules(Product("1", "이름만있는약", ("에페드린염산염",)), [EPHEDRINE], who) == [EPHEDRINE]


def test_the_rules_age_is_compared_with_the_askers():
    tablet = Product("2", "타이레놀8시간이알서방정", ("아세트아미노펜",))
    assert forbidding_rules(tablet, [ACETAMINOPHEN_SR], Asker(ages=((15.0, 16.0),))) == []
    assert forbidding_rules(tablet, [ACETAMINOPHEN_SR], asker(None, "아기가 열이 나요")) == [ACETAMINOPHEN_SR]
    assert forbidding_rules(tablet, [ACETAMINOPHEN_SR], asker(UserProfile(age=10), "")) == [ACETAMINOPHEN_SR]


def test_elderly_and_pairs_apply_only_to_their_askers():
    sleeper = Product("4", "slp정", ("디펜히드라민염산염",))
    assert forbidding_rules(sleeper, [ELDERLY], asker(UserProfile(age=75), "")) == [ELDERLY]
    assert forbidding_rules(sleeper, [ELDERLY], asker(None, "80대 어머니 잠이 안 와요")) == [ELDERLY]
    assert forbidding_rules(sleeper, [ELDERLY], asker(UserProfile(age=40), "")) == []
    # 할머니댁 is where a 7-year-old is driven to, not an elderly asker: the elderly rule withholds nothing
    trip = "7살 딸 시골 할머니댁 가는데 멀미약 몇미리 먹여요"
    assert forbidding_rules(sleeper, [ELDERLY], asker(UserProfile(age=7), trip)) == []
    assert forbidding_rules(sleeper, [ELDERLY], asker(None, "할머니가 잠을 못 주무세요")) == [ELDERLY]
    ibuprofen = Product("5", "부루펜정", ("이부프로펜",))
    assert forbidding_rules(ibuprofen, [PAIR], Asker(medicines=("메토트렉세이트",))) == [PAIR]
    assert forbidding_rules(ibuprofen, [PAIR], Asker(medicines=("와파린",))) == []
    assert not applies(PAIR, Asker(medicines=("와파린",)))


def test_who_asks_comes_from_the_profile_and_the_question():
    assert asker(UserProfile(pregnant=True), "두통약").dur_types() == ["임부금기"]
    assert asker(None, "임신 중인데 두통약").pregnant
    assert asker(None, "5살 아이 감기약").ages == ((5, 6),)
    assert asker(None, "게보린 부작용") == Asker()


def test_a_pregnant_askers_baby_is_not_a_child_taking_the_medicine():
    """뱃속 아기 28주: the baby she carries raises no child's age rules; a child she names by age still does."""
    assert asker(None, "뱃속 아기 28주차인데 케펜텍 파스 붙여도 돼요").ages == ()
    assert asker(None, "뱃속 아기 28주차인데 케펜텍 파스 붙여도 돼요").pregnant
    assert asker(None, "임신 중인데 5살 첫째 감기약 먹여도 돼요").ages == ((5, 6),)
    assert asker(None, "아기 감기약").ages == ((0.0, 2.0),)


def test_verdicts_judge_every_product_and_the_quoted_rules_put_the_binding_ones_first():
    docs = [leaflet("7", "슈페젠정", "에페드린염산염"), leaflet("8", "그린콜연질캡슐", "아세트아미노펜")]
    rules = [ACETAMINOPHEN_SR, EPHEDRINE]
    fetch = lambda ingredients, types: [r for r in rules if r.metadata["dur_type"] in types]  # noqa: E731
    who = Asker(pregnant=True, ages=((5.0, 6.0),))
    quoted, verdicts = user_rules.gather(docs, ["에페드린", "아세트아미노펜"], who, fetch)
    assert verdicts == {"7": [EPHEDRINE]}
    assert quoted == [EPHEDRINE]  # the 서방정 rule binds no capsule: not quoted beside 그린콜연질캡슐
    docs.append(leaflet("9", "타이레놀8시간이알서방정", "아세트아미노펜"))
    quoted, verdicts = user_rules.gather(docs, ["에페드린", "아세트아미노펜"], who, fetch)
    assert set(quoted) == {EPHEDRINE, ACETAMINOPHEN_SR} and verdicts["9"] == [ACETAMINOPHEN_SR]


def test_a_rule_for_another_form_of_the_answers_products_is_left_out_of_the_context():
    """아기 + 어린이타이레놀현탁액: retrieval's 서방정 rule and a nasal spray's rule bind none of the products holding
    their ingredient, so the answer neither quotes them nor gets them added; a rule of an ingredient no product holds
    still speaks of that ingredient."""
    syrup = leaflet("1", "어린이타이레놀현탁액(아세트아미노펜)", "아세트아미노펜(미분화)")
    cold = leaflet("2", "판피린큐액", "아세트아미노펜,클로르페니라민말레산염")
    assert user_rules.unbound_rules([ACETAMINOPHEN_SR, CHLORPHENIRAMINE_SPRAY, syrup, cold]) == {
        ACETAMINOPHEN_SR.id,
        CHLORPHENIRAMINE_SPRAY.id,
    }
    assert user_rules.unbound_rules([EPHEDRINE, syrup]) == set()
    tablet = leaflet("3", "타이레놀8시간이알서방정", "아세트아미노펜")
    assert user_rules.unbound_rules([ACETAMINOPHEN_SR, syrup, tablet]) == set()


def which_medicine_docs(forbid: set[str]) -> list[Document]:
    docs = [
        leaflet("7", "슈페젠정", "에페드린염산염", text="이 약은 감기의 여러 증상의 완화에 사용합니다."),
        leaflet("8", "그린콜연질캡슐", "아세트아미노펜", text="이 약은 감기의 여러 증상의 완화에 사용합니다."),
    ]
    verdicts = {seq: [EPHEDRINE] for seq in forbid}
    return offer_guard.mark([EPHEDRINE, *docs], verdicts)


def test_the_no_lm_answer_never_offers_a_forbidden_product_and_says_why():
    answer = extractive.extractive_answer("감기약 뭐 먹어야 돼요", which_medicine_docs({"7"}))
    marking, offer = answer.splitlines()[:2]
    assert marking == "※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 슈페젠정(임부금기 에페드린 [문서 1])."
    assert offer == "효능·효과가 질문과 맞는 제품입니다: 그린콜연질캡슐."
    assert "슈페젠정:" not in answer
    assert "대상 제형: 정제/캡슐" in answer  # the rule quoted with its forms
    everything = extractive.extractive_answer("감기약 뭐 먹어야 돼요", which_medicine_docs({"7", "8"}))
    assert notices.NONE_ALLOWED in everything and "제품입니다:" not in everything


def test_a_class_question_quotes_no_sentence_of_a_forbidden_product():
    docs = which_medicine_docs({"7"})
    answer = extractive.extractive_answer("임산부 감기에 좋은 약 알려줘요", docs)
    assert "슈페젠정: " not in answer and "그린콜연질캡슐" in answer


def test_a_named_product_answer_marks_only_what_it_names_or_a_quoted_rule_forbids():
    """A question naming 그린콜 is not told that another product retrieval found is not for the user, unless a rule
    the answer quotes is that product's (the rule would otherwise read as the named product's)."""
    named = leaflet("8", "그린콜연질캡슐", "아세트아미노펜", section="useMethod", text="성인 1회 2캡슐을 복용합니다.")
    other = leaflet("7", "슈페젠정", "에페드린염산염", text="이 약은 감기의 여러 증상의 완화에 사용합니다.")
    only_cited = offer_guard.mark([named, other], {"7": [EPHEDRINE]})  # the rule added only to cite the verdict
    answer = extractive.extractive_answer("그린콜 몇 캡슐 먹어요", only_cited, names=["그린콜"])
    assert offer_guard.MARK not in answer and "슈페젠정" not in answer
    assert "성인 1회 2캡슐을 복용합니다." in answer
    quoted = offer_guard.mark([EPHEDRINE, named, other], {"7": [EPHEDRINE]})  # the rule found and quoted
    answer = extractive.extractive_answer("그린콜 몇 캡슐 먹어요", quoted, names=["그린콜"])
    assert "※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 슈페젠정(임부금기 에페드린 [문서 1])." in answer


def test_an_lm_sentence_offering_a_forbidden_product_is_taken_out():
    docs = which_medicine_docs({"7"})
    answer = "슈페젠정을 드셔 보세요. [문서 2] 그린콜연질캡슐도 감기에 씁니다. [문서 3]\n\n전문가와 꼭 상담하세요."
    out, withheld = offer_guard.withhold(answer, docs, "감기약 뭐 먹어요")
    assert withheld == ["슈페젠정"]
    assert out.splitlines()[0].startswith("※ 사용자에게 맞지 않는 약")
    assert "드셔 보세요" not in out and "그린콜연질캡슐도" in out
    saying_no = "슈페젠정은 임부금기 성분이 있어 드시면 안 됩니다. [문서 1]"
    assert offer_guard.withhold(saying_no, docs, "감기약 뭐 먹어요") == (saying_no, [])


def test_a_line_naming_a_withheld_product_as_not_for_the_user_is_kept():
    """The opening of an answer led by a withheld product's own limit names it "(사용자에게 맞지 않는 약)": it
    offers nothing and stays (it had been taken out, leaving the answer without its first line)."""
    docs = which_medicine_docs({"7"})
    opening = f"슈페젠정({offer_guard.MARK}) · 사용상 주의사항에서 찾은 내용입니다."
    answer = f"{opening}\n\n슈페젠정({offer_guard.MARK}): 임부는 복용하지 마십시오. [문서 2]"
    out, withheld = offer_guard.withhold(answer, docs, "임산부 감기약 뭐 먹어요")
    assert out.splitlines()[0] == opening and withheld == []


def test_a_rule_is_refined_with_its_forms_and_its_forms_never_alone():
    strips = KnowledgeRefiner().strips("코막힘 분무제", [CHLORPHENIRAMINE_SPRAY])[0]
    assert [s.text for s in strips] == [CHLORPHENIRAMINE_SPRAY.text]
    long = Document(
        "dur:bc:9",
        f"{ACETAMINOPHEN_SR.text[:-15]} 사유: 과도한 체온강하. 대상 제형: 서방정.",
        ACETAMINOPHEN_SR.metadata,
    )
    refined, _ = KnowledgeRefiner(threshold=0.9, max_strips=1).refine("체온강하 사유", [long])
    assert refined[0].text.startswith("[특정연령대금기]") and "대상 제형: 서방정." in refined[0].text


@pytest.mark.parametrize(
    ("value", "pregnant"), [(True, True), ("false", False), ("no", False), (0, False), ("1", True)]
)
def test_pregnant_reads_yes_and_no(value, pregnant):
    assert UserProfile.from_dict({"pregnant": value}).pregnant is pregnant


@pytest.mark.parametrize("value", ["maybe", 2, [True], {"x": 1}])
def test_pregnant_refuses_what_is_not_yes_or_no(value):
    with pytest.raises(ProfileError, match="pregnant must be true or false"):
        UserProfile.from_dict({"pregnant": value})


def test_an_unknown_profile_field_is_refused_naming_the_fields():
    """{"elderly": true} is no field: the error names the fields and says an older user gives the age."""
    with pytest.raises(ProfileError, match=r"unknown profile fields: elderly; the fields are age, .*") as e:
        UserProfile.from_dict({"elderly": True})
    assert "65" in str(e.value)
    assert UserProfile.from_dict({"age": 78}).elderly


HEADACHE = {"core_terms": ["두통"], "recall_terms": [], "avoid_terms": [], "rerank_query": "두통 약"}


def test_an_lm_answer_never_offers_a_forbidden_product(searcher, scripted):
    from programs.crag import CRAG

    def ask(answer: str):
        # a rewrite keeps the question: the mini corpus grades its retrieval below 0.7
        lm, lms = scripted(
            optimize=[HEADACHE],
            rewrite=[{"rewritten_query": "두통약 뭐 먹어요"}],
            generate=[{"answer": answer}],
            generate_low_relevance=[{"answer": answer}],
        )
        return CRAG(backend=searcher, lms=lms)(question="두통약 뭐 먹어요", user={"pregnant": True}), lm

    first, lm = ask("두통에는 휴식이 좋습니다.\n\n전문가와 꼭 상담하세요.")
    prompt = next(m for name, m in lm.prompts if name.startswith("generate"))[-1]["content"]
    # the DUR rule and the leaflet's own line (programs/leaflet_group_limit.py) are both cited
    verdict = "(임부금기 이부프로펜 [문서 1]; 설명서 임신 말기 3개월 기간의 임부 금지 [문서 2])"
    assert f"※ 사용자에게 맞지 않는 약입니다{verdict}: 이 제품을 권하지 마십시오." in prompt
    ids = [c["id"] for c in first.citations]
    bufen = ids.index("easydrug:197700120:efcy") + 1  # 부루펜정: 이부프로펜, 임부금기 in every form
    pred, _ = ask(f"부루펜정200밀리그램을 드셔 보세요. [문서 {bufen}]\n\n전문가와 꼭 상담하세요.")
    assert "드셔 보세요" not in pred.answer
    assert pred.answer.splitlines()[1].startswith("※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 부루펜정200밀리그램")
    assert any(s["step"] == "offers_withheld" for s in pred.trace["steps"])


@pytest.mark.parametrize(("value", "pregnant"), [("false", False), ("no", False), (0, False), (True, True)])
def test_the_http_api_reads_pregnant_as_the_cli_does(value, pregnant):
    from yaksa.app.schemas import UserIn

    assert UserIn.model_validate({"pregnant": value}).pregnant is pregnant


def test_the_http_api_refuses_a_pregnant_that_is_not_yes_or_no():
    from pydantic import ValidationError

    from yaksa.app.schemas import UserIn

    with pytest.raises(ValidationError, match="pregnant must be true or false"):
        UserIn.model_validate({"pregnant": "maybe"})


def test_a_rule_naming_an_ingredient_that_holds_a_forbidden_products_name_is_kept():
    """[노인주의] 클로르페니라민 … holds 페니라민, the short name of a forbidden 페니라민정: the rule is about the
    ingredient and offers nothing, so it stays whole (its statement was once taken out, leaving its forms alone)."""
    tablet = leaflet("9", "페니라민정", "클로르페니라민말레산염", text="이 약은 콧물, 재채기에 사용합니다.")
    elderly = rule("fc", "노인주의", "클로르페니라민", "노인(고령자)에게 사용할 때 주의가 필요합니다. 대상 제형: 정제.")
    docs = offer_guard.mark([elderly, tablet], {"9": [elderly]})
    statement = elderly.text.split(" 대상 제형")[0]
    answer = f"{elderly.text} [문서 1]\n페니라민정: 이 약은 콧물, 재채기에 사용합니다. [문서 2]"
    out, withheld = offer_guard.withhold(answer, docs, "80대 어머니 콧물약 뭐 먹어요")
    assert withheld == ["페니라민정"] and "이 약은 콧물, 재채기에 사용합니다" not in out
    assert f"{statement} 대상 제형: 정제." in out


def test_an_lm_rule_line_without_its_forms_gets_them(searcher):
    """An LM that rewords a DUR rule drops "대상 제형: …"; the answer's rule line gets the forms the cited rule binds
    (programs/safety_rules.with_forms, run by answer_policies.add_rules on every LM answer), so it never reads as
    binding every form. Over the mini index's 이부프로펜 임부금기 row that lists its forms."""
    from types import SimpleNamespace

    from programs.answer_policies import add_rules
    from programs.dur_rule import forms

    rule = next(searcher.get(i) for i in ("dur:cc:2158", "dur:cc:3048") if forms(searcher.get(i).text))
    steps = []
    st = SimpleNamespace(
        answer="[임부금기] 이부프로펜은 임신 중에 쓰면 안 됩니다. [문서 1]\n\n전문가와 꼭 상담하세요.",
        context_docs=[rule],
        question="임신 중인데 부루펜 먹어도 돼요?",
        trace=SimpleNamespace(step=lambda name, **kw: steps.append(name)),
    )
    add_rules(st)
    line = st.answer.splitlines()[0]
    assert line.startswith("[임부금기] 이부프로펜은 임신 중에") and line.endswith("[문서 1]")
    assert "대상 제형: 정제" in line
    assert "rule_forms" in steps


def test_a_line_of_forms_alone_is_taken_out_of_an_lm_answer(searcher):
    from types import SimpleNamespace

    from programs.answer_policies import add_rules

    st = SimpleNamespace(
        answer="멀미약은 승차 전에 드세요. [문서 1]\n대상 제형: 정제/추어블정(저작정)/액제\n\n전문가와 꼭 상담하세요.",
        context_docs=[searcher.get("easydrug:197900277:efcy")],
        question="멀미약 뭐 먹어요",
        trace=SimpleNamespace(step=lambda name, **kw: None),
    )
    add_rules(st)
    assert "대상 제형" not in st.answer and "멀미약은 승차 전에 드세요." in st.answer


def test_a_withheld_products_own_limit_leading_a_class_answer_is_marked_in_the_opening():
    """Every product found withheld by its own age limit (5살 아이 체했을 때): the line that leads is that limit, and
    the opening that names where it was found says the product is not for the user."""
    from programs.leaflet_age_limit import age_rule

    caution = Document(
        "easydrug:8:atpn",
        "파메콘정\n[사용상 주의사항] 만 7세 이하의 소아는 이 약을 복용하지 마십시오.",
        {"item_seq": "8", "item_name": "파메콘정", "section": "atpn", "section_label": "사용상 주의사항"},
    )
    efcy = Document(
        "easydrug:8:efcy",
        "파메콘정\n[효능·효과] 소화불량, 체함에 사용합니다.",
        {"item_seq": "8", "item_name": "파메콘정", "section": "efcy"},
    )
    rule = age_rule(caution, ((5.0, 6.0),))
    docs = offer_guard.mark([efcy, caution], {"8": [rule]})
    answer = extractive.extractive_answer("5살 아이 체했을 때 먹여도 되는 약 있어요?", docs, sections=["atpn"])
    opening = next(line for line in answer.splitlines() if "찾은 내용입니다" in line)
    assert f"파메콘정({offer_guard.MARK})" in opening


def test_an_answer_the_budget_cut_short_loses_a_line_of_forms_alone():
    from types import SimpleNamespace

    from programs.answer_policies import out_of_budget

    passed = {"answer": "키미테패취를 붙이세요. [문서 1]\n대상 제형: 정제/액제", "context_docs": []}
    st = SimpleNamespace(answer="", verification="off", last_passed=passed, best=None, context_docs=[])
    out_of_budget(None, st, {"passed": "※ 시간을 모두 썼습니다."})
    assert "대상 제형" not in st.best["answer"] and st.best["answer"].endswith("※ 시간을 모두 썼습니다.")


def test_months_of_a_pregnancy_are_no_childs_age_and_others_rules_are_not_the_users(searcher):
    """임신 7개월인데 부루펜: 7개월 is the pregnancy's stage, not the asker's age (it had forbidden products by their
    age rules); the answer opens with the named product marked as not for the user, and no age rule is quoted as
    the user's."""
    from programs.crag import CRAG

    assert asker(None, "임신 7개월인데 부루펜 먹어도 되나요") == Asker(pregnant=True, woman=True)
    assert asker(None, "7개월 아기 열나요").ages == ((7 / 12, 8 / 12),)
    answer = CRAG(backend=searcher)(question="임신 7개월인데 부루펜 먹어도 되나요").answer
    assert "[특정연령대금기]" not in answer and "연령금기" not in answer
    heading, opening = answer.splitlines()[1].split(". ", 1)
    assert heading == "사용자에게 해당하는 DUR 규칙을 먼저 적었습니다"
    assert opening.startswith(f"부루펜정200밀리그램({offer_guard.MARK}) · ")


def test_a_rule_retrieval_found_for_another_group_is_not_the_users():
    child = rule("bc", "특정연령대금기", "케토프로펜", "15세미만 환자에게 사용하면 안 됩니다.")
    assert user_rules.others_rules([child, EPHEDRINE], Asker(pregnant=True)) == {child.id}
    assert user_rules.others_rules([child, EPHEDRINE], Asker()) == set()  # nobody in particular: a product's rules
    assert user_rules.others_rules([child], Asker(ages=((7.0, 8.0),))) == set()


def test_a_child_the_question_implies_is_the_profiles_age_not_any_childs():
    """먹이면 implies a child: with a profile age of 5 the asker is 5, not 0 to 12, so a leaflet's 6세 미만 limit (a
    dose left to a doctor) binds them; the span of any child had kept every such limit from binding."""
    profile = UserProfile.from_dict({"age": 5})
    assert asker(profile, "콧물 시럽 뭐 먹이면 돼요?").ages == ((5.0, 6.0),)
    assert asker(None, "콧물 시럽 뭐 먹이면 돼요?").ages  # no profile: the implied child's span
    leaflet = Document(
        "easydrug:200200757:useMethod",
        "리노콜드시럽\n만 6세 이상~12세 미만 소아는 4시간마다 5 mL씩 복용합니다."
        "만 2세 이상~6세 미만 소아는 의사의 지시에 따르십시오.",
        {"item_seq": "200200757", "item_name": "리노콜드시럽", "section": "useMethod"},
    )
    who = asker(profile, "콧물 시럽 뭐 먹이면 돼요?")
    _, verdicts = user_rules.gather([leaflet], [], who, lambda *_: [], leaflet={leaflet.id: leaflet}.get)
    assert verdicts["200200757"] and verdicts["200200757"][0].metadata["ingredient"] == "6세 미만"


def test_a_childs_profile_calling_itself_a_baby_is_that_child_not_every_baby():
    """A 4-year-old's profile asks of 애기 (as people call any small child): the asker is 4, so a leaflet's 2세 미만
    limit does not bind them; read as a parent of a baby too, the product was withheld for an infant nobody asked of."""
    profile = UserProfile.from_dict({"age": 4})
    question = "애기 장염이라 가상현탁액 먹이는데 다른 약이랑 간격 둬야 하나요"
    assert asker(profile, question).ages == ((4.0, 5.0),)
    assert (0.0, 2.0) in asker(UserProfile.from_dict({"age": 34}), question).ages  # a parent's profile: the baby too
    leaflet = Document(
        "easydrug:300:atpn",
        "가상현탁액\n[사용상 주의사항] 2세 미만의 영아는 이 약을 복용하지 마십시오.",
        {"item_seq": "300", "item_name": "가상현탁액", "section": "atpn"},
    )
    who = asker(profile, question)
    _, verdicts = user_rules.gather([leaflet], [], who, lambda *_: [], leaflet={leaflet.id: leaflet}.get)
    assert not verdicts.get("300")


def test_the_users_own_medicine_is_not_judged_and_its_pairs_with_third_drugs_are_not_theirs():
    """A user taking aspirin asks about a ketoprofen plaster: the aspirin leaflet retrieval found is theirs, not an
    offer to withhold, and a 병용금기 row pairing aspirin with methotrexate (which no product found holds) is not
    one of their rules; a row pairing it with the plaster's ingredient would be."""

    def leaflet(seq: str, name: str, ingredient: str) -> Document:
        meta = {"section": "atpn", "item_seq": seq, "item_name": name, "main_ingr": ingredient}
        return Document(f"easydrug:{seq}:atpn", f"{name}\n…", meta)

    def pair(n: int, a: str, b: str) -> Document:
        meta = {"dur_type": "병용금기", "ingredient": a, "partner": b}
        return Document(f"dur:ac:{n}", f"[병용금기] {a}와(과) {b}", meta)

    docs = [leaflet("1", "바이엘아스피린정", "아스피린"), leaflet("2", "케토톱플라스타", "케토프로펜")]
    rows = [pair(1, "아스피린", "메토트렉세이트"), pair(2, "케토프로펜", "아스피린")]
    who = Asker(medicines=("아스피린",))
    quoted, verdicts = user_rules.gather(docs, ["아스피린", "케토프로펜"], who, lambda *_: rows)
    assert "1" not in verdicts  # their own medicine
    assert [r.id for r in quoted] == ["dur:ac:2"]


def test_a_combination_row_binds_only_a_product_holding_most_of_its_mix(searcher):
    """The mini index's 임부금기 rows for 이부프로펜: one about the ingredient alone, one about its mix with
    스코폴라민 (복합). 부루펜정200밀리그램 (이부프로펜 alone) is forbidden to a pregnant user by the first only; a
    tablet holding the mix is bound by both."""
    rows = [d for d in searcher.docs if d.source == "dur" and d.metadata.get("ingredient") == "이부프로펜"]
    alone = next(d for d in rows if not d.metadata.get("combination"))
    mix = next(d for d in rows if d.metadata.get("combination"))
    assert mix.metadata["combination"] == "스코폴라민"
    pregnant = Asker(pregnant=True)
    brufen = Product("1", "부루펜정200밀리그램", ("이부프로펜",))
    assert [r.id for r in forbidding_rules(brufen, rows, pregnant)] == [alone.id]
    both = Product("2", "가상진경정", ("이부프로펜", "스코폴라민브롬화수소산염"))
    assert {r.id for r in forbidding_rules(both, rows, pregnant)} == {alone.id, mix.id}
    assert not user_rules.binds_held(mix, [brufen]) and user_rules.binds_held(mix, [both])


def test_a_liquid_spray_rule_binds_nasal_drops_sprayed_and_a_half_held_mix():
    """노즈케어점비액 (나파졸린, 클로르페니라민, 글리시리진산디칼륨) is sprayed into the nose: the 12세미만 rule for
    클로르페니라민 in the 일반액상분무제 mixed with 글리시리진산이칼륨 and 나파졸린 binds it (di- written 디 or 이)."""
    spray = Document(
        "dur:bc:9",
        "[특정연령대금기] 클로르페니라민(X)은(는) 12세미만 환자에게 사용하면 안 됩니다. 대상 제형: 일반액상분무제.",
        {"dur_type": "특정연령대금기", "ingredient": "클로르페니라민", "combination": "글리시리진산이칼륨, 나파졸린"},
    )
    drops = Product("1", "노즈케어점비액", ("나파졸린염산염", "클로르페니라민말레산염", "글리시리진산디칼륨"))
    assert forbidding_rules(drops, [spray], Asker(ages=((9.0, 10.0),))) == [spray]
    tablet = Product("2", "가나정", ("클로르페니라민말레산염",))
    assert forbidding_rules(tablet, [spray], Asker(ages=((9.0, 10.0),))) == []


def test_a_nursing_mothers_baby_and_its_age_are_not_who_takes_the_medicine():
    """백일 아기 모유 먹이는 중인데 … 먹어도: the baby nursed, not a child's age rules for the mother; a medicine fed
    to the baby (6개월 아기한테 해열제 먹여도) is the child's."""
    mother = asker(None, "백일 아기 모유 먹이는 중인데 생리통이 심해서요 프리나정 먹어도 될까요?")
    assert mother.ages == () and mother.nursing
    fed = asker(None, "수유 중인데 6개월 아기한테 해열제 먹여도 되나요")
    assert fed.ages == ((0.5, 7 / 12),)


def test_a_word_holding_a_child_word_is_no_child():
    """아이스크림: 아이 starts it, as the population words list (not_inside); no child's age rules."""
    assert asker(None, "설사하는데 에세푸릴 먹는 동안 아이스크림 먹어도 돼요?").ages == ()
    assert asker(None, "아이가 설사하는데 에세푸릴 먹여도 돼요?").ages == ((0.0, 12.0),)
