"""Sentence-level no-LM answers over the real mini index (Kiwi, BM25, the mined aspect vocabulary)."""

import pytest

from programs import extractive, notices, sentences
from programs.crag import CRAG
from programs.extractive import extractive_answer
from programs.sentences import SentenceRanker
from programs.text import split_sentences
from retrievers.documents import Document


def body(answer: str) -> str:
    """The quoted sentences: the paragraph after the opening line (and after the low-relevance notice, which a kind
    of medicine's particular aspect opens with: the evaluator sends it down a corrective route)."""
    paragraphs = answer.split("\n\n")
    return paragraphs[2] if paragraphs[0] == notices.LOW_RELEVANCE_NOTICE else paragraphs[1]


@pytest.mark.parametrize(
    ("question", "answering"),
    [
        ("감기약 먹고 운전해도 돼요?", "운전 및 기계조작 시 주의하십시오"),  # a class word with the driving aspect
        ("소화제 빈속에 먹어도 돼요?", "1일 3회 식후에"),  # the food aspect (빈속 → 식후), in the 용법 section
        ("훼스탈 씹어서 먹어도 되나요?", "씹지말고 복용합니다"),  # the crushing aspect
    ],
)
def test_the_sentence_that_answers_the_asked_aspect_leads_the_no_lm_answer(searcher, question, answering):
    pred = CRAG(backend=searcher)(question=question)
    first = body(pred.answer).splitlines()[0]
    assert answering in first
    assert "[효능·효과]" not in body(pred.answer)  # what the medicine is for does not answer it
    assert pred.trace["lm_calls"]["total"] == 0


def test_a_class_question_says_which_product_the_sentence_is_from(searcher):
    pred = CRAG(backend=searcher)(question="감기약 먹고 운전해도 돼요?")
    first = body(pred.answer).splitlines()[0]
    assert first.startswith("판콜에이내복액: 복용 후 졸음이 나타날 수 있으므로 운전")
    n = int(first.rsplit("[문서 ", 1)[1].split("]")[0].split(",")[0])
    assert pred.citations[n - 1]["id"].startswith("easydrug:")
    assert pred.citations[n - 1]["product"].startswith("판콜에이")


def test_the_other_sections_of_a_named_products_leaflet_are_read(searcher):
    result = searcher.retrieve("게보린 빈속에 먹어도 돼요?")
    docs = result.documents[:1]
    pool = sentences.leaflet_documents(docs, searcher.get, lambda d: True)
    assert pool[0] is docs[0]  # retrieval's documents keep their numbers
    assert {d.id for d in pool} == {f"easydrug:197900277:{s}" for s in sentences.LEAFLET_SECTIONS}


def section_of(name: str, sec: str, label: str, text: str, seq: str) -> Document:
    meta = {"item_name": name, "section": sec, "section_label": label, "item_seq": seq}
    return Document(f"easydrug:{seq}:{sec}", f"{name}\n[{label}] {text}", meta)


EYE_DROP = [
    section_of(
        "맑은눈점안액",
        "efcy",
        "효능·효과",
        "이 약은 눈의 피로, 소프트콘택트렌즈 또는 하드콘택트렌즈를 착용하고 있을 때의 불쾌감에 사용합니다.",
        "9",
    ),
    section_of(
        "맑은눈점안액",
        "atpn",
        "사용상 주의사항",
        "눈에 넣을 때 용기 끝이 눈에 닿지 않도록 하십시오. 콘택트렌즈는 점안 15분 후에 착용하십시오.",
        "9",
    ),
]


def test_a_lens_question_quotes_the_caution_about_lenses_not_the_efficacy():
    answer = extractive_answer("안약 넣고 렌즈 바로 껴도 돼요", EYE_DROP, sections=["efcy", "atpn"])
    assert body(answer).splitlines()[0] == "맑은눈점안액: 콘택트렌즈는 점안 15분 후에 착용하십시오. [문서 2]"
    assert "[용기 끝" not in answer and "용기 끝이" not in answer  # nothing of the question


def test_without_the_efficacy_penalty_the_lens_efficacy_sentence_would_lead(monkeypatch):
    monkeypatch.setattr(extractive, "EFFICACY_PENALTY", 0.0)
    monkeypatch.setattr(extractive, "SECTION_MODEL_WEIGHT", 0.0)  # the learned section prior alone also demotes it
    answer = extractive_answer("안약 넣고 렌즈 바로 껴도 돼요", EYE_DROP, sections=["efcy", "atpn"])
    assert body(answer).splitlines()[0].startswith("맑은눈점안액: [효능·효과]")


def test_the_ranker_weights_the_asked_aspect_and_rare_words():
    ranker = SentenceRanker("감기약 먹고 운전해도 돼요?")
    assert ranker.aspects == ["driving"]
    assert "감기약" not in ranker.words  # a class word chooses products; it is not what is asked
    driving = ranker.score("복용 후 졸음이 나타날 수 있으므로 운전 및 기계조작 시 주의하십시오.")
    mined_only = ranker.score("졸음이 나타날 수 있습니다.")  # 졸음 is mined for driving, not a seed
    neither = ranker.score("감기약 복용 시 천식 경험자는 복용하지 마십시오.")
    assert driving > mined_only > neither


def test_a_long_list_sentence_is_quoted_as_an_excerpt_of_its_matching_items(searcher):
    atpn = searcher.get("easydrug:196800036:atpn")  # 판콜에이내복액
    long = next(s for s in split_sentences(atpn.text) if "수유부" in s and len(s) > 300)
    cut = SentenceRanker("수유 중인데 먹어도 돼요?").excerpt(long)
    assert "임신하고 있을 가능성이 있는 여성 및 수유부" in cut
    assert len(cut) < len(long) / 2
    assert all(piece.strip(" ,") in long for piece in cut.split("…"))


def test_a_class_word_with_a_section_name_answers_that_section_not_a_product_list(searcher):
    pred = CRAG(backend=searcher)(question="해열제 부작용 뭐 있어요?")
    assert "효능·효과가 질문과 맞는 제품입니다" not in pred.answer
    assert "[이상반응(부작용)]" in body(pred.answer).splitlines()[0]


def test_a_short_brand_the_question_writes_leads_over_another_products_sentence():
    docs = [
        section_of("아스피린정", "se", "이상반응(부작용)", "이명(귀울림), 어지러움이 나타날 수 있습니다.", "1"),
        section_of("펜잘큐정", "se", "이상반응(부작용)", "이명(귀울림), 난청이 나타날 수 있습니다.", "2"),
    ]
    first = body(extractive_answer("펜잘 먹고 귀울림이 있어요", docs, sections=["se"])).splitlines()[0]
    assert first.startswith("펜잘큐정: ")  # retrieval's first document would lead otherwise


def test_a_verb_in_the_question_matches_its_noun_in_a_leaflet_sentence():
    ranker = SentenceRanker("게보린 먹고 속이 쓰려요")
    stomach = ranker.score("구역, 구토, 속쓰림 등 위장 장애가 나타날 수 있습니다.")  # 쓰리 → 속쓰림
    assert stomach > ranker.score("두통, 치통, 생리통의 진통에 사용합니다.") + 0.5


def test_drowsy_in_the_question_finds_drowsiness_in_a_leaflet_sentence(monkeypatch):
    ranker = SentenceRanker("감기약 먹으면 왜 이렇게 졸려요")
    drowsy = ranker.score("이 약을 복용한 후 졸음이 나타날 수 있으므로 운전을 하지 마십시오.")  # 졸리 → 졸음
    assert drowsy > ranker.score("구역, 구토, 식욕부진이 나타날 수 있습니다.") + 0.5
    monkeypatch.setattr(sentences, "noun_without_ri", lambda stem: "")
    monkeypatch.setattr(sentences, "lay_links", lambda: {})  # the learned 졸리 → 졸음 would stand in for it
    ranker = SentenceRanker("감기약 먹으면 왜 이렇게 졸려요")
    assert ranker.score("이 약을 복용한 후 졸음이 나타날 수 있으므로 운전을 하지 마십시오.") < drowsy - 0.5


