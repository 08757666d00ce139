"""What the question asks and names, read once against the real searcher on the mini index: its frame, and the
medicines it names that the corpus lacks (a supplement, a name nobody knows) with whether it names nothing else."""

import pytest

from programs.question_reading import dur_only_read, question_frame, uncovered, unknown_names
from programs.run import Run
from programs.state import QuestionState


def searched(searcher, question: str) -> QuestionState:
    st = QuestionState(question, run=Run(budget_limit=0))
    st.result = searcher.retrieve(question)
    return st


def test_the_frame_is_read_once_with_the_questions_morphemes(mini_searcher):
    st = searched(mini_searcher, "게보린 부작용")
    frame = question_frame(mini_searcher, st)
    assert question_frame(mini_searcher, st) is frame
    assert st.morphemes == ("게보린", "부작용")
    assert frame.targets.products and "side_effects" in frame.aspects


@pytest.mark.parametrize(
    "question, words, alone",
    [
        ("오메가3 먹어도 되나요", ("오메가3",), True),  # a supplement and nothing the leaflets have
        ("게보린이랑 오메가3 같이 먹어도 돼요", ("오메가3",), False),  # beside a product the corpus has
        ("리피토 먹는데 자몽주스 마셔도 되나요", ("리피토",), True),  # a brand no leaflet of the index names
        ("오메가3 시럽 애기한테 먹여도 되나요", ("오메가3",), True),  # the supplement's own form, no kind asked
        ("오메가3 먹는 애기한테 감기 시럽 먹여도 되나요", ("오메가3",), False),  # a kind of medicine beside it
        ("게보린 부작용", (), False),
    ],
)
def test_what_the_question_names_that_the_corpus_lacks(mini_searcher, question, words, alone):
    st = searched(mini_searcher, question)
    assert uncovered(mini_searcher, st) == (words, alone)


def test_unknown_names_are_read_once_per_result(mini_searcher):
    st = searched(mini_searcher, "리피토 먹는데 자몽주스 마셔도 되나요")
    assert unknown_names(mini_searcher, st) == ["리피토"]
    assert st.unknown_names == (st.result, ("리피토",))
    st.result = mini_searcher.retrieve("게보린 부작용")  # another result: read again, for its documents
    assert unknown_names(mini_searcher, st) == ["리피토"] and st.unknown_names[0] is st.result


def test_beside_a_supplement_a_prescription_ingredient_other_leaflets_mention_is_all_it_names(mini_searcher):
    """와파린 먹는데 크릴오일: a leaflet of another product mentioning the ingredient (와파린과 함께 …) is no answer
    to the pair asked; the question names nothing the corpus has a product of."""
    from retrievers.documents import Document, Hit

    st = searched(mini_searcher, "아카보즈 먹는데 오메가3 같이 먹어도 돼요")
    mention = Document("easydrug:0:intrc", "다른제품\n아카보즈와 함께 복용 시 상의하십시오.", {"section": "intrc"})
    st.result.hits.insert(0, Hit(mention, 1.0))
    assert uncovered(mini_searcher, st) == (("오메가3", "아카보즈"), True)
    assert dur_only_read(mini_searcher, st) == ["아카보즈"]


class _SupplementClass:
    """The mini index with products for the class word 영양제 (the full corpus has vitamins under it)."""

    def __init__(self, inner):
        self._inner = inner

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def class_members(self, classes):
        return ["1"] if "영양제" in classes else self._inner.class_members(classes)


def test_the_word_for_what_a_supplement_is_asks_no_class(mini_searcher):
    """루테인 영양제 먹으려는데: 영양제 says what 루테인 is, as 시럽 after 오메가3 says its form; the vitamins the
    corpus files under 영양제 are not asked about, so the question is about the supplement alone."""
    backend = _SupplementClass(mini_searcher)
    st = searched(mini_searcher, "눈 건강에 루테인 영양제 먹으려는데 아침 공복에 먹는게 좋아요 식후가 좋아요?")
    assert uncovered(backend, st) == (("루테인",), True)
    st = searched(mini_searcher, "루테인 먹는데 영양제 하나 더 추천해 주세요")
    assert uncovered(backend, st)[1] is False  # 영양제 asked for beside it


def test_a_brand_the_lexicon_reads_as_an_ingredient_is_no_symptom_beside_one_only_dur_knows():
    """비아그라 먹는 사람이 니트로글리세린: 비아그라's rule is 실데나필, a second medicine (its 병용금기 row answers),
    while 잠이 안와 stays the symptom a prescription drug was taken for."""
    from types import SimpleNamespace

    from programs.question_reading import _names_ingredient
    from retrievers.lexicon import Lexicon

    names = SimpleNamespace(ingredients={"실데나필": "실데나필", "독시라민": "독시라민"})
    assert _names_ingredient("비아그라", Lexicon.load(), names)
    assert not _names_ingredient("잠이안와", Lexicon.load(), names)
