"""Choosing the judge LM from flags and environment; no model means the no-LM path."""

import pytest

from programs.turn.lm import LOCAL_API_KEY, turn_lm


def test_no_model_means_no_lm():
    assert turn_lm(environ={}) is None


def test_flags_win_over_environment():
    lm = turn_lm("openai/flag-model", environ={"YAKSA_LM": "openai/env-model", "OPENAI_API_KEY": "k"})
    assert lm.model == "openai/flag-model"


def test_environment_names_the_model_and_base():
    lm = turn_lm(environ={"YAKSA_LM": "openai/local", "YAKSA_API_BASE": "http://127.0.0.1:8000/v1"})
    assert lm.model == "openai/local"
    assert lm.kwargs["api_base"] == "http://127.0.0.1:8000/v1"
    assert lm.kwargs["api_key"] == LOCAL_API_KEY  # a local server needs no key, the client wants one


def test_an_explicit_key_is_used():
    lm = turn_lm("openai/x", "http://h/v1", environ={"YAKSA_API_KEY": "secret"})
    assert lm.kwargs["api_key"] == "secret"


def test_api_base_without_model_is_an_error():
    with pytest.raises(ValueError, match="no model"):
        turn_lm(api_base="http://127.0.0.1:8000/v1", environ={})
