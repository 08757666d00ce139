"""An adult's dose is never quoted for a child (programs/child_dose.py), on the real Searcher over the mini index."""

import dataclasses

import pytest

from programs import extractive, leaflet_age_limit
from programs.child_dose import OLDER_DOSE_NOTICE, for_older_only, older_dose_sentences, oldest_age
from programs.crag import CRAG

QUESTION = "타이레놀 5살 아이 한번에 몇 알 먹여요"


def test_a_childs_dose_question_quotes_no_adult_dose(searcher):
    pred = CRAG(backend=searcher)(question=QUESTION)
    assert "성인은 1회" not in pred.answer and "소아 및 성인은" not in pred.answer
    assert OLDER_DOSE_NOTICE in pred.answer


def test_without_the_checks_the_adult_dose_would_be_quoted(searcher, monkeypatch):
    monkeypatch.setattr(extractive, "older_dose_sentences", lambda sentences, oldest, tables=True: set())
    monkeypatch.setattr(extractive, "adult_products", lambda docs, question, names=(): set())
    # nor the products' own age limits (programs/leaflet_age_limit.py), which withhold an adult's tablet whole
    monkeypatch.setattr(leaflet_age_limit, "product_rule", lambda seq, ages, leaflet: [])
    pred = CRAG(backend=searcher)(question=QUESTION)
    assert "성인은 1회" in pred.answer or "소아 및 성인은" in pred.answer


def test_an_adults_question_keeps_the_adult_dose(searcher):
    pred = CRAG(backend=searcher)(question="타이레놀 한번에 몇 알 먹어요")
    assert "성인은 1회" in pred.answer or "소아 및 성인은" in pred.answer


@pytest.mark.parametrize(
    ("question", "oldest"),
    [("아기 해열제", 2.0), ("5살 아들", 6), ("20개월 아기", 21 / 12), ("중학생 딸", 19), ("게보린 몇 알", None)],
)
def test_the_oldest_age_a_child_can_be(question, oldest):
    got = oldest_age(question)
    assert got == pytest.approx(oldest) if oldest is not None else got is None


def test_age_bands_keep_the_sentence_that_doses_the_child():
    ten = oldest_age("10살 아이 멀미약")
    assert not for_older_only("만 8세 이상~만 15세 미만은 1회 1정, 성인은 1회 2정", ten)
    assert for_older_only("만 15세 이상 및 성인은 1회 2정", ten)
    sentences = ["만 12세 이상 소아 및 성인은 1회 1~2정", "1일 최대 8정을 초과하지 않습니다.", "식후에 복용합니다."]
    assert older_dose_sentences(sentences, oldest_age("7살 아이 타이레놀")) == {0, 1}
    assert older_dose_sentences(sentences, oldest_age("타이레놀 몇 알")) == set()


def test_a_dose_table_line_with_its_own_age_band_is_no_continuation_of_the_adults_dose():
    """듀락칸이지시럽's 용법 doses adults, then 7~14세, 1~6세 and babies each in a sentence of its own: a baby past its
    first birthday keeps the 1~6세 line (it had been read as going on with the adult's dose and left out)."""
    sentences = [
        "성인은 보통의 경우 처음 2~3일간 1일 15~30mL를 아침식전에 복용합니다.",
        "심할 경우 45mL까지 투여할 수 있습니다.",
        "1~6세 유아는 1일 5~10mL를 복용합니다.",
        "12개월 미만의 영아는 1일 5mL를 복용합니다.",
    ]
    assert older_dose_sentences(sentences, oldest_age("돌지난 아기 변비에 시럽 얼마나 먹여요")) == {0, 1}


def test_an_adults_products_amounts_in_any_section_are_left_out_of_a_childs_answer():
    """세토펜정325's 용법 doses adults only: its 경고 line "1일 최고 4,000 mg" is no child's amount."""
    from retrievers.documents import Document

    def doc(section: str, text: str) -> Document:
        meta = {"item_seq": "325", "item_name": "세토펜정325밀리그램", "section": section}
        return Document(f"easydrug:325:{section}", f"세토펜정325밀리그램\n{text}", meta)

    docs = [
        doc(
            "atpnWarn",
            "[사용 전 경고] 1일 최고 4,000 mg까지 투여할 수 있습니다. 매일 세 잔 이상 음주자는 상의하십시오.",
        ),
        doc("useMethod", "[용법·용량] 성인은 1회 300~1,000 mg을 1일 3~4회 복용합니다."),
    ]
    child = " ".join(q.text for q in extractive.choose("애기 해열제 최고 몇 mg까지 먹여요", docs, max_sentences=3))
    adult = " ".join(q.text for q in extractive.choose("해열제 최고 몇 mg까지 먹어요", docs, max_sentences=3))
    assert "4,000 mg" not in child and "4,000 mg" in adult


