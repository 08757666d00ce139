"""The learned everyday-word -> leaflet-word links (retrievers/mine_lay_links.py): mined from the shipped question
and leaflet-sentence pairs only (none an evaluated question), and read by the sentence ranker so a leaflet sentence
in its own register answers a question in everyday words."""

from __future__ import annotations

import hashlib
import json

import pytest

import programs.sentences as sentences
from retrievers.mine_lay_links import (
    LINKS_PATH,
    ROOT,
    mine_links,
    pair_files,
    read_pairs,
    tokenised,
    tokenizer_version,
)
from retrievers.unseen import EVALUATION_SETS


def test_the_shipped_links_were_mined_from_the_shipped_pairs():
    data = json.loads(LINKS_PATH.read_text(encoding="utf-8"))
    assert set(data["trained_on"]) == {p.relative_to(ROOT).as_posix() for p in pair_files()}
    for path, digest in data["trained_on"].items():
        refit = "refit: python -m retrievers.mine_lay_links"
        assert hashlib.sha256((ROOT / path).read_bytes()).hexdigest() == digest, refit
    rows = read_pairs(pair_files())
    assert data["pairs"] == len(rows)
    links = mine_links(tokenised(rows))
    if data["tokenizer"] == tokenizer_version():
        assert data["links"] == links
    else:  # another Kiwi release splits a few words otherwise: the links must still be nearly all the same
        shipped = {(q, s) for q, found in data["links"].items() for s in found}
        now = {(q, s) for q, found in links.items() for s in found}
        assert len(shipped & now) / len(shipped | now) >= 0.9


def test_every_pair_quotes_its_sentence_and_none_is_an_evaluated_question():
    lines = [json.loads(line) for p in pair_files() for line in p.read_text(encoding="utf-8").splitlines() if line]
    flat = lambda text: "".join(text.split())  # noqa: E731
    assert lines and all(flat(r["item"]) in flat(r["sentence"]) for r in lines)
    questions = {flat(r["question"]) for r in lines}
    for path in EVALUATION_SETS:
        evaluated = (ROOT / path).read_text(encoding="utf-8").splitlines()
        assert not questions & {flat(json.loads(line)["question"]) for line in evaluated if line}, path


def test_a_link_needs_several_pairs_a_particular_word_and_two_syllables():
    pairs = [(("입", "마르"), ("구강", "건조", "복용")), (("마르", "밤"), ("구강", "건조", "복용"))] * 2
    pairs += [(("먹",), ("복용",))] * 6 + [(("밤",), ("취침", "복용"))] * 2
    links = mine_links(pairs, min_pair=2, min_share=0.25, min_lift=2.0)
    assert links["마르"] == ["건조", "구강"]  # 복용 is in every answer: no link
    assert links["밤"] == ["취침"] and "먹" not in links
    assert mine_links(pairs[:1], min_pair=2) == {}  # seen once is chance
    assert mine_links([(("1",), ("회", "mg"))] * 4, min_pair=2, min_lift=1.0) == {}  # no Hangul word to link


@pytest.fixture
def links_off(monkeypatch):
    def off():
        monkeypatch.setattr(sentences, "LEARNED_LINKS", False)
        sentences.lay_links.cache_clear()

    yield off
    monkeypatch.undo()
    sentences.lay_links.cache_clear()


def test_a_sentence_in_the_leaflets_words_answers_a_question_in_everyday_words(links_off):
    question = "판콜 먹고 밥맛이 뚝 떨어졌어요 원래 그래요?"
    appetite = "때때로 식욕부진이 나타날 수 있습니다."
    other = "때때로 발진이 나타날 수 있습니다."
    assert "식욕" in sentences.lay_links().get("밥맛", [])
    ranker = sentences.SentenceRanker(question, names=["판콜"])
    assert ranker.score(appetite) > ranker.score(other)
    assert "식욕" in ranker.forms["밥맛"]
    links_off()
    plain = sentences.SentenceRanker(question, names=["판콜"])
    assert plain.score(appetite) == plain.score(other)  # without the link both are only an effect that may appear


def test_links_are_not_read_for_a_symptom_question_a_name_or_a_word_read_already():
    complaint = sentences.SentenceRanker("입안이 헐었어요 너무 따가워")  # which medicine helps: no effect asked
    assert "자극" not in complaint.forms.get("따갑", ())
    asked = sentences.SentenceRanker("알보칠 바르니까 너무 따가워요", names=["알보칠"])
    assert "자극" in asked.forms.get("따갑", ())
    links = sentences.lay_links()
    assert "아세트아미노펜" in links["타이레놀"] and "알코올" in links["맥주"]  # learned, and not read here:
    named = sentences.SentenceRanker("감기약 먹었는데 타이레놀도 먹고 맥주 마셔도 돼요?", names=["타이레놀"])
    assert "아세트아미노펜" not in named.forms.get("타이레놀", ())  # a name is the name matcher's
    assert "알코올" not in named.forms.get("맥주", ())  # 맥주 is the alcohol aspect's word


def test_a_link_to_a_word_for_who_it_is_for_is_read_only_for_that_group():
    """드려도 (giving it to an elder) taught 드리 → 고령자: a question giving a plaster to someone not said to be old is
    not about older people, so a caution naming 고령자 does not answer it."""
    assert "고령자" in sentences.lay_links()["드리"]
    shoulder = sentences.SentenceRanker("어깨가 아프시대서 파스 사다 드려도 돼요?", names=["파스"])
    assert "고령자" not in shoulder.forms.get("드리", ())
    assert shoulder.score("이 약을 사용하기 전에 소아, 고령자는 의사 또는 약사와 상의하십시오.") == 0
    older = sentences.SentenceRanker("70대 어머니께 파스 사다 드려도 돼요?", names=["파스"])
    assert "elderly" in older.aspects and "고령자" in older.forms["드리"]
