"""Answer-level evaluation rows and their summary."""

from metrics.answer_eval import RESERVED, answer_row, answer_text, auc, summarise


def pred(cited, first_hits, routes, later=(), answer="답 [문서 1]\n\n전문가와 꼭 상담하세요.\n\n※ 알림"):
    steps = [{"step": "retrieve", "purpose": "question", "hits": [{"id": i, "score": 1.0} for i in first_hits]}]
    for n, route in enumerate(routes):
        steps.append({"step": "grade", "relevance": 0.9 if route == "generate" else 0.4, "route": route})
        if route == "rewrite":
            steps.append({"step": "rewrite", "query": "q2"})
            steps.append({"step": "retrieve", "purpose": "relevance", "hits": [{"id": i} for i in later[n]]})
    return {
        "answer": answer,
        "citations": [{"id": i, "cited": True} for i in cited],
        "trace": {
            "steps": steps,
            "stop_reason": "quality_ok",
            "rewrites": routes.count("rewrite"),
            "lm_calls": {"total": 0},
        },
    }


def test_a_corrected_question_is_one_whose_rewrite_found_gold():
    row = answer_row({"id": "1", "kind": "k", "gold": ["g"]}, pred(["g"], ["x"], ["rewrite", "generate"], [["g"]]), 5)
    assert row["corrective"]
    assert row["corrected"]
    assert row["cites_gold"]
    assert not row["gold_in_first_top5"]
    assert row["routes"] == ["generate", "rewrite"]
    assert row["chars"] == len("답 [문서 1]")


def test_summary_per_kind_with_auc_and_out_of_scope():
    rows = [
        answer_row({"kind": "a", "gold": ["g"]}, pred(["g"], ["g"], ["generate"]), 1),
        answer_row({"kind": "a", "gold": ["g"]}, pred([], ["x"], ["rewrite", "generate"], [["y"]]), 1),
        answer_row({"kind": "oos", "gold": []}, {"answer": "범위 밖", "out_of_scope": True, "trace": {}}, 1),
    ]
    s = summarise(rows)
    assert s["a"]["n"] == 2
    assert s["a"]["cites_gold"] == 0.5
    assert s["a"]["misses"] == 1
    assert s["a"]["misses_corrective"] == 1.0
    assert s["a"]["misses_corrected"] == 0.0
    assert s["a"]["found_corrective"] == 0
    assert s["all"]["evaluator_auc"] == 1.0
    assert (s["out_of_scope"]["n"], s["out_of_scope"]["blocked"], s["out_of_scope"]["declined"]) == (1, 1.0, 1.0)


def test_auc_and_answer_text():
    assert auc([True, False, True], [0.9, 0.5, 0.4]) == 0.5
    assert auc([True], [0.3]) is None
    assert answer_text("가 [문서 1]\n※ 언어 모델 없이\n전문가와 꼭 상담하세요.") == "가 [문서 1]"


LEAFLET = "게보린정 (아세트아미노펜)\n[사용상 주의사항] 알코올과 함께\u00a0이 약을 복용하지 마십시오."


def real(aspect="alcohol", group=None, phrases=("알코올과 함께\u00a0이 약을 복용하지 마십시오",), **kw):
    """A real-question row: no kind, labelled answerable / unanswerable, with gold phrases, aspects and population."""
    row = {"id": "r", "question": "게보린 먹고 술 마셔도 돼?", "aspects": [aspect], "population": {"group": group}}
    row |= {"targets": {"products": ["게보린정"], "ingredients": []}, "other_drugs": [], "answerable": True}
    row |= {"unanswerable_kind": None, "gold": ["easydrug:1:atpn"], "gold_phrases": list(phrases)}
    return row | kw


def said(answer, cited=(), contexts=(), out_of_scope=False, products=None):
    citations = [{"id": i, "product": (products or {}).get(i, ""), "cited": True} for i in cited]
    return {"answer": answer, "citations": citations, "contexts": list(contexts), "out_of_scope": out_of_scope}


