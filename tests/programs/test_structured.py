"""Structured outputs: the bounded schema, the dialect per server, the adapter's request body against a local
server, parse failures counted per role, and per-role servers in the configuration."""

import json

import dspy
import pytest

from programs.lm_config import MAX_TOKENS, LMConfigError, LMOverrides, load_lm_config
from programs.run import Run
from programs.structured import StructuredAdapter, dialect_for, output_schema, response_format
from signatures.evaluation import EvaluateQuality, VerifyAnswer
from signatures.generation import GenerateAnswer
from signatures.query import OptimizeQuery
from yaksa.testing.stub_openai import StubOpenAI


def test_literals_become_enums_scores_bounded_numbers_and_text_bounded_to_fit_max_tokens():
    verify = output_schema(VerifyAnswer, MAX_TOKENS["verify"])["properties"]
    assert verify["verdict"]["enum"] == ["PASS", "FAIL"]
    assert "hallucination" in verify["failure_cause"]["enum"]
    quality = output_schema(EvaluateQuality, MAX_TOKENS["judge"])
    q = quality["properties"]
    assert (q["grounding"]["minimum"], q["grounding"]["maximum"]) == (0.0, 1.0)
    assert q["missing_info"]["maxItems"] >= 1
    assert q["missing_info"]["items"]["maxLength"] == 16
    assert quality["required"] == list(EvaluateQuality.output_fields)
    assert quality["additionalProperties"] is False
    terms = output_schema(OptimizeQuery, MAX_TOKENS["query"])["properties"]
    assert all(terms[f]["maxItems"] <= 6 for f in ("core_terms", "recall_terms", "avoid_terms"))
    for signature, role in ((GenerateAnswer, "generate"), (VerifyAnswer, "verify"), (EvaluateQuality, "judge")):
        schema = output_schema(signature, MAX_TOKENS[role])
        assert worst_case_chars(schema) < MAX_TOKENS[role], signature.__name__  # one token per character fits
    assert output_schema(GenerateAnswer, 200)["properties"]["answer"]["maxLength"] < 200


def worst_case_chars(schema) -> int:
    total = 2
    for name, prop in schema["properties"].items():
        total += len(name) + 6
        if "enum" in prop:
            total += max(len(v) for v in prop["enum"]) + 2
        elif prop.get("type") == "array":
            total += prop["maxItems"] * (prop["items"]["maxLength"] + 4)
        elif prop.get("type") == "string":
            total += prop["maxLength"] + 2
        else:
            total += 18
    return total


def test_each_dialect_has_its_own_request_shape():
    schema = output_schema(VerifyAnswer, 256)
    assert response_format("json_object+schema", schema) == {"type": "json_object", "schema": schema}
    body = response_format("json_schema", schema, "VerifyAnswer")
    assert body["type"] == "json_schema"
    assert body["json_schema"]["schema"] == schema
    with pytest.raises(ValueError):
        StructuredAdapter("xml")


@pytest.mark.parametrize(
    ("owned_by", "dialect"), [("me", "json_object+schema"), ("vllm", "json_schema"), (None, "json_object+schema")]
)
def test_auto_names_the_local_server_and_picks_its_dialect(owned_by, dialect):
    with StubOpenAI(["{}"], owned_by=owned_by) as server:
        lm = load_lm_config(
            "/nonexistent", env={}, overrides=LMOverrides(model="openai/m", api_base=server.url)
        ).build()["judge"]
        assert dialect_for(lm) == dialect
    hosted = load_lm_config("/nonexistent", env={}, overrides=LMOverrides(model="openai/gpt-4o-mini")).build()["judge"]
    assert dialect_for(hosted) == "json_schema"
    off = load_lm_config(
        "/nonexistent", env={}, overrides=LMOverrides(model="openai/m", structured={"*": "off"})
    ).build()["judge"]
    assert dialect_for(off) == "off"


def test_the_request_carries_the_schema_and_the_role_max_tokens_and_the_reply_parses():
    reply = json.dumps(
        {"verdict": "FAIL", "failure_cause": "hallucination", "feedback": "근거 없음"}, ensure_ascii=False
    )
    with StubOpenAI([reply], owned_by="me") as server:
        run = Run(
            load_lm_config("/nonexistent", env={}, overrides=LMOverrides(model="openai/m", api_base=server.url)).build()
        )
        out = run.call("verify", dspy.Predict(VerifyAnswer), question="q", context="c", answer="a")
        body = server.requests[0]
    assert (out.verdict, out.failure_cause) == ("FAIL", "hallucination")
    assert body["max_tokens"] == MAX_TOKENS["verify"]
    assert body["response_format"]["type"] == "json_object"
    assert body["response_format"]["schema"]["properties"]["verdict"]["enum"] == ["PASS", "FAIL"]
    assert run.trace.parse_failures == {"query": 0, "generate": 0, "verify": 0, "judge": 0}


