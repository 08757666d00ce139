"""A question about two medicines together, over the real mini index (its DUR 병용금기 rows: 알프라졸람 + 케토코나졸,
케토코나졸 + 트리아졸람, 케토코나졸 + 미다졸람, 아토르바스타틴 + …): a row pairing one of them with a third drug is
never quoted as if it answered (programs/two_medicines.py)."""

from programs import two_medicines
from programs.crag import CRAG


def _dropped(pred) -> list[str]:
    return [d for s in pred.trace["steps"] if s["step"] == "pair_rules" for d in s["dropped"]]


def test_the_rule_that_pairs_the_two_is_quoted_and_rules_with_a_third_drug_are_not(searcher):
    pred = CRAG(backend=searcher)(question="케토코나졸 먹는데 알프라졸람 같이 먹어도 돼요?")
    assert "알프라졸람(Alprazolam)와(과) 케토코나졸(Ketoconazole)은(는) 함께 복용(병용)하면 안 됩니다" in pred.answer
    assert "트리아졸람" not in pred.answer and "미다졸람" not in pred.answer
    # neither has a leaflet in the mini corpus: the not-in-corpus answer quotes the rule of the pair alone
    assert pred.trace["stop_reason"] == "not_in_corpus"
    assert "dur:ac:97" not in {c["id"] for c in pred.citations} and "dur:ac:99" not in {c["id"] for c in pred.citations}


def test_a_product_asked_beside_a_drug_gets_no_rule_of_that_drug_with_others(searcher):
    pred = CRAG(backend=searcher)(question="케토코나졸 먹는데 게보린 같이 먹어도 돼요?")
    assert "[병용금기]" not in pred.answer  # no row pairs 케토코나졸 with 게보린's ingredients
    assert "게보린정" in pred.answer


def test_a_rule_of_the_users_own_medicine_stays_though_it_names_one_of_the_two(searcher):
    user = {"medicines": ["케토코나졸"]}
    pred = CRAG(backend=searcher)(question="게보린이랑 알프라졸람 같이 먹어도 돼요?", user=user)
    assert "알프라졸람(Alprazolam)와(과) 케토코나졸(Ketoconazole)" in pred.answer
    # the row is about the two used together, and its heading says so (not "who you are")
    assert pred.answer.startswith("함께 쓰면 안 되는 성분의 DUR 규칙을 먼저 적었습니다.")


def test_without_the_users_rules_kept_the_rule_naming_one_side_would_be_left_out(searcher):
    pred = CRAG(backend=searcher)(question="게보린이랑 알프라졸람 같이 먹어도 돼요?")
    assert "케토코나졸" not in pred.answer
    assert "dur:ac:41" in _dropped(pred)


def test_two_products_taken_together_get_the_line_on_the_other_beside_the_dose(searcher):
    """판콜에이 after lunch, 게보린 at bedtime: the words ask when to take it, the frame reads the two taken together;
    게보린's 상호작용 line (다른 해열진통제, 아세트아미노펜을 포함하는 다른 제품 … 함께 복용하지 마십시오) is retrieved
    and quoted beside the dose lines (programs/aspect_cover.py, retrievers/frame_features.implied_by_frame)."""
    pred = CRAG(backend=searcher)(question="판콜에이 낮에 마셨는데 자기 전에 게보린 먹어도 돼요?")
    assert "[상호작용(함께 먹으면 안 되는 약·음식)] 바르비탈계 약물" in pred.answer
    assert "아세트아미노펜을 포함하는 다른 제품" in pred.answer
    assert "복용간격은 4시간 이상으로 합니다" in pred.answer


def test_one_medicine_asked_keeps_every_rule_of_it():
    assert two_medicines.off_pair_rules([], [{"와파린"}]) == set()


def test_a_medicine_beside_a_kind_keeps_only_rows_pairing_it_with_the_kinds_products():
    """와파린 먹는데 진통제 뭐 먹어요: a 병용금기 row of 와파린 with a drug none of the painkillers found holds answers
    neither; one with a painkiller's own ingredient does."""
    from programs.two_medicines import off_pair_rules, pair_sides
    from retrievers.documents import Document
    from retrievers.question_frame import QuestionFrame, Targets

    frame = QuestionFrame("와파린 먹는데 진통제 뭐 먹어요", Targets(classes=("진통제",)))
    painkiller = Document("easydrug:5:efcy", "x", {"item_name": "부루펜정", "main_ingr": "이부프로펜"})
    rows = [
        Document("dur:ac:1", "[병용금기] 메나테트레논와(과) 와파린은(는) 함께 복용(병용)하면 안 됩니다.", {}),
        Document("dur:ac:2", "[병용금기] 이부프로펜와(과) 와파린은(는) 함께 복용(병용)하면 안 됩니다.", {}),
    ]
    sides = pair_sides(frame, [*rows, painkiller], ["와파린"])
    assert off_pair_rules(rows, sides) == {"dur:ac:1"}
    assert pair_sides(QuestionFrame("와파린 먹는데 뭐 조심해요"), [*rows, painkiller], ["와파린"]) == []  # no kind


