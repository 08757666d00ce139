"""The no-LM question reading (retrievers/question_frame.py) over the real mini index's names: a class word chooses
products and is never the aspect; situations, sections and who it is for land in one typed frame."""

import pytest

from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.question_frame import ASPECTS, QuestionFrame, read_frame


@pytest.fixture(scope="module")
def read(mini_searcher):
    def reader(question: str) -> QuestionFrame:
        return read_frame(question, mini_searcher.names, Lexicon.load(), mini_searcher.tokenizer(question))

    return reader


@pytest.mark.parametrize(
    "question, first_aspect, classes",
    [
        ("감기약 먹고 운전해도 돼요?", "driving", ("감기약",)),
        ("해열제 부작용 뭐 있어요", "side_effects", ("해열제",)),
        ("소화제는 식전에 먹어요 식후에 먹어요?", "timing_food", ("소화제",)),
        ("변비약 우유랑 먹어도 돼요", "food_drink", ("변비약",)),
        ("두통약 먹고 술 마셔도 되나요", "alcohol", ("두통약",)),
        ("가래약 유통기한 지난 거 먹어도 돼요", "expiry", ("가래약",)),
    ],
)
def test_a_class_word_chooses_products_and_the_aspect_is_what_is_asked(read, question, first_aspect, classes):
    frame = read(question)
    assert frame.aspects[0] == first_aspect
    assert frame.targets.classes == classes
    assert "efficacy" not in frame.aspects


def test_a_named_product_is_a_target_and_who_it_is_for_is_read(read):
    frame = read("임신 12주인데 게보린 먹어도 되나요")
    assert frame.targets.products and "게보린" in frame.targets.products[0]
    assert frame.population.group == "pregnant"
    assert frame.aspects[0] == "pregnancy"  # "may I" with a group: the group is what is asked
    assert "contraindication" in frame.aspects  # whether the leaflet forbids it for them


def test_may_i_for_a_group_asks_a_contraindication_only_when_nothing_more_particular_is_asked(read):
    assert "contraindication" in read("세살 애기한테 게보린 먹여도 되나요?").aspects
    assert "contraindication" not in read("세살 애기한테 게보린 몇알 먹여요?").aspects  # no "may I"
    assert "contraindication" not in read("게보린 먹어도 되나요?").aspects  # nobody stated
    # "how much" beside "may I" is the dose's question
    assert "contraindication" not in read("세살 애기한테 게보린 먹여도 되나요? 몇알 먹여요?").aspects


def test_a_name_a_rule_reads_is_a_product_not_a_symptom(read):
    """게보린 is a rule word (its rule gives its ingredients) and a name: the frame's targets hold it once, as a
    product; 치통 stays a symptom."""
    targets = read("치통때문에 게보린 5일째 먹는중인데 며칠까지 먹어도 되나요?").targets
    assert "게보린" not in targets.symptoms and "치통" in targets.symptoms
    assert any(p.startswith("게보린") for p in targets.products)


def test_a_claim_heard_about_taking_it_together_asks_no_side_effect(read):
    """…먹으면 안된다던데: the hearsay ending is no word of the 이상반응 section (된다던데 had been one)."""
    aspects = read("겔포스엠 다른약이랑 같이 먹으면 안된다던데 시간 띄워야돼요?").aspects
    assert "interactions" in aspects and "side_effects" not in aspects


def test_a_condition_asks_whether_it_forbids_the_medicine(read):
    aspects = read("위궤양 있는 사람도 게보린 먹어도 되나요").aspects
    assert aspects[0] == "contraindication" and "cautions" in aspects  # a condition is one of the cautions


def test_comparison_and_other_drugs(read):
    frame = read("타이레놀이랑 게보린 중에 뭐가 나아요")
    assert frame.comparison and "comparison" in frame.aspects
    taking = read("혈압약 먹는데 게보린 먹어도 돼요")
    assert taking.other_drugs == ("혈압약",) and not taking.comparison


