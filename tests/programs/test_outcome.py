"""The honest outcomes (programs/outcome.py) on the real Searcher over the mini index: a question about a medicine
the corpus lacks is told so and quotes no other product's leaflet."""

from types import SimpleNamespace

import pytest

from programs import routing
from programs.crag import CRAG
from programs.outcome import DUR_NO_RULE, NOT_IN_CORPUS, outcome, rules_for_question, uncovered_only
from retrievers.documents import Document


def steps(pred, name):
    return [s for s in pred.trace["steps"] if s["step"] == name]


def test_a_question_about_supplements_alone_is_told_they_are_not_covered_without_quoting_a_leaflet(searcher):
    pred = CRAG(backend=searcher)(question="루테인이랑 오메가3 같이 먹어도 돼요?")
    assert not pred.out_of_scope  # about taking something: not refused as out of scope
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS
    assert pred.trace["outcome"] == NOT_IN_CORPUS
    opening = "질문의 '루테인', '오메가3'은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다"
    assert pred.answer.startswith(opening)
    assert "약사" in pred.answer
    assert not [c for c in pred.citations if c["cited"]]  # no product's leaflet quoted
    assert pred.trace["lm_calls"]["total"] == 0


def test_a_herbal_preparation_from_a_clinic_is_told_not_covered(searcher):
    """한약, 녹용, 보약: a 한의원's preparation is no e약은요 product (the leaflets' 다른 한약제제 names a kind)."""
    pred = CRAG(backend=searcher)(question="한의원에서 녹용 들어간 한약 지어서 먹는중인데 감기 걸리면 어떡해요")
    assert pred.trace["outcome"] == NOT_IN_CORPUS
    assert "질문의 '녹용', '한약'은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다" in pred.answer


def test_a_symptom_beside_an_ingredient_only_dur_knows_is_what_it_was_taken_for(searcher):
    """알프라졸람 반알 먹었는데 잠이 안와요, 더 먹어도: the sleeplessness is why it was taken, no ask for another
    medicine; the answer is about 알프라졸람 alone (its DUR rows), no leaflet of a product for sleeplessness."""
    pred = CRAG(backend=searcher)(question="알프라졸람 반알 먹었는데 한시간째 잠이 안와요 반알 더 먹어도 될까요")
    assert pred.trace["outcome"] == NOT_IN_CORPUS
    assert not [c for c in pred.citations if c["cited"] and c["id"].startswith("easydrug:")]


def test_a_quasi_drug_asked_alone_is_told_it_is_not_covered_not_refused_as_off_topic(searcher):
    """여성청결제, 모기기피제: 의약외품 used like medicine; about them, the honest answer is that e약은요 lacks them."""
    asked = (
        ("임신중에 여성청결제 매일 써도 괜찮나요?", "여성청결제"),
        ("아기한테 모기기피제 뿌려도 돼요?", "모기기피제"),
        ("시험기간인데 박카스 하루 두병 마셔도 돼요?", "박카스"),  # a fatigue drink sold as 의약외품
    )
    for question, word in asked:
        pred = CRAG(backend=searcher)(question=question)
        assert not pred.out_of_scope, question
        assert pred.trace["outcome"] == NOT_IN_CORPUS, question
        assert pred.answer.startswith(f"질문의 '{word}'은(는) e약은요"), question
        assert "의약외품" in pred.answer
        assert not [c for c in pred.citations if c["cited"]]


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("게보린 먹는데 오메가3 같이 먹어도 돼요?", "오메가3"),  # a supplement
        ("리피토 먹는데 게보린 같이 먹어도 돼요?", "리피토"),  # a name nobody knows
        ("리리카 먹는데 게보린 같이 먹어도 돼요?", "리리카"),  # a name Kiwi knows, written as what is taken
    ],
)
def test_what_the_corpus_lacks_beside_a_medicine_it_has_opens_the_answer_about_that_medicine(
    searcher, question, missing
):
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(
        f"※ 질문의 '{missing}'은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다"
    )
    assert pred.trace["outcome"] == NOT_IN_CORPUS
    assert steps(pred, "unknown_names")[0] == {"step": "unknown_names", "words": [missing], "not_in_corpus": True}
    assert any(c["cited"] and "게보린" in c["product"] for c in pred.citations)


