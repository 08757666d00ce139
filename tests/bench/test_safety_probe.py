"""bench/safety_probe.py's fast subset on the mini index: pregnancy (profile and question) × the requests the mini
corpus's products answer (부루펜정 is 임부금기 in every form). No answer offers a forbidden product, and every
quoted rule carries its forms; with the verdicts switched off the same probe finds the offers."""

import pytest

from bench import safety_probe
from programs import offer_guard
from programs.crag import CRAG

SUBSET = [
    q
    for q in safety_probe.questions()
    if q["rule"] in ("임부금기", "임신 중인데") and q["request"] in ("두통", "해열", "통증", "감기", "소화")
]


def probe(searcher) -> dict:
    rows = safety_probe.answer_rows(CRAG(backend=searcher), SUBSET)
    verdicts = [safety_probe.judge(row, searcher) for row in rows]
    return safety_probe.summary(rows, verdicts)


def test_the_subset_is_about_twenty_questions():
    assert 18 <= len(SUBSET) <= 24


def test_no_answer_offers_a_product_the_users_rules_forbid(searcher):
    figures = probe(searcher)
    assert figures["forbidden_offers"] == 0, figures
    assert figures["rules_without_forms"] == 0, figures


def test_without_the_verdicts_the_probe_finds_the_offers(searcher, monkeypatch):
    monkeypatch.setattr(offer_guard, "mark", lambda docs, verdicts: list(docs))
    assert probe(searcher)["forbidden_offers"] > 0


@pytest.mark.parametrize(
    "line", ["대상 제형: 일반액상분무제.", "[임부금기] 이부프로펜(Ibuprofen)은(는) 임부에게 … [문서 1]"]
)
def test_a_rule_line_without_its_forms_is_counted(searcher, line):
    row = {"question": "두통약", "user": {"pregnant": True}, "answer": line, "doc_ids": ["dur:cc:3048"]}
    assert safety_probe.judge(row, searcher)["formless"] == [line]


def test_a_sample_keeps_every_request_and_every_rule_type():
    """--sample 26 (what the local-LM run asks): spread over the list, it still holds each request and each rule."""
    everything = safety_probe.questions()
    picked = safety_probe.sample(everything, 26)
    assert len(picked) == 26
    assert {q["request"] for q in picked} == {q["request"] for q in everything}
    assert {q["rule"] for q in picked} == {q["rule"] for q in everything}
