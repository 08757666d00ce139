"""The no-LM self-check (programs/aspect_check.py): which of the aspects a question asks an answer's quoted sentences
speak to, the low quality of an answer that speaks to none of them, and the notice the answer then carries."""

import pytest

from metrics.unanswerable import outcome
from programs.aspect_check import Quoted, answer_quotes, aspect_check, self_check
from programs.crag import CRAG
from programs.quality_evaluator import heuristic_evaluation
from retrievers.documents import Document
from retrievers.population import Population
from retrievers.question_frame import QuestionFrame

# question, frame aspects, group, Kiwi morphemes, quoted sentence, its section, the aspects it speaks to
CASES = [
    ("게보린 부작용", ("side_effects",), None, (), "구역, 구토가 나타날 수 있습니다.", "se", ("side_effects",)),
    ("게보린 부작용", ("side_effects",), None, (), "두통, 치통에 사용합니다.", "efcy", ()),
    (
        "와파린이랑 같이 먹어도",
        ("interactions",),
        None,
        (),
        "[병용금기] 함께 복용하면 안 됩니다.",
        "dur:ac",
        ("interactions",),
    ),
    ("감기약 먹고 운전", ("driving",), None, (), "졸음이 올 수 있으므로 운전을 하지 마십시오.", "atpn", ("driving",)),
    ("감기약 먹고 운전", ("driving",), None, (), "1회 1정, 1일 3회 복용합니다.", "useMethod", ()),
    # asked by a situation's words (씹어서: crushing): the 용법 section alone does not answer it; its words do
    (
        "훼스탈 씹어서 먹어도",
        ("how_to_take",),
        None,
        ("훼스탈", "씹", "먹"),
        "1일 3회 식후에 복용합니다.",
        "useMethod",
        (),
    ),
    (
        "훼스탈 씹어서 먹어도",
        ("how_to_take",),
        None,
        ("훼스탈", "씹", "먹"),
        "씹지말고 복용합니다.",
        "useMethod",
        ("how_to_take",),
    ),
    ("이 약 어떻게 먹어요", ("how_to_take",), None, (), "1일 3회 식후에 복용합니다.", "useMethod", ("how_to_take",)),
    (  # 쪼개서 asks whether it may be split: taking it with water is no answer
        "알약 쪼개서 먹어도",
        ("how_to_take",),
        None,
        ("알약", "쪼개", "먹"),
        "1회 1정을 물과 함께 복용합니다.",
        "useMethod",
        (),
    ),
    (
        "가루약 물이랑 같이 먹어요",
        ("how_to_take",),
        None,
        ("가루약", "물", "이랑", "같이", "먹"),
        "1일 3~6회 물 없이 복용합니다.",
        "useMethod",
        ("how_to_take",),
    ),
    (
        "연고 바르고 바로 밥 먹어도",
        ("timing_food",),
        None,
        (),
        "사용 후 바로 음식을 먹지 마십시오.",
        "atpn",
        ("timing_food",),
    ),
    ("질정 며칠 넣어요", ("duration",), None, (), "1일 1회 연속 6일간 질내에 삽입합니다.", "useMethod", ("duration",)),
    ("게보린 유통기한 지난 거", ("expiry",), None, (), "습기와 빛을 피해 실온에서 보관하십시오.", "depositMethod", ()),
    (
        "수유 중인데 먹어도",
        ("breastfeeding",),
        "breastfeeding",
        (),
        "수유부는 의사와 상의하십시오.",
        "atpn",
        ("breastfeeding",),
    ),
    (
        "임신 중인데 먹어도",
        ("pregnancy",),
        "pregnant",
        (),
        "[임부금기] 임부에게 사용하면 안 됩니다.",
        "dur:cc",
        ("pregnancy",),
    ),
    ("7살 먹여도", ("child_use",), "child", (), "어린이의 손이 닿지 않는 곳에 보관하십시오.", "depositMethod", ()),
    # a lozenge dissolved in the mouth answers whether to chew it
    (
        "스트렙실 씹어먹어도 돼요",
        ("how_to_take",),
        None,
        ("스트렙실", "씹", "먹"),
        "이 약 1개를 입안에서 서서히 녹여서 복용합니다.",
        "useMethod",
        ("how_to_take",),
    ),
    # a dose table by age band speaks to a child's use, whatever words it uses for the child
    (
        "7살 코 스프레이 써도",
        ("child_use",),
        "child",
        (),
        "필요시 성인은 1~8회, 1세~2세는 1~3회, 5세~8세는 1~5회 분무합니다.",
        "useMethod",
        ("child_use",),
    ),
    (
        "고등학생 아들 써도",
        ("child_use",),
        "adolescent",
        (),
        "18세 미만 환자는 사용하지 마십시오.",
        "atpn",
        ("child_use",),
    ),
]


