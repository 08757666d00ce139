"""LM configuration: file, environment and flags, per-role temperatures."""

import pytest

from programs.budget import ROLES
from programs.lm_config import LMConfigError, LMOverrides, load_lm_config


def test_file_env_and_flags_merge_in_order(tmp_path):
    cfg_file = tmp_path / "yaksa.toml"
    cfg_file.write_text(
        '[retrieval]\nk = 5\n[lm]\nmodel = "openai/file"\napi_base = "http://127.0.0.1:9/v1"\ntimeout = 30\n'
        '[lm.roles]\nverify = "openai/verifier"\n[lm.temperature]\ngenerate = 0.2\n',
        encoding="utf-8",
    )
    cfg = load_lm_config(cfg_file, env={})
    assert cfg.models == {
        "query": "openai/file",
        "generate": "openai/file",
        "verify": "openai/verifier",
        "judge": "openai/file",
    }
    assert cfg.api_base == "http://127.0.0.1:9/v1"
    assert cfg.timeout == 30
    assert cfg.temperature("generate") == 0.2
    env = {"YAKSA_LM_JUDGE": "openai/env-judge", "YAKSA_API_KEY": "k"}
    cfg = load_lm_config(cfg_file, env=env, overrides=LMOverrides(role_models={"query": "openai/flag"}))
    assert cfg.models["judge"] == "openai/env-judge"
    assert cfg.models["query"] == "openai/flag"
    assert cfg.api_key == "k"
    assert cfg.describe()["api_key"] == "set"
    assert load_lm_config(cfg_file, env={}, overrides=LMOverrides(model="openai/all")).models["verify"] == "openai/all"


def test_config_path_from_env_and_defaults(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[lm]\nmodel = "openai/x"\n', encoding="utf-8")
    assert load_lm_config(env={"YAKSA_CONFIG": str(path)}).configured
    cfg = load_lm_config(tmp_path / "missing.toml", env={})
    assert not cfg.configured
    assert cfg.build() == {}
    assert cfg.temperatures == {"query": 0.5, "generate": 0.1, "verify": 0.3, "judge": 0.3}


def test_build_gives_one_lm_per_role_with_its_temperature():
    lms = load_lm_config("/nonexistent", env={"YAKSA_LM": "openai/m", "YAKSA_API_BASE": "http://h/v1"}).build()
    assert set(lms) == set(ROLES)
    assert lms["generate"].kwargs["temperature"] == 0.1
    assert lms["query"].kwargs["temperature"] == 0.5


@pytest.mark.parametrize("text", ["[lm\n", '[lm.roles]\nwriter = "x"\n', "[lm.temperature]\nwriter = 0.1\n"])
def test_malformed_config_is_refused(tmp_path, text):
    path = tmp_path / "yaksa.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LMConfigError):
        load_lm_config(path, env={})


def test_every_override_wins_over_the_file_and_the_environment(tmp_path):
    path = tmp_path / "yaksa.toml"
    path.write_text(
        '[lm]\nmodel = "openai/file"\napi_base = "http://127.0.0.1:1/v1"\nfirst_token_timeout = 90\n'
        'idle_timeout = 45\nstream = true\nstructured = "json_schema"\n[lm.max_tokens]\ngenerate = 2048\n',
        encoding="utf-8",
    )
    env = {
        "YAKSA_LM": "openai/env",
        "YAKSA_API_BASE": "http://127.0.0.1:2/v1",
        "YAKSA_API_KEY": "env-key",
        "YAKSA_API_BASE_JUDGE": "http://127.0.0.1:3/v1",
        "YAKSA_LM_TIMEOUT": "80",
        "YAKSA_LM_IDLE_TIMEOUT": "40",
        "FLAG_KEY": "flag-judge-key",
    }
    flags = LMOverrides(
        model="openai/flag",
        role_models={"verify": "openai/flag-verify"},
        api_base="http://127.0.0.1:4/v1",
        api_key="flag-key",
        timeout=20,
        role_api_bases={"judge": "http://127.0.0.1:5/v1"},
        role_api_key_envs={"judge": "FLAG_KEY"},
        max_tokens={"generate": 512},
        structured={"*": "off"},
        idle_timeout=10,
        stream=False,
    )
    cfg = load_lm_config(path, env=env, overrides=flags)
    assert cfg.models == {"query": "openai/flag", "generate": "openai/flag", "verify": "openai/flag-verify",
                          "judge": "openai/flag"}  # fmt: skip
    assert (cfg.base("query"), cfg.base("judge")) == ("http://127.0.0.1:4/v1", "http://127.0.0.1:5/v1")
    assert (cfg.key("query"), cfg.key("judge")) == ("flag-key", "flag-judge-key")
    assert (cfg.first_token_timeout, cfg.idle_timeout, cfg.stream) == (20, 10, False)
    assert cfg.max_tokens["generate"] == 512
    assert set(cfg.structured.values()) == {"off"}
    without = load_lm_config(path, env=env)
    assert (without.models["generate"], without.base("query"), without.base("judge")) == (
        "openai/env", "http://127.0.0.1:2/v1", "http://127.0.0.1:3/v1",
    )  # fmt: skip
    assert (without.first_token_timeout, without.idle_timeout, without.stream) == (80, 40, True)
    assert load_lm_config(path, env=env, overrides=LMOverrides()) == without