def test_a_brand_kiwi_knows_asked_alone_is_a_medicine_the_corpus_lacks(searcher):
    """리리카 is in Kiwi's dictionary (no unknown word), yet written as what is taken it names the medicine asked
    about: no leaflet that mentions driving answers for it."""
    pred = CRAG(backend=searcher)(question="리리카 먹고 운전해도 되나요")
    assert pred.trace["outcome"] == NOT_IN_CORPUS
    assert pred.answer.startswith("질문의 '리리카'은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다")
    assert not [c for c in pred.citations if c["cited"]]
    for question in ("부산에서 게보린 먹고 운전해도 되나요", "서울 가는데 멀미약 뭐 먹어요"):  # places, not taken
        assert CRAG(backend=searcher)(question=question).trace["outcome"] != NOT_IN_CORPUS, question


def test_a_short_unknown_word_beside_a_known_name_is_no_medicine_name(searcher):
    pred = CRAG(backend=searcher)(question="게보린 먹고 가스가 차요 정상인가요")  # Kiwi reads 차요 as unknown
    assert "찾지 못했습니다" not in pred.answer and pred.trace["outcome"] != NOT_IN_CORPUS


def test_a_supplement_beside_a_class_the_leaflets_have_opens_the_answer_about_the_class(searcher):
    pred = CRAG(backend=searcher)(question="감기약이랑 홍삼 같이 먹어도 돼요?")
    assert pred.answer.startswith("※ 질문의 '홍삼'은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다")
    assert pred.trace["stop_reason"] != NOT_IN_CORPUS  # the search went on, for the cold medicines
    assert any(c["cited"] for c in pred.citations)


def test_an_ingredient_only_dur_knows_asked_alone_gets_its_rules_and_no_leaflet(searcher):
    pred = CRAG(backend=searcher)(question="임신 중인데 아카보즈 먹어도 되나요?")
    assert pred.answer.startswith("e약은요(일반의약품 설명서)에서 '아카보즈'이(가) 든 의약품은 찾지 못했습니다")
    assert "DUR 자료에서 찾지 못했습니다" not in pred.answer  # DUR has it
    assert "[임부금기] 아카보즈" in pred.answer
    assert pred.trace["outcome"] == NOT_IN_CORPUS and pred.trace["stop_reason"] == NOT_IN_CORPUS
    assert pred.citations and all(c["id"].startswith("dur:") for c in pred.citations)  # no other product's leaflet


def test_an_ingredient_only_dur_knows_with_no_rule_that_answers_says_so(searcher):
    # 케토코나졸's rows pair it with 알프라졸람, 트리아졸람, 미다졸람: none is asked, and a row naming it as the
    # partner of a third drug is no pair the question names
    pred = CRAG(backend=searcher)(question="케토코나졸 먹는데 술 마셔도 되나요?")
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS
    assert "[병용금기]" not in pred.answer
    assert pred.answer.endswith(DUR_NO_RULE)


def test_a_dur_only_ingredient_read_from_a_misspelling_is_not_called_unknown(searcher):
    pred = CRAG(backend=searcher)(question="캐토코나졸 먹는데 알프라졸람 같이 먹어도 돼요?")  # read as 케토코나졸
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS
    assert "캐토코나졸'은(는)" not in pred.answer  # not said to be in neither e약은요 nor DUR
    assert "알프라졸람(Alprazolam)와(과) 케토코나졸(Ketoconazole)은(는) 함께 복용(병용)하면 안 됩니다" in pred.answer


def test_an_ingredient_only_dur_knows_beside_one_the_leaflets_have_is_no_not_in_corpus_question(searcher):
    pred = CRAG(backend=searcher)(question="아카보즈랑 이부프로펜 같이 먹어도 돼요?")  # 부루펜정 has 이부프로펜
    assert pred.trace["stop_reason"] != NOT_IN_CORPUS
    assert any(c["id"].startswith("easydrug:") and c["cited"] for c in pred.citations)


def test_an_ingredient_only_dur_knows_beside_a_class_opens_the_answer_about_the_class(searcher):
    pred = CRAG(backend=searcher)(question="아카보즈 먹는데 감기약 먹어도 되나요?")
    assert pred.answer.startswith("※ e약은요에서 '아카보즈'이(가) 든 일반의약품 설명서는 찾지 못했습니다")
    assert pred.trace["stop_reason"] != NOT_IN_CORPUS  # the search went on, for the cold medicines


def test_an_answerable_question_is_answered(searcher):
    pred = CRAG(backend=searcher)(question="게보린 부작용 알려줘")
    assert pred.trace["outcome"] == "answered"
    assert "찾지 못" not in pred.answer


def test_a_question_about_something_else_is_still_out_of_scope(searcher):
    pred = CRAG(backend=searcher)(question="삼성전자 주가 언제 오를까요")
    assert pred.out_of_scope and pred.trace["outcome"] == "out_of_scope"