def test_every_aspect_is_one_of_the_frame_vocabulary_and_it_serialises(read):
    for q in ("게보린?", "실수로 두 번 먹었어요", "파스 붙이고 샤워해도 돼요", "담배 피우면서 니코틴 패치 붙여도 돼요"):
        frame = read(q)
        assert frame.aspects and set(frame.aspects) <= set(ASPECTS)
        as_dict = frame.to_dict()
        assert as_dict["aspects"] == list(frame.aspects) and set(as_dict["targets"]) == {
            "products",
            "ingredients",
            "classes",
            "symptoms",
        }


def test_a_named_medicine_then_a_symptom_after_taking_it_is_a_side_effect(read):
    assert read("게보린 먹고 속이 쓰려요").aspects[0] == "side_effects"
    # written as one word, 속쓰려요 is also a word of the 이상반응 section: still the symptom, after taking it
    assert read("게보린 먹고 속쓰려요").aspects[0] == "side_effects"
    assert read("게보린먹고속쓰려요").aspects[0] == "side_effects"
    assert "side_effects" not in read("속이 쓰려요").aspects  # no medicine taken: which medicine helps
    # retrieval's names, given without the index (the answer's reading of the frame)
    frame = read_frame("게보린 먹고 속이 쓰려요", NameIndex(), Lexicon.load(), named=True)
    assert frame.aspects[0] == "side_effects"


def test_a_word_of_a_rule_that_says_who_takes_it_does_not_hide_the_side_effect(read):
    """아들 is a word of an age rule's section: it says who took the medicine, and the symptom after it is still
    asked about (13살 딸 … 토했어요 was read so; 13살 아들 … had lost it)."""
    for question in ("13살 아들 게보린 먹고 토했어요", "아들이 게보린 먹고 두드러기 났어요"):
        assert "side_effects" in read(question).aspects, question


@pytest.mark.parametrize(
    "question", ["겔포스 며칠 먹었더니 변비가 생겼어요 원래 그런가요?", "게보린 먹고 몇 시간 있다가 두드러기가 났어요"]
)
def test_a_symptom_noticed_since_taking_it_asks_its_side_effects_first(read, question):
    assert "side_effects" in read(question).aspects  # not how many days (며칠) or when (몇 시간)


def test_taking_it_again_for_what_it_treats_is_no_side_effect(read):
    assert "side_effects" not in read("게보린 먹고 몇 시간 뒤에 또 먹어도 돼요? 두통이 심해서요").aspects


def test_another_drug_taken_with_it_is_an_interaction_not_water(read):
    assert read("게보린 다른 약물과 함께 먹어도 돼요?").aspects[0] == "interactions"
    # together said with a verb's stem in any ending: 같이 쓰려구요, 함께 바르면, 같이 드셔도
    assert "interactions" in read("코 스프레이 쓰는데 코앤나잘스프레이도 같이 쓰려구요 순서 상관있어요?").aspects
    assert "interactions" in read("무좀크림이랑 스테로이드연고 함께 바르면 안돼요?").aspects


def test_hours_apart_is_a_gap_in_time_not_a_comparison(read):
    frame = read("게보린이랑 부루펜 몇 시간 차이 두고 먹어요?")
    assert not frame.comparison and "interactions" in frame.aspects


@pytest.mark.parametrize("question", ["가루약 물이랑 같이 먹는 거예요?", "베아제 물 없이 먹어도 돼요?"])
def test_taking_it_with_water_asks_how_it_is_taken_not_an_interaction(read, question):
    frame = read(question)
    assert frame.aspects[0] == "how_to_take"
    assert "interactions" not in frame.aspects  # 물이랑 같이: water is no second drug


@pytest.mark.parametrize(
    "question, second",
    [
        ("게보린이랑 부루펜 차이가 뭐예요?", "efficacy"),
        ("베아제하고 훼스탈 중에 뭐가 나아요?", "efficacy"),
        ("베아제랑 훼스탈 머가 더 나음?", "efficacy"),  # 뭐가 as people type it
    ],
)
def test_a_comparison_is_asked_first_and_its_pair_word_asks_no_interaction(read, question, second):
    frame = read(question)
    assert frame.comparison and frame.aspects[:2] == ("comparison", second)  # which of two, for what
    assert "interactions" not in frame.aspects  # 이랑 joins the two compared


