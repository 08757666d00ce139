import pytest

from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.query_analysis import QueryError, analyse, normalise_query, section_feature


def test_empty_queries_are_rejected():
    for q in ("", "   ", None):
        with pytest.raises(QueryError, match="empty"):
            normalise_query(q, 100)


def test_huge_queries_are_cut_with_a_warning():
    q, warnings = normalise_query("두통 " * 50_000, 1000)
    assert len(q) == 1000
    assert "cut" in warnings[0]


def test_sections_and_expansions_come_from_the_data_files():
    lex = Lexicon.load()
    assert "se" in lex.sections("게보린 부작용 있어요?")
    assert "depositMethod" in lex.sections("냉장고에 보관해야 하나요")
    assert "dur:cc" in lex.sections("임신 중에 먹어도 돼요?")
    assert lex.expand("머리가 깨질것 같아요") or lex.expand("머리 아파요")


def test_section_feature_distinguishes_asked_and_implied_sections():
    qa = analyse("임신했는데 먹어도 돼요?", NameIndex(), Lexicon.load())
    assert section_feature("dur:cc", qa) == 1.0
    assert section_feature("atpnWarn", qa) == 0.5
    assert section_feature("depositMethod", qa) == 0.0


@pytest.mark.parametrize(
    "question, section",
    [
        ("이 약 화장실 선반에 둬도 되나요", "depositMethod"),
        ("햇빛 드는 창가에 놔뒀는데 괜찮아요?", "depositMethod"),
        ("약통에 옮겨 담아놔도 돼요", "depositMethod"),
        ("애들 손 안닿는데 둬야해요?", "depositMethod"),
        ("술을 매일 마시는 편인데 타이레놀 먹어도 되나", "atpnWarn"),
        ("실수로 두번 먹었어요 어떡해요", "atpnWarn"),
        ("이 연고 뭐에 바르는 거예요", "efcy"),
        ("이 약 먹기 시작하고 속이 안좋아요", "se"),
    ],
)
def test_indirect_section_intents_come_from_the_data(question, section):
    assert section in Lexicon.load().sections(question)


@pytest.mark.parametrize(
    "question, asked, stepped_back",
    [
        ("이 알약 씹어먹어도 되나요", ["useMethod"], "atpn"),  # how to take it, not whether
        ("이 약 먹고 술 마셔도 돼요?", ["intrc"], "atpn"),
        ("유통기한 지난 연고 써도돼요", ["depositMethod"], "atpn"),
    ],
)
def test_a_may_i_word_steps_back_beside_a_word_naming_a_section(question, asked, stepped_back):
    qa = analyse(question, NameIndex(), Lexicon.load())
    assert qa.sections == asked
    assert section_feature(stepped_back, qa) == 0.5


def test_a_may_i_word_alone_still_asks_for_the_cautions():
    qa = analyse("이 약 먹어도 되나요", NameIndex(), Lexicon.load())
    assert qa.sections == ["atpn"]
    assert Lexicon.load().stepped_back("이 약 먹어도 되나요") == []


def test_may_i_use_it_for_a_condition_asks_what_it_treats_and_the_cautions():
    """무좀에 발라도 되나: what it is for (효능) and whether 무좀 forbids it (주의사항): "may I" keeps its section."""
    qa = analyse("이 연고 무좀에 발라도 되나", NameIndex(), Lexicon.load())
    assert {"efcy", "atpn"} <= set(qa.sections)


def test_an_upset_stomach_is_not_a_question_about_what_a_medicine_is_good_for():
    lex = Lexicon.load()
    assert lex.sections("치질약 먹고 속이 안좋아요") == ["se"]
    assert "efcy" in lex.sections("이 약 관절에 좋아요?")
    assert "efcy" not in lex.sections("먹고 나서 몸이 안 좋아요")


def test_a_symptom_question_naming_no_medicine_asks_for_efficacy():
    qa = analyse("밤마다 속이 쓰려요", NameIndex(), Lexicon.load())
    assert qa.sections[0] == "efcy"
    assert section_feature("efcy", qa) == 1.0
    dur = analyse("임신했는데 머리 아파요", NameIndex(), Lexicon.load())
    assert "efcy" not in dur.sections  # a DUR question keeps its sections


def test_asks_for_medicine_keeps_named_and_rule_less_questions():
    from retrievers.query_analysis import asks_for_medicine

    assert asks_for_medicine(["useMethod"], has_names=False, has_rules=True) == ["efcy", "useMethod"]
    assert asks_for_medicine(["useMethod"], has_names=True, has_rules=True) == ["useMethod"]
    assert asks_for_medicine(["useMethod"], has_names=False, has_rules=False) == ["useMethod"]


def test_a_side_effect_of_something_taken_is_not_a_request_for_medicine():
    from retrievers.query_analysis import asks_for_medicine

    assert asks_for_medicine(["se"], False, True, "철분제먹고변이까매졌어요") == ["se"]
    assert asks_for_medicine(["se"], False, True, "속쓰려요") == ["efcy", "se"]