def test_the_not_in_corpus_route_ends_the_search():
    state = SimpleNamespace(purpose="question", out_of_scope=False, uncovered_alone=True, general=False)
    assert routing.retrieval_stop(state, None) == "not_in_corpus"
    state.uncovered_alone = False
    assert routing.retrieval_stop(state, None) == ""
    state.general, state.out_of_scope = True, True  # medicines in general: about medicine, whatever the guard said
    assert routing.retrieval_stop(state, None) == "not_in_leaflets"


def test_a_word_nobody_knows_or_a_supplement_alone_is_a_medicine_the_corpus_lacks():
    # table: (words, named, supplements, corpus_speaks) -> the whole not-in-corpus answer
    assert uncovered_only(("리피토",), False)  # 리피토 먹는데 자몽주스 마셔도
    # 안과에서 비가목스 받아서 … 렌즈: a prescribed medicine, and a word nobody knows, whatever else it asks
    assert uncovered_only(("처방받은 약", "비가목스"), False, ("처방받은 약",), corpus_speaks=True)
    assert uncovered_only(("파브론",), False, (), corpus_speaks=True)  # 파브론 골드 감기에: a brand the corpus lacks
    assert not uncovered_only(("오메가3",), True, ("오메가3",))  # 아스피린 named: answer about it
    assert uncovered_only(("루테인",), False, ("루테인",))  # 루테인 효과: a supplement alone
    # 감기약이랑 홍삼, 홍삼 먹고 목 아플때: the rest names a class with products, or a symptom
    assert not uncovered_only(("홍삼",), False, ("홍삼",), corpus_speaks=True)
    assert uncovered_only(("홍삼",), False, ("홍삼",), corpus_speaks=False)
    assert not uncovered_only((), False)


def test_a_misspelt_brand_is_read_as_its_name_not_as_a_medicine_the_corpus_lacks(searcher):
    pred = CRAG(backend=searcher)(question="개보린 먹고 속이 쓰려요")
    assert pred.trace["outcome"] != NOT_IN_CORPUS
    assert any(c["cited"] and "게보린" in c["product"] for c in pred.citations)


def test_a_sound_word_is_not_an_unknown_medicine(searcher):
    pred = CRAG(backend=searcher)(question="게보린 먹었는데 배가 꾸륵꾸륵해요")
    assert "꾸륵꾸륵" not in pred.answer.split("\n\n")[0]


def test_outcome_table():
    assert outcome(True, "out_of_scope", False) == "out_of_scope"
    assert outcome(False, NOT_IN_CORPUS, False) == NOT_IN_CORPUS
    assert outcome(False, "generate", False, uncovered=True) == NOT_IN_CORPUS
    assert outcome(False, "generate", True) == "not_in_leaflets"
    assert outcome(False, "generate", False) == "answered"


PARTNER = "클래리트로마이신"
PAIR = {"dur_type": "병용금기", "partner": PARTNER}


def test_dur_rules_of_an_uncovered_brand_are_quoted_only_when_they_speak_to_the_question():
    rows = [
        Document("dur:ac:1", f"[병용금기] 아토르바스타틴와(과) {PARTNER} …", PAIR),
        Document("dur:cc:2", "[임부금기] 아토르바스타틴은(는) … (1등급). 대상 제형: 정제.", {"dur_type": "임부금기"}),
        Document("dur:cc:3", "[임부금기] 아토르바스타틴은(는) … (2등급). 대상 제형: 정제.", {"dur_type": "임부금기"}),
    ]
    assert rules_for_question(rows, "리피토 먹는데 자몽주스", None) == []  # DUR says nothing of 자몽
    assert [d.id for d in rules_for_question(rows, "임신했는데 리피토", "pregnant")] == ["dur:cc:2"]  # one per rule
    assert [d.id for d in rules_for_question(rows, "리피토랑 클래리트로마이신", None)] == ["dur:ac:1"]


def test_a_kind_of_prescription_medicine_asked_alone_is_called_so_without_quoting_a_leaflet(searcher):
    pred = CRAG(backend=searcher)(question="혈압약 부작용 뭐 있어요?")
    assert pred.answer.startswith("질문의 '혈압약'은(는) 처방받아 쓰는 전문의약품이라 e약은요(일반의약품 설명서)에서")
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS and pred.trace["outcome"] == NOT_IN_CORPUS
    assert not [c for c in pred.citations if c["cited"] and not c["id"].startswith("dur:")]
    assert pred.trace["lm_calls"]["total"] == 0