def test_alternating_two_compared_still_asks_whether_they_go_together(read):
    assert "interactions" in read("게보린이랑 부루펜 뭐가 달라요? 번갈아 먹어도 돼요?").aspects


@pytest.mark.parametrize(
    "question, group",
    [
        ("모유 먹이는 중인데 감기약 먹어도 되나요? 애기한테 갈까봐", "breastfeeding"),
        ("임신 중인데 뱃속 아기한테 괜찮을까요", "pregnant"),
    ],
)
def test_the_baby_of_a_nursing_or_pregnant_asker_is_not_who_takes_the_medicine(read, question, group):
    frame = read(question)
    assert frame.population.group == group
    assert "child_use" not in frame.aspects
    assert "child_use" in read("애기한테 감기약 먹여도 되나요").aspects  # the baby who takes it


def test_sharing_with_a_person_is_how_it_is_used_not_an_interaction(read):
    frame = read("코 스프레이 하나 사서 식구들끼리 같이 써도 되나요?")
    assert "how_to_take" in frame.aspects and "interactions" not in frame.aspects
    assert "interactions" in read("게보린이랑 판콜 같이 먹어도 되나요").aspects  # two medicines together


def test_a_class_then_a_symptom_it_is_not_for_asks_its_side_effects_however_intake_is_typed(read):
    """먹구 is 먹고 as people type it: 두통약 먹구 속이 울렁거려요 asks what the headache medicine did."""
    for question in ("두통약 먹고 속이 울렁거려요", "두통약 먹구 속이 울렁거려요", "변비약 먹고 배가 아파요"):
        assert "side_effects" in read(question).aspects, question
    assert "side_effects" not in read("감기약 먹었는데 콧물이 안 멈춰요").aspects  # what it was taken for


def test_an_amount_written_with_a_space_before_the_verb_asks_the_dose(read):
    frame = read("10살 아이 멀미약 어른 거 반 병 먹이면 되나요?")
    assert "dosage" in frame.aspects and "child_use" in frame.aspects  # 반 병 먹이면: not 반병먹이면


def test_asking_how_many_millilitres_asks_the_dose(read):
    assert "dosage" in read("8개월 아기 열나는데 먹여도 돼요? 몇 ml 먹여야 하나요").aspects


@pytest.mark.parametrize(
    "question",
    ["감기약 먹었는데 열이 안 내려서 게보린 추가로 먹어도 돼요?", "종합감기약 먹었는데 두통약도 먹어도 돼요?"],
)
def test_a_medicine_taken_beside_the_one_asked_about_asks_whether_the_two_go_together(read, question):
    frame = read(question)
    assert frame.other_drugs and frame.aspects[0] == "interactions"  # not "what is it for"


def test_interactions_follow_a_more_particular_aspect_of_a_two_medicine_question(read):
    frame = read("항생제 먹는 동안 베아제 계속 먹어도 되나요")
    assert frame.other_drugs == ("항생제",)
    assert frame.aspects[0] == "duration" and "interactions" in frame.aspects


@pytest.mark.parametrize(
    "question, group",
    [
        ("아이 감기약이랑 콧물약 같이 먹여도 돼요?", "child"),
        ("임산부인데 철분제랑 위장약 함께 먹어도 돼요", "pregnant"),
    ],
)
def test_two_taken_together_for_a_group_ask_the_interactions_first(read, question, group):
    frame = read(question)
    assert frame.population.group == group
    assert frame.aspects[0] == "interactions"  # the pair is asked about; the group is whom it is for


@pytest.mark.parametrize(
    "question", ["게보린 진통제 하루에 몇 알 먹어요", "진통제 게보린 먹고 졸려요", "소화제 베아제 매일 먹어도 돼요"]
)
def test_a_kind_written_beside_a_name_says_what_it_is_not_a_second_medicine(read, question):
    frame = read(question)
    assert frame.other_drugs == ()
    assert "interactions" not in frame.aspects


def test_which_of_two_is_less_or_more_of_something_is_a_comparison(read):
    assert read("지르텍이랑 클라리틴 중에 덜 졸린 게 뭐예요?").comparison
    for question in ("타이레놀 먹는 중에 더 먹어도 돼요?", "임신 중에 더 조심해야 하는 약 있나요?"):
        assert not read(question).comparison, question  # 중에: while, not of two