def test_a_childrens_leaflet_stating_the_adult_daily_maximum_is_not_quoted_for_a_child():
    """어린이타이레놀현탁액's own 경고 says "일일 최대 용량(4,000 mg)": an adult's limit, never a 4-year-old's answer;
    its per-kg limit stays. An adult's question keeps the line."""
    from retrievers.documents import Document

    def doc(section: str, text: str) -> Document:
        meta = {"item_seq": "7", "item_name": "어린이타이레놀현탁액", "section": section}
        return Document(f"easydrug:7:{section}", f"어린이타이레놀현탁액\n{text}", meta)

    dosing = "[용법·용량] 만 12세 이하의 소아는 1회 권장용량을 4-6시간마다 복용합니다. "
    dosing += "1일 5회(75 mg/kg)를 초과하여 복용하지 마십시오."
    warning = "[사용 전 경고] 아세트아미노펜으로 일일 최대 용량(4,000 mg)을 초과하여 복용하지 마십시오."
    docs = [doc("useMethod", dosing), doc("atpnWarn", warning)]
    question = "4살 아기 어린이타이레놀 하루 최대 얼마나 먹여요"
    child = extractive.extractive_answer(question, docs, sections=["useMethod"])
    assert "4,000 mg" not in child and "75 mg/kg" in child
    adult = extractive.extractive_answer("아세트아미노펜 하루 최대 용량 얼마예요", docs, sections=["useMethod"])
    assert "4,000 mg" in adult


def test_a_dose_for_adults_and_children_alike_is_quoted_for_a_child():
    """젤콤현탁액 doses "성인 및 소아" with no age: the child's dose too, quoted with no older-dose notice."""
    from retrievers.documents import Document

    meta = {"item_seq": "8", "item_name": "젤콤현탁액", "section": "useMethod"}
    dosing = "[용법·용량] 성인 및 소아는 15 mL(500 mg)을 1회 복용합니다. 7일 후 다시 한 번 복용합니다."
    docs = [Document("easydrug:8:useMethod", f"젤콤현탁액\n{dosing}", meta)]
    answer = extractive.extractive_answer("42개월 딸 젤콤 현탁액 얼마나 먹여요", docs, sections=["useMethod"])
    assert "15 mL(500 mg)을 1회 복용합니다" in answer and OLDER_DOSE_NOTICE not in answer
    assert for_older_only("성인은 1회 15 mL 복용합니다.", oldest_age("42개월 딸"))


def test_a_dose_table_of_age_bands_doses_the_child_in_it():
    """성인은 15 g, 6~11세는 10 g, 1~5세는 5 g: a 5-year-old is in the table (the bands had been read as no age,
    the sentence as an adult's dose, and left out of the child's answer)."""
    table = "성인은 1회 15 g(30 mL), 6~11세는 1회 10 g(20 mL), 1~5세는 1회 5 g(10 mL)을 항문내 주입합니다."
    assert not for_older_only(table, oldest_age("5살 아들 관장약"))
    assert for_older_only("성인은 1회 1캡슐, 1일 3회 식후에 복용합니다.", oldest_age("5살 아들 관장약"))