def test_rule_heads_are_the_symptom_words_the_rules_add_first():
    heads = Lexicon.load().heads("목이 칼칼하고 머리가 아파요")
    assert heads[:2] == ["두통", "인후통"] or set(heads) >= {"두통", "인후통"}


def test_artificial_tears_as_people_call_them_read_as_dry_eyes():
    lexicon = Lexicon.load()
    assert lexicon.heads("눈물약 뚜껑 딴 지 두 달 넘었는데") == lexicon.heads("인공눈물") == ["안구건조"]


@pytest.mark.parametrize(
    "question", ["멍크림 얼굴에 발라도 돼요", "멍빼는 연고 있어요?", "5살 딸 멍든 데 발라줘도 되나"]
)
def test_a_bruise_as_people_write_it_reads_as_the_leaflets_bruise(question):
    lexicon = Lexicon.load()
    assert "타박상" in lexicon.expand(question)
    assert "타박상" not in lexicon.expand("목구멍이 따끔해요")  # 멍 inside 목구멍 is no bruise


def test_section_words_inside_a_recognised_name_do_not_count():
    names = NameIndex()
    names._add_ingredient("옥시메타졸린염산염")
    names.max_len = 12
    question = "옥시메타졸린 코뚫어주는 스프레이 계속 뿌려도 되나"
    assert "se" in analyse(question, NameIndex(), Lexicon.load()).sections  # 옥시메타졸린 holds 졸린 (drowsy)
    qa = analyse(question, names, Lexicon.load())
    assert qa.names.ingredients == {"옥시메타졸린"}
    assert "se" not in qa.sections
    assert "atpn" in qa.sections


def test_a_joining_word_asks_about_two_medicines_only_when_two_are_named():
    """이랑 joins two things: with one medicine named it joins other words (손톱이랑 머리카락), not two drugs."""
    from retrievers.corpus import corpus_dir, iter_easydrug

    names = NameIndex.from_documents(iter_easydrug(corpus_dir() / "easydrug" / "easydrug.jsonl"))
    one = analyse("비오틴 먹으면 손톱이랑 머리카락에 좋아요?", names, Lexicon.load())
    assert "intrc" not in one.sections and "dur:ac" not in one.sections
    assert one.sections == ["efcy"]
    two = analyse("타이레놀이랑 게보린", names, Lexicon.load())
    assert {"intrc", "dur:ac"} <= set(two.sections)
    drink = analyse("타이레놀 술이랑 먹어도 돼요", names, Lexicon.load())
    assert "intrc" in drink.sections  # a drink is its own interaction word
    taking = analyse("아스피린 먹는데 다음주에 수술해요 끊어야되나", names, Lexicon.load())
    assert "dur:ac" not in taking.sections and taking.sections[0] == "atpn"  # "taking X, and ..." with one name
    assert "intrc" not in taking.sections  # 다음주 holds 음주 (drinking)
    kind = analyse("혈압약 먹는데 타이레놀 먹어도 되나요", names, Lexicon.load())  # a medicine named by its kind
    assert {"intrc", "dur:ac"} <= set(kind.sections)


@pytest.mark.parametrize("question", ["목 아플때 먹는 약", "목이 아픈데 뭐 먹어요", "어제부터 목이 아팠는데"])
def test_a_symptom_rule_matches_whatever_ending_its_verb_takes(question):
    from retrievers.tokenizer import KiwiTokenizer

    lexicon = Lexicon.load()
    assert "인후통" not in lexicon.expand(question) or "아파" in question  # the rule is written 목이아파 / 목아파
    qa = analyse(question, NameIndex(), lexicon, reading=KiwiTokenizer().reading)
    assert "인후통" in qa.expansions


def test_a_class_taken_then_a_symptom_it_is_not_for_asks_side_effects():
    # 변비약 is not for a stomach ache: the ache is what the laxative did, so 이상반응 is asked, not 효능
    lex = Lexicon.load()
    assert analyse("변비약 먹고 배가 아파요", NameIndex(), lex).sections == ["se"]
    # taken for that very symptom, and it did not help: not a side effect
    assert "se" not in analyse("감기약 먹었는데 콧물이 안 멈춰요", NameIndex(), lex).sections


def test_being_on_a_period_is_no_menstrual_pain_unless_a_pain_is_said():
    """생리 중에 질정 넣어도 되나요 asks about a vaginal tablet during a period, not for a painkiller; 생리할때 배가
    아파요 and 생리통 are the pain (a rule of retrievers/data/query_expansion.json)."""
    lexicon = Lexicon.load()
    assert "월경통" not in lexicon.expand("생리 중에 질정 넣어도 되나요")
    assert "월경통" in lexicon.expand("생리할때 배가 아파요")
    assert "월경통" in lexicon.expand("생리통이 심해요")