def test_a_period_as_people_say_it_finds_the_period_a_leaflet_writes(monkeypatch):
    question, days = (
        "지사제 먹었는데 이틀째 설사가 안 멈춰요",
        "2일간 복용하여도 증상의 개선이 없을 경우 의사와 상의하십시오.",
    )
    other = "발열을 수반하는 설사, 혈변이 계속되는 사람은 의사와 상의하십시오."
    assert SentenceRanker(question).score(days) > SentenceRanker(question).score(other) + 0.2  # 이틀 → 2일
    month = "한달 넘게 매일 먹어도 되나요"  # Kiwi splits 한달; the period is read in the question's text
    assert SentenceRanker(month).score("1개월 정도 복용하여도 증상의 개선이 없을 경우 의사와 상의하십시오.") > 1.0
    monkeypatch.setattr(sentences, "said_as_leaflets", dict)  # nothing read as the leaflets write it
    assert SentenceRanker(question).score(days) < SentenceRanker(question).score(other)
    assert SentenceRanker(month).score("1개월 정도 복용하여도 증상의 개선이 없을 경우 의사와 상의하십시오.") < 1.0


def test_asking_for_cautions_by_name_is_not_a_which_medicine_question():
    question = "수면유도제 먹을 때 조심할 거"
    assert extractive.asks_beyond_efficacy(question, SentenceRanker(question))
    assert not extractive.asks_beyond_efficacy("불면증에 먹는 약", SentenceRanker("불면증에 먹는 약"))


def leaflet(seq: str, name: str, section: str, text: str) -> Document:
    return Document(f"easydrug:{seq}:{section}", f"{name}\n[{section}] {text}", {"item_name": name, "section": section})


def test_a_short_brand_retrieval_recognised_quotes_its_first_leaflet_not_a_sibling():
    docs = [
        leaflet(
            "1", "탁센연질캡슐(나프록센)", "atpn", "임부 또는 임신하고 있을 가능성이 있는 여성은 복용하지 마십시오."
        ),
        leaflet(
            "2",
            "탁센400이부프로펜연질캡슐",
            "atpn",
            "임신 말기 3개월 기간에 해당하는 임부는 임신 중 복용하지 마십시오.",
        ),
    ]
    question = "탁센 임신중에 먹으면 안되나요?"
    named = extractive.choose(question, docs, sections=["atpn"], names=["탁센"])
    assert [q.sources for q in named] == [[1]]  # the leaflet retrieval put first for 탁센; its sibling is not quoted
    unnamed = extractive.choose(question, docs, sections=["atpn"])  # without retrieval's names: the sibling competes
    assert any(2 in q.sources for q in unnamed)


def test_a_dur_row_about_a_named_ingredient_leads_over_a_leaflet_interaction_line():
    rule = Document(
        "dur:gc:1",
        "세티리진 · 효능군중복: 세티리진은(는) 항히스타민제 효능군으로, 같은 효능군의 약과 함께 복용하면 중복됩니다.",
        {"dur_type": "효능군중복", "ingredient": "세티리진"},
    )
    line = leaflet("3", "하원세티리진정", "intrc", "이 약을 복용하는 동안 테오필린과 함께 복용하지 마십시오.")
    question = "세티리진이랑 로라타딘 같이 먹어도 되나요"
    with_names = extractive.choose(question, [rule, line], sections=["intrc"], names=["세티리진", "로라타딘"])
    assert with_names[0].sources == [1]
    without = extractive.choose(question, [rule, line], sections=["intrc"])  # the prior off: the leaflet line leads
    assert without[0].sources == [2]
    assert extractive._about_named_ingredient(rule, ["세티리진"])
    assert not extractive._about_named_ingredient(rule, ["로라타딘"])


def test_a_parenthetical_note_alone_is_never_quoted():
    drops = leaflet("4", "원타임점안액", "useMethod", "1회 1~2방울, 1일 5~6회 점안합니다.\n\n(1회용에 한함)")
    quotes = extractive.choose("인공눈물 하루에 몇번까지 넣어도돼요", [drops], sections=["useMethod"])
    assert quotes
    assert all(q.text.strip() != "(1회용에 한함)" for q in quotes)
    assert "1일 5~6회" in quotes[0].text


@pytest.mark.parametrize(
    "question",
    [
        "감기약 먹으면 왜케 졸리죠?",  # a side effect, by a word that is no section name
        "당뇨 있는 사람도 감기약 그냥 먹어도 되나요?",  # a condition: does it forbid the medicine
        "고3 수험생 감기약 먹여도 될까요",  # who it is for
        "감기약 매일 먹어도 되나요?",  # how long
    ],
)
def test_a_class_question_with_an_aspect_is_not_answered_with_efficacy(searcher, question):
    assert extractive.asks_an_aspect(question)
    pred = CRAG(backend=searcher)(question=question)
    assert "효능·효과가 질문과 맞는 제품" not in pred.answer
    assert "[효능·효과]" not in body(pred.answer).splitlines()[0]


def test_a_which_medicine_question_still_lists_products(searcher):
    assert not extractive.asks_an_aspect("콧물이 줄줄 나는데 무슨 약 먹어요?")


@pytest.mark.parametrize(
    ("question", "lists"),
    [
        ("콧물이 줄줄 나요", True),  # a symptom told: which medicine helps
        ("두통에 좋은 약 알려주세요", True),
        ("허리에 파스 붙이고 전기장판 틀고 자도 되나요", False),  # "may I": whether, not which one
        ("질정 생리 중에도 넣어도 되나요?", False),
        ("무좀약 바르고 양말 바로 신으면 안 되나요?", False),
        ("열이 38도 되는데 해열제 추천해주세요", True),  # a temperature, not "may I"
        ("열이 39 도 되는데 해열제요", True),
    ],
)
def test_a_may_i_question_is_no_which_medicine_question_when_retrieval_prefers_efficacy(question, lists):
    assert extractive.which_medicine(question, [], sections=["efcy"]) is lists


def test_the_frame_chooses_the_section_that_answers_its_aspect():
    assert extractive.asked_sections("감기약 먹으면 왜케 졸리죠?") == {"se"}
    assert extractive.asked_sections("두통약이랑 생리통약 같이 먹어도 돼요?") == {"intrc", "dur:ac", "dur:gc"}
    assert extractive.asked_sections("수면유도제는 자기 몇 분 전에 먹어야 돼요?") == {"useMethod"}


def test_a_symptom_after_a_named_medicine_leads_with_its_side_effect_sentence(searcher):
    # the README's example: 게보린's 이상반응 never says 속쓰림, but lists 구역, 구토, 식욕부진 beside it
    pred = CRAG(backend=searcher)(question="게보린 먹고 속이 쓰려요")
    first = body(pred.answer).splitlines()[0]
    assert first.startswith("[이상반응(부작용)]") and "구역, 구토, 식욕부진" in first


def test_without_the_lead_of_the_asked_section_a_caution_sentence_would_lead(searcher, monkeypatch):
    monkeypatch.setattr(extractive, "LEAD_FRAMED", False)
    monkeypatch.setattr(extractive, "SECTION_MODEL_WEIGHT", 0.0)  # the learned section prior alone also reads 이상반응
    pred = CRAG(backend=searcher)(question="게보린 먹고 속이 쓰려요")
    assert not body(pred.answer).splitlines()[0].startswith("[이상반응(부작용)]")


def test_a_long_side_effect_list_is_cut_to_the_symptoms_listed_beside_the_one_asked(searcher):
    """게보린 먹고 속이 쓰려요: no item of 게보린's 이상반응 sentence says 속쓰림, but 구역 and 구토 (its neighbours)
    scored the sentence; the excerpt keeps them instead of the whole 600-character list."""
    se = searcher.get("easydrug:197900277:se")  # 게보린정
    long = max(split_sentences(se.text), key=len)
    cut = SentenceRanker("게보린 먹고 속이 쓰려요").excerpt(long)
    assert "구역, 구토" in cut and "…" in cut and len(cut) < len(long) / 2
    assert all(piece.strip(" ,") in long for piece in cut.split("…"))
    # a question whose own word an item names keeps only that item (and its neighbours in the list)
    drowsy = SentenceRanker("게보린 먹으면 발진이 나요").excerpt(long)
    assert "발진" in drowsy and "구역, 구토" not in drowsy


def test_a_symptom_word_finds_the_symptoms_leaflets_list_beside_it():
    ranker = SentenceRanker("게보린 먹고 속이 쓰려요")
    listing = "구역, 구토, 식욕부진, 발진이 나타나는 경우 복용을 즉각 중지하십시오."
    assert ranker.score(listing) > ranker.score("두통, 치통, 생리통에 사용합니다.")
    assert "구역" in sentences.symptom_neighbours(("쓰림",))


