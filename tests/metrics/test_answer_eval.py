"""Answer-level evaluation rows and their summary."""

from metrics.answer_eval import answer_row, answer_text, auc, summarise


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
    assert s["out_of_scope"] == {"n": 1, "blocked": 1.0}


def test_auc_and_answer_text():
    assert auc([True, False, True], [0.9, 0.5, 0.4]) == 0.5
    assert auc([True], [0.3]) is None
    assert answer_text("가 [문서 1]\n※ 언어 모델 없이\n전문가와 꼭 상담하세요.") == "가 [문서 1]"
