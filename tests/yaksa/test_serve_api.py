"""`yaksa serve` API over the fake backend: /v1/ask with no LM and a scripted LM, out of scope, user profile and
strategy profile, /v1/search, /healthz, the page, and errors as JSON."""

import re

from fastapi.testclient import TestClient

from retrievers.oos_guard import OOS_MESSAGE
from yaksa.app.service import NO_LM_NOTICE
from yaksa.testing.fake_backend import FakeBackend
from yaksa.testing.mini_index import real_searcher
from yaksa.testing.scripted_lm import ANSWER, ScriptedLM
from yaksa.testing.serve_app import WEB_LINK, make_app


def client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


def test_ask_without_lm_returns_a_cited_extractive_answer_with_document_texts():
    backend = real_searcher()
    r = client(make_app(backend)).post("/v1/ask", json={"question": "게보린 먹고 속이 쓰려요"})
    assert r.status_code == 200
    data = r.json()
    assert re.search(r"\[문서 \d+\]", data["answer"])
    assert "전문가와 꼭 상담하세요" in data["answer"]
    assert data["uses_lm"] is False
    assert data["notice"] == NO_LM_NOTICE
    assert data["method"] == "extractive"
    assert [c["n"] for c in data["citations"]][:2] == [1, 2]
    first = next(c for c in data["citations"] if c["cited"])  # the 이상반응 sentence's document
    assert f"[문서 {first['n']}]" in data["answer"]
    assert first["product"] == "게보린정(수출명:돌로린정)"
    assert first["document"] == backend.get(first["id"]).text
    assert first["text"]
    assert first["text"].split("\n")[0] in first["document"]  # the refined context the LM saw
    assert data["web_refs"] == [WEB_LINK]
    assert data["trace"]["lm_calls"]["total"] == 0
    assert data["quality"]["method"] == "heuristic"
    assert [s["step"] for s in data["trace"]["steps"]][:2] == ["retrieve", "grade"]


def test_ask_with_a_scripted_lm_verifies_and_counts_lm_calls():
    lm = ScriptedLM()
    r = client(make_app(lms=lm.roles())).post("/v1/ask", json={"question": "게보린 먹고 속이 쓰려요"})
    data = r.json()
    assert r.status_code == 200
    assert data["answer"] == ANSWER["answer"]
    assert data["uses_lm"] is True
    assert data["notice"] == ""
    assert data["verification"] == "pass"
    assert lm.calls == ["generate", "verify", "evaluate"]  # a named medicine: no query LM call
    assert data["trace"]["lm_calls"]["total"] == 3
    assert data["citations"][0]["cited"] is True


def test_out_of_scope_question_says_so_without_citations():
    data = client(make_app()).post("/v1/ask", json={"question": "삼성전자 주가 알려줘"}).json()
    assert data["out_of_scope"] is True
    assert data["notice"] == OOS_MESSAGE
    assert "범위 밖 질문입니다" in data["answer"]
    assert data["citations"] == []


def test_out_of_scope_with_an_lm_configured_says_no_lm_was_used():
    lm = ScriptedLM()
    data = client(make_app(lms=lm.roles())).post("/v1/ask", json={"question": "삼성전자 주가 알려줘"}).json()
    assert data["out_of_scope"] is True
    assert lm.calls == []
    assert data["trace"]["lm_calls"]["total"] == 0
    assert data["uses_lm"] is False
    assert data["trace"]["uses_lm"] is False


def test_user_profile_pulls_in_the_dur_rule_and_a_strategy_profile_changes_the_strategy():
    app = make_app()
    c = client(app)
    data = c.post("/v1/ask", json={"question": "부루펜 부작용", "user": {"pregnant": True}}).json()
    assert "dur:cc:2158" in [x["id"] for x in data["citations"]]
    base = c.post("/v1/ask", json={"question": "게보린 부작용", "profile": "baseline"}).json()
    assert base["trace"]["stop_reason"] == "basic_rag"
    assert data["trace"]["stop_reason"] != "basic_rag"
    host = app.state.host
    assert host.program_for("baseline") is host.program_for("baseline")
    assert host.program_for("baseline").shared is host.program.shared


def test_a_breastfeeding_user_is_read_as_the_cli_reads_it():
    c = client(make_app())
    data = c.post("/v1/ask", json={"question": "부루펜 먹어도 돼요?", "user": {"breastfeeding": "yes"}}).json()
    assert "설명서 수유부 금지" in data["answer"].splitlines()[0]  # its leaflet forbids it to 수유부
    bad = c.post("/v1/ask", json={"question": "부루펜 먹어도 돼요?", "user": {"breastfeeding": "maybe"}})
    assert bad.status_code == 422 and "breastfeeding" in bad.text


def test_search_returns_ranked_documents_and_flags_out_of_scope():
    c = client(make_app())
    data = c.get("/v1/search", params={"q": "게보린 부작용", "k": 3}).json()
    assert data["hits"][0]["id"] == "easydrug:197900277:se"
    assert len(data["hits"]) <= 3
    assert data["hits"][0]["product"] == "게보린정(수출명:돌로린정)"
    assert "[이상반응" in data["hits"][0]["text"]
    assert c.get("/v1/search", params={"q": "오늘 날씨"}).json()["out_of_scope"] is True


def test_healthz_names_the_lms_and_limits():
    data = client(make_app(lms=ScriptedLM().roles())).get("/healthz").json()
    assert data["status"] == "ok"
    assert data["uses_lm"] is True
    assert data["lm"]["generate"] == "scripted/lm"
    assert data["in_flight"] == 0
    assert data["max_concurrent"] == 64
    assert data["auth"] is False
    assert data["scores"] == "quality"
    assert client(make_app()).get("/healthz").json()["uses_lm"] is False


def test_page_and_openapi_are_served():
    c = client(make_app())
    page = c.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "질문하기" in page.text
    assert "/v1/ask/stream" in page.text
    spec = c.get("/openapi.json").json()
    assert {"/v1/ask", "/v1/ask/stream", "/v1/search", "/healthz"} <= set(spec["paths"])
    assert "text/event-stream" in spec["paths"]["/v1/ask/stream"]["post"]["responses"]["200"]["content"]


class Exploding(FakeBackend):
    def retrieve(self, *args, **kwargs):
        raise RuntimeError("secret internals at /srv/index")


def test_a_program_error_is_json_without_a_stack_trace():
    r = client(make_app(Exploding())).post("/v1/ask", json={"question": "게보린 부작용"})
    assert r.status_code == 500
    assert r.json() == {"error": "internal", "message": "internal error; see the server log"}
    assert "secret" not in r.text
    assert "Traceback" not in r.text


def test_unknown_paths_and_methods_are_json():
    c = client(make_app())
    assert c.get("/nope").json()["error"] == "not_found"
    r = c.get("/v1/ask")
    assert r.status_code == 405
    assert r.json()["error"] == "method_not_allowed"
