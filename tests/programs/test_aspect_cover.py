"""A question asking two things of a named product (운전해도? 하루 몇 알?) gets a sentence for each when its leaflet has
one (programs/aspect_cover.py): the dose lines, however well they score, do not crowd out the driving line."""

from programs import extractive
from programs.aspect_cover import said_situations
from retrievers.documents import Document
from retrievers.question_frame import QuestionFrame

NAME = "로피딘캡슐(로페라미드염산염)"


def _doc(section: str, label: str, text: str, seq: str = "7", name: str = NAME) -> Document:
    meta = {"item_seq": seq, "item_name": name, "section": section, "main_ingr": "로페라미드염산염"}
    return Document(f"easydrug:{seq}:{section}", f"{name}\n[{label}] {text}", meta)


DOCS = [
    _doc(
        "useMethod",
        "용법·용량",
        "성인은 처음에 2캡슐(4 mg)을 복용하고 설사할 때마다 1캡슐(2 mg)씩 복용합니다. "
        "1일 상용량은 3~4캡슐(6~8 mg)이며 1일 최대복용량은 8캡슐(16 mg)입니다. "
        "소아는 1일 최대복용량은 3캡슐(6 mg)입니다.",
    ),
    Document(
        "dur:dc:1828",
        "[용량주의] 로페라미드염산염의 1일 최대 투여량은 로페라미드염산염16밀리그램입니다. 이를 넘지 않도록 "
        "주의합니다. 대상 제형: 정제/캡슐.",
        {"dur_type": "용량주의", "dur_code": "dc", "ingredient": "로페라미드염산염", "partner": "", "status": "정상"},
    ),
    _doc(
        "atpn",
        "사용상 주의사항",
        "복용 후에 피로, 어지러움, 졸음이 나타날 수 있으므로 운전 또는 기계조작 시 주의하십시오. "
        "2일간 복용하여도 증상이 좋아지지 않을 경우 복용을 중지하고 의사 또는 약사와 상의하십시오.",
    ),
]
QUESTION = "설사해서 로피딘 먹었는데 한시간 뒤에 운전해야돼요 괜찮을까요? 하루 몇알까지 먹어도돼요"


def test_the_driving_line_is_quoted_beside_the_dose():
    frame = QuestionFrame(QUESTION, aspects=("driving", "dosage", "how_to_take"))  # as read with the index's names
    quotes = extractive.choose(QUESTION, DOCS, max_sentences=3, names=["로피딘"], frame=frame)
    texts = [q.text for q in quotes]
    assert any("운전 또는 기계조작" in t for t in texts), texts
    assert any("최대복용량" in t for t in texts), texts


def test_only_situations_said_in_their_own_words_are_covered():
    """A dose, a child or a section's aspect is no situation: a child's withheld dose is never put back."""
    question = "20개월 아기 먹여도 되나요? 몇포요? 먹고 차 운전해도"
    frame = QuestionFrame(question, aspects=("child_use", "dosage", "driving"))
    assert said_situations(frame) == {"driving"}


def test_a_medicine_taken_beside_a_kind_gets_the_line_naming_that_kind():
    """코뚜에스시럽 먹이는데 종합감기시럽이랑 같이: the named syrup's interaction line naming 감기약 answers, not
    another line of its 상호작용 section (복용 중에는 음주하지 마십시오), which speaks of interactions but not of the
    pair."""
    from programs.aspect_cover import cover_asked

    question = "코뚜에스시럽 먹이는중인데 종합감기시럽이랑 같이 먹여도 되나요?"
    frame = QuestionFrame(question, aspects=("interactions",), other_drugs=("종합감기시럽",))
    drink = ("복용 중에는 음주하지 마십시오.", "intrc")
    kind = ("항히스타민제를 함유하는 내복약(감기약, 멀미약)과 함께 복용하지 마십시오.", "intrc")
    names_kind = lambda aspect, item: aspect != "interactions" or "감기" in item[0]  # noqa: E731
    covered = cover_asked(frame, [drink], [drink, kind], most=2, only={"interactions"}, fits=names_kind)
    assert covered == [drink, kind]
    assert cover_asked(frame, [drink], [drink, kind], most=2, only={"interactions"}) == [drink]  # no fit asked