def test_two_medicines_compared_get_no_rule_of_either_with_a_third_drug():
    """타이레놀이랑 이부프로펜 중 뭐가 나아요: a 병용금기 row of 이부프로펜 with 메토트렉세이트 answers neither the
    comparison nor the asker (no profile)."""
    from programs.two_medicines import off_pair_rules, pair_sides
    from retrievers.documents import Document
    from retrievers.question_frame import QuestionFrame

    third = Document("dur:ac:1", "[병용금기] 이부프로펜(Ibuprofen)와(과) 메토트렉세이트(Methotrexate)", {})
    both = Document("dur:ac:2", "[병용금기] 아세트아미노펜와(과) 이부프로펜", {})
    leaflet = Document("easydrug:1:efcy", "x", {"item_name": "타이레놀정500밀리그람", "main_ingr": "아세트아미노펜"})
    frame = QuestionFrame("생리통엔 타이레놀이랑 이부프로펜 중 뭐가 나아요", comparison=True)
    sides = pair_sides(frame, [third, both, leaflet], ["타이레놀", "이부프로펜"])
    assert off_pair_rules([third, both], sides) == {"dur:ac:1"}


def test_a_medicine_beside_another_is_also_read_as_the_kind_it_is():
    """판콜 마셨는데 판피린도: the leaflets warn against 다른 해열진통제, not against 판피린 by name; the pair's words
    hold the named products' ingredients' kinds (세티리진 → 항히스타민제, 아세트아미노펜 → 진통제)."""
    from programs.sentences import SentenceRanker
    from programs.two_medicines import pair_medicines
    from retrievers.documents import Document
    from retrievers.question_frame import QuestionFrame

    meta = {"item_name": "판피린티정", "main_ingr": "아세트아미노펜, 카페인무수물"}
    doc = Document("easydrug:1:intrc", "판피린티정\n…", meta)
    question = "판콜 마셨는데 판피린도 더 먹어도 되나?"
    words = pair_medicines(QuestionFrame(question), [doc], ["판콜", "판피린"], lambda d: True)
    assert "진통제" in words
    ranker = SentenceRanker(question, ["판콜", "판피린"], medicines=words)
    warning = "다른 해열진통제, 감기약과 함께 복용하지 마십시오."
    assert ranker.score(warning) > ranker.score("정해진 용법과 용량을 잘 지키십시오.")


def test_a_medicine_beside_a_kind_none_of_whose_products_was_found_is_paired_with_the_kinds_products(searcher):
    """부루펜 먹는데 소화제 같이 먹어도: no digestive's leaflet among the documents, so the kind's side is the
    ingredients of the corpus's digestives (the mini index's 베아제정, 훼스탈플러스정; `kind_ingredients` over the
    real searcher): a row of 이부프로펜 with a third drug (메토트렉세이트) pairs neither, one with a digestive's
    ingredient does — also when the ingredient is on both sides."""
    from programs.answer_context import kind_ingredients
    from programs.two_medicines import off_pair_rules, pair_sides
    from retrievers.documents import Document
    from retrievers.question_frame import QuestionFrame, Targets

    digestives = kind_ingredients(searcher, ["소화제"])
    assert any("판크레아틴" in i for i in digestives)
    assert not any("이부프로펜" in i for i in digestives)
    frame = QuestionFrame("부루펜 먹는데 소화제 같이", Targets(classes=("소화제",)), other_drugs=("소화제",))
    brufen = next(h.doc for h in searcher.retrieve("부루펜정 효능").hits if "부루펜" in h.doc.metadata["item_name"])
    third = Document("dur:ac:1", "x", {"ingredient": "이부프로펜", "partner": "메토트렉세이트"})
    paired = Document("dur:ac:2", "x", {"ingredient": "판크레아틴", "partner": "이부프로펜"})
    assert pair_sides(frame, [brufen, third, paired], ["부루펜"]) == []  # without the corpus's kind: no pair
    sides = pair_sides(frame, [brufen, third, paired], ["부루펜"], lambda words: kind_ingredients(searcher, words))
    assert off_pair_rules([third, paired], sides) == {"dur:ac:1"}


def test_a_named_other_medicine_is_also_read_as_the_kind_its_efficacy_makes_it():
    """페리에정 먹었는데 겔포스 더 먹어도: 겔포스's 효능 makes it a 위장약, the word 페리에정's leaflet warns with
    ("다른 위장약과 함께 복용하지 마십시오")."""
    from programs.two_medicines import pair_medicines
    from retrievers.documents import Document
    from retrievers.question_frame import QuestionFrame

    meta = {"item_seq": "2", "section": "efcy", "item_name": "겔포스현탁액", "main_ingr": "인산알루미늄겔"}
    gelfos = Document("easydrug:2:efcy", "겔포스현탁액\n위산과다, 속쓰림, 위부불쾌감, 위통에 사용합니다.", meta)
    frame = QuestionFrame("페리에정 먹었는데 겔포스 더 먹어도", other_drugs=("겔포스",))
    assert "위장약" in pair_medicines(frame, [gelfos], ["페리에정", "겔포스"], lambda d: True)


def test_a_kind_asked_by_its_symptom_finds_the_warning_that_names_the_kind(searcher):
    """두통약 beside 감기약: the cold medicine's leaflet warns of "다른 감기약, 해열진통제", the kind 두통약's leaflets
    are (mined, retrievers/mine_class_kinds.py), though no leaflet says 두통약."""
    pred = CRAG(backend=searcher)(question="종합감기약 먹었는데 머리가 아파서 두통약 같이 먹어도 되나요?")
    quoted = [line for line in pred.answer.splitlines() if "해열진통제" in line and "함께 복용하지" in line]
    assert quoted, pred.answer