def test_an_adverb_inside_the_symptom_does_not_hide_a_side_effect(mini_searcher):
    """배가 너무 아파요: the symptom rule is written 배가 아파; read as the rules are written (Kiwi's reading, the
    adverb cut out), a class taken and then a symptom it is not for is still its side effect, in retrieval's frame
    too."""
    question = "변비약 먹고 배가 너무 아파요"
    plain = mini_searcher.tokenizer.reading(question)[0]
    tokens = mini_searcher.tokenizer(question)
    assert read_frame(question, mini_searcher.names, Lexicon.load(), tokens, plain=plain).aspects[0] == "side_effects"
    assert mini_searcher.retrieve(question).frame.aspects[0] == "side_effects"


def test_one_named_medicine_than_another_is_a_comparison(read):
    """부루펜이 게보린보다 순해요?: a named medicine, then 보다, beside another named one ranks the two."""
    frame = read("부루펜이 게보린보다 순해요?")
    assert frame.comparison and frame.aspects[0] == "comparison"
    assert not read("부루펜 먹어도 게보린 먹어도 돼요?").comparison


def test_a_symptom_the_class_is_not_for_that_will_not_stop_is_still_its_side_effect(read):
    """변비약 먹었는데 설사가 멈추질 않아요: "will not stop" speaks of what it was taken for only when the symptom is
    one."""
    assert read("변비약 먹었는데 설사가 멈추질 않아요").aspects[0] == "side_effects"
    assert "side_effects" not in read("감기약 먹었는데 콧물이 안 멈춰요").aspects


def test_two_put_in_or_stuck_on_together_is_an_interaction(read):
    """같이 넣어도, 같이 붙여도: eye drops and plasters are used together as tablets are taken together."""
    assert read("인공눈물이랑 안약 같이 넣어도 돼요").aspects[0] == "interactions"
    assert read("파스랑 연고 같이 붙여도 돼요").aspects[0] == "interactions"


def test_another_medicine_of_the_same_form_is_an_interaction(read):
    """다른 안약, 다른 연고: another medicine used beside it, as 다른 약 is (the leaflets: 다른 점안제와 동시에 사용할
    경우 … 15분의 간격)."""
    assert read("인공눈물 넣고 몇 분 있다가 다른 안약 넣어요?").aspects[0] == "interactions"
    assert read("이 연고 바르고 다른 연고 또 발라도 돼요").aspects[0] == "interactions"


def test_one_more_of_a_second_medicine_asks_first_whether_the_two_go_together(read):
    """타이레놀 먹었는데 판피린 한병 더: the amount is of the second medicine, on top of the first."""
    assert read("머리아파서 게보린 먹었는데 판콜에이 한병 더 마셔도 되나요?").aspects[0] == "interactions"
    assert read("판콜에이 한병 더 마셔도 되나요?").aspects[0] == "dosage"  # one medicine: how much of it


def test_another_medicine_of_no_kind_is_a_second_drug_not_a_class():
    """위장약 다른약이랑 간격: 다른약 chooses no products (read as a class it made every quoted 위장약 line off target);
    it is still the other drug the question pairs with."""
    frame = read_frame("위장약 다른약이랑 시간 간격 둬야됨?", NameIndex(), Lexicon.load())
    assert frame.targets.classes == ("위장약",)
    assert "다른약" in frame.other_drugs


@pytest.mark.parametrize(
    "question", ["화이투벤 먹다가 테라플루로 바꿔 먹어도 되나요", "타이레놀 먹던거 대신 이부프로펜 먹어도 돼요"]
)
def test_a_switch_from_one_medicine_to_another_also_asks_how_they_go_together(question):
    """A 먹다가 B로 바꿔도: beside the two set side by side, the leaflets' lines on another medicine of the kind
    (아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오) answer it; a plain comparison asks no such thing."""
    names = NameIndex()
    assert "interactions" in read_frame(question, names, Lexicon.load()).aspects
    assert "interactions" not in read_frame("지르텍이랑 클라리틴 중에 뭐가 나아요", names, Lexicon.load()).aspects


