"""What of a question the hits leave out, over the real searcher on the mini index (real Kiwi, BM25, dense)."""

from retrievers.documents import Document, Hit
from retrievers.query_coverage import uncovered_names, unknown_words


def test_a_name_in_latin_letters_nobody_knows_is_reported(searcher):
    r = searcher.retrieve("lexapro 부작용", k=5)
    assert not r.out_of_scope
    assert r.hits
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["lexapro"]


def test_recognised_names_and_dictionary_words_are_not_unknown(searcher):
    for question in ("게보린 부작용", "서울에서 산 두통약 부작용"):
        r = searcher.retrieve(question, k=5)
        assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == [], question


def test_a_misspelt_name_is_unknown_to_the_tokenizer(searcher):
    assert searcher.tokenizer.unknown_words("부루팬 먹어도 되나요") == ["부루팬"]
    assert searcher.tokenizer.unknown_words("서울 여행") == []


def test_a_recognised_name_no_hit_mentions_is_uncovered():
    hits = [Hit(Document("easydrug:1:intrc", "이부프로펜과 함께 복용하지 마십시오"), 3.0)]
    assert uncovered_names(["이부프로펜", "메토트렉세이트"], hits) == ["메토트렉세이트"]
    assert unknown_words(["이부프로펜정"], vocabulary=set(), names=["이부프로펜정"], hits=[]) == []