def test_a_server_that_took_the_port_of_another_is_asked_again_when_it_refuses_the_remembered_dialect():
    reply = json.dumps({"verdict": "PASS", "failure_cause": "none", "feedback": "근거 있음"}, ensure_ascii=False)
    with StubOpenAI([reply], owned_by="vllm") as vllm:  # answered GET /models first: json_schema remembered
        config = load_lm_config("/nonexistent", env={}, overrides=LMOverrides(model="openai/m", api_base=vllm.url))
        assert dialect_for(config.build()["verify"]) == "json_schema"
        port = int(vllm.url.rsplit(":", 1)[1].split("/")[0])
    with StubOpenAI([reply], owned_by="me", port=port) as llama_cpp_python:  # refuses json_schema with a 500
        run = Run(config.build())
        out = run.call("verify", dspy.Predict(VerifyAnswer), question="q", context="c", answer="a")
        types = [body["response_format"]["type"] for body in llama_cpp_python.requests]
    assert out.verdict == "PASS"
    assert types == ["json_schema", "json_object"]
    assert run.trace.lm_calls["verify"] == 1 and run.trace.errors == []
    assert [s["now"] for s in run.trace.steps if s["step"] == "structured_dialect"] == ["json_object+schema"]


def test_parse_failures_are_counted_per_role_with_structured_outputs_off():
    with StubOpenAI(["I think it is fine."]) as server:
        config = load_lm_config(
            "/nonexistent",
            env={},
            overrides=LMOverrides(model="openai/m", api_base=server.url, structured={"*": "off"}),
        )
        run = Run(config.build())
        for _ in range(2):
            with pytest.raises(Exception):  # noqa: B017 - the adapter's parse error, whatever its class
                run.call("verify", dspy.Predict(VerifyAnswer), question="q", context="c", answer="a")
        assert "response_format" not in server.requests[0]
    assert run.trace.parse_failures["verify"] == 2
    assert run.trace.to_dict()["parse_failures"]["verify"] == 2


def test_a_refused_dialect_says_which_setting_to_change():
    with StubOpenAI([{"status": 500, "body": '{"error": "response_format json_schema not supported"}'}]) as server:
        config = load_lm_config(
            "/nonexistent",
            env={},
            overrides=LMOverrides(model="openai/m", api_base=server.url, structured={"*": "json_schema"}),
        )
        run = Run(config.build())
        with pytest.raises(Exception):  # noqa: B017
            run.call("judge", dspy.Predict("question -> answer"), question="q")
    assert "set structured for the judge role" in run.trace.errors[0]


def test_per_role_servers_keys_limits_from_file_env_and_flags(tmp_path):
    path = tmp_path / "yaksa.toml"
    path.write_text(
        '[lm]\nmodel = "openai/all"\napi_base = "http://127.0.0.1:1/v1"\nfirst_token_timeout = 90\n'
        'idle_timeout = 45\nstructured = "json_object+schema"\n[lm.max_tokens]\ngenerate = 2048\n'
        '[lm.roles.judge]\nmodel = "openai/judge"\napi_base = "http://127.0.0.1:2/v1"\napi_key_env = "JUDGE_KEY"\n'
        'structured = "json_schema"\nmax_tokens = 300\n',
        encoding="utf-8",
    )
    env = {"JUDGE_KEY": "secret", "YAKSA_API_BASE_VERIFY": "http://127.0.0.1:3/v1"}
    cfg = load_lm_config(
        path, env=env, overrides=LMOverrides(max_tokens={"query": "128"}, structured={"verify": "off"})
    )
    assert cfg.models["judge"] == "openai/judge"
    assert cfg.base("judge") == "http://127.0.0.1:2/v1"
    assert cfg.key("judge") == "secret"
    assert cfg.key("generate") == ""
    assert cfg.base("verify").endswith(":3/v1")
    assert cfg.max_tokens == {"query": 128, "generate": 2048, "verify": 256, "judge": 300}
    assert cfg.structured == {"query": "json_object+schema", "generate": "json_object+schema", "verify": "off",
                              "judge": "json_schema"}  # fmt: skip
    assert (cfg.first_token_timeout, cfg.idle_timeout) == (90, 45)
    assert "secret" not in json.dumps(cfg.describe())
    lms = cfg.build()
    assert lms["judge"].kwargs["api_key"] == "secret"
    assert lms["judge"].kwargs["max_tokens"] == 300
    assert lms["generate"].kwargs["api_base"] == "http://127.0.0.1:1/v1"
    assert lms["query"].num_retries == 0
    assert lms["generate"].yaksa.limits.first_token_s == 90
    assert lms["verify"].yaksa.structured == "off"


@pytest.mark.parametrize(
    "text",
    [
        '[lm]\nstructured = "yaml"\n',
        "[lm.max_tokens]\nwriter = 10\n",
        '[lm.roles.judge]\nmodel = "m"\ncolour = "red"\n',
        '[lm]\napi_key_env = "NOT_SET_ANYWHERE"\n',
        "[lm]\nidle_timeout = 0\n",
        "[lm]\nmax_tokens = 3\n",
    ],
)
def test_malformed_limits_are_refused_in_one_line(tmp_path, text):
    path = tmp_path / "yaksa.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LMConfigError):
        load_lm_config(path, env={})