def test_a_nursing_askers_baby_does_not_make_the_question_a_childs():
    """모유 먹이는데 애기한테 갈까봐: the sentence naming 수유부 answers, not one about 영아 or 어린이."""
    ranker = SentenceRanker("모유 먹이는 중인데 종합감기약 먹어도 되나요? 애기한테 갈까봐 걱정")
    assert "breastfeeding" in ranker.aspects and "children" not in ranker.aspects
    nursing = ranker.score("임부 또는 임신하고 있을 가능성이 있는 여성 및 수유부는 의사 또는 약사와 상의하십시오.")
    child = ranker.score("어린이에게 투여할 경우 보호자의 지도 감독하에 투여하십시오.")
    assert nursing > child


def test_the_frames_aspects_count_when_the_ranker_reads_none_of_its_own():
    """계속 먹어도 되나요: the frame reads duration from the section words; a period then speaks to it."""
    from programs.extractive import _frame

    question = "스타빅 먹은지 일주일 됐는데 아직도 설사해요 계속 먹어도 되나요?"
    framed = _frame(question, True).vocabulary_aspects
    assert "duration" in framed
    ranker = SentenceRanker(question, framed=framed)
    assert ranker.aspects == ["duration"]
    period = ranker.score(
        "7일 이상 복용하여도 증상의 개선이 없을 경우 복용을 즉각 중지하고 의사 또는 약사와 상의하십시오."
    )
    assert period > ranker.score("정해진 용법과 용량을 잘 지키십시오.")
    assert SentenceRanker("감기약 먹고 운전해도 돼요?", framed=["meal"]).aspects == ["driving"]  # its own words first


def test_a_word_only_one_leaflet_uses_still_counts():
    """냄새 is in one product's 주의사항 only ("특유의 냄새가 있습니다"): rare, so the most telling, never dropped."""
    ranker = SentenceRanker("카베진 먹으면 이상한 냄새가 나던데 상한 건가요?")
    assert "냄새" in ranker.words
    smell = ranker.score("이 약에는 메틸메티오닌설포늄염화물이 배합되어 있어 특유의 냄새가 있습니다.")
    assert smell > ranker.score("이 약을 복용하는 동안 위장진통, 진경제는 복용하지 마십시오.")


def test_a_sections_label_is_no_word_of_its_first_sentence():
    """부작용인가요 must not pick the 이상반응 section's first sentence for its "[이상반응(부작용)]" label."""
    ranker = SentenceRanker("키미테 떼고 나서 어지럽고 토할 것 같아요 부작용인가요")
    labelled = ranker.score("[이상반응(부작용)] 착란, 불안, 환각이 나타나는 경우 의사와 상의하십시오.")
    assert labelled == ranker.score("착란, 불안, 환각이 나타나는 경우 의사와 상의하십시오.")
    assert ranker.score("떼어낸 후 금단증상(어지러움, 구역, 구토, 두통)이 나타날 수 있습니다.") > labelled


def test_a_stated_age_leads_with_the_sentence_whose_ages_take_it_in(monkeypatch):
    docs = [
        section_of("베아제정", "atpn", "사용상 주의사항", "만 8세 이상의 어린이는 의사 또는 약사와 상의하십시오.", "1"),
        section_of("파메콘정", "atpn", "사용상 주의사항", "만 7세 이하의 소아는 이 약을 복용하지 마십시오.", "2"),
    ]
    question = "7살 애가 체했는데 어른 소화제 먹여도 돼요"
    first = body(extractive_answer(question, docs, sections=["atpn"])).splitlines()[0]
    assert "만 7세 이하" in first  # 7살 is inside 만 7세 이하; retrieval's first document would lead otherwise
    monkeypatch.setattr(sentences, "AGE_WEIGHT", 0.0)
    monkeypatch.setattr(sentences, "any_child", lambda sentence: True)  # nor is 만 8세 이상 read as another age
    first = body(extractive_answer(question, docs, sections=["atpn"])).splitlines()[0]
    assert "만 8세 이상" in first


def test_a_class_question_asking_a_situation_reads_the_sections_of_class_products_that_speak_of_it(searcher):
    from programs import graph
    from programs.run import Run
    from programs.state import QuestionState

    st = QuestionState("소화제 씹어서 먹어도 돼요?", run=Run(budget_limit=0))
    st.result = searcher.retrieve(st.question)
    assert "소화제" in st.result.frame.targets.classes and not st.result.names
    # retrieval's pool holds one product of the class only: the other's 용법 (씹지말고 복용합니다) is not in it
    st.result.hits = [h for h in st.result.hits if h.doc.metadata.get("item_name", "").startswith("베아제")][:1]
    st.docs, st.route = [st.result.hits[0].doc], graph.GENERATE
    without = graph.extractive_pool(st, searcher.get)
    pool = graph.extractive_pool(st, searcher.get, members=searcher.class_members)
    assert not any("씹" in d.text for d in without)
    chewing = [d for d in pool if "씹" in d.text]
    assert chewing and all(d.metadata.get("item_name", "").startswith("훼스탈") for d in chewing)
    assert "씹" in body(extractive_answer(st.question, pool, sections=st.result.sections)).splitlines()[0]
    # the added section holds its sentences about chewing, and the trace says what was added
    added = [d for d in pool if d.id not in {x.id for x in without}]
    assert all("씹" in line for line in added[0].text.splitlines()[1:])
    assert [s for s in st.trace.steps if s["step"] == "class_sections"][-1]["added"] == [d.id for d in added]


def test_the_class_products_read_for_a_situation_are_those_of_the_symptom_when_one_is_asked(searcher):
    from programs import graph
    from programs.run import Run
    from programs.state import QuestionState
    from retrievers.question_frame import QuestionFrame, Targets

    st = QuestionState("소화제 씹어서 먹어도 돼요?", run=Run(budget_limit=0))
    st.result = searcher.retrieve(st.question)
    st.result.hits = [h for h in st.result.hits if h.doc.metadata.get("item_name", "").startswith("베아제")][:1]
    st.docs, st.route = [st.result.hits[0].doc], graph.GENERATE
    bearse, festal = "198700405", "199801026"  # 베아제정, 훼스탈플러스정 of the mini corpus
    st.result.frame = QuestionFrame(st.question, Targets(classes=("소화제",), symptoms=("체함",)), ("how_to_take",))
    table = {"소화제": {bearse, festal}, "체함": {bearse}}

    def members(words):
        return set().union(*(table.get(w, set()) for w in words))

    pool = graph.extractive_pool(st, searcher.get, members=members)
    assert not any(d.metadata.get("item_name", "").startswith("훼스탈") for d in pool)  # 체함's products: 베아제
    table["체함"] = set()
    pool = graph.extractive_pool(st, searcher.get, members=members)
    assert any(d.metadata.get("item_name", "").startswith("훼스탈") for d in pool)


def test_a_symptom_the_class_beside_it_is_not_for_is_a_word_the_answer_looks_for(monkeypatch):
    question = "무좀 있는 발에 파스 붙여도 되나요"
    condition, dosing = "눈 및 점막, 무좀, 백선 등에는 이 약을 사용하지 마십시오.", "1일 1~2회 환부에 붙입니다."
    ranker = SentenceRanker(question)
    assert ranker.score(condition) > ranker.score(dosing) + 0.5  # 무좀 is what the plaster is asked about
    assert "두통" not in SentenceRanker("두통약 먹었는데 두통이 계속돼요").words  # 두통 chose the products
    monkeypatch.setattr(sentences, "chosen_by", sentences.target_words)
    ranker = SentenceRanker(question)
    assert ranker.score(condition) < ranker.score(dosing) + 0.5


def test_two_medicines_together_quote_the_lines_that_name_what_they_share(searcher):
    # 판콜에이 and 게보린 both hold 아세트아미노펜: each leaflet's line against a second product with it answers
    pred = CRAG(backend=searcher)(question="판콜에이 먹었는데 열이 그대로라 게보린 추가로 먹어도 될까요")
    lines = body(pred.answer).splitlines()
    assert len(lines) >= 2
    assert all("아세트아미노펜" in line for line in lines)


def test_without_the_pair_words_the_second_line_would_not_name_the_shared_ingredient(searcher, monkeypatch):
    monkeypatch.setattr(extractive, "pair_medicines", lambda *a, **k: ())
    pred = CRAG(backend=searcher)(question="판콜에이 먹었는데 열이 그대로라 게보린 추가로 먹어도 될까요")
    assert not all("아세트아미노펜" in line for line in body(pred.answer).splitlines())