def test_how_long_said_in_a_noticed_effect_question_gets_the_leaflets_own_line():
    """이가 누래졌어요 … 계속 써도 되나 (a gargle's real leaflet): beside the staining lines, the warning against long
    use answers the other half, though how long is also a DUR row type (투여기간주의)."""
    name = "헥사메딘액0.12%(클로르헥시딘글루콘산염액)"
    docs = [
        _doc(
            "se",
            "이상반응(부작용)",
            "일시적인 이하선염, 치아나 구강(입안)표면에 착색 증가, 치은연상치석 형성 증가, 미감각의 변화 등이 "
            "나타날 수 있습니다.드물게 쇽 증상(예: 구역, 불쾌감, 식은 땀, 어지러움, 답답함, 호흡곤란, 발작), 때때로 "
            "발진, 두드러기 등이 나타나는 경우 사용을 즉각 중지하고 의사 또는 약사와 상의하십시오.",
            "9",
            name,
        ),
        _doc(
            "atpn",
            "사용상 주의사항",
            "이 약에 과민증 경험자는 이 약을 사용하지 마십시오.천식 등 알레르기 질환이 있거나, 이러한 경험 또는 "
            "가족력이 있는 환자, 임부, 수유부, 소아는 의사 또는 약사와 상의하십시오.함수용으로만 사용하고, "
            "내복용으로 사용하지 마십시오.",
            "9",
            name,
        ),
        _doc(
            "atpnWarn",
            "사용 전 경고",
            "구강 내 정상 세균총의 불균형을 일으킬 수 있으므로 장기간 사용하지 마십시오.",
            "9",
            name,
        ),
    ]
    question = (
        "잇몸염이라 헥사메딘 가글 2주 넘게 매일 하는중인데 이가 누래진거 같아요 이거 가글 때문인가요? 계속 써도 되나"
    )
    frame = QuestionFrame(question, aspects=("duration", "side_effects"))  # as read with the index's names
    sections = ["se", "useMethod", "atpn"]  # what retrieval read the question as asking
    answer = extractive.extractive_answer(question, docs, sections=sections, names=["헥사메딘"], frame=frame)
    assert "장기간 사용하지 마십시오" in answer and "착색" in answer


def test_a_pregnant_askers_caution_leads_when_no_dur_row_does():
    """임신 32주 … 파스 붙여도 되나요? 하루 한장만: no 임부금기 row binds the plaster, and its 용법 line scores best on
    the dose words; the caution naming 임부 answers "may I" first. Another caution (no 임부) does not lead."""
    name = "가나록소펜카타플라스마(록소프로펜나트륨수화물)"
    docs = [
        _doc("useMethod", "용법·용량", "1일 1회, 1매 환부(질환 부위)에 부착합니다.", "5", name),
        _doc(
            "atpn",
            "사용상 주의사항",
            "이 약에 과민증 환자는 이 약을 사용하지 마십시오. 이 약을 사용하기 전에 기관지 천식 환자, 임부 또는 "
            "임신하고 있을 가능성이 있는 여성 및 수유부, 고령자는 의사 또는 약사와 상의하십시오.",
            "5",
            name,
        ),
    ]
    question = "임신 32주인데 손목이 시큰거려서 가나록소펜 파스 붙여도 되나요? 하루 한장만 붙일건데"
    frame = QuestionFrame(question, aspects=("pregnancy", "dosage"))
    texts = [q.text for q in extractive.choose(question, docs, max_sentences=3, names=["가나록소펜"], frame=frame)]
    assert "임부 또는 임신하고 있을 가능성이 있는 여성" in texts[0], texts


def test_a_situation_said_in_one_syllable_inside_a_word_is_covered():
    """주말에 술약속도 있어서요: 술 is one of the question's morphemes, not a word of its own; the drinking line is
    quoted beside the 14-day limit the question asks first, however well the long caution scores."""
    name = "경동파니틴정10밀리그램(파모티딘)"
    caution = (
        "이 약을 복용하기 전에 음식을 삼키기 어렵거나 삼킬 때 통증, 토혈이나 혈변이 있는 경우, 속쓰림 증상이 3개월 "
        "이상 지속된 경우, 현기증(어지러움) 또는 졸림, 고령자(노인), 임부 또는 임신하고 있을 가능성이 있는 여성, "
        "수유부, 혈액투석환자는 의사 또는 약사와 상의하십시오. 증상완화 목적으로일시적으로만 사용하십시오. 복용 중에 "
        "음주하지 마십시오. 14일 이상 복용하지 마십시오."
    )
    docs = [
        _doc("atpn", "사용상 주의사항", caution, "9", name),
        _doc("efcy", "효능·효과", "이 약은 위산과다, 속쓰림, 신트림에 사용합니다.", "9", name),
    ]
    question = "속쓰림땜에 파니틴정 먹고있는데 2주 넘게 먹어도 되나요? 주말에 술약속도 있어서요"
    frame = QuestionFrame(question, aspects=("alcohol", "duration"))
    texts = [q.text for q in extractive.choose(question, docs, max_sentences=3, names=["파니틴정"], frame=frame)]
    assert any("14일 이상" in t for t in texts), texts
    assert any("음주하지" in t for t in texts), texts