def test_a_brand_read_as_the_start_of_product_names_is_a_product_target():
    """마데카솔 is no key of its own but begins 마데카솔케어연고 …: with 후시딘 the question names two products, so
    applying one on the other asks how they go together."""
    from retrievers.corpus import load_corpus

    names = NameIndex.from_documents(load_corpus())
    frame = read_frame("후시딘이랑 마데카솔 같이 발라도 돼요?", names, Lexicon.load())
    assert len(frame.targets.products) == 2 and "마데카솔" in frame.targets.products
    assert "interactions" in frame.aspects


def test_a_comparison_the_learned_model_reads_compares_the_two_named(read):
    """부루펜이랑 게보린 중에 생리통엔 뭐가 나음 (나음, not 나아요: no comparison rule matches): the aspect model reads
    a comparison first, so the second name is one of the two compared, not a medicine taken beside the first, and
    이랑 asks no interaction."""
    frame = read("부루펜이랑 게보린 중에 생리통엔 뭐가 나음?")
    assert frame.comparison and frame.aspects[0] == "comparison"
    assert frame.other_drugs == () and "interactions" not in frame.aspects


def test_how_a_medicine_is_taken_now_told_before_asking_for_another_with_it_is_not_what_is_asked(read):
    """변비약 자기전에 먹고 있는데 … 제산제도 같이 먹으려고요: the pair is asked, bedtime is how the first is taken;
    변비약 아침에 우유랑 같이 먹었는데 괜찮을까요 asks about what was done (milk with it)."""
    told = read("변비약 자기전에 먹고 있는데 요즘 속쓰림도 있어서 제산제도 같이 먹으려고요 괜찮나요?").aspects
    assert told[0] == "interactions" and "timing_food" in told
    assert read("변비약 아침에 우유랑 같이 먹었는데 괜찮을까요?").aspects[0] == "food_drink"


def test_a_medicine_the_index_lacks_but_the_leaflets_name_taken_now_is_the_other_drug(read):
    """아목시실린 has no leaflet of its own and no name in the index, yet expectorants' 상호작용 name it: said to be
    taken now beside a named product, it is the other drug and the pair's interactions are asked."""
    frame = read("베아제 먹는데 치과에서 받은 아목시실린도 먹고 있어요")
    assert frame.other_drugs == ("아목시실린",) and "interactions" in frame.aspects
    assert read("베아제 먹는데 요즘 고구마도 먹고 있어요").other_drugs == ()  # no word the leaflets use


def test_where_someone_lives_raises_no_aspect_or_section_of_theirs(read):
    """할머니댁 is where a child is driven to: neither the frame nor the sections read an elderly asker."""
    question = "7살 딸 주말에 시골 할머니댁 3시간 차타고 가는데 멀미 심해요 멀미약 몇미리 먹여요?"
    assert "elderly" not in read(question).aspects
    assert "dur:fc" not in Lexicon.load().asked(question)[0]
    assert "elderly" in read("할머니가 멀미가 심하신데 멀미약 드려도 돼요?").aspects


@pytest.mark.parametrize(
    "question",
    [
        "입안 헌데다 게보린 발랐는데 바르고나서 입 헹궈야돼요?",
        "게보린 먹고 나서 술 마셔도 돼요?",
        "겔포스 먹은 후 운동해도 되나요",
    ],
)
def test_saying_when_it_was_taken_with_nothing_noticed_after_asks_no_side_effect(read, question):
    """바르고나서, 먹은 후: words of the 이상반응 section that say only when; the sore written before it is where it
    was applied. A symptom written after them is what the medicine did."""
    assert "side_effects" not in read(question).aspects


def test_a_symptom_written_after_taking_it_is_its_side_effect(read):
    assert read("게보린 먹고 나서 속이 쓰려요").aspects[0] == "side_effects"
    assert "side_effects" in read("게보린 먹은 후 졸려요").aspects


def test_a_symptom_written_before_the_medicine_was_got_is_why_it_was_taken(read):
    """귀두 쪽이 빨갛고 가렵대서 … 받아왔는데 몇번 발라요: 빨갛고 (a word of the 이상반응 section) is why the cream was
    got; the question asks how to use it. Written after taking it, it is what the medicine did."""
    assert "side_effects" not in read("남편이 귀두 쪽이 빨갛고 가렵대서 게보린 받아왔는데 하루 몇번 먹어요?").aspects
    assert read("게보린 먹었는데 얼굴이 빨갛고 가려워요").aspects[0] == "side_effects"