def test_the_extractive_answer_reads_the_frame_the_program_read_with_the_index_names(searcher, monkeypatch):
    read_again = []
    real = extractive._frame
    monkeypatch.setattr(extractive, "_frame", lambda *a, **k: read_again.append(a) or real(*a, **k))
    pred = CRAG(backend=searcher)(question="판콜에이 먹었는데 열이 그대로라 게보린 추가로 먹어도 될까요")
    assert "[문서" in pred.answer
    assert read_again == []  # the program's frame (its names read) was given; none was read without names


def test_a_symptom_question_quotes_only_the_leaflets_of_products_for_that_symptom(searcher):
    """콧물 나는데 하루에 몇 번: retrieval's top 5 holds 부루펜 and 게보린 too, whose 용법 read as well as 판콜's; the
    answer quotes the product the symptom chose (`class_aspect.within_asked`)."""
    pred = CRAG(backend=searcher)(question="콧물 나는데 하루에 몇 번 먹어요?")
    products = {c["product"] for c in pred.citations if c["cited"] and c["id"].startswith("easydrug:")}
    assert products and all(p.startswith("판콜에이") for p in products), products
    assert "판콜에이내복액: [용법·용량]" in body(pred.answer).splitlines()[0]


def test_a_symptom_noticed_after_taking_something_does_not_choose_the_products(searcher):
    """약 먹고 어지러워요 운전해도: the dizziness is an effect, so the leaflets of products for dizziness are not all
    that is kept (`graph.extractive_pool` narrows by the symptom only when it is not a side effect asked first)."""
    from programs import graph
    from programs.run import Run
    from programs.state import QuestionState
    from retrievers.question_frame import QuestionFrame, Targets

    st = QuestionState("약 먹고 어지러워요 운전해도 되나요?", run=Run(budget_limit=0))
    st.result = searcher.retrieve(st.question)
    st.result.names = ()
    st.docs, st.route = [h.doc for h in st.result.hits], graph.GENERATE
    seqs = {d.id.split(":")[1] for d in st.docs if d.id.startswith("easydrug:")}
    one = sorted(seqs)[0]

    def members(words):
        return {one} if "어지러" in words else set()

    st.result.frame = QuestionFrame(st.question, Targets(symptoms=("어지러",)), ("dosage",))
    narrowed = graph.extractive_pool(st, members=members)
    assert {d.id.split(":")[1] for d in narrowed if d.id.startswith("easydrug:")} == {one}
    st.result.frame = QuestionFrame(st.question, Targets(symptoms=("어지러",)), ("side_effects", "driving"))
    kept = graph.extractive_pool(st, members=members)
    assert {d.id.split(":")[1] for d in kept if d.id.startswith("easydrug:")} == seqs


def test_what_the_asker_tells_of_themselves_weighs_less_than_what_they_ask():
    # 매일 is a period word (duration); written in a sentence that asks nothing, it is background to 술 (alcohol)
    ranker = SentenceRanker("알레르기약 먹고 술 마셔도 되나요? 비염 때문에 매일 먹어요")
    assert set(ranker.aspects) >= {"alcohol", "duration"}
    assert ranker.weights["alcohol"] > ranker.weights["duration"]
    assert ranker.score("복용 중에는 음주하지 마십시오.") > ranker.score("장기간 계속하여 복용하지 마십시오.")


def test_both_aspects_weigh_the_same_when_one_sentence_asks_them():
    ranker = SentenceRanker("비염 때문에 매일 먹는데 술 마셔도 되나요?")
    assert ranker.weights["alcohol"] == ranker.weights["duration"] == 1.0


def test_an_everyday_word_finds_the_leaflets_word_for_it():
    """노란색으로 → 황색, 냉장고 → 냉장 and 실온, 이 뽑아요 → 발치 (retrievers/data/lay_words.json)."""
    urine = SentenceRanker("비타민 먹고나서 소변이 형광 노란색으로 나와요 괜찮나요?")
    colour = "요를 황색으로 변하게 하여 임상검사치에 영향을 줄 수 있습니다."
    assert urine.score(colour) > urine.score("위부불쾌감, 설사, 변비가 나타날 수 있습니다.")
    fridge = SentenceRanker("어린이 해열제 냉장고에 보관해야 하나요")
    cold = "냉장 보관하지 마십시오."
    assert fridge.score(cold) > fridge.score("어린이의 손이 닿지 않는 곳에 보관하십시오.")
    assert fridge.parts(cold)["overlap"] > 0
    # a fridge question is answered by the temperature the leaflet keeps it at, 실온 as much as 냉장
    assert fridge.score("실온에서 보관하십시오.") > fridge.score("어린이의 손이 닿지 않는 곳에 보관하십시오.")
    tooth = SentenceRanker("아스피린 매일 먹는데 다음주에 이 뽑아요 그냥 먹어도 되나요?")
    surgery = "출혈의 위험이 있으므로 수술(치과수술 포함)을 하는 경우에는 의사에게 이 약을 복용하고 있음을 알리십시오."
    assert tooth.score(surgery) > tooth.score("알칼리제제와 함께 섞지 마십시오.")
    assert tooth.parts(surgery)["overlap"] > 0


@pytest.mark.parametrize("question", ["애드빌 먹고 입술이 부어올랐어요", "얼굴 부은 거 같은데 부루펜 때문인가요"])
def test_swelling_as_people_write_it_is_the_leaflets_swelling(question):
    """부어올랐어요, 부은 → 부종 (retrievers/data/lay_words.json), beside 부었어요 and 붓고."""
    ranker = SentenceRanker(question)
    swelling = "얼굴, 입술, 혀 등의 부종이 나타날 수 있습니다."
    assert ranker.score(swelling) > ranker.score("얼굴, 입술 등에 발진이 나타날 수 있습니다.")


def test_a_medicines_colour_is_no_symptom():
    """빨간약 names a medicine by its colour: no sentence about redness is what it asks."""
    ranker = SentenceRanker("입병 빨간약 바르고 입 헹궈야 하나요")
    assert ranker.parts("발적, 가려움이 나타날 수 있습니다.")["overlap"] == 0


VITAMIN = [
    section_of(
        "아로나민골드정",
        "atpn",
        "사용상 주의사항",
        "이 약에 과민증 환자, 만 3개월 미만의 젖먹이는 이 약을 복용하지 마십시오. 정해진 용법과 용량을 잘 지키십시오.",
        "7",
    ),
    section_of("아로나민골드정", "intrc", "상호작용", "레보도파와 함께 복용하지 마십시오.", "7"),
]


def test_a_prescription_kind_taken_beside_is_read_as_the_leaflets_name_it():
    """파킨슨약 → 레보도파 (retrievers/data/prescription_classes.json leaflet_words): the interaction line leads."""
    answer = extractive_answer("파킨슨약 드시는 80대 아버지 피곤하다고 아로나민 사드려도 될까요", VITAMIN)
    assert "레보도파와 함께 복용하지 마십시오." in body(answer).splitlines()[0]


def test_the_time_asked_as_people_say_it_picks_the_line_about_that_time(monkeypatch):
    """자기 전 → 취침, 밥 먹기 전 → 식전 (retrievers/data/lay_words.json): the timing and meal aspects alone count
    every 간격 or 식후 line; the time asked picks the line that says it."""
    bedtime = SentenceRanker("변비약은 언제 먹어요? 자기 전에?")
    at_night = "성인은 1회 1~2정씩, 1일 1회 취침 시(또는 공복시) 복용합니다."
    assert bedtime.score(at_night) > bedtime.score("복용간격은 4시간 이상으로 합니다.")
    before = SentenceRanker("가래약은 밥 먹기 전에 먹나요?")
    assert before.score("1일 3회 식전에 복용합니다.") > before.score("1일 3회 식후에 복용합니다.")
    assert before.parts("1일 3회 식전에 복용합니다.")["overlap"] == 1.0
    monkeypatch.setattr(sentences, "said_as_leaflets", dict)
    before = SentenceRanker("가래약은 밥 먹기 전에 먹나요?")
    assert before.parts("1일 3회 식전에 복용합니다.")["overlap"] == 0.0  # no word of the question is in it