def test_a_childs_may_i_question_about_a_product_dosed_for_adults_only_says_so():
    """10살 아들 … 판피린큐 먹여도 되나요: its 용법·용량 doses adults only; the answer says the leaflet gives no dose
    for the child, and not for a product whose leaflet doses the child."""
    from programs.child_dose import ADULT_DOSE_ONLY_NOTICE
    from retrievers.documents import Document

    def leaflet(section: str, text: str) -> Document:
        meta = {"item_seq": "9", "item_name": "판피린큐액", "section": section}
        return Document(f"easydrug:9:{section}", f"판피린큐액\n{text}", meta)

    caution = leaflet("atpn", "[사용상 주의사항] 만 15세 미만의 어린이는 의사 또는 약사와 상의하십시오.")
    adults = leaflet("useMethod", "[용법·용량] 성인 1회 1병(20 mL)을 1일 3회 복용합니다.")
    question = "10살 아들 감기인데 판피린큐 먹여도 되나요?"
    notice = ADULT_DOSE_ONLY_NOTICE.format(product="판피린큐액")
    assert notice in extractive.extractive_answer(question, [caution, adults], names=["판피린큐"])
    both = leaflet("useMethod", "[용법·용량] 성인 1회 1병, 만 8세 이상~만 15세 미만은 1회 1/2병을 복용합니다.")
    assert "용량만 있습니다" not in extractive.extractive_answer(question, [caution, both], names=["판피린큐"])


def test_a_way_of_taking_it_between_an_older_dose_and_its_daily_maximum_keeps_the_dose_older_only():
    """스트렙실: "성인, 12세 이상 어린이 및 청소년은 … 1개를 녹여서 복용합니다. 입안에서 굴리면서 복용합니다. 1일 최대
    5개 …" doses no 9-year-old: the way of taking it between does not make the daily maximum everyone's, so the
    answer says the leaflet doses only older people."""
    from programs.child_dose import ADULT_DOSE_ONLY_NOTICE
    from retrievers.documents import Document

    meta = {"item_seq": "8", "item_name": "가상트로키", "section": "useMethod"}
    text = (
        "가상트로키\n[용법·용량] 성인, 12세 이상 어린이 및 청소년은 이 약 1개를 입안에서 서서히 녹여서 복용합니다."
        "국소 자극을 피하기 위해 입안에서 굴리면서 복용합니다.필요시 3~6시간 간격으로 1일 최대 5개를 복용합니다."
    )
    dosing = Document("easydrug:8:useMethod", text, meta)
    question = "9살 아들 목아픈데 가상트로키 하나 줘도 될까요?"
    answer = extractive.extractive_answer(question, [dosing], names=["가상트로키"])
    assert ADULT_DOSE_ONLY_NOTICE.format(product="가상트로키") in answer


def test_a_childrens_table_starting_above_the_babys_age_is_not_the_babys_dose():
    """챔프이부펜시럽 doses 1~2세 and up: for a 5-month-old every band is older, so the table is left out (it had been
    quoted with no word that it starts at one year); for a 4-year-old it stays."""
    table = "11~14세는 1회 10~13 mL, 7~10세는 1회 8~10 mL, 3~6세는 1회 5~8 mL, 1~ 2세는 1회 3~5 mL를 복용합니다."
    assert older_dose_sentences([table], oldest_age("생후 5개월 아기 챔프 이부펜 몇 ml")) == {0}
    assert older_dose_sentences([table], oldest_age("4살 아이 챔프 이부펜 몇 ml")) == set()
    assert not for_older_only("체중이 30 kg 미만인 어린이는 1일 25 mL를 초과하지 않습니다.", 0.5)  # no age: kept


LOPERAMIDE = (
    "로피딘캡슐 (로페라미드염산염)\n[용법·용량] 급성설사에 성인은 처음 복용량으로 2캡슐(4 mg)을 복용하고, "
    "유지량으로는 묽은 변이 있을 때마다 1캡슐(2 mg)씩 복용합니다. "
    "1일 상용량은 3~4캡슐(6~8 mg)이며 1일 최대복용량은 8캡슐(16 mg)입니다. "
    "소아는 처음 복용량으로 1캡슐(2 mg)을 복용하고, 유지량으로는 묽은 변이 있을 때마다 1캡슐(2 mg)씩 복용합니다. "
    "1일 최대복용량은 3캡슐(6 mg)입니다."
)


def _loperamide():
    from retrievers.documents import Document

    meta = {"item_seq": "9", "item_name": "로피딘캡슐(로페라미드염산염)", "section": "useMethod"}
    return [Document("easydrug:9:useMethod", LOPERAMIDE, meta)]


def test_a_childs_maximum_is_not_quoted_alone_to_an_adult():
    """ "1일 최대복용량은 3캡슐" goes on with the 소아 line before it: to an adult it would read as their own limit."""
    quotes = extractive.choose("로피딘 하루 몇 알까지 먹어도 돼요", _loperamide(), max_sentences=4, names=["로피딘"])
    texts = " ".join(q.text for q in quotes)
    assert "8캡슐(16 mg)" in texts
    assert "3캡슐(6 mg)" not in texts and "소아는" not in texts