def test_a_medicine_said_to_be_prescribed_whose_name_kiwi_reads_as_words_is_called_a_clinics(searcher):
    """인데놀 처방받아 먹어보려는데: Kiwi reads 인데놀 as 인데 + 놀, so no word is an unknown name; said to be
    prescribed, in a question naming nothing the index knows, it is a clinic's medicine and no leaflet is quoted."""
    from retrievers.not_covered import PRESCRIBED_WORD

    pred = CRAG(backend=searcher)(question="담주 발표가 있어서 인데놀 처방받아 먹어보려는데 괜찮을까요?")
    assert pred.answer.startswith(f"병원에서 {PRESCRIBED_WORD}은") and pred.trace["outcome"] == NOT_IN_CORPUS
    assert not [c for c in pred.citations if c["cited"]]


def test_a_kind_of_prescription_medicine_beside_a_class_the_leaflets_have_opens_the_answer(searcher):
    pred = CRAG(backend=searcher)(question="혈압약 먹는데 감기약 먹어도 돼요?")
    assert pred.answer.startswith("※ 질문의 '혈압약'은(는) 처방받아 쓰는 전문의약품이라")
    assert pred.trace["stop_reason"] != NOT_IN_CORPUS  # the search went on, for the cold medicines
    assert any(c["cited"] and c["id"].startswith("easydrug:") for c in pred.citations)


def test_a_kind_of_prescription_medicine_gets_the_dur_pairs_of_its_ingredients_the_question_names(searcher):
    # the mini DUR pairs 아토르바스타틴 (a 고지혈증약) with 케토코나졸: the asker learns the pair, led as a rule of
    # one of the kind's ingredients, not of their own medicine
    pred = CRAG(backend=searcher)(question="고지혈증약 먹는데 케토코나졸 같이 먹어도 돼요?")
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS
    assert "'고지혈증약'에 쓰이는 성분 중 DUR 규칙이 있는 것입니다" in pred.answer
    assert "[병용금기] 아토르바스타틴" in pred.answer


def test_a_medicine_a_clinic_gave_asked_alone_is_told_the_leaflets_lack_it_without_quoting_one(searcher):
    # the OTC sprays' "7일 이상 사용하지 마십시오" is no answer for a prescribed steroid spray
    pred = CRAG(backend=searcher)(question="병원에서 받은 스테로이드 코 스프레이는 오래 써도 괜찮은가요")
    assert pred.answer.startswith("병원에서 처방받은 약은 e약은요(일반의약품 설명서)에서 찾지 못했습니다")
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS
    assert not [c for c in pred.citations if c["cited"]]


def test_a_medicine_a_clinic_gave_beside_a_class_the_leaflets_have_opens_the_answer_about_the_class(searcher):
    pred = CRAG(backend=searcher)(question="처방받은 약 먹는데 감기약 같이 먹어도 돼요?")
    assert pred.answer.startswith("※ 병원에서 처방받은 약은 e약은요(일반의약품 설명서)에서 찾지 못했습니다")
    assert pred.trace["stop_reason"] != NOT_IN_CORPUS
    assert any(c["cited"] and c["id"].startswith("easydrug:") for c in pred.citations)