def test_the_rule_on_the_ingredient_the_question_names_leads_the_other_rules():
    """임산부는 센나 들어간 변비약: the 임부금기 rule on 센나 (written 센나(생약) in DUR) answers it; the rules on the
    other laxatives' ingredients follow it, each still quoted."""

    def rule(n: int, ingredient: str, en: str) -> Document:
        text = (
            f"[임부금기] {ingredient}({en})은(는) 임부(임신부)에게 사용하면 안 되는 성분입니다(2등급). 대상 제형: 정제."
        )
        return Document(f"dur:cc:{n}", text, {"dur_type": "임부금기", "ingredient": ingredient})

    docs = [rule(1, "비사코딜", "Bisacodyl"), rule(2, "센나(생약)", "Senna")]
    question = "임산부는 센나 들어간 변비약 먹으면 안된다던데 맞나요?"
    quotes = extractive.choose(question, docs, names=["센나"])
    assert [q.sources for q in quotes] == [[2], [1]]
    assert [q.sources for q in extractive.choose(question, docs, names=[])] == [[1], [2]]  # else their order


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("변비약 잘 때 먹어요?", "1일 1회 취침 시에 복용합니다."),
        ("변비약 자기 전에 먹어요?", "1일 1회 취침 시에 복용합니다."),
        ("소화제 식사 전에 먹나요?", "1일 3회 식전에 복용합니다."),
        ("위장약 밥 먹고 먹어요?", "1일 3회 식후에 복용합니다."),
        ("위장약 식사 후에 먹나요?", "1일 3회 식후에 복용합니다."),
        ("시럽 냉장고에 넣어요?", "냉장 보관하지 마십시오."),
        ("머리가 아파서 먹었는데 괜찮나요", "두통이 나타날 수 있습니다."),
        ("배 아픈데 먹어도 돼요", "복통이 나타날 수 있습니다."),
        ("허리가 아파서 붙이려는데요", "요통에 사용합니다."),
        ("속이 쓰려요 먹어도 되나", "속쓰림이 나타날 수 있습니다."),
        ("지르텍 먹으면 살찐다던데 진짜예요?", "드물게 체중 증가가 나타날 수 있습니다."),
        ("알레르기약 먹으면 살이 쪄요?", "체중증가가 나타날 수 있습니다."),
        ("변비약 먹으면 살 빠져요?", "체중감소가 나타날 수 있습니다."),
        ("게보린 먹으면 토해요?", "구역, 구토가 나타날 수 있습니다."),
        ("코감기약 먹고 밤에 잠이 하나도 안와요", "떨림, 불면이 나타날 수 있습니다."),
        ("감기약 먹고 잠을 못 자요", "떨림, 불면이 나타날 수 있습니다."),
        ("미녹시딜 바르고 나서 얼굴에 털이 나요ㅠㅠ", "바른 부위 이외의 다모증(여성의 경우 안면털 성장)"),
        ("넘어져서 까진 무릎에 로션 발라도 돼요?", "상처 부위, 민감한 피부에는 이 약을 사용하지 마십시오."),
        ("겔 바르고 랩으로 감아두면 더 잘 스며들어요?", "밀봉붕대법으로 사용하지 마십시오."),
        ("질정 넣고 남편이랑 관계해도 되나요?", "이 약을 사용하는 동안에는 질내 성교를 피하는 것이 좋으며"),
        ("겔 바르는데 얼굴이 땡겨요", "과도한 건조감, 자극감이 발생하는 경우 사용량을 줄이십시오."),
        ("바른 데가 허옇게 일어나요", "피부 벗겨짐이 발생하는 경우 사용량을 줄이십시오."),
        ("연고 머리에도 발라도 되나요?", "얼굴과 두피를 제외하고 피부 전체에 바릅니다."),
        ("인공눈물 뚜껑 딴거 오래 써도 되나요?", "개봉 후 4주가 지나면 사용하지 마십시오."),
        ("먹고부터 팔이 빨갛게 올라와요", "햇빛 노출시 피부 과민반응, 두드러기, 홍반 등이 나타날 수 있습니다."),
        ("여드름이 곪았는데 발라도 돼요?", "화농(곪음)성피부염 환자는 의사 또는 약사와 상의하십시오."),
        ("연고 콧구멍 안쪽에 발라도 돼요?", "이 약을 눈, 코 등의 점막 표면에 사용하지 마십시오."),
        ("물기 있을때 발라요 마른 머리에 발라요?", "반드시 건조 모발에 사용하십시오."),
        ("사타구니 가려운데 카네스텐 발라도 되나요 완선 같아요", "이 약은 피부진균증(백선, 어루러기)에 사용합니다."),
        ("헤모콤 먹은지 일주일인데 변이 시커멓게 나와요", "두드러기, 변비, 흑변, 위부불쾌감 등이 나타나는 경우"),
        ("바르고 드라이기로 말려도 돼요?", "헤어드라이어를 사용하지 마십시오."),
        ("향 들어간 스킨 발라도 돼요?", "알코올을 함유하는 화장품과 함께 사용하지 마십시오."),
        ("가글 원액으로 해도 돼요?", "물에 희석하여 사용합니다."),
        ("두통약 먹고 아메리카노 마셔도 돼요?", "카페인을 함유하는 음료와 함께 복용하지 마십시오."),
    ],
)
def test_each_everyday_word_reads_as_the_leaflets_word(question, sentence):
    """retrievers/data/lay_words.json: each way people say it finds the leaflet's word."""
    assert SentenceRanker(question).parts(sentence)["overlap"] > 0


def test_a_sentence_about_a_child_of_another_age_does_not_answer_who_the_question_is_about():
    """세돌 아기 감기약: "만 3개월 미만의 영아" speaks of babies, not a 3-year-old, so the dose table with 만 3세
    이상~만 7세 미만 outranks it; a sentence naming children in general (유ㆍ소아(특히 2세 미만)) still speaks
    to them."""
    ranker = SentenceRanker("세돌 아기 콧물 줄줄인데 먹일수 있는 감기약 있나요")
    infants = "이 약에 과민증 환자, 만 3개월 미만의 영아는 복용하지 마십시오."
    dose = "만 7세 이상~만 11세 미만 8 mL, 만 3세 이상~만 7세 미만 5 mL를 복용합니다."
    general = "유ㆍ소아(특히 2세 미만), 고령자는 의사 또는 약사와 상의하십시오."
    assert ranker.parts(infants)["aspect"] == 0 < ranker.parts(general)["aspect"]
    assert ranker.score(dose) > ranker.score(infants)
    assert SentenceRanker("아기 감기약 먹여도 돼요").parts(infants)["aspect"] > 0  # no age stated: any child


def test_not_sleeping_is_the_leaflets_insomnia_only_after_a_medicine_was_taken():
    """코막혀서 잠을 못 자는데 is why the spray is wanted, not an effect to look up (lay_words.json after_taking)."""
    insomnia = "떨림, 불면이 나타날 수 있습니다."
    assert SentenceRanker("감기약 먹고 잠을 못 자요").parts(insomnia)["overlap"] > 0
    assert SentenceRanker("7살 아이 코막혀서 잠을 못 자는데 코 스프레이 써도 되나요?").parts(insomnia)["overlap"] == 0


@pytest.mark.parametrize(
    "question", ["머리가 아직도 빠져요 발라도 돼요?", "배가 아침마다 더부룩해요", "손목 아파서 파스 붙여도 돼요?"]
)
def test_a_body_word_without_its_pain_reads_as_no_pain(question):
    """머리가 아직, 배가 아침, 손목 아파: no everyday word for a pain is read in them (the whole verb is needed, and
    목 아파 is none, since 손목, 발목 and 뒷목 end in 목)."""
    compact = "".join(question.split())
    assert [said for said in sentences.said_as_leaflets() if said in compact] == []


SYRUP = [
    section_of("어린이해열시럽", "useMethod", "용법·용량", "만 3세 이상~만 7세 미만은 1회 5 mL를 복용합니다.", "12"),
    section_of("어린이해열시럽", "depositMethod", "보관법", "어린이의 손이 닿지 않는 곳에 보관하십시오.", "12"),
]