def test_a_childs_own_dose_after_an_adults_is_quoted_to_the_child():
    """소아는 1캡슐 names its own person: it does not go on with the adult's dose before it."""
    question = "5살 아들 설사하는데 로피딘 몇알 먹여요?"
    quotes = extractive.choose(question, _loperamide(), max_sentences=4, names=["로피딘"])
    texts = " ".join(q.text for q in quotes)
    assert "소아는 처음 복용량으로 1캡슐" in texts
    assert "8캡슐(16 mg)" not in texts


SYRUP_BANDS = (
    "코미시럽\n[용법·용량] 만 12세 이상 소아 및 성인은 4시간마다 10 mL씩 복용하되, 24시간동안 60 mL를 초과하지 "
    "마십시오.\n\n만 6세 이상~12세 미만 소아는\xa04시간마다 5 mL씩 복용하되, 24시간동안 30 mL를 초과하지 마십시오."
    "\n\n만 2세 이상~6세 미만 소아는\xa0의사의 지시에 따르십시오."
)


def test_a_band_written_with_every_n_hours_doses_the_child():
    """ "4시간마다 5 mL씩": the band's age and its amount are one sentence (not split after 마다), so an 8-year-old
    gets the 6-to-12 band, not the adult's line nor nothing."""
    from retrievers.documents import Document

    meta = {"item_seq": "1", "section": "useMethod", "item_name": "코미시럽"}
    doc = Document("easydrug:1:useMethod", SYRUP_BANDS, meta)
    quotes = [q.text for q in extractive.choose("8살 코미시럽 얼마나 먹어요?", [doc], names=("코미시럽",))]
    assert any("6세 이상~12세 미만" in q and "5 mL씩" in q for q in quotes)
    assert not any("10 mL씩" in q for q in quotes)


def test_a_young_askers_profile_age_picks_the_band():
    """No age in the question, an 8-year-old's profile: the 6~12세 band, not the adult's 10 mL."""
    from programs.generator import Generator
    from programs.profile import UserProfile, with_asker_age
    from retrievers.documents import Document

    meta = {"item_seq": "1", "section": "useMethod", "item_name": "코미시럽"}
    question = "코미시럽 얼마나 먹어요?"
    docs = [Document("easydrug:1:useMethod", SYRUP_BANDS, meta)]
    young = Generator()(
        question=question, docs=docs, names=("코미시럽",), quoted_for=with_asker_age(question, UserProfile(age=8))
    )
    grown = Generator()(
        question=question, docs=docs, names=("코미시럽",), quoted_for=with_asker_age(question, UserProfile(age=30))
    )
    assert "5 mL씩" in young.answer and "10 mL씩" not in young.answer
    assert "10 mL씩" in grown.answer


def test_the_program_reads_the_profile_age_for_its_quotes(searcher, monkeypatch):
    from programs import generator
    from programs.profile import UserProfile

    read = []
    real = generator.extractive_answer
    monkeypatch.setattr(generator, "extractive_answer", lambda q, *a, **k: read.append(q) or real(q, *a, **k))
    CRAG(backend=searcher)(question="훼스탈플러스정 몇 알 먹어요", user=UserProfile(age=10))
    CRAG(backend=searcher)(question="훼스탈플러스정 몇 알 먹어요", user=UserProfile(age=40))
    assert read[0].endswith("(10세)") and read[-1] == "훼스탈플러스정 몇 알 먹어요"


IBU_USE = (
    "이지엔6이브연질캡슐\n[용법·용량] 만 8세 이상~만 15세 미만은 1회 1캡슐씩, 만 15세 이상 및 성인은 1회 1~2캡슐씩, "
    "1일 1~3회 4시간 이상 간격을 두고 공복을 피하여 복용합니다."
)
IBU_ATPN = (
    "이지엔6이브연질캡슐\n[사용상 주의사항] 이 약을 복용하기 전에 수두 또는 인플루엔자에 감염되어 있거나 또는 의심되는 "
    "영아 및 만 15세 미만의 어린이, 알레르기 체질, 약에 의한 알레르기 증상(예: 발열, 발진, 관절통, 천식, 가려움증 등) "
    "경험자, 간장질환, 신장질환, 심장질환, 갑상선질환, 당뇨병, 고혈압, 몸이 약한 사람 또는 고열이 있는 사람, 고령자, "
    "임부 또는 임신하고 있을 가능성이 있는 여성, 수유부, 속쓰림, 위부불쾌감, 위통과 같은 위장문제가 있거나 그 병력이 "
    "있는 사람, 구토와 설사로 많은 수분을 손실하거나 수분을 흡수하지 않는 사람은 의사 또는 약사와 상의하십시오."
)