def test_a_time_gone_by_since_opening_asks_how_long_it_keeps_first(read):
    """뚜껑 딴지 1년 넘었는데 발라도 돼요: whether it still keeps (expiry) before how to keep it, so an answer quoting
    only 실온 보관 says the leaflet gives no period; asking how to keep it (냉장보관 해야돼요) keeps storage first."""
    assert read("후시딘 연고 뚜껑 딴지 1년 넘었는데 아직 발라도 되나요?").aspects[0] == "expiry"
    assert read("인공눈물 뜯고 하루 지났는데 써도 돼요?").aspects[0] == "expiry"
    assert read("안약 개봉한지 3달 됐는데 냉장보관 해야돼요?").aspects[0] == "storage"


def test_a_medicine_put_on_that_was_swallowed_asks_about_taking_it_as_it_must_not_be():
    """오라메디 발랐는데 침이랑 같이 삼켜버렸어요: an ointment swallowed (the leaflets' 삼키지 마십시오), not how to
    take it nor a second medicine (침이랑 같이 is saliva, as 물이랑 같이 is water); a tablet swallowed whole is how
    it is taken."""
    from retrievers.documents import Document

    docs = [
        Document(f"easydrug:{seq}:efcy", "x", {"item_seq": seq, "item_name": name})
        for seq, name in (("1", "오라메디연고{수출명:오라메디파스타"), ("2", "타이레놀정500밀리그람"))
    ]
    names = NameIndex.from_documents(docs)
    swallowed = read_frame("입병 나서 오라메디 발랐는데 침이랑 같이 삼켜버렸어요 괜찮은거죠?", names, Lexicon.load())
    assert swallowed.aspects[0] == "overdose" and "interactions" not in swallowed.aspects
    assert "overdose" not in read_frame("타이레놀 그냥 삼켜도 돼요?", names, Lexicon.load()).aspects


def test_the_colour_of_urine_is_no_discoloured_medicine(read):
    """소변색이 노란색이에요 holds 변색 (a medicine gone off colour, a storage word) only inside 소변색."""
    assert "storage" not in read("아로나민골드 먹기 시작했는데 소변색이 형광 노란색이에요 몸에 이상있는건가요?").aspects
    assert "storage" in read("시럽이 변색됐는데 먹여도 되나요").aspects


def test_going_to_the_toilet_is_no_place_to_keep_a_medicine(read):
    """화장실 가고싶어지나요 (how soon a laxative works) is no 보관법 question; 화장실에 두면 (where it is kept) is."""
    assert "storage" not in read("둘코락스 먹고 몇시간 지나야 화장실 가고싶어지나요? 자기전에 먹으면 되요?").aspects
    assert "storage" in read("약을 화장실에 두면 안되나요?").aspects


def test_stools_turned_black_as_people_say_it_is_a_side_effect(read):
    """변이 시커멓게 나와요 after taking an iron syrup: what it did (흑변), as 까맣게 already was."""
    assert "side_effects" in read("헤모콤 먹은지 일주일인데 변이 시커멓게 나와요 괜찮은건가요?").aspects


def test_every_few_days_asks_how_often_not_how_long(read):
    """며칠에 한번 바르는거예요: 며칠 is the 투여기간 rules' word, but every few days is a dose's frequency
    (section_intents not_inside, and the learned aspects taught how often people ask it)."""
    often = read("발톱무좀 네일라카 샀는데 매일 발라야돼요? 며칠에 한번 바르는거예요").aspects
    assert often[0] == "dosage" and "duration" not in often
    assert read("무좀약 며칠 발라야 나아요?").aspects[0] == "duration"