def test_where_it_is_kept_answers_no_question_about_a_child():
    """어린이의 손이 닿지 않는 곳에 보관하십시오 names a child and is on every leaflet: it answers where to keep it,
    never how much a child takes."""
    dose = extractive_answer("5살 어린이 해열시럽 몇 mL 먹여요", SYRUP, sections=["useMethod"])
    assert "1회 5 mL" in dose and "손이 닿지 않는" not in dose
    kept = extractive_answer("어린이 해열시럽 어디에 보관해요", SYRUP, sections=["depositMethod"])
    assert "손이 닿지 않는 곳에 보관하십시오" in kept


def test_a_cut_list_keeps_the_item_naming_a_one_syllable_noun_the_question_writes():
    """꿈을 이상하게 꿔요: "비정상적 꿈" stays when the long 이상반응 list is cut (a no-break space after its comma)."""
    from programs.sentences import SentenceRanker

    items = ["홍반", "작열감", "수포", "초조", "불안", "신경과민", "불면", "비정상적 꿈,\xa0두통"] + ["어지러움"] * 30
    sentence = ", ".join(items) + " 등이 나타나는 경우 사용을 즉각 중지하십시오."
    cut = SentenceRanker("니코틴 패치 붙이고 자면 꿈을 이상하게 꿔요").excerpt(sentence)
    assert "…" in cut and "비정상적 꿈" in cut


def test_weight_as_people_say_it_is_no_dose_per_kilogram():
    """살찌 → 체중 증가, never 체중 alone: "체중 1 kg당" is how much a child takes, not weight gained."""
    ranker = SentenceRanker("이 시럽 먹으면 살쪄요?")
    assert ranker.parts("체중 1 kg당 10 mg을 복용합니다.")["overlap"] == 0
    assert ranker.parts("체중 증가가 나타날 수 있습니다.")["overlap"] > 0


def test_a_cut_list_keeps_its_last_item_when_that_is_what_was_asked():
    """…, 비염, 체중 증가가 나타나는 경우 복용을 즉각 중지: the asked item is the list's last, before the clause
    closing it; the items before it are cut, not quoted whole."""
    closing = "체중 증가가 나타나는 경우 복용을 즉각 중지하고 의사와 상의하십시오."
    sentence = "졸음, 두통, " + "어지러움, " * 40 + "비염, " + closing
    cut = SentenceRanker("지르텍 먹으면 살찐다던데 진짜예요?").excerpt(sentence)
    assert cut == "졸음, … 비염, " + closing
    # a last item that is no list item (…가능성이 있는 여성은 복용하지 마십시오) does not cut the list
    caution = "이 약을 복용하기 전에 영아, " + "고열, " * 40 + "임신하고 있을 가능성이 있는 여성은 의사와 상의하십시오."
    assert SentenceRanker("임신 가능성 있으면 먹어도 돼요").excerpt(caution) == caution


def test_a_number_of_the_question_speaks_only_with_its_unit():
    """임신 20주 is a week of pregnancy: a dosing sentence's "20 mL" must not outrank the caution on pregnancy."""
    ranker = SentenceRanker("임신 20주 변비 심한데 변비약 먹어도 돼요?")
    dose = "성인은 1회 15 g(30 mL), 6~11세는 1회 10 g(20 mL)을 항문내 주입합니다."
    caution = "임부 또는 임신하고 있을 가능성이 있는 여성은 의사 또는 약사와 상의하십시오."
    assert ranker.parts(dose)["overlap"] == 0.0
    assert ranker.score(caution) > ranker.score(dose)
    hours = SentenceRanker("12시간 간격으로 먹어도 돼요?")  # the unit the leaflets write too still counts
    assert hours.parts("12시간 간격으로 복용합니다.")["overlap"] > 0 == hours.parts("1회 12 mL")["overlap"]


def test_the_situation_word_the_question_writes_answers_before_its_siblings():
    """씹어먹어도: "씹지 말고 삼켜" answers; "물에 녹여" is another way of taking it apart (a sibling seed of the same
    aspect) and ranks below it, where the two had tied."""
    ranker = SentenceRanker("소화제 알약 큰데 씹어먹어도 되나요?")
    chew = ranker.score("성인은 1회 1~2캡슐을 1일 1~3회 식전에 씹지 말고 삼켜 복용합니다.")
    dissolve = ranker.score("모유영양의 경우에는 소량의 물에 녹여 수유도중에 복용합니다.")
    assert chew > dissolve > 0
    # 우유랑: the line on milk before the line on grapefruit juice
    milk = SentenceRanker("변비약 우유랑 먹어도 돼요?")
    assert milk.score("우유와 함께 복용하지 마십시오.") > milk.score("자몽주스와 함께 복용하지 마십시오.")


def test_seeds_that_are_answers_to_one_question_are_no_siblings():
    """몇시간마다: "4시간 간격으로" answers as well as a line with 시간마다 (timing's seeds are its answers)."""
    ranker = SentenceRanker("아시클로버 크림 몇시간마다 발라요?")
    interval = ranker.parts("약 4시간 간격으로 1일 5회 바릅니다.")["aspect"]
    assert interval > 0 and interval == ranker.parts("4시간마다 바릅니다.")["aspect"]


def test_a_duration_question_is_not_led_by_the_cautions_sections_first_conditions():
    """며칠 바르면 되나요 asks a duration, whose section is 사용상 주의사항; a line there that says no period does not
    lead as that section's answer: the 용법 line with the period does."""
    from retrievers.question_frame import QuestionFrame

    docs = [
        leaflet("5", "아시클로버크림", "useMethod", "1일 5회 바릅니다. 치료는 5일간 계속하여야 합니다."),
        leaflet("5", "아시클로버크림", "atpn", "이 약을 사용하기 전에 면역결핍 환자는 의사 또는 약사와 상의하십시오."),
    ]
    question = "아시클로버 크림 며칠 바르면 되나요"
    frame = QuestionFrame(question, aspects=("duration", "how_to_take"))
    quotes = extractive.choose(question, docs, sections=["atpn"], names=["아시클로버크림"], frame=frame)
    assert "5일간" in quotes[0].text


def test_a_word_inside_a_name_retrieval_read_is_no_content_word():
    """타이레놀 8시간 (read as 타이레놀8시간): its 시간 asks nothing of timing, so "매 8시간마다" does not outrank the
    line on not breaking a sustained-release tablet for 반으로 쪼개 먹어도."""
    question = "타이레놀 8시간 알약이 너무 커서 반으로 쪼개 먹어도됨?"
    ranker = SentenceRanker(question, ("타이레놀8시간",))
    assert "시간" not in ranker.words
    whole = ranker.score("이 약은 서방형 제제이므로 정제를 으깨거나 씹거나 녹이지 말고 그대로 삼켜서 복용하십시오.")
    assert whole > ranker.score("12세 이상의 소아와 성인은 1회 2정을 매 8시간마다 복용합니다.")
    assert "시간" in SentenceRanker(question).words  # without the name read, the word counts


def test_a_symptom_noticed_since_taking_a_named_product_is_a_content_word():
    """래피콜 먹었더니 … 변비 생겼어요: the product was named, so 변비 chose nothing; it is what the asker noticed,
    and a side-effect list is cut around it. Without the name it is the symptom that chose the products (변비약)."""
    question = "래피콜 먹었더니 입이 바싹 마르고 변비 생겼어요ㅠ"
    assert "변비" in SentenceRanker(question, ("래피콜",)).words
    assert "변비" not in SentenceRanker(question).words
    # a condition the medicine is taken for, with no intake before it, still chose nothing to quote by
    assert "생리통" not in SentenceRanker("위염 있는데 생리통 때문에 부루펜 먹어도 되나요?", ("부루펜",)).words


def test_using_it_again_is_the_leaflets_reuse():
    """또 써도 / 다시 써도 (retrievers/data/lay_words.json): a single-use eye drop's "남은 액과 용기는 버립니다" and
    "재사용하지 말며" answer it, before a line on the interval between two eye drops."""
    ranker = SentenceRanker("1회용 인공눈물 뚜껑 닫아놨다가 저녁에 또 써도돼요?")
    discard = ranker.score("필요시 1~2방울을 점안하고 점안 후 남은 액과 용기는 버립니다.")
    assert discard > ranker.score("다른 점안제와 동시에 사용할 경우 적어도 15분의 간격을 두고 점안합니다.")
    assert SentenceRanker("연고 다시 써도 돼요").score("일회 사용 후 재사용하지 마십시오.") > 0