def test_a_situation_asked_first_leads_over_the_dose_told_beside_it(monkeypatch):
    """점심에 한병 마셨는데 … 소주 몇잔 괜찮겠죠: drinking is what is asked first, and no section holds it; the line
    on alcohol leads, the dose line (which the dose told beside it scores as well) after it."""
    name = "판콜가상내복액"
    docs = [
        _doc("useMethod", "용법·용량", "성인 1회 1병(30 mL)씩, 1일 3회 식후 30분에 복용합니다.", "9", name),
        _doc("intrc", "상호작용", "바르비탈계 약물, 알코올과 함께 복용 시 의사 또는 약사와 상의하십시오.", "9", name),
    ]
    question = "감기기운있어서 점심에 판콜가상 한병 마셨는데 저녁에 회식이라 소주 몇잔 정도는 괜찮겠죠?"
    frame = QuestionFrame(question, aspects=("alcohol", "timing_food", "dosage"))
    first = extractive.choose(question, docs, max_sentences=2, names=["판콜가상"], frame=frame)[0].text
    assert "알코올" in first
    monkeypatch.setattr(extractive, "SITUATION_LEADS", frozenset())
    first = extractive.choose(question, docs, max_sentences=2, names=["판콜가상"], frame=frame)[0].text
    assert "알코올" not in first


def test_a_situation_the_cautions_hold_leads_over_the_efficacy_naming_what_the_asker_has(monkeypatch):
    """허리에 … 파스 붙이고 전기장판 켜고 자도 되나요: heat is what is asked; the caution speaking of it leads, not the
    efficacy line naming 허리 (what the asker has), which otherwise leads a "may I"."""
    name = "가상핫파스플라스타"
    docs = [
        _doc("efcy", "효능·효과", "이 약은 근육통, 관절통, 요(허리)통의 진통ㆍ소염에 사용합니다.", "8", name),
        _doc("atpn", "사용상 주의사항", "첩부환부를 회로나 전기모포 등으로 따뜻하게 하지 마십시오.", "8", name),
    ]
    question = "허리에 가상핫파스 붙이고 전기장판 켜고 자도 되나요? 뜨끈하게 지지고 싶은데"
    frame = QuestionFrame(question, aspects=("cautions",))
    first = extractive.choose(question, docs, max_sentences=2, names=["가상핫파스"], frame=frame)[0].text
    assert "전기모포" in first
    monkeypatch.setattr(extractive, "caution_situation", lambda frame: None)
    first = extractive.choose(question, docs, max_sentences=2, names=["가상핫파스"], frame=frame)[0].text
    assert "전기모포" not in first


def test_a_class_answer_covers_a_situation_asked_beside_the_dose_and_leads_with_it_when_asked_first(monkeypatch):
    """감기약 먹고 운전해도 되나요? 하루 몇번 먹어요: the class's dose lines score best; the driving line of a product
    the answer quotes is put in, first, as driving is asked first."""
    docs = [
        _doc("useMethod", "용법·용량", "성인은 1회 1정씩, 1일 3회 식후 30분에 복용합니다.", "11", "가상콜드정"),
        _doc("useMethod", "용법·용량", "성인은 1회 2정씩, 1일 3회 식후 30분에 복용합니다.", "12", "나가상코프정"),
        _doc("atpn", "사용상 주의사항", "졸음이 오므로 운전 및 기계조작 시 주의하십시오.", "11", "가상콜드정"),
    ]
    question = "감기약 먹고 운전해도 되나요? 하루 몇번 먹어요"
    frame = QuestionFrame(question, aspects=("driving", "dosage", "how_to_take"))
    texts = [q.text for q in extractive.choose(question, docs, max_sentences=2, frame=frame)]
    assert "운전" in texts[0] and any("1회" in t for t in texts), texts
    monkeypatch.setattr(extractive, "CLASS_SITUATIONS", False)
    texts = [q.text for q in extractive.choose(question, docs, max_sentences=2, frame=frame)]
    assert not any("운전" in t for t in texts), texts


def test_a_class_answer_with_a_frame_that_reads_no_aspect_is_answered():
    """A caller's frame may read no aspect at all: the class answer is its lines, no error."""
    docs = [_doc("useMethod", "용법·용량", "성인은 1회 1정씩, 1일 3회 복용합니다.", "11", "가상콜드정")]
    question = "감기약 하루 몇번 먹어요"
    assert extractive.choose(question, docs, max_sentences=2, frame=QuestionFrame(question))