@pytest.mark.parametrize(
    "question",
    [
        "홍삼 먹고 나서 속이 쓰려요 홍삼 때문인가요?",  # an effect noticed after the supplement: no leaflet says it
        "두통 있을 때 오메가3 먹어도 돼요?",  # the symptom it would be taken in, when nothing is asked for it
        "혈압약 먹기 시작하고 발목이 붓는데 부작용인가요?",  # the same for a kind of prescription medicine
        "남편이 탈모약 먹는데 임신 준비 중이면 끊어야 하나요?",  # 임신 준비 is who it is for, nothing to treat
        # what a prescribed medicine was given for, when the question does not ask what to take for it
        "비염 때문에 병원에서 받은 약 먹는데 콧물 멈추면 그만 먹어도 돼요?",
        "병원에서 처방받은 약 먹고 기침이 좀 잦아들었는데 남은 건 버려도 되나요",
        # beside an ingredient only DUR rules know, said to be in what a clinic gave (의원서: 에서 said short)
        "두통 때문에 신경과서 알프라졸람 들어간 약 받았는데 먹고 운전해도 돼요?",
    ],
)
def test_a_symptom_that_is_no_complaint_to_treat_leaves_an_uncovered_medicine_alone(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert pred.trace["stop_reason"] == NOT_IN_CORPUS and pred.trace["outcome"] == NOT_IN_CORPUS
    assert not [c for c in pred.citations if c["cited"] and c["id"].startswith("easydrug:")]


@pytest.mark.parametrize(
    "question",
    [
        "홍삼 먹고 있는데 두통이 심해요 두통약 뭐 먹어요?",
        "병원에서 받은 약 먹는 중인데 콧물이 계속 나요 뭐 먹어요?",  # asks what to take beside the prescribed one
    ],
)
def test_a_symptom_to_treat_beside_an_uncovered_medicine_still_opens_the_answer_about_it(searcher, question):
    pred = CRAG(backend=searcher)(question=question)
    assert pred.trace["stop_reason"] != NOT_IN_CORPUS
    assert any(c["cited"] and c["id"].startswith("easydrug:") for c in pred.citations)


def test_an_unknown_name_kiwi_splits_is_named_as_written(searcher):
    """Kiwi reads 아목시실린 as 아목 + …: the notice names the word the asker wrote, not its first piece."""
    pred = CRAG(backend=searcher)(question="아목시실린 먹고 설사해요")
    assert "'아목시실린'" in pred.answer and "'아목'" not in pred.answer


def test_an_ingredient_said_prescribed_and_swallowed_whose_products_are_all_applied_is_a_clinics():
    """먹는 미녹시딜 처방받았는데: the index's minoxidil is a lotion (its 용법 says to apply it), so the prescribed
    tablet is a medicine the leaflets do not describe; a lotion asked about, or an ingredient with a tablet, is not."""
    from programs.question_reading import prescribed_by_mouth
    from retrievers.names import NameIndex

    def leaflet(seq, name, ingredient, how):
        meta = {"item_seq": seq, "item_name": name, "main_ingr": ingredient, "section": "useMethod"}
        return Document(f"easydrug:{seq}:useMethod", f"{name}\n[용법·용량] {how}", meta)

    docs = [
        leaflet("1", "가나녹시딜액5%", "미녹시딜", "이 약 1 mL를 1일 2회 환부에 바르고, 2 mL를 초과하지 마십시오."),
        leaflet("2", "가나펜정", "이부프로펜", "1회 1정 1일 3회 복용합니다."),
    ]
    by_id = {d.id: d for d in docs}
    backend = SimpleNamespace(names=NameIndex.from_documents(docs), get=by_id.get)
    assert prescribed_by_mouth(backend, "탈모 때문에 먹는 미녹시딜 처방받았는데 털 난다던데 진짜에요?")
    assert not prescribed_by_mouth(backend, "미녹시딜 처방받았는데 하루 몇번 발라요")  # not taken by mouth
    assert not prescribed_by_mouth(backend, "먹는 이부프로펜 처방받았는데 술 마셔도 돼요")  # a tablet it has


@pytest.mark.parametrize(
    "question, word",
    [
        ("완모중인데 머리가 너무 아파요 게보린 먹어도 될까요", "완모"),
        ("35주 막달인데 머리가 아파요 게보린 먹어도 될까요", "막달"),
    ],
)
def test_who_the_medicine_is_for_written_as_slang_is_no_unknown_name(searcher, question, word):
    """완모중인데 (exclusively breastfeeding), 막달인데 (the last month of a pregnancy): the population reader's words;
    Kiwi does not know them, so without them among the known words the answer would open saying they are medicines
    the corpus lacks."""
    from retrievers.population import read_population

    assert read_population(question).group in ("pregnant", "breastfeeding")
    pred = CRAG(backend=searcher)(question=question)
    assert word not in pred.answer.split("\n\n")[0]
    assert pred.trace["outcome"] != NOT_IN_CORPUS


def test_an_adjective_with_its_polite_ending_beside_a_name_is_no_unknown_name(searcher):
    """두통 심해서요 게보린: between two taught names Kiwi reads 심해서요 as an unknown proper noun; alone it is
    심하 + 어서 + 요, something said of the symptom."""
    pred = CRAG(backend=searcher)(question="두통 심해서요 게보린 먹어도 될까요?")
    assert "심해서요" not in pred.answer.split("\n\n")[0]


def test_a_form_no_product_comes_in_is_told_not_covered_without_quoting_another_forms_leaflet(searcher):
    """귀약: no leaflet is of a medicine put in the ear, so a cream's cautions are no answer (the mini index's
    products are tablets, liquids and creams, as the full corpus has no ear drops)."""
    pred = CRAG(backend=searcher)(
        question="귀에 물 들어가고 나서 귓속이 가렵고 아파요 약국에서 귀약 사서 넣어도 되나요"
    )
    assert pred.trace["outcome"] == NOT_IN_CORPUS
    assert pred.answer.startswith("질문의 '귀에 넣는 약(점이제)'은(는)")
    assert not [c for c in pred.citations if c["cited"]]
