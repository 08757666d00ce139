"""The answer checks as MLflow scorers (metrics/scorers.py), each on hand-made rows it must pass and fail, and the LM
scorers only with a judge."""

from metrics import scorers as s
from metrics.lm_scorers import lm_scorers

Q = {"question": "게보린 먹고 술 마셔도 돼?"}
GOLD = {"gold": ["easydrug:1:intrc"], "gold_phrases": ["알코올과 함께 이 약을"], "answerable": True}


def pred(answer, cited=("easydrug:1:intrc",), removed=0, fallback=False, lm_calls=0, out_of_scope=False, ms=12.0):
    citations = [{"n": i, "id": c, "cited": True} for i, c in enumerate(cited, 1)]
    check = {"checked": 2, "removed": ["x"] * removed, "fallback": fallback}
    steps = [{"step": "generate", "grounding_check": check}]
    trace = {"steps": steps, "lm_calls": {"total": lm_calls}}
    return {"answer": answer, "citations": citations, "trace": trace, "out_of_scope": out_of_scope, "latency_ms": ms}


def run(scorer, outputs, expectations=GOLD, inputs=Q):
    return scorer(inputs=inputs, outputs=outputs, expectations=expectations)


GOOD = pred("알코올과 함께\u00a0이 약을 복용하지 마십시오. [문서 1]")
BAD = pred("물과 함께 드세요. [문서 1]", cited=("easydrug:2:efcy",))


def test_gold_cited_and_phrase_quoted_pass_and_fail():
    assert run(s.gold_cited, GOOD) is True and run(s.gold_cited, BAD) is False
    assert run(s.phrase_quoted, GOOD) is True and run(s.phrase_quoted, BAD) is False
    assert run(s.phrase_quoted, GOOD, {"gold": ["easydrug:1:intrc"], "answerable": True}) is None  # no phrases


def test_scope_right_for_answerable_and_unanswerable():
    unanswerable = {"answerable": False, "unanswerable_kind": "not_in_corpus", "gold": []}
    assert run(s.scope_right, GOOD) is True
    assert run(s.scope_right, pred("", cited=(), out_of_scope=True)) is False  # answerable but blocked
    assert run(s.scope_right, pred("관련 문서를 찾지 못했습니다.", cited=()), unanswerable) is True
    assert run(s.scope_right, BAD, unanswerable) is False  # answered from a leaflet, said nothing of the gap


def test_grounding_clean_fails_on_a_removal_or_a_fallback():
    assert run(s.grounding_clean, GOOD) is True
    assert run(s.grounding_clean, pred("답 [문서 1]", removed=1)) is False
    assert run(s.grounding_clean, pred("답 [문서 1]", fallback=True)) is False
    unchecked = {**GOOD, "trace": {"steps": []}}
    assert run(s.grounding_clean, unchecked) is None


def test_citations_valid_fails_on_a_number_not_given_or_a_cited_one_not_quoted():
    assert run(s.citations_valid, GOOD) is True
    assert run(s.citations_valid, pred("답 [문서 3]")) is False  # only one document was given
    assert run(s.citations_valid, pred("답 [문서 1]", cited=("a", "b"))) is False  # 2 marked cited, not quoted
    assert run(s.citations_valid, pred("인용 없음", cited=())) is None


def test_numbers_length_lm_calls_latency():
    row = pred("짧은 답 [문서 1]\n※ 알림", lm_calls=3, ms=41.5)
    assert run(s.answer_length, row) == len("짧은 답 [문서 1]")
    assert run(s.lm_calls, row) == 3
    assert s.latency_ms(outputs=row) == 41.5


def test_forbidden_offered_judges_a_product_the_stated_population_forbids():
    from retrievers.documents import Document

    leaflet = Document(
        "easydrug:7:efcy", "슈페젠정\n[효능] 감기", {"item_seq": "7", "item_name": "슈페젠정", "main_ingr": "에페드린"}
    )
    rule = Document(
        "dur:1",
        "[임부금기] 에페드린은(는) 임부에게 사용하면 안 됩니다.",
        {"dur_type": "임부금기", "ingredient": "에페드린"},
    )

    class Backend:
        names = None

        def get(self, i):
            return leaflet if i == leaflet.id else None

        def dur_rules(self, ingredients, dur_types):
            return [rule] if "에페드린" in ingredients and "임부금기" in dur_types else []

    scorer = s.forbidden_offered_scorer(Backend())
    pregnant = {"question": "임신 중인데 감기약 뭐 먹어요"}
    offer = {"answer": "슈페젠정을 드세요. [문서 1]", "citations": [{"n": 1, "id": leaflet.id, "cited": True}]}
    warned = {**offer, "answer": "※ 사용자에게 맞지 않는 약이라 권하지 않습니다: 슈페젠정."}
    assert scorer(inputs=pregnant, outputs=offer) is True
    assert scorer(inputs=pregnant, outputs=warned) is False
    assert scorer(inputs={"question": "감기약 뭐 먹어요"}, outputs=offer) is None  # no population stated


def test_the_scorer_means_are_the_summary_shares():
    from metrics.answer_eval import answer_row, summarise

    outs = [GOOD, BAD, GOOD]
    rows = [answer_row({**GOLD, **Q}, o, o["latency_ms"]) for o in outs]
    values = [run(s.phrase_quoted, o) for o in outs]
    assert round(sum(values) / len(values), 4) == summarise(rows)["all"]["phrase_quoted"] == 0.6667


def test_lm_scorers_only_with_a_judge():
    from yaksa.testing.scripted_lm import ScriptedLM

    assert lm_scorers(None) == []
    assert [x.name for x in lm_scorers(ScriptedLM())] == ["faithfulness", "answer_relevancy", "quality"]


def test_faithfulness_scorer_reads_the_outputs_contexts():
    from tests.metrics.test_ragas_and_combined import ragas_judge

    faithfulness = lm_scorers(ragas_judge(["게보린은 위장 장애를 일으킨다", "게보린은 간에 좋다"], [1, 0]))[0]
    outputs = {
        "answer": "게보린은 위장 장애를 일으킬 수 있습니다. [문서 1]",
        "contexts": ["게보린정\n[이상반응] 속쓰림 등 위장 장애가 나타날 수 있습니다."],
    }
    assert faithfulness(inputs={"question": "게보린 부작용"}, outputs=outputs) == 0.5