@pytest.mark.parametrize(("question", "aspects", "group", "morphemes", "text", "section", "spoken"), CASES)
def test_a_quote_speaks_to_an_aspect_by_its_section_its_words_or_who_it_names(
    question, aspects, group, morphemes, text, section, spoken
):
    frame = QuestionFrame(question, aspects=aspects, population=Population(group))
    check = aspect_check(frame, [Quoted(text, section)], morphemes)
    assert check.asked == aspects
    assert check.spoken == spoken
    assert check.missed_first is not bool(spoken)


def test_generic_aspects_and_comparison_are_not_checked():
    frame = QuestionFrame("게보린 타이레놀 뭐가 나아요", aspects=("comparison", "cautions", "efficacy"))
    check = aspect_check(frame, [Quoted("두통에 사용합니다.", "efcy")])
    assert check.asked == () and not check.missed_all and not check.missed_first


def test_the_product_said_before_a_quote_is_not_what_it_says():
    doc = Document("easydrug:1:se", "x", {"section": "se", "item_name": "어린이부루펜시럽(이부프로펜)"})
    quotes = answer_quotes("어린이부루펜시럽 · 부작용에서 찾은 내용입니다.\n어린이부루펜시럽: 구역 [문서 1]", [doc])
    assert quotes == [Quoted("구역", "se")]
    frame = QuestionFrame("7살 먹여도", aspects=("child_use",), population=Population("child"))
    assert aspect_check(frame, quotes).missed_all


STORAGE = Document(
    "easydrug:1:depositMethod", "게보린정\n습기와 빛을 피해 실온에서 보관하십시오.", {"section": "depositMethod"}
)
EXPIRY = QuestionFrame("게보린 유통기한 지난 거 먹어도 돼요?", aspects=("expiry",))


def test_an_answer_speaking_to_none_of_the_asked_aspects_rates_low_and_asks_for_them():
    answer = "습기와 빛을 피해 실온에서 보관하십시오. [문서 1]\n\n전문가와 꼭 상담하세요."
    question, sections = EXPIRY.question, ["depositMethod"]
    unchecked = heuristic_evaluation(question, answer, [STORAGE], sections=sections)
    checked = heuristic_evaluation(question, answer, [STORAGE], sections=sections, frame=EXPIRY)
    assert unchecked.overall == 1.0 and not unchecked.needs_retrieval  # what the check is for
    assert (checked.completeness, checked.accuracy) == (0.0, 0.0)
    assert checked.overall < 0.5 and checked.needs_retrieval
    assert "사용기한" in checked.missing_info  # no document found says it: searched for next
    assert "0/1 aspects spoken to" in checked.reason
    doc = Document("easydrug:1:atpn", "게보린정\n사용기한이 지난 약은 복용하지 마십시오.", {"section": "atpn"})
    spoken = heuristic_evaluation(question, "사용기한이 지난 약은 복용하지 마십시오. [문서 1]", [doc], frame=EXPIRY)
    assert spoken.overall == 1.0 and spoken.missing_info == []


def test_the_notice_says_the_documents_found_do_not_say_it_or_that_the_quotes_do_not():
    answer = "습기와 빛을 피해 실온에서 보관하십시오. [문서 1]"
    check, notice = self_check(EXPIRY, answer, [STORAGE])
    assert check.missed == ("expiry",)
    assert notice == "※ 찾은 설명서에는 사용기한에 대한 내용이 없습니다."
    later = Document("easydrug:1:atpn", "게보린정\n사용기한이 지난 약은 복용하지 마십시오.", {"section": "atpn"})
    _, notice = self_check(EXPIRY, answer, [STORAGE, later])
    assert notice == "※ 아래 인용한 문장에는 사용기한에 대한 내용이 없습니다."
    assert self_check(EXPIRY, "답을 찾지 못했습니다.", [STORAGE]) == (check.__class__(("expiry",), ()), "")