def test_a_patch_site_gone_red_is_an_effect_noticed(read):
    """벌겋게 됐어요 after taking a patch off: the redness a leaflet's 이상반응 lists (발적), asked beside when to put
    a new one on; 벌겋 reads as the leaflets' 발적 (lay words)."""
    from programs.sentences import SentenceRanker

    question = "어깨에 파스 붙였다 뗐는데 그 자리가 벌겋게 됐어요 바로 새거 또 붙여도 되나요?"
    assert "side_effects" in read(question).aspects
    assert SentenceRanker(question).parts("발진·발적, 가려움 등이 나타나는 경우 사용을 중지하십시오.")["overlap"] > 0


def test_which_is_easier_on_the_stomach_compares_side_effects(read):
    """뭐가 위에 덜 부담돼요: the stomach's complaints are the 이상반응 section's, so two products are set side by side
    on their side effects and cautions, not on what they are for."""
    frame = read("속이 약한편인데 게보린이랑 타이레놀 중에 뭐가 위에 덜 부담돼요?")
    assert frame.comparison and "side_effects" in frame.aspects


def test_every_few_days_still_asks_the_dose_section():
    """며칠에 한번 is no 투여기간 word, but it is the 용법 section's: the question still retrieves how it is used
    (케토코나졸 샴푸 며칠에한번 감아요 → the shampoo's 용법, '1주 2회')."""
    from retrievers.lexicon import Lexicon

    for question in (
        "케토코나졸 샴푸 며칠에한번 감아요?",
        "네일라카 이틀에 한번 발라요?",
        "연고 하루에 한번만 발라도 돼요?",
    ):
        assert Lexicon.load().asked(question)[0] == ["useMethod"], question


def test_a_month_since_the_birth_is_told_not_how_long_to_take_it(read):
    """출산하고 한달째 … 완모중이에요 … 먹어도 될까요: 한달째 is how long since the birth, not the 투여기간 rules' 한달;
    the nursing mother's question is read as hers, so the leaflet's 수유 line answers it."""
    frame = read("출산하고 한달째 변비가 너무 심한데 완모중이에요ㅠ 비코그린에스 먹어도 될까요?")
    assert "duration" not in frame.aspects and frame.aspects[0] == "breastfeeding"
    assert "duration" in read("변비약 한달 먹어도 돼요?").aspects


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("열도 나고 설사에 피가 섞여 나오는데 설사 멎는 약 먹어도 되나요", "설사약"),
        ("기침 멈추는 약 애기한테 먹여도 돼요", "기침약"),
        ("콧물 말리는 약 먹고 운전해도 되나요", "콧물약"),
    ],
)
def test_a_symptom_and_what_the_medicine_does_to_it_is_the_symptoms_kind(question, kind):
    """설사 멎는 약 says 설사약 in other words: a kind of medicine choosing products, not a symptom told."""
    from retrievers.lexicon import Lexicon
    from retrievers.question_frame import classes_and_symptoms

    assert kind in classes_and_symptoms(question, Lexicon.load())[0]


def test_a_situation_the_cautions_hold_asked_after_a_told_habit_is_asked_first(searcher):
    """케토톱 매일 붙이시는데 … 햇빛: 매일 tells the habit; the sun, a situation the cautions hold, is what is asked."""
    question = "울엄마 무릎 아프다고 케토톱 매일 붙이시는데 붙이고 밖에 나가도 되나요? 햇빛"
    frame = read_frame(question, searcher.names, searcher.lexicon, searcher.tokenizer(question))
    assert frame.aspects[0] == "cautions"
    assert "duration" in frame.aspects


def test_a_medicine_a_child_swallowed_by_mistake_asks_overdose_first(searcher):
    """애기가 … 뚜껑 열고 반병은 먹은거 같아요: too much swallowed is what is asked, not how it is kept or dosed."""
    question = "애기가 챔프시럽 뚜껑 열고 반병은 먹은거 같아요 어떡하죠 응급실 가야돼요?"
    frame = read_frame(question, searcher.names, searcher.lexicon, searcher.tokenizer(question))
    assert frame.aspects[0] == "overdose"
    assert "storage" not in frame.aspects
    # an unknown number of tablets a child swallowed (몇알 먹은거 같아요) is too much taken, not a dose asked
    question = "4살 애기가 제 철분제를 몇알 먹은거 같아요 어떡해요"
    frame = read_frame(question, searcher.names, searcher.lexicon, searcher.tokenizer(question))
    assert frame.aspects[0] == "overdose"