def test_a_gold_phrase_matches_across_no_break_spaces_line_breaks_and_middle_dots():
    answer = "게보린정: 알코올과 함께 이 약을\n복용하지 마십시오. [문서 1]\n\n전문가와 꼭 상담하세요."
    row = answer_row(real(), said(answer, ["easydrug:1:atpn"]), 1)
    assert row["phrase_gold"] and row["phrase_quoted"] and row["cites_gold"]
    dotted = answer_row(real(phrases=["효능·효과를"]), said("효능\u318d효과를 보십시오. [문서 1]"), 1)
    assert dotted["phrase_quoted"]
    assert not answer_row(real(phrases=["효능·효과"]), said("효능과 효과 [문서 1]"), 1)["phrase_quoted"]


def test_a_phrase_only_in_a_notice_line_is_not_quoted_but_one_in_the_context_or_documents_is_seen():
    answer = "게보린정의 효능입니다. [문서 1]\n\n※ 참고: 알코올과 함께 이 약을 복용하지 마십시오."
    pred = said(answer, ["easydrug:1:atpn"], contexts=[LEAFLET])
    row = answer_row(real(), pred, 1, doc_text={"easydrug:1:atpn": LEAFLET}.get)
    assert not row["phrase_quoted"]
    assert row["phrase_in_context"] and row["phrase_in_documents"]
    assert not answer_row(real(), said(answer, ["easydrug:1:atpn"]), 1)["phrase_in_context"]


def test_real_rows_are_grouped_by_derived_kind_with_phrase_figures_per_aspect_and_population():
    quoted = said("알코올과 함께 이 약을 복용하지 마십시오. [문서 1]", ["easydrug:1:atpn"], [LEAFLET])
    missed = said("효능입니다. [문서 1]", ["easydrug:1:atpn"], [LEAFLET])
    rows = [
        answer_row(real(), quoted, 1),
        answer_row(real(aspect="pregnancy", group="pregnant"), missed, 1),
        answer_row(real(aspect="pregnancy", group="pregnant"), quoted, 1),
        answer_row(real(answerable=False, unanswerable_kind="not_in_corpus", gold=[], gold_phrases=[]), missed, 1),
    ]
    s = summarise(rows)
    assert [k for k in s if k not in RESERVED] == ["answerable"]
    assert s["answerable"]["phrase_questions"] == 3
    assert s["answerable"]["phrase_quoted"] == 0.6667
    assert s["answerable"]["phrase_in_context"] == 1.0
    assert s["answerable"]["context_not_quoted"] == 1
    assert list(s["by_aspect"]) == ["pregnancy", "alcohol"]
    assert s["by_aspect"]["pregnancy"]["phrase_quoted"] == 0.5
    assert s["by_aspect"]["pregnancy"]["context_not_quoted"] == 1
    assert s["by_population"]["none"]["phrase_quoted"] == 1.0
    assert s["by_population"]["pregnant"]["phrase_questions"] == 2
    assert s["out_of_scope"]["n"] == 1
    assert s["unanswerable"]["not_in_corpus"]["n"] == 1


def unanswerable(kind, products=(), ingredients=(), gold=()):
    row = real(answerable=False, unanswerable_kind=kind, gold=list(gold), gold_phrases=[])
    return row | {"targets": {"products": list(products), "ingredients": list(ingredients), "classes": ["진통제"]}}