def _ibuprofen_capsule():
    from retrievers.documents import Document

    meta = {"item_seq": "1", "item_name": "이지엔6이브연질캡슐"}
    return [
        Document("easydrug:1:atpn", IBU_ATPN, {**meta, "section": "atpn"}),
        Document("easydrug:1:useMethod", IBU_USE, {**meta, "section": "useMethod"}),
    ]


def _quotes(question: str) -> list[str]:
    return [q.text for q in extractive.choose(question, _ibuprofen_capsule(), names=("이지엔6이브",))]


def test_a_minors_may_i_question_quotes_the_dose_for_their_age_first():
    """13살 아들 … 먹여도 돼요: the long caution naming 만 15세 미만의 어린이 had taken all the room, and the 용법 line
    dosing 8-to-15-year-olds — the answer — was left out."""
    quotes = _quotes("13살 아들 이지엔6이브 먹여도 돼요")
    assert "만 8세 이상~만 15세 미만은 1회 1캡슐씩" in quotes[0]
    assert any("수두 또는 인플루엔자" in q for q in quotes)  # the caution still follows


def test_a_minors_side_effect_question_does_not_lead_with_the_dose():
    quotes = _quotes("13살 아들 이지엔6이브 먹고 토했어요")
    assert not any("1회 1캡슐씩" in q for q in quotes[:1])


def test_a_toddlers_dose_question_also_quotes_the_caution_for_that_age():
    """20개월 … 몇 ml 먹이면: the 1~2세 dose answers, and the leaflet's "만 2세 미만의 소아 … 상의하십시오" is that
    child's own caution; it is added after the dose lines."""
    from retrievers.documents import Document

    meta = {"item_seq": "1", "item_name": "어린이부루펜시럽"}
    use = (
        "어린이부루펜시럽\n[용법·용량] 11~14세는 1회 200~250 mg (10~13 mL), 7~10세는 1회 150~200 mg (8~10 mL), "
        "3~6세는 1회 100~150 mg (5~8 mL), 1~ 2세는 1회 50~100 mg (3~5 mL)을 1일 3~4회 복용합니다.\n체중이 30 kg "
        "미만인 어린이는 1일량이 500 mg (25 mL)을 초과해서는 안되며 공복시 투여는 피하는 것이 바람직합니다."
    )
    atpn = (
        "어린이부루펜시럽\n[사용상 주의사항] 이 약에 과민증 환자는 이 약을 복용하지 마십시오.\n이 약을 복용하기 전에 "
        "혈액이상, 출혈경향 환자, 간경화, 간장애, 신장장애, 심장기능부전, 심질환, 고혈압, 전신홍반루푸스, "
        "혼합결합조직질환, 궤양성대장염, 크론병, 노인, 만 2세 미만의 소아, 임부, 수두 환자는 의사 또는 약사와 "
        "상의하십시오."
    )
    docs = [
        Document("easydrug:1:useMethod", use, {**meta, "section": "useMethod"}),
        Document("easydrug:1:atpn", atpn, {**meta, "section": "atpn"}),
    ]
    question = "20개월 아기 열나서 어린이부루펜시럽 먹이려는데 한번에 몇 ml 먹이면 되요?"
    quotes = [q.text for q in extractive.choose(question, docs, names=("어린이부루펜시럽",))]
    assert "1~ 2세는 1회 50~100 mg (3~5 mL)" in quotes[0]
    assert any("만 2세 미만의 소아" in q for q in quotes)


def _leaflet(name: str, sections: dict[str, str]):
    from retrievers.documents import Document

    meta = {"item_seq": "1", "item_name": name}
    return [Document(f"easydrug:1:{s}", f"{name}\n{t}", {**meta, "section": s}) for s, t in sections.items()]