def test_a_situation_after_who_it_is_for_is_what_the_notice_checks():
    """해열제 먹이고 얼마나 있어야 열이 떨어져요: the child comes first in the frame and a child's dose speaks to it,
    but how soon it works is what was asked; the answer says the leaflets do not say it."""
    frame = QuestionFrame("해열제 먹이고 나서 얼마나 있어야 열이 떨어지나요", aspects=("child_use", "onset"))
    dose = Document(
        "easydrug:1:useMethod", "가상시럽\n소아는 1회 5 mL씩 4~6시간 간격으로 복용합니다.", {"section": "useMethod"}
    )
    check, notice = self_check(frame, "소아는 1회 5 mL씩 4~6시간 간격으로 복용합니다. [문서 1]", [dose])
    assert check.spoken == ("child_use",) and check.missed == ("onset",)
    assert notice == "※ 찾은 설명서에는 효과가 나타나는 시간에 대한 내용이 없습니다."


def test_the_no_lm_answer_says_plainly_what_the_leaflets_found_do_not_say(searcher):
    pred = CRAG(backend=searcher)(question="게보린 유통기한 지난 거 먹어도 돼요?")
    assert pred.answer.startswith("※ 찾은 설명서에는 사용기한에 대한 내용이 없습니다.")
    assert pred.trace["stop_reason"] != "quality_ok"  # the quality check no longer rates the storage answer 1.0
    step = next(s for s in pred.trace["steps"] if s["step"] == "aspect_check")
    assert step["asked"] == ["expiry"] and step["flagged"]
    as_json = {"answer": pred.answer, "citations": pred.citations}
    assert outcome({"gold": []}, as_json)["said_not_covered"]  # metrics/unanswerable.py reads it as not covered
    answered = CRAG(backend=searcher)(question="감기약 먹고 운전해도 돼요?")
    assert "※ 찾은 설명서" not in answered.answer and "※ 아래 인용한" not in answered.answer
    assert answered.trace["stop_reason"] == "quality_ok"
    assert not next(s for s in answered.trace["steps"] if s["step"] == "aspect_check")["flagged"]


def test_only_a_document_about_what_is_asked_about_answers_its_aspect(searcher):
    """programs/answer_target.py over the real mini index: a digestive question's pregnancy aspect is not answered
    by a painkiller's leaflet, nor by a DUR rule on an ingredient no digestive product has."""
    from programs.answer_target import on_target
    from retrievers.question_frame import Targets

    frame = QuestionFrame(
        "소화제 임신 중에 먹어도 되나요",
        Targets(classes=("소화제",)),
        ("pregnancy",),
        Population("pregnant", "임신"),
    )

    def leaflet(name: str) -> Document:
        return next(
            d for d in searcher.docs if name in d.metadata.get("item_name", "") and d.metadata["section"] == "atpn"
        )

    painkiller, digestive = leaflet("게보린"), leaflet("베아제")
    rule = Document("dur:cc:1", "[임부금기] 이부프로펜은(는) 임부에게 쓰면 안 됩니다.", {"ingredient": "이부프로펜"})
    ingredients = {d.metadata["item_seq"]: d.metadata.get("main_ingr", "").split(",") for d in (digestive,)}
    keep = on_target(
        frame,
        searcher.names.match(frame.question),
        searcher.class_members,
        searcher.names.canonical,
        lambda seq: ingredients.get(seq) or [],
    )
    assert keep(digestive) and not keep(painkiller) and not keep(rule)
    answer = "게보린정: 임부 또는 임신하고 있을 가능성이 있는 여성은 복용하지 마십시오. [문서 1]"
    assert self_check(frame, answer, [painkiller])[1] == ""  # without the test, another product's line answers
    check, notice = self_check(frame, answer, [painkiller], keep=keep)
    assert check.missed == ("pregnancy",) and notice == "※ 찾은 설명서에는 임신 중 복용에 대한 내용이 없습니다."
    assert self_check(frame, "[임부금기] 이부프로펜은(는) 임부에게 … [문서 1]", [rule], keep=keep)[0].missed
    assert not self_check(frame, "이 약: 임부는 복용하지 마십시오. [문서 1]", [digestive], keep=keep)[0].missed


def test_a_line_on_another_medicine_used_with_it_speaks_to_interactions_in_any_section():
    from programs.aspect_check import Quoted, speaks_to

    line = Quoted("다른 점안제와 동시에 사용할 경우, 적어도 15분의 간격을 두고 점안합니다.", "useMethod")
    assert speaks_to("interactions", line)
    assert not speaks_to("interactions", Quoted("1회 1~2방울씩 점안합니다.", "useMethod"))


