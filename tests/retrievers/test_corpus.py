import re

import pytest

from retrievers.corpus import SECTIONS, CorpusError, dur_sentence, load_corpus


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def test_shipped_corpus_ids_follow_the_design(corpus):
    ids = [d.id for d in corpus]
    assert len(ids) == len(set(ids))
    leaflet = [i for i in ids if i.startswith("easydrug:")]
    dur = [i for i in ids if i.startswith("dur:")]
    assert len(leaflet) == 27350  # non-empty sections listed in trainsets/corpus/easydrug/SOURCE.txt
    assert len(dur) == 1742 + 227 + 1407 + 651 + 95 + 107 + 375 + 19
    assert all(re.fullmatch(r"easydrug:\d+:(" + "|".join(SECTIONS) + ")", i) for i in leaflet)
    assert all(re.fullmatch(r"dur:(ac|bc|cc|dc|ec|fc|gc|ic):\d+(-\d+)?", i) for i in dur)


def test_leaflet_document_has_name_ingredients_and_section(corpus):
    doc = next(d for d in corpus if d.id == "easydrug:197900277:se")
    assert doc.text.startswith("게보린정 (아세트아미노펜,카페인무수물,이소프로필안티피린)")
    assert "[이상반응(부작용)]" in doc.text
    assert set(doc.metadata) >= {"item_seq", "item_name", "entp_name", "main_ingr", "section", "updated"}
    assert doc.metadata["entp_name"] == "삼진제약(주)"


def test_dur_rows_become_readable_sentences(corpus):
    ac = next(d for d in corpus if d.id.startswith("dur:ac:"))
    assert "함께 복용" in ac.text
    assert ac.metadata["partner"]
    cc = next(d for d in corpus if d.id.startswith("dur:cc:"))
    assert "임부" in cc.text
    assert cc.metadata["dur_type"] == "임부금기"


def test_a_combination_row_lists_the_other_ingredients_of_its_mix(corpus):
    """A 복합 row binds a mix, not every product of its ingredient: its other ingredients are kept by name."""
    rows = [d for d in corpus if d.source == "dur" and d.metadata["ingredient"] == "탄산칼슘"]
    mixes = [d.metadata["combination"].split(", ") for d in rows if d.metadata["combination"]]
    assert any({"히드로탈시트", "프로자임", "탄산수소나트륨"} <= set(m) for m in mixes)
    assert all("탄산칼슘" not in m for m in mixes)
    alone = [d for d in corpus if d.source == "dur" and d.metadata["ingredient"] == "이부프로펜"]
    assert any(d.metadata["combination"] == "" for d in alone)  # a row about the ingredient itself


def test_dur_sentence_rejects_unknown_code():
    with pytest.raises(CorpusError):
        dur_sentence("zz", {})


def test_missing_and_broken_corpus_give_clear_errors(tmp_path):
    with pytest.raises(CorpusError, match="not found"):
        load_corpus(tmp_path / "nope")
    (tmp_path / "easydrug").mkdir()
    (tmp_path / "easydrug" / "easydrug.jsonl").write_text('{"itemSeq": "1"\n', encoding="utf-8")
    with pytest.raises(CorpusError, match="line 1|:1:"):
        load_corpus(tmp_path)


def test_a_daily_maximum_reads_with_its_thousands_comma(corpus):
    """The DUR files write 3,200 as 3|200 (their comma is the column's): the sentence reads 3,200, not "3, 200"."""
    ibuprofen = next(d for d in corpus if d.id == "dur:dc:1747")
    assert "1일 최대 투여량은 이부프로펜3,200밀리그램입니다" in ibuprofen.text
    assert not any(re.search(r"\d, \d{3}(?!\d)", d.text) for d in corpus if d.id.startswith("dur:dc:"))