def test_a_brand_kiwi_splits_into_nouns_is_unknown_when_the_corpus_never_uses_its_proper_noun(searcher):
    # 타미플루 is 타미 (a proper noun no leaflet uses) + 플루: without the compound it passed as two known nouns
    assert searcher.tokenizer.unknown_words("타미플루 먹는데 게보린 같이 먹어도 되나요") == []
    r = searcher.retrieve("타미플루 먹는데 게보린 같이 먹어도 되나요", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["타미플루"]


def test_a_split_brand_written_as_taken_is_unknown_though_the_corpus_uses_one_of_its_nouns(searcher, monkeypatch):
    """The full corpus uses 플루 (인플루엔자's leaflets), so 타미 + 플루 passed as a compound of a known noun; written
    as what is taken (타미플루 먹는 중), its proper noun 타미, which no leaflet uses, makes it the medicine asked
    about."""
    vocabulary = {**searcher.bm25.vocabulary, "플루": len(searcher.bm25.vocabulary)}
    monkeypatch.setattr(type(searcher.bm25), "vocabulary", property(lambda self: vocabulary))
    question = "독감으로 타미플루 먹는 중인데 밤에 헛소리를 해요"
    r = searcher.retrieve(question, k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["타미플루"]
    r = searcher.retrieve("타미플루가 뭐예요", k=5)  # not written as taken: the compound rule alone decides
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == []


def test_a_split_brand_received_from_the_clinic_is_unknown_though_the_corpus_uses_one_of_its_nouns(
    searcher, monkeypatch
):
    """타미플루 받아서 먹고: a prescription received is written before its verb of taking; the brand is still the
    medicine asked about. A hospital before 처방 is a single proper noun, never a split compound, so it stays known."""
    vocabulary = {**searcher.bm25.vocabulary, "플루": len(searcher.bm25.vocabulary)}
    monkeypatch.setattr(type(searcher.bm25), "vocabulary", property(lambda self: vocabulary))
    r = searcher.retrieve("독감이라 타미플루 받아서 먹고 있는데 게보린 같이 먹어도 되나요", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["타미플루"]
    r = searcher.retrieve("서울대병원 처방 받아서 먹는데 게보린 같이 먹어도 되나요", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == []


def test_ordinary_compounds_of_known_nouns_are_not_unknown(searcher):
    # 부산약사: a place (a proper noun no leaflet uses) and 약사, a word the leaflets use: no brand
    questions = ("모유수유 중인데 게보린 먹어도 되나요", "두통약 먹고 운전해도 되나요", "부산약사가 준 게보린 먹어요?")
    for question in questions:
        r = searcher.retrieve(question, k=5)
        assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == [], question


def test_a_proper_noun_written_as_what_is_taken_is_reported_unless_it_is_a_name(searcher):
    assert searcher.tokenizer.unknown_words("리리카 먹고 운전해도 되나요") == []  # Kiwi knows it
    r = searcher.retrieve("리리카 먹고 운전해도 되나요", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["리리카"]
    assert searcher.tokenizer.taken_proper_nouns("부산에서 먹고 왔어요") == []
    r = searcher.retrieve("게보린 먹고 운전해도 되나요", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == []
    # a brand the rules read as its ingredient (타이레놀 → 아세트아미노펜) is answered for by that ingredient
    r = searcher.retrieve("타이레놀 먹는 법", k=5)
    assert "타이레놀" not in searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"]


def test_an_adverb_written_onto_its_verb_is_no_unknown_name(searcher):
    """시험기간이라 안졸린 비염약: Kiwi reads 안졸린 (안 + 졸린, written together) as an unknown proper noun in this
    sentence; read alone it is an adverb and a verb, no medicine's name."""
    question = "시험기간이라 안졸린 비염약 찾는데 클라리틴이랑 지르텍 중에 뭐가 덜 졸려요?"
    words = searcher.tokenizer.unknown_words(question)
    assert "안졸린" not in words and "클라리틴" in words


def test_a_brand_kiwi_cuts_with_a_numeral_or_a_copula_is_unknown_when_written_as_taken(searcher):
    """렉사프로 → 렉 + 사 + 프로, 테아닌 → 테 + 아니 + ㄴ: no piece is unknown to Kiwi, yet the word before 먹은지 or
    영양제 is a name nobody knows; words Kiwi reads whole or as a predicate stay known."""
    for question, word in (
        ("렉사프로 먹은지 3일 됐는데 속이 울렁거려요", "렉사프로"),
        ("테아닌 영양제 먹으면 졸려요?", "테아닌"),
    ):
        r = searcher.retrieve(question, k=5)
        assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == [word], question
    for question in ("아침밥 먹고 게보린 먹어도 돼요", "머리아픈 약 추천해주세요"):
        r = searcher.retrieve(question, k=5)
        assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == [], question


def test_a_condition_someone_has_is_no_unknown_name(searcher):
    """수족구 is a word Kiwi does not know, yet a child who 'is' it or 'caught' it has a disease, not a medicine the
    leaflets lack; a name written as what is taken, or as what a medicine is, stays unknown."""
    for question in ("아이가 수족구인데 해열제 먹여도 되나요", "수족구 걸렸는데 열나요 해열제 먹여도 돼요"):
        r = searcher.retrieve(question, k=5)
        assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == [], question
    for question in ("수족구 먹어도 되나요", "먹는 약이 수족구인데 해열제 같이 먹어도 되나요"):
        r = searcher.retrieve(question, k=5)
        assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["수족구"], question


def test_a_brand_kiwi_reads_only_by_splitting_off_a_contracted_particle_is_unknown(searcher):
    """인사돌 is read 인사 + 도 + ᆯ (도를); 생리통엔 (에 + ᆫ) and 이것도 are ordinary."""
    assert searcher.tokenizer.unknown_words("인사돌 얼마나 꾸준히 먹어야 잇몸에 효과 있어요?") == ["인사돌"]
    for question in ("생리통엔 어떤게 더 나아요", "이것도 먹어도 돼요", "겨울엔 쉬었다가 발라도 돼요"):
        assert searcher.tokenizer.unknown_words(question) == [], question
    r = searcher.retrieve("인사돌 얼마나 꾸준히 먹어야 잇몸에 효과 있어요?", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == ["인사돌"]


def test_a_medicine_bought_abroad_that_the_index_does_not_read_is_unknown(searcher):
    """일본여행가서 산 이브A정: a foreign product (Kiwi reads 이브 + A, neither unknown); one whose name the index
    reads (미국에서 사온 게보린) is the corpus's."""
    question = "일본여행가서 산 이브A정 생리통에 먹으려는데 한번에 몇알 먹어요?"
    r = searcher.retrieve(question, k=5)
    assert "이브a정" in searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"]
    r = searcher.retrieve("미국에서 사온 게보린 먹어도 돼요?", k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == []


def test_an_adjective_kiwi_does_not_know_before_becoming_is_no_unknown_name(searcher):
    """변이 시커매졌어요: Kiwi cuts 시커 off an adjective it does not know; before 지다 it is what something became."""
    question = "철분제 먹은지 일주일짼데 변이 시커매졌어요 계속 먹어도 되나요"
    assert "시커" in searcher.tokenizer.unknown_words(question)
    r = searcher.retrieve(question, k=5)
    assert searcher.query_coverage(r.query, list(r.names), r.hits)["unknown_words"] == []