def test_may_i_with_a_class_and_nothing_else_asked_is_not_answered_by_what_it_is_for():
    """질정 넣고 관계해도 되나여: a class (a form) and "may I", no aspect read; the 효능 section (the default frame) is
    no answer when a warning speaks to what the asker would do (관계 → 성교, retrievers/data/lay_words.json)."""
    docs = [
        leaflet("6", "어느질정", "efcy", "이 약은 칸디다성 질염에 사용합니다."),
        leaflet("6", "어느질정", "atpn", "이 약을 사용하는 동안에는 질내 성교를 피하는 것이 좋습니다."),
    ]
    quotes = extractive.choose("질정 넣고 관계해도 되나여.. 콘돔 쓰는데", docs, sections=["efcy"])
    assert "성교" in quotes[0].text


def test_a_pimple_is_the_leaflets_acne():
    """뾰루지 (retrievers/data/lay_words.json → 여드름): a steroid cream's "보통여드름 … 사용하지 마십시오" answers
    쎄레스톤지 얼굴 뾰루지에 발라도 돼요."""
    ranker = SentenceRanker("쎄레스톤지 얼굴 뾰루지에 발라도 돼요?", ("쎄레스톤지",))
    assert ranker.score("입주위피부염, 보통여드름, 주사 환자는 이 약을 사용하지 마십시오.") > ranker.score(
        "정해진 용법과 용량을 잘 지키십시오."
    )


def test_a_particle_kiwi_left_on_a_leaflet_noun_is_cut_off_for_ranking():
    """아목시실린도 is one token to Kiwi; 아목시실린 is a word the leaflets use (an expectorant's 상호작용 names it),
    so the sentence naming it outranks one that does not."""
    from programs.sentences import SentenceRanker

    ranker = SentenceRanker("이테란과립 먹는데 치과에서 받은 아목시실린도 먹고 있어요", ["이테란과립"])
    assert "아목시실린" in ranker.words
    named = "경구용 항생물질(아목시실린, 세푸록심)과 함께 복용 시 적어도 2시간 간격을 두고 복용하십시오."
    assert ranker.score(named) > ranker.score("경구용 항생물질과 함께 복용 시 적어도 2시간 간격을 두고 복용하십시오.")


def test_a_verb_stem_of_the_question_is_not_found_inside_another_word():
    """드시는데 (an elder takes it): its stem 드시 is inside 반드시, a word of many leaflet sentences; a sentence saying
    반드시 is no answer to it, and the line on drinking leads."""
    from programs.sentences import SentenceRanker

    ranker = SentenceRanker("할머니가 아스피린 장용정 매일 드시는데 저녁마다 막걸리 한잔씩 하세요 괜찮을까요?")
    must = ranker.score("임신 1기와 2기에는 반드시 필요한 경우가 아니라면 이 약을 복용하지 마십시오.")
    alcohol = ranker.score("알코올과 병용 투여 시 위장관 점막 손상이 증가할 수 있습니다.")
    assert must < 0.1 < alcohol


def test_a_dry_mouth_as_people_say_it_keeps_the_leaflets_word_in_a_cut_list():
    """입이 바짝바짝 마르는데 (retrievers/data/lay_words.json → 구갈): a long 이상반응 list cut to the question's words
    keeps 구갈, the word that answers it."""
    items = ", ".join(f"증상{i}" for i in range(40))
    sentence = f"{items}, 작열감(화끈감), 구갈, 구역, {items} 등이 나타나는 경우 복용을 즉각 중지하십시오."
    cut = SentenceRanker("액티피드 먹고 나서 입이 바짝바짝 마르는데 약때문인가요").excerpt(sentence)
    assert "구갈" in cut and len(cut) < len(sentence)


def test_a_verb_stem_spelt_with_its_ending_joined_on_is_found():
    """자꾸 밀려 나와요: the leaflet writes 밀려나올 (밀리 + 어 joined, then 나오); the stem 밀리 is its morpheme though
    never written as such, so the sentence answering it speaks to the question."""
    ranker = SentenceRanker("써스펜 좌약 넣었는데 자꾸 밀려 나와요 어떻게 해야되요?")
    assert ranker.parts("직장 근육긴장으로 밀려나올 경우에는 양쪽대퇴부를 오므려 약 1분간 안아줍니다.")["overlap"] > 0.3


@pytest.mark.parametrize(
    "question",
    ["라면 끓이다가 끓는물 튀어서 빨갛게 됐어요 마데카솔 발라도 돼요?", "뜨거운 물에 데였는데 연고 발라도 돼요?"],
)
def test_a_scald_as_people_tell_it_is_the_burn_a_leaflet_treats(question):
    """Splashed boiling water, 데였는데: the leaflets' 화상, so the 효능 line naming it speaks to the question."""
    burn = "이 약은 2차 감염된 피부질환(작은 열상, 찰과상, 표재성 2도 이하의 화상)의 초기 치료에 사용합니다."
    assert SentenceRanker(question).parts(burn)["overlap"] > 0


def test_a_stain_on_cloth_is_the_bleaching_a_leaflet_warns_of():
    """베개커버가 하얗게 얼룩덜룩해졌어요: the leaflets' 표백 / 변색 of dyed fabric (lay words)."""
    line = "모발이나 염색된 섬유 등에 접촉 시 표백이나 변색이 발생할 수 있습니다."
    assert SentenceRanker("벤작 바르고 잤는데 베개커버가 하얗게 얼룩덜룩해졌어요").parts(line)["overlap"] > 0


def test_alopecia_areata_is_the_sudden_patchy_hair_loss_a_leaflet_forbids():
    """원형탈모: the leaflets' 갑작스런 부분적 탈모, for which minoxidil's 주의사항 says not to use it (lay words)."""
    line = "유전적 요인이 없는 탈모, 갑작스런 부분적 탈모, 원인불명의 탈모 환자는 이 약을 사용하지 마십시오."
    plain = "이 약은 남성형 탈모증(안드로젠탈모증)의 치료에 사용합니다."
    ranker = SentenceRanker("뒷머리에 동전만하게 원형탈모가 생겼어요 마이녹실 바르면 다시 나나요?")
    assert ranker.parts(line)["overlap"] > ranker.parts(plain)["overlap"]


def test_an_ingredient_and_a_class_with_only_rules_found_read_the_class_products_holding_it(searcher):
    """임신 중인데 이부프로펜 진통제 …: when retrieval found only the ingredient's DUR rows, the class's products
    holding the ingredient are read (their leaflets' own lines answer, 케토프로펜 파스 → the plasters); a class
    product without it is not."""
    from programs import graph
    from programs.run import Run
    from programs.state import QuestionState
    from retrievers.question_frame import QuestionFrame, Targets

    st = QuestionState("임신 중인데 이부프로펜 진통제 먹어도 되나요", run=Run(budget_limit=0))
    st.result = searcher.retrieve(st.question)
    st.result.hits = [h for h in st.result.hits if h.doc.id.startswith("dur:")][:2]
    assert st.result.hits
    st.docs, st.route = [h.doc for h in st.result.hits], graph.GENERATE
    targets = Targets(ingredients=("이부프로펜",), classes=("진통제",))
    st.result.frame = QuestionFrame(st.question, targets, ("pregnancy",))
    brufen, geborin = "197700120", "197900277"  # 부루펜정200밀리그램, 게보린정 (no ibuprofen) of the mini corpus

    def members(words):
        return {brufen, geborin} if "진통제" in words else set()

    without = graph.extractive_pool(st, searcher.get)
    pool = graph.extractive_pool(st, searcher.get, members=members)
    assert not any(d.id.startswith("easydrug:") for d in without)
    read = {d.id.split(":")[1] for d in pool if d.id.startswith("easydrug:")}
    assert read == {brufen}
    assert f"easydrug:{brufen}:atpn" in {d.id for d in pool}  # its cautions, where the pregnancy line is
    assert [s for s in st.trace.steps if s["step"] == "ingredient_members"][-1]["added"] == [f"easydrug:{brufen}:efcy"]


@pytest.mark.parametrize("question", ["소보민시럽 몇살부터 먹일 수 있어요", "멀미약 몇 개월부터 먹여도 되나요"])
def test_from_what_age_ranks_the_sentence_bounding_an_age_above_a_generic_child_line(question):
    """No age stated, the age asked: the limit (만 3세 미만 … 복용하지 마십시오) answers, a guardian line does not."""
    from programs.sentences import SentenceRanker

    ranker = SentenceRanker(question)
    limit = ranker.score("수유부, 만 3세 미만의 영·유아는 이 약을 복용하지 마십시오.")
    assert limit > ranker.score("어린이에게 투여할 경우 보호자의 지도 감독하에 투여하십시오.")


