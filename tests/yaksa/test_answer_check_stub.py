"""Against an OpenAI-compatible stub that answers in the dialect it is asked for (JSON when the request sets a
response format, the chat markers otherwise), playing the weak local model of the LM issue: its query rewrite loses
the question (코막힘 -> 마지막, 임신 avoided) and its answer only repeats the question. `yaksa ask --json` searches the
checked query, never ships the repeated question, and its trace says which checks fired."""

import json

import pytest

from yaksa import cli
from yaksa.testing.any_signature import output_fields
from yaksa.testing.scripted_lm import GOOD, PASS
from yaksa.testing.stub_openai import StubOpenAI

QUESTION = "코막힘 약 뭐 먹어요"
REPEAT = "전문가와 꼭 상담하세요. 코막힘 약 뭐 먹어요? [문서 1]"
REPLIES = {
    "rerank_query": {
        "core_terms": ["마지막"],
        "recall_terms": [],
        "avoid_terms": ["임신"],
        "rerank_query": "마지막 약",
    },
    "answer": {"answer": REPEAT},
    "corrected_answer": {"corrected_answer": REPEAT},
    "verdict": PASS,
    "grounding": GOOD,
}

pytestmark = pytest.mark.usefixtures("ask_on_mini_index")


def weak_model(request):
    """The reply for the predictor asking (by its output fields), as JSON or as chat markers."""
    system = request["messages"][0]["content"]
    names = [name for name, _ in output_fields(system)]
    fields = next((reply for key, reply in REPLIES.items() if key in names), {n: "" for n in names})
    if request.get("response_format"):
        return json.dumps(fields, ensure_ascii=False)
    marked = {k: json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v for k, v in fields.items()}
    return "".join(f"[[ ## {k} ## ]]\n{v}\n\n" for k, v in marked.items()) + "[[ ## completed ## ]]"


@pytest.mark.parametrize("structured", ["auto", "off"])
def test_yaksa_ask_checks_the_weak_models_query_and_answer(capsys, structured, tmp_path, monkeypatch):
    # 코막힘 약 names a class: the query LM is asked only because yaksa.toml says always, as the seed's pipeline did
    config = tmp_path / "yaksa.toml"
    config.write_text("[crag]\noptimize_named_queries = true\n", encoding="utf-8")
    monkeypatch.setenv("YAKSA_CONFIG", str(config))
    with StubOpenAI([weak_model]) as server:
        argv = ["ask", QUESTION, "--lm", "openai/stub", "--api-base", server.url, "--no-web", "--json"]
        assert cli.main([*argv, "--user", '{"pregnant": true}', "--structured", structured]) == 0
        asked_json = any(r.get("response_format") for r in server.requests)
    assert asked_json is (structured == "auto")
    pred = json.loads(capsys.readouterr().out)
    steps = pred["trace"]["steps"]
    optimized = next(s for s in steps if s["step"] == "optimize_query")
    assert optimized["query_check"]["fired"] == ["avoid_dropped", "terms_dropped", "words_dropped", "restored"]
    searched = [s["query"] for s in steps if s["step"] == "retrieve"]
    assert searched[:2] == [QUESTION, "코막힘 약"]
    checks = [s for s in steps if s["step"] == "verify"]
    assert checks and {s["by"] for s in checks} == {"answer_check"}
    assert {s["cause"] for s in checks} == {"repeats_question"}
    assert "코막힘 약 뭐 먹어요?" not in pred["answer"]
    assert "답변 확인" in pred["answer"]
    assert pred["trace"]["verification"] == "answer_check_fallback"
    assert pred["trace"]["parse_failures"]["generate"] == 0
