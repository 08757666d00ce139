"""LM configuration: a litellm model string per role (query, generate, verify, judge), an api_base for local
OpenAI-compatible servers (vLLM, llama.cpp, Ollama), and the seeds' per-role temperatures (0.1 generate,
0.3 evaluate, 0.5 rewrite).

Sources, later ones winning: the ``[lm]`` section of ``yaksa.toml`` in the working directory (or the file named by
``$YAKSA_CONFIG``), the environment (``YAKSA_LM``, ``YAKSA_LM_<ROLE>``, ``YAKSA_API_BASE``, ``YAKSA_API_KEY``), and
command-line flags. No model anywhere means no LM: the program runs on its heuristic fallbacks.

    [lm]
    model = "openai/qwen2.5-7b-instruct"   # every role
    api_base = "http://127.0.0.1:8000/v1"
    timeout = 60
    [lm.roles]
    verify = "openai/gpt-4o-mini"           # one role differs
    [lm.temperature]
    generate = 0.1

Example:
    >>> cfg = load_lm_config(env={"YAKSA_LM": "openai/m", "YAKSA_LM_JUDGE": "openai/j"}, path="/nonexistent")
    >>> cfg.models["generate"], cfg.models["judge"], cfg.temperature("query")
    ('openai/m', 'openai/j', 0.5)
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from programs.budget import ROLES

TEMPERATURES = {"query": 0.5, "generate": 0.1, "verify": 0.3, "judge": 0.3}


class LMConfigError(ValueError):
    """The LM configuration file or values are malformed."""


@dataclass
class LMConfig:
    """Models per role and how to reach them."""

    models: dict[str, str] = field(default_factory=lambda: {role: "" for role in ROLES})
    api_base: str = ""
    api_key: str = ""
    temperatures: dict[str, float] = field(default_factory=lambda: dict(TEMPERATURES))
    max_tokens: int = 2000
    timeout: float = 60.0
    num_retries: int = 1
    cache: bool = False

    @property
    def configured(self) -> bool:
        return any(self.models.values())

    def temperature(self, role: str) -> float:
        return float(self.temperatures.get(role, TEMPERATURES[role]))

    def build(self) -> dict:
        """A `dspy.LM` per configured role (roles without a model are left out)."""
        import dspy

        lms = {}
        for role in ROLES:
            model = self.models.get(role)
            if not model:
                continue
            kwargs = dict(
                temperature=self.temperature(role),
                max_tokens=self.max_tokens,
                timeout=self.timeout,
                num_retries=self.num_retries,
                cache=self.cache,
            )
            if self.api_base:
                kwargs["api_base"] = self.api_base
            if self.api_key or self.api_base:  # local OpenAI-compatible servers accept any key
                kwargs["api_key"] = self.api_key or "local"
            lms[role] = dspy.LM(model, **kwargs)
        return lms

    def describe(self) -> dict:
        """The configuration without the key, for traces and `--json`."""
        return {
            "models": dict(self.models),
            "api_base": self.api_base,
            "temperatures": dict(self.temperatures),
            "timeout": self.timeout,
            "api_key": "set" if self.api_key else "",
        }


def config_path(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    return Path(path or env.get("YAKSA_CONFIG") or "yaksa.toml")


def load_lm_config(
    path: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    model: str | None = None,
    role_models: Mapping[str, str] | None = None,
    api_base: str | None = None,
    api_key: str | None = None,
    timeout: float | None = None,
) -> LMConfig:
    """Merge the file, the environment and the flags (in that order of precedence, flags last)."""
    env = os.environ if env is None else env
    cfg = LMConfig()
    section = _read_section(config_path(path, env))
    _apply(
        cfg,
        section.get("model"),
        section.get("roles", {}),
        section.get("api_base"),
        env.get(section["api_key_env"]) if section.get("api_key_env") else None,
        section.get("timeout"),
    )
    for role, temp in (section.get("temperature") or {}).items():
        if role not in ROLES:
            raise LMConfigError(f"[lm.temperature] has unknown role {role!r}; roles are {', '.join(ROLES)}")
        cfg.temperatures[role] = float(temp)
    for key in ("max_tokens", "num_retries"):
        if key in section:
            setattr(cfg, key, int(section[key]))
    _apply(
        cfg,
        env.get("YAKSA_LM"),
        {r: env.get(f"YAKSA_LM_{r.upper()}") for r in ROLES},
        env.get("YAKSA_API_BASE"),
        env.get("YAKSA_API_KEY"),
        env.get("YAKSA_LM_TIMEOUT"),
    )
    _apply(cfg, model, role_models or {}, api_base, api_key, timeout)
    return cfg


def _apply(cfg: LMConfig, model, roles: Mapping, api_base, api_key, timeout) -> None:
    if model:
        cfg.models = {role: str(model) for role in ROLES}
    for role, value in (roles or {}).items():
        if role not in ROLES:
            raise LMConfigError(f"unknown LM role {role!r}; roles are {', '.join(ROLES)}")
        if value:
            cfg.models[role] = str(value)
    if api_base:
        cfg.api_base = str(api_base)
    if api_key:
        cfg.api_key = str(api_key)
    if timeout:
        try:
            cfg.timeout = float(timeout)
        except ValueError:
            raise LMConfigError(f"LM timeout {timeout!r} is not a number") from None


def _read_section(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise LMConfigError(f"{path}: not valid TOML ({e})") from None
    section = data.get("lm", {})
    if not isinstance(section, dict):
        raise LMConfigError(f"{path}: [lm] must be a table")
    return section
