from retrievers.tokenizer import KiwiTokenizer, whitespace_tokens


def test_user_dictionary_keeps_names_and_symptoms_whole():
    plain = KiwiTokenizer()
    taught = KiwiTokenizer(user_words=["두통", "게보린", "아세트아미노펜"])
    assert "두통" in taught("두통이 심해요")
    assert "게보린" in taught("게보린정 먹었어요")
    assert "게보린" in taught("게보린먹고 속이 쓰려요")
    assert "아세트아미노펜" in taught("아세트아미노펜 성분")
    assert "게보린" not in plain("게보린정 먹었어요")


def test_pos_filter_drops_particles_and_endings():
    tokens = KiwiTokenizer(user_words=["게보린"])("게보린을 먹으면 졸려요?")
    assert "게보린" in tokens
    assert "먹" in tokens
    assert "졸리" in tokens
    assert "을" not in tokens
    assert "요" not in tokens


def test_fingerprint_follows_the_dictionary():
    assert KiwiTokenizer(["a"]).fingerprint != KiwiTokenizer(["b"]).fingerprint
    assert KiwiTokenizer(["a"]).fingerprint == KiwiTokenizer(["a"]).fingerprint


def test_batch_matches_single_calls():
    tok = KiwiTokenizer(user_words=["두통"])
    texts = ["두통약 추천", "속이 쓰려요"]
    assert list(tok.batch(texts)) == [tok(t) for t in texts]


def test_whitespace_baseline():
    assert whitespace_tokens("게보린 부작용") == ["게보린", "부작용"]


def test_a_split_brand_is_a_proper_compound_but_a_taught_name_is_not():
    assert KiwiTokenizer().proper_compounds("타미플루 먹는데 열이 나요") == [("타미플루", ["타미", "플루"])]
    taught = KiwiTokenizer(user_words=["은행잎"])
    assert [t.form for t in taught.tagged("은행잎추출물")][:1] == ["은행잎"]
    assert taught.proper_compounds("은행잎추출물 약은 어디에 좋아요") == []  # the corpus's own word, not an unknown


def test_a_dropped_tokenizer_is_freed_at_once_with_its_remembered_analyses():
    """Kiwi's model is hundreds of MB: a memo that referred back to its tokenizer kept each one alive until a full
    garbage collection, and a test run that builds many indexes ran out of memory."""
    import weakref

    tok = KiwiTokenizer()
    tok("게보린 먹고 속이 쓰려요")
    freed = weakref.ref(tok)
    del tok
    assert freed() is None


def test_a_noun_for_a_medicine_by_its_form_says_the_question_is_about_medicine():
    reading = KiwiTokenizer().reading
    assert reading("약 먹고 바로 누워도 돼요")[1]
    assert reading("알약 반으로 쪼개서 먹어도 돼요")[1]  # the tablet itself, not a product or a class
    assert reading("비상약 유통기한 지나면 버려요?")[1]
    assert reading("캡슐 까서 가루만 먹어도 돼요?")[1]  # a form only medicines come in
    assert not reading("아이크림 추천해 주세요")[1]  # a cream is as often a cosmetic
    assert not reading("예약 취소하고 싶어요")[1]
    # Kiwi reads 도약 as 도/JX + 약/NNG here: a 약 glued after a particle is a longer word misread
    assert not reading("청년도약계좌 가입 조건")[1]


def test_a_verb_kiwi_reads_as_a_proper_noun_is_no_unknown_name():
    """가스 차요: Kiwi reads 차요 as a proper noun after 가스, but alone it is 차다 with its ending; a misspelt or
    foreign drug name stays unknown."""
    tokenizer = KiwiTokenizer(user_words=["가스"])  # as the index teaches it: then 차요 is read as a proper noun
    assert "차요" not in tokenizer.unknown_words("속이 더부룩하고 가스 차요")
    assert "부루팬" in tokenizer.unknown_words("부루팬 먹어도 돼요")


def test_a_noun_made_a_verb_is_something_done_not_an_unknown_name():
    """응가할때마다: Kiwi does not know 응가, but reads 하 after it as the suffix making it a verb; no medicine's name
    is done. A name before 하고 (and) or a verb of its own stays unknown."""
    tokenizer = KiwiTokenizer()
    assert "응가" not in tokenizer.unknown_words("애기가 응가할때마다 울어요")
    assert "리피토" in tokenizer.unknown_words("리피토하고 자몽 먹어도 돼요")
    assert "탄툼" in tokenizer.unknown_words("탄툼하면 돼요")