def test_a_childs_dose_asked_with_how_much_is_quoted_when_the_frame_also_reads_how_long():
    """얼마나 먹여야 reads as a dose (the vocabulary) and as a duration (the frame): the 1~6세 line of a syrup's table
    answers a 4-year-old, where the place it would take went to another section's line."""
    docs = _leaflet(
        "듀락칸이지시럽",
        {
            "useMethod": "만성변비의 경우, 아침식사 전에 복용합니다.\n성인은 보통의 경우 처음 2~3일간 1일 15~30mL를 "
            "아침식전에 복용하고 그 후 계속 1일 10~15mL를 투여합니다. 심할 경우 45mL까지 투여할 수 있습니다.\n"
            "7~14세 소아는 처음 2~3일간 1일 15mL를 복용하고 그 후 계속 1일 10mL를 복용합니다.\n1~6세 유아는 1일 "
            "5~10mL를 복용합니다.\n12개월 미만의 영아는 1일 5mL를 복용합니다.",
            "atpn": "이 약을 복용하기 전에 임부 또는 임신하고 있을 가능성이 있는 여성 및 수유부, 영·유아 및 소아, "
            "고령자, 당뇨병, 과당불내성, 체액 및 전해질 불균형, 급성 위염, 만성변비 환자는 의사 또는 약사와 "
            "상의하십시오.",
            "efcy": "이 약은 만성변비, 영·유아 및 소아의 변비, 분만 후의 변비에 사용합니다.",
        },
    )
    question = "4살 딸 변비에 듀락칸이지시럽 먹여도 돼요? 얼마나 먹여야 하나요"
    quotes = [q.text for q in extractive.choose(question, docs, names=("듀락칸이지시럽",))]
    assert "1~6세 유아는 1일 5~10mL" in quotes[0]


def test_a_sprays_dose_in_pushes_answers_a_childs_may_i_question():
    """화이투벤 나잘스프레이 6살 써도 되나요: the 용법 line dosing 2-to-12-year-olds in pushes (1회 1번) is a dose,
    and a question the frame reads as cautions still gets it."""
    docs = _leaflet(
        "화이투벤나잘스프레이0.05%",
        {
            "useMethod": "만 2세 이상~만 12세 미만 어린이는 1일 1~3회, 1회 1번 각 코안에 뿌립니다.  사용 간격은 8시간 "
            "이상으로 사용합니다.   1일 3회를 초과하지 마십시오.",
            "atpn": "정해진 용법과 용량을 잘 지키십시오.  어린이에게 투여할 경우 보호자의 지도 감독하에 투여하십시오.  "
            "이 약은 과도하게 사용하면 오히려 코막힘을 일으킬 수 있으므로 과도하게 사용하지 마십시오.",
        },
    )
    question = "6살 아들 코막힘에 화이투벤 나잘스프레이 써도 되나요"
    # as the full index's names read it: a product named, asking whether (contraindication, cautions)
    frame = dataclasses.replace(
        extractive._frame(question, True), aspects=("child_use", "contraindication", "cautions")
    )
    quotes = [q.text for q in extractive.choose(question, docs, names=("화이투벤나잘스프레이",), frame=frame)]
    assert "1회 1번 각 코안에" in quotes[0]


def test_a_siblings_older_dose_gives_no_notice_for_the_product_the_question_names():
    """19개월 … 챔프시럽: its own 용법 doses children by weight; 챔프콜드시럽's age table, older than the child, was
    no dose of the product asked about, so the answer does not say an older person's dose was left out."""
    from retrievers.documents import Document

    def use(seq: str, name: str, text: str) -> Document:
        meta = {"item_seq": seq, "item_name": name, "section": "useMethod"}
        return Document(f"easydrug:{seq}:useMethod", f"{name}\n[용법·용량] {text}", meta)

    docs = [
        use(
            "201206715",
            "챔프시럽(아세트아미노펜)",
            "만 12세 이하의 소아는 1회 권장용량을 4~6시간 마다 필요시 복용합니다.",
        ),
        use(
            "202204272",
            "챔프콜드시럽",
            "만 15세 이상 1포(10 mL), 만 11세 이상~만 15세 미만 2/3포를 1일 3회 복용합니다.",
        ),
    ]
    answer = extractive.extractive_answer("19개월 아기 챔프시럽 하루 몇번 먹여요", docs, names=["챔프시럽"])
    assert OLDER_DOSE_NOTICE not in answer
