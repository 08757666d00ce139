"""``yaksa eval-turn``: prompt or file in, turn log out, no LM by default, one-line errors."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from dspy.utils import DummyLM

import programs.turn.lm
from yaksa.cli import main

RUBRICS = ("clarity", "problem_relevance", "examples", "rules", "context")
PROMPT = "투 포인터로 두 수의 합 코드 작성해줘. N <= 10^5 이고 시간 초과 안 나게 O(n log n) 이하로 최적화도 해줘."


@pytest.fixture(autouse=True)
def no_lm_environment(monkeypatch):
    for name in ("YAKSA_LM", "YAKSA_LM_JUDGE", "YAKSA_API_BASE", "YAKSA_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("YAKSA_CONFIG", "/nonexistent/yaksa.toml")


def test_without_an_lm_prints_band_scores_and_says_so(capsys):
    assert main(["eval-turn", PROMPT, "--title", "두 수의 합", "--algorithms", "투 포인터, 해시"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Turn: 64 / 100\nIntents: GENERATION, OPTIMIZATION (from keyword rules)\n")
    assert "LM: none - intents from keyword rules, rubric scores from the metric bands alone" in out
    assert "clarity               95  단어 20개, 문장 2개, 구체적 값 1개 → 90-100점 구간:" in out
    assert "context               25  이전 대화 참조 0회 → 0-49점 구간: 맥락 활용 없음" in out
    assert "[OPTIMIZATION] 최적화 요청 (Optimization): 64 (metric bands)" in out


def test_json_output_is_the_turn_log(capsys):
    assert main(["eval-turn", PROMPT, "--json"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["lm"] is None
    assert log["intent_source"] == "keyword rules"
    assert log["intents"] == ["GENERATION", "OPTIMIZATION"]
    assert log["metrics"]["word_count"] == 20
    assert [e["scored_by"] for e in log["evaluations"]] == ["metric bands", "metric bands"]
    assert log["turn_score"] == log["evaluations"][0]["score"]


def test_a_file_of_turns_gives_a_list(tmp_path, capsys):
    path = tmp_path / "turns.json"
    path.write_text(json.dumps([{"prompt": "에러 나요"}, {"prompt": "Write a BFS solution", "algorithms": ["BFS"]}]))
    assert main(["eval-turn", "--file", str(path), "--json"]) == 0
    logs = json.loads(capsys.readouterr().out)
    assert [log["intents"] for log in logs] == [["DEBUGGING"], ["GENERATION"]]


def test_json_lines_such_as_the_trainset_are_read(tmp_path, capsys):
    path = tmp_path / "turns.jsonl"
    path.write_text('{"prompt": "코드 짜줘", "intents": ["GENERATION"]}\n\n{"prompt": "힌트 주세요"}\n')
    assert main(["eval-turn", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Turn 1: 25 / 100" in out
    assert "Turn 2:" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval-turn", "   "], "the prompt is empty"),
        (["eval-turn"], "give the prompt to evaluate, or --file with turns"),
        (["eval-turn", "hi", "--api-base", "http://127.0.0.1:9/v1"], "no model"),
        (["eval-turn", "--file", "/nonexistent/turns.json"], "cannot read /nonexistent/turns.json"),
    ],
)
def test_user_errors_are_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("yaksa: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_malformed_files_are_user_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["eval-turn", "--file", str(bad)]) == 2
    assert "neither JSON nor JSON lines" in capsys.readouterr().err
    no_prompt = tmp_path / "no_prompt.json"
    no_prompt.write_text('[{"prompt": "ok"}, {"reply": "x"}]')
    assert main(["eval-turn", "--file", str(no_prompt)]) == 2
    assert "turn 2 has no 'prompt' text" in capsys.readouterr().err
    assert main(["eval-turn", "x", "--file", str(no_prompt)]) == 2
    assert "not both" in capsys.readouterr().err


def test_with_an_lm_the_lm_judges(monkeypatch, capsys):
    seen = {}

    def fake_turn_lm(model=None, api_base=None):
        seen.update(model=model, api_base=api_base)
        rubric = {"score": 85, "reason": "구체적"}
        answer = {"rubrics": dict.fromkeys(("clarity", "problem_relevance", "examples", "rules", "context"), rubric)}
        return DummyLM(
            {
                "(Generation)": {**answer, "final_reasoning": "좋은 요청", "score": 85},
                "[[ ## user_prompt ## ]]": {"intents": ["GENERATION"]},
            }
        )

    monkeypatch.setattr(programs.turn.lm, "turn_lm", fake_turn_lm)
    argv = ["eval-turn", "코드 작성해줘", "--lm", "openai/judge", "--api-base", "http://127.0.0.1:8000/v1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert seen == {"model": "openai/judge", "api_base": "http://127.0.0.1:8000/v1"}
    assert out.startswith("Turn: 85 / 100\nIntents: GENERATION (from lm)\nLM: dummy\n")
    assert "[GENERATION] 코드 생성 요청 (Generation): 85 (lm)" in out
    assert "Reasoning: 좋은 요청" in out
    assert "LM 없음" not in out


class _StubChat(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint: intents, then one evaluation per eval type; Optimization may fail."""

    fail_optimization = False
    requests: list[str] = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        content = body["messages"][-1]["content"]
        prompt = content if isinstance(content, str) else "".join(part.get("text", "") for part in content)
        type(self).requests.append(prompt)
        if self.fail_optimization and "(Optimization)" in prompt:
            self.send_response(500)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")
            return
        if "[[ ## eval_type ## ]]" not in prompt:
            text = '[[ ## intents ## ]]\n["GENERATION", "OPTIMIZATION"]\n\n[[ ## completed ## ]]'
        else:
            score = 85 if "(Generation)" in prompt else 70
            rubric = json.dumps(dict.fromkeys(RUBRICS, {"score": score, "reason": "stub"}))
            text = f"[[ ## rubrics ## ]]\n{rubric}\n\n[[ ## final_reasoning ## ]]\nstub\n\n"
            text += f"[[ ## score ## ]]\n{score}\n\n[[ ## completed ## ]]"
        reply = {
            "id": "stub",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def stub_server():
    _StubChat.requests = []
    _StubChat.fail_optimization = False
    server = ThreadingHTTPServer(("127.0.0.1", 0), _StubChat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_a_real_lm_over_http_judges_both_intents(stub_server, capsys):
    argv = ["eval-turn", "코드 작성해줘. 그리고 최적화", "--lm", "openai/stub", "--api-base", stub_server, "--json"]
    assert main(argv) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["lm"] == "openai/stub"
    assert log["intent_source"] == "lm"
    assert [(e["intent"], e["score"]) for e in log["evaluations"]] == [("GENERATION", 85.0), ("OPTIMIZATION", 70.0)]
    assert log["turn_score"] == 77.5
    assert len(_StubChat.requests) == 3


def test_a_server_error_fails_one_evaluation_and_keeps_the_other(stub_server, capsys):
    _StubChat.fail_optimization = True
    assert main(["eval-turn", "코드 작성해줘. 그리고 최적화", "--lm", "openai/stub", "--api-base", stub_server]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Turn: 85 / 100\n")
    assert "[OPTIMIZATION] 최적화 요청 (Optimization): FAILED - LMServerError" in out
    assert "Note: 1 of 2 evaluations failed (OPTIMIZATION); the mean is over the rest" in out