def test_a_situation_whose_aspect_is_a_generic_one_is_checked_as_itself():
    """렌즈 낀 채로 넣어도, 햇빛 쬐도: the frame reads cautions (unchecked) and how it is used, so a lens caution was
    told it says nothing of how to use it; the situation is checked first, by its own leaflet words."""
    lens = QuestionFrame("렌즈 낀채로 안약 넣어도 되나요", aspects=("cautions", "how_to_take"))
    quote = Quoted("소프트콘택트렌즈를 착용한 채 사용하지 마십시오.", "atpn")
    check = aspect_check(lens, [quote])
    assert check.asked[0] == "lens" and not check.missed_first
    sun = QuestionFrame("물파스 바르고 햇빛 쬐도 돼요?", aspects=("interactions", "cautions"))
    _, notice = self_check(sun, "눈 주위에 사용하지 마십시오. [문서 1]", [Document("easydrug:1:atpn", "x\n눈", {})])
    assert notice.startswith("※ 찾은 설명서에는 햇빛(자외선)")


def test_a_narrower_situation_is_checked_by_its_own_words_and_named_in_the_notice():
    """매일 먹는데 내성 생겨요 reads the duration aspect by 매일 and 내성: a period of days does not answer whether
    it makes one dependent, a line on 의존성 does, and the notice names 내성, not 복용 기간."""
    frame = QuestionFrame("타이레놀 매일 먹는데 내성 생겨요?", aspects=("duration",))
    period = Quoted("의사 또는 약사와 상의 없이 2주 이상 투여하지 마십시오.", "atpn")
    assert aspect_check(frame, [period]).missed == ("duration",)
    assert not aspect_check(frame, [Quoted("약에 대한 의존성이 나타나므로 연용은 피하십시오.", "atpn")]).missed
    assert aspect_check(QuestionFrame("2주 넘게 먹어도 돼요?", aspects=("duration",)), [period]).missed == ()
    doc = Document("easydrug:1:atpn", "타이레놀\n" + period.text, {"section": "atpn"})
    _, notice = self_check(frame, period.text + " [문서 1]", [doc])
    assert notice == "※ 찾은 설명서에는 내성이나 의존성(습관성)에 대한 내용이 없습니다."


def test_a_vomited_dose_is_said_not_to_be_in_the_leaflets(searcher):
    """No leaflet says whether to take a dose again after vomiting it: the answer says so first, whatever it quotes
    of the dose."""
    pred = CRAG(backend=searcher)(question="판콜에이 마시고 10분 있다가 토했는데 한병 더 마셔도 돼요?")
    assert pred.answer.startswith("※ 찾은 설명서에는 먹은 약을 토했을 때 다시 먹는 것에 대한 내용이 없습니다.")
    assert pred.trace["outcome"] == "not_in_leaflets"


def test_a_withheld_products_dose_left_out_on_purpose_is_not_said_missing():
    """The answer says it left a withheld product's 용법·용량 out: the leaflet is not said to be silent on the dose."""
    from programs.offer_guard import DOSE_LEFT_OUT

    doc = Document(
        "easydrug:1:atpn", "가상정\n임부는 이 약을 복용하지 마십시오.", {"section": "atpn", "item_name": "가상정"}
    )
    frame = QuestionFrame("임신 중인데 가상정 몇 알 먹어요?", aspects=("dosage", "pregnancy"))
    quoted = "임부는 이 약을 복용하지 마십시오. [문서 1]"
    assert self_check(frame, quoted, [doc])[1]  # silent on the dose, said so
    assert self_check(frame, f"{DOSE_LEFT_OUT}\n{quoted}", [doc])[1] == ""


def test_how_long_an_opened_pack_keeps_is_answered_by_an_after_opening_line_not_any_storage_line():
    """뜯은지 두달 됐는데 아직 먹여도: a 개봉 후 … line speaks to it; "실온에서 보관하십시오" does not (expiry)."""
    from programs.sentences import sentence_tokens
    from retrievers.aspects import load_vocabulary

    question = "챔프 시럽 뜯은지 두달 됐는데 아직 먹여도 되나요?"
    assert "expiry" in load_vocabulary().asked(question, sentence_tokens(question))
    frame = QuestionFrame(question, aspects=("expiry", "storage"))
    assert aspect_check(frame, [Quoted("실온에서 보관하십시오.", "depositMethod")]).missed == ("expiry",)
    assert aspect_check(frame, [Quoted("개봉 후 4주가 지나면 사용하지 마십시오.", "depositMethod")]).missed == ()