def test_unanswerable_outcomes_declined_not_covered_and_unrelated_products():
    lutein = unanswerable("not_in_corpus", ingredients=["루테인"])
    other = said("베아제정: 1일 3회 식후에 복용합니다. [문서 1]", ["easydrug:2:useMethod"], products={})
    heads = {
        "easydrug:2:useMethod": "베아제정 (디아스타제)\n[용법·용량] …",
        "easydrug:3:se": "루테인정 (루테인)\n…",
    }.get
    rows = {
        "blocked": answer_row(lutein, said("범위 밖 질문입니다.", out_of_scope=True), 1),
        "nothing cited": answer_row(lutein, said("질문과 관련된 의약품 문서를 찾지 못했습니다."), 1),
        "unrelated": answer_row(lutein, other, 1, heads),
        "target": answer_row(lutein, said("루테인 … [문서 1]", ["easydrug:3:se"]), 1, heads),
        "warned": answer_row(
            unanswerable("not_in_corpus", products=["리피토(아토르바스타틴)"]),
            said(
                "※ 질문의 '리피토'은(는) 문서에서 찾지 못한 이름입니다\n베아제정 … [문서 1]", ["easydrug:2:useMethod"]
            ),
            1,
            heads,
        ),
        "class only": answer_row(unanswerable("not_in_leaflets"), other, 1, heads),
        "gold DUR row": answer_row(
            unanswerable("not_in_corpus", gold=["dur:cc:1"]), said("… [문서 1]", ["dur:cc:1"]), 1
        ),
    }
    flags = {k: (r["declined"], r["said_not_covered"], r["quoted_unrelated"]) for k, r in rows.items()}
    assert flags == {
        "blocked": (True, False, False),
        "nothing cited": (True, True, False),
        "unrelated": (False, False, True),
        "target": (False, False, False),
        "warned": (False, True, True),
        "class only": (False, False, False),
        "gold DUR row": (False, False, False),
    }
    s = summarise(list(rows.values()))
    assert s["unanswerable"]["not_in_corpus"]["n"] == 6
    assert s["unanswerable"]["not_in_corpus"]["declined_or_not_covered"] == 0.5
    assert s["unanswerable"]["not_in_corpus"]["quoted_unrelated"] == 0.3333
    assert s["unanswerable"]["not_in_leaflets"]["quoted_unrelated"] == 0.0
    assert s["out_of_scope"]["blocked"] == 0.1429


def checked(answer, flagged):
    """A prediction whose trace has the self-check's step (programs/crag.py)."""
    step = {"step": "aspect_check", "asked": ["alcohol"], "spoken": [] if flagged else ["alcohol"], "flagged": flagged}
    return said(answer, ["easydrug:1:atpn"]) | {"trace": {"steps": [step]}}


def test_the_self_check_flags_are_read_from_the_trace_and_summarised_against_the_gold_phrases():
    quoted, missed = "알코올과 함께 이 약을 복용하지 마십시오. [문서 1]", "효능입니다. [문서 1]"
    rows = [
        answer_row(real(), checked(missed, True), 1),
        answer_row(real(), checked(missed, True), 1),
        answer_row(real(), checked(missed, False), 1),
        answer_row(real(), checked(quoted, False), 1),
        answer_row(real(), checked(quoted, True), 1),
        answer_row(real(), said(quoted, ["easydrug:1:atpn"]), 1),  # no self-check step: not flagged
    ]
    assert [r["self_check_flagged"] for r in rows] == [True, True, False, False, True, False]
    s = summarise(rows)
    assert s["self_check"] == {"missing": 3, "flags_missing": 0.6667, "others": 3, "flags_others": 0.3333}
    assert "self_check" in RESERVED
    assert "self_check" not in summarise(
        [answer_row({"kind": "a", "gold": ["g"]}, pred(["g"], ["g"], ["generate"]), 1)]
    )


def test_an_efficacy_only_flag_counts_as_a_self_check_and_other_flagged_steps_do_not():
    """programs/efficacy_only.py's step says the answer misses what was asked, as the aspect check's does; a step
    that only says the leaflets never rank products (which_is_better) is no self-check."""
    missed = "효능입니다. [문서 1]"

    def with_step(name):
        return said(missed, ["easydrug:1:efcy"]) | {"trace": {"steps": [{"step": name, "flagged": True}]}}

    assert answer_row(real(), with_step("efficacy_only"), 1)["self_check_flagged"] is True
    assert answer_row(real(), with_step("which_is_better"), 1)["self_check_flagged"] is False