def test_the_last_place_goes_to_the_same_leaflets_next_line_when_no_other_document_has_one():
    """마이녹실 … 드라이기로 말린 다음 자도: the 용법 and 취침 lines took two places; the last is kept for another
    document, and when none has a line worth quoting, the 헤어드라이어 line of the same 주의사항 takes it."""
    from retrievers.documents import Document

    meta = {"item_seq": "1", "item_name": "마이녹실액5%(미녹시딜)"}
    use = (
        "[용법·용량] 모발과 두피를 완전히 건조시킨 후, 이 약 0.5~1 mL를 1일 2회(아침, 저녁), 최소 4개월 동안 "
        "환부에만 바릅니다."
    )
    atpn = (
        "이 약은 외용으로만 사용하고 두피 이외의 부위에는 사용하지 마십시오.헤어스타일링제는 이 약이 마른 후 사용하고, "
        "저녁에 사용할 때는 이 약의 건조를 위해 취침 2∼4시간 전에 사용하십시오.두피에서 공기가 순환되면 이 약의 효과가 "
        "감소될 수 있으므로, 이 약의 건조를 촉진시키기 위해 헤어드라이어를 사용하지 마십시오."
    )
    docs = [
        Document("easydrug:1:useMethod", f"마이녹실액5%\n{use}", {**meta, "section": "useMethod"}),
        Document("easydrug:1:atpn", f"마이녹실액5%\n{atpn}", {**meta, "section": "atpn"}),
    ]
    question = "마이녹실 저녁에 바르고 드라이기로 바로 말린다음 자도 되나요"
    quotes = [q.text for q in extractive.choose(question, docs, names=("마이녹실",))]
    assert len(quotes) == 3 and any("헤어드라이어" in q for q in quotes)


def test_a_vitamin_by_its_letter_is_not_another_vitamins_line():
    """비타민D 하루 몇 IU: 그랑페롤's "비타민 E로서 1일 50~1,000 IU" had led the answer; the vitamin written with its
    letter reads as the leaflets write that vitamin (lay_words.json)."""
    ranker = SentenceRanker("비타민D 하루에 몇 IU 먹어야 돼요")
    vitamin_d = "건강한 사람 및 구루병의 예방에 비타민 D로서 1회 1/2정씩(500IU) 1일 1회 복용합니다."
    vitamin_e = "성인은 비타민 E로서 1일 50~1,000 IU를 복용합니다."
    assert ranker.score(vitamin_d) > ranker.score(vitamin_e)


def test_two_products_asked_together_each_quote_their_own_line_of_what_not_to_take_with_it():
    """스트렙실 … 이지엔6이브도 같이: the lozenge's list of 18 drugs not to take with it was too long to quote beside
    the capsule's line, so only the capsule's was; cut to its head and closing clause, both are quoted."""
    from retrievers.documents import Document

    lozenge = (
        "COX-2 저해제를 포함하여 다른 비스테로이드성 소염진통제, 아스피린 등 혈소판 응집 억제제, 글루코코르티코이드, "
        "칼륨보전이뇨제, 안지오텐신전환효소 억제제, 안지오텐신 II 길항제, 싸이클로스포린, 메토트렉세이트, 디곡신, "
        "페니토인, 퀴놀론계 항균제, 푸로세미드 이뇨제, 경구용 항응혈제(예: 와파린), 항고혈압제, 리튬제제, "
        "미페프리스톤, 프로베네시드, 설핀피라존을 함께 복용하지 마십시오."
    )
    capsule = (
        "다른 해열진통제, 감기약, 진정제와 함께 복용하지 마십시오.당뇨약, 통풍약, 관절염약, 항응고제, 스테로이드제, "
        "이뇨제, 저용량 아스피린과 함께 복용 시 의사 또는 약사와 상의하십시오."
    )
    docs = [
        Document(
            "easydrug:1:intrc",
            f"이지엔6이브연질캡슐\n{capsule}",
            {"item_seq": "1", "section": "intrc", "item_name": "이지엔6이브연질캡슐"},
        ),
        Document(
            "easydrug:2:intrc",
            f"스트렙실허니앤레몬트로키\n{lozenge}",
            {"item_seq": "2", "section": "intrc", "item_name": "스트렙실허니앤레몬트로키"},
        ),
    ]
    question = "목아파서 스트렙실 먹는중인데 생리통때문에 이지엔6이브도 같이 먹어도 되나요"
    quotes = extractive.choose(question, docs, names=("이지엔6이브", "스트렙실"))
    lozenge_quote = next(q.text for q in quotes if q.sources == [2])
    assert lozenge_quote.startswith("COX-2 저해제를 포함하여") and lozenge_quote.endswith(
        "설핀피라존을 함께 복용하지 마십시오."
    )
    assert any(q.sources == [1] and "다른 해열진통제" in q.text for q in quotes)


def test_a_line_saying_not_to_take_it_with_the_other_medicine_leads_a_together_question():
    """종합감기약 먹는중인데 타이레놀 더 먹어도: the 상호작용 section's first line names neither medicine (바르비탈계
    약물 … 상의하십시오); the warning on other products holding 아세트아미노펜, what both are made of, answers."""
    from retrievers.documents import Document
    from retrievers.question_frame import QuestionFrame, Targets

    meta = {"item_seq": "1", "item_name": "타이레놀정500밀리그람(아세트아미노펜)", "main_ingr": "아세트아미노펜"}
    intrc = (
        "바르비탈계 약물, 삼환계 항우울제 및 알코올을 투여한 환자, 와파린, 플루클록사실린을 복용하는 환자는 의사 "
        "또는 약사와 상의하십시오."
    )
    warn = "매일 세 잔 이상 정기적 음주자가 이 약 또는 다른 해열진통제를 복용할 때는 의사 또는 약사와 상의하십시오."
    warn += "아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오."
    docs = [
        Document("easydrug:1:intrc", f"타이레놀정500밀리그람\n{intrc}", {**meta, "section": "intrc"}),
        Document("easydrug:1:atpnWarn", f"타이레놀정500밀리그람\n{warn}", {**meta, "section": "atpnWarn"}),
    ]
    question = "종합감기약 먹는중인데 열이 안떨어져서 타이레놀 따로 더 먹어도 되나요"
    # as the full index's names read it: 타이레놀 named, 감기약 the other medicine, asked together
    targets = Targets(products=("타이레놀",), classes=("감기약",))
    frame = QuestionFrame(question, targets, aspects=("interactions",), other_drugs=("감기약",))
    quotes = extractive.choose(question, docs, names=("타이레놀",), frame=frame)
    assert quotes[0].text.startswith("아세트아미노펜을 포함하는 다른 제품")


def test_a_part_of_the_body_said_in_one_syllable_is_a_content_word_found_as_a_noun_of_its_own():
    """눈에 들어갈까봐: the line naming 눈 answers it, ahead of another caution; 입 is not in 입원."""
    ranker = SentenceRanker("후시딘 눈밑에 다래끼처럼 난데 발라도 되나여? 눈에 들어갈까봐 좀 무섭네요")
    eye = "눈 또는 눈꺼풀과 같은 얼굴 안쪽에 사용하지 마십시오."
    other = "이 약은 높은 투과흡수성을 가지므로 장기간 사용하지 마십시오."
    assert ranker.parts(eye)["overlap"] > 0
    assert ranker.score(eye) > ranker.score(other)
    mouth = SentenceRanker("입 안에 발라도 돼요")
    assert mouth.parts("입 안에 바르지 마십시오.")["overlap"] > 0
    assert mouth.parts("입원 중인 환자는 의사와 상의하십시오.")["overlap"] == 0


def test_a_pupil_grown_wide_is_the_leaflets_mydriasis():
    """눈동자가 커졌어요 is what the leaflets call 산동: the 이상반응 line naming it speaks to the question."""
    ranker = SentenceRanker("키미테 붙여주고 그 손으로 눈 비볐더니 한쪽 눈동자만 커졌어요 괜찮은거에요?")
    line = "때때로 구갈, 일시적인 시력불선명, 산동 등의 시각장애가 나타나는 경우 의사 또는 약사와 상의하십시오."
    assert "눈동자만커" in ranker.words
    assert ranker.parts(line)["overlap"] > 0
