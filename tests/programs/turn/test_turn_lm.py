"""Choosing the judge LM from flags, environment and config file; no model means the no-LM path."""

import pytest

from programs.turn.lm import LOCAL_API_KEY, turn_lm

NO_FILE = "/nonexistent/yaksa.toml"


def test_no_model_means_no_lm():
    assert turn_lm(environ={}, config=NO_FILE) is None


def test_flags_win_over_environment():
    env = {"YAKSA_LM": "openai/env-model", "OPENAI_API_KEY": "k"}
    assert turn_lm("openai/flag-model", environ=env, config=NO_FILE).model == "openai/flag-model"


def test_environment_names_the_model_and_base_and_the_judge_role_wins():
    env = {"YAKSA_LM": "openai/local", "YAKSA_API_BASE": "http://127.0.0.1:8000/v1"}
    lm = turn_lm(environ=env, config=NO_FILE)
    assert lm.model == "openai/local"
    assert lm.kwargs["api_base"] == "http://127.0.0.1:8000/v1"
    assert lm.kwargs["api_key"] == LOCAL_API_KEY  # a local server needs no key, the client wants one
    assert turn_lm(environ={**env, "YAKSA_LM_JUDGE": "openai/judge"}, config=NO_FILE).model == "openai/judge"


def test_an_explicit_key_is_used():
    lm = turn_lm("openai/x", "http://h/v1", environ={"YAKSA_API_KEY": "secret"}, config=NO_FILE)
    assert lm.kwargs["api_key"] == "secret"


def test_config_file_is_read(tmp_path):
    path = tmp_path / "yaksa.toml"
    path.write_text('[lm]\nmodel = "openai/from-file"\napi_base = "http://127.0.0.1:1/v1"\n')
    assert turn_lm(environ={}, config=path).model == "openai/from-file"


def test_api_base_without_model_is_an_error():
    with pytest.raises(ValueError, match="no model"):
        turn_lm(api_base="http://127.0.0.1:8000/v1", environ={}, config=NO_FILE)
