"""LM configuration: a litellm model string per role (query, generate, verify, judge), where each role's server is
(one ``api_base`` and key for all, or one per role), the seeds' per-role temperatures (0.1 generate, 0.3 evaluate,
0.5 rewrite), per-role output limits, the limits of one call, and the structured-output dialect.

Sources, later ones winning: the ``[lm]`` section of ``yaksa.toml`` in the working directory (or the file named by
``$YAKSA_CONFIG``), the environment (``YAKSA_LM``, ``YAKSA_LM_<ROLE>``, ``YAKSA_API_BASE[_<ROLE>]``,
``YAKSA_API_KEY[_<ROLE>]``, ``YAKSA_LM_TIMEOUT``, ``YAKSA_LM_IDLE_TIMEOUT``), and command-line flags (`LMOverrides`).
No model anywhere means no LM: the program runs on its heuristic fallbacks.

    [lm]
    model = "openai/qwen2.5-7b-instruct"   # every role
    api_base = "http://127.0.0.1:8000/v1"
    first_token_timeout = 60               # s until the first token (alias: timeout)
    idle_timeout = 30                      # s between tokens once they flow
    stream = true                          # stream every call (off for servers without server-sent events)
    structured = "auto"                    # json_schema | json_object+schema | off | auto
    [lm.max_tokens]
    generate = 1024
    [lm.roles]
    verify = "openai/gpt-4o-mini"           # one role differs: a model string ...
    [lm.roles.judge]                        # ... or a table with its own server and key
    model = "openai/judge"
    api_base = "http://127.0.0.1:8001/v1"
    api_key_env = "JUDGE_KEY"               # the key is read from this environment variable
    structured = "json_schema"
    [lm.temperature]
    generate = 0.1

Output limits per role (``MAX_TOKENS``) follow what each role's predictors return: ``query`` three short term
lists and a keyword query (384); ``generate`` an answer of three or four cited paragraphs, or its correction (1024);
``verify`` a verdict, a cause and one or two sentences of feedback (256); ``judge`` three scores, two short lists,
a flag and a reason, or a yes/no grade with a sentence (512). Structured outputs bound each field's length to fit
(`programs.structured`), so a reply ends before its limit and parses.

Every call makes one HTTP request: retries are off (``num_retries = 0``), so the LM-call budget counts requests.

Example:
    >>> cfg = load_lm_config(env={"YAKSA_LM": "openai/m", "YAKSA_LM_JUDGE": "openai/j"}, path="/nonexistent")
    >>> cfg.models["generate"], cfg.models["judge"], cfg.temperature("query"), cfg.max_tokens["generate"]
    ('openai/m', 'openai/j', 0.5, 1024)
    >>> flags = LMOverrides(role_models={"judge": "openai/flag"}, max_tokens={"*": 300})
    >>> cfg = load_lm_config("/nonexistent", {"YAKSA_LM": "openai/m", "YAKSA_LM_JUDGE": "openai/j"}, flags)
    >>> cfg.models["judge"], cfg.max_tokens["generate"]
    ('openai/flag', 300)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from programs.budget import ROLES
from programs.call_limits import CallLimits
from retrievers.config_file import ConfigFileError, read_table

TEMPERATURES = {"query": 0.5, "generate": 0.1, "verify": 0.3, "judge": 0.3}
MAX_TOKENS = {"query": 384, "generate": 1024, "verify": 256, "judge": 512}
STRUCTURED = ("auto", "json_schema", "json_object+schema", "off")
FIRST_TOKEN_TIMEOUT = CallLimits.first_token_s  # the call limits' defaults (programs/lm_call.py)
IDLE_TIMEOUT = CallLimits.idle_s
ROLE_KEYS = {"model", "api_base", "api_key_env", "max_tokens", "structured", "temperature"}


class LMConfigError(ValueError):
    """The LM configuration file or values are malformed."""


@dataclass
class LMConfig:
    """Models per role, how to reach them, and the limits of each call.

    Attributes:
        models: litellm model string per role ("" for none).
        api_base / api_key: the default server and key; ``api_bases`` / ``api_keys`` override them per role.
        temperatures, max_tokens, structured: per role.
        first_token_timeout: seconds until a call's first token (without streaming: its whole reply).
        idle_timeout: seconds between tokens once they flow.
        stream: stream every call (needed to tell a slow model from a dead one).
    """

    models: dict[str, str] = field(default_factory=lambda: {role: "" for role in ROLES})
    api_base: str = ""
    api_key: str = ""
    api_bases: dict[str, str] = field(default_factory=dict)
    api_keys: dict[str, str] = field(default_factory=dict)
    temperatures: dict[str, float] = field(default_factory=lambda: dict(TEMPERATURES))
    max_tokens: dict[str, int] = field(default_factory=lambda: dict(MAX_TOKENS))
    structured: dict[str, str] = field(default_factory=lambda: {role: "auto" for role in ROLES})
    first_token_timeout: float = FIRST_TOKEN_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT
    stream: bool = True
    num_retries: int = 0
    cache: bool = False

    @property
    def configured(self) -> bool:
        return any(self.models.values())

    @property
    def timeout(self) -> float:
        """The first-token limit (the name older configurations use)."""
        return self.first_token_timeout

    def temperature(self, role: str) -> float:
        return float(self.temperatures.get(role, TEMPERATURES[role]))

    def base(self, role: str) -> str:
        return self.api_bases.get(role) or self.api_base

    def key(self, role: str) -> str:
        return self.api_keys.get(role) or self.api_key

    def limits(self) -> CallLimits:
        return CallLimits(self.first_token_timeout, self.idle_timeout, self.stream)

    def build(self) -> dict:
        """A `dspy.LM` per configured role (roles without a model are left out), each carrying its `CallSettings`."""
        import dspy

        from programs.structured import CallSettings, resolve_dialect

        lms = {}
        for role in ROLES:
            model = self.models.get(role)
            if not model:
                continue
            base, key = self.base(role), self.key(role)
            kwargs = dict(
                temperature=self.temperature(role),
                max_tokens=int(self.max_tokens.get(role, MAX_TOKENS[role])),
                num_retries=self.num_retries,
                cache=self.cache,
                # the HTTP client's own limits only end a worker the watchdog already gave up on
                # a number, not an httpx.Timeout: it is part of DSPy's cache key, which must stay stable
                timeout=max(self.first_token_timeout, self.idle_timeout) + 5,
            )
            if base:
                kwargs["api_base"] = base
            if key or base:  # local OpenAI-compatible servers accept any key
                kwargs["api_key"] = key or "local"
            lm = dspy.LM(model, **kwargs)
            lm.yaksa = CallSettings(
                role=role,
                limits=self.limits(),
                structured=resolve_dialect(self.structured.get(role, "auto"), model, base),
            )
            lms[role] = lm
        return lms

    def describe(self) -> dict:
        """The configuration without keys, for traces and `--json`."""
        return {
            "models": dict(self.models),
            "api_base": self.api_base,
            "api_bases": dict(self.api_bases),
            "temperatures": dict(self.temperatures),
            "max_tokens": dict(self.max_tokens),
            "structured": dict(self.structured),
            "first_token_timeout": self.first_token_timeout,
            "idle_timeout": self.idle_timeout,
            "stream": self.stream,
            "api_key": "set" if self.api_key or self.api_keys else "",
        }


@dataclass(frozen=True, kw_only=True)
class LMOverrides:
    """What the command line sets over the file and the environment; a value left None (or empty) is not set.

    Per-role mappings (``role_models``, ``role_api_bases``, ``max_tokens``, ``structured``) take a role name, or
    ``"*"`` for every role.

    Attributes:
        model: the model of every role; ``role_models``: a role's own model (wins over `model`).
        api_base / api_key: the default server and key; ``role_api_bases``: a role's own server.
        role_api_key_envs: per role, the environment variable holding its key (it must be set).
        timeout: seconds until a call's first token; ``idle_timeout``: seconds between tokens.
        max_tokens, structured: per role.
        stream: stream every call (True / False); None keeps the file's or the default.

    Example:
        >>> LMOverrides(model="openai/m", max_tokens={"generate": 800}).max_tokens
        {'generate': 800}
    """

    model: str | None = None
    role_models: Mapping[str, str | None] | None = None
    api_base: str | None = None
    api_key: str | None = None
    timeout: float | None = None
    role_api_bases: Mapping[str, str] | None = None
    role_api_key_envs: Mapping[str, str] | None = None
    max_tokens: Mapping[str, int | str] | None = None
    structured: Mapping[str, str] | None = None
    idle_timeout: float | None = None
    stream: bool | None = None


def load_lm_config(
    path: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    overrides: LMOverrides | None = None,
) -> LMConfig:
    """Merge the file, the environment and the `overrides` (in that order of precedence, overrides last)."""
    env = os.environ if env is None else env
    flags = overrides or LMOverrides()
    cfg = LMConfig()
    section = _read_section(path, env)
    _apply_file(cfg, section, env)
    _apply(
        cfg,
        env.get("YAKSA_LM"),
        {r: env.get(f"YAKSA_LM_{r.upper()}") for r in ROLES},
        env.get("YAKSA_API_BASE"),
        env.get("YAKSA_API_KEY"),
        env.get("YAKSA_LM_TIMEOUT"),
    )
    _per_role(cfg.api_bases, {r: env.get(f"YAKSA_API_BASE_{r.upper()}") for r in ROLES}, str, "api_base")
    _per_role(cfg.api_keys, {r: env.get(f"YAKSA_API_KEY_{r.upper()}") for r in ROLES}, str, "api_key")
    if env.get("YAKSA_LM_IDLE_TIMEOUT"):
        cfg.idle_timeout = _seconds(env["YAKSA_LM_IDLE_TIMEOUT"], "YAKSA_LM_IDLE_TIMEOUT")
    _apply(cfg, flags.model, flags.role_models or {}, flags.api_base, flags.api_key, flags.timeout)
    _per_role(cfg.api_bases, flags.role_api_bases, str, "--api-base")
    keys = {r: _env_key(env, name, "--api-key-env") for r, name in (flags.role_api_key_envs or {}).items() if name}
    _per_role(cfg.api_keys, keys, str, "--api-key-env")
    _per_role(cfg.max_tokens, flags.max_tokens, _tokens, "--max-tokens")
    _per_role(cfg.structured, flags.structured, _dialect, "--structured")
    if flags.idle_timeout:
        cfg.idle_timeout = _seconds(flags.idle_timeout, "idle timeout")
    if flags.stream is not None:
        cfg.stream = bool(flags.stream)
    return cfg


def _apply_file(cfg: LMConfig, section: dict, env: Mapping[str, str]) -> None:
    unknown = set(section) - {
        "model", "roles", "api_base", "api_key_env", "timeout", "first_token_timeout", "idle_timeout", "stream",
        "structured", "max_tokens", "temperature", "num_retries",
    }  # fmt: skip
    if unknown:
        raise LMConfigError(f"[lm] has unknown key(s) {', '.join(sorted(unknown))}")
    roles, role_tables = {}, {}
    for role, value in (section.get("roles") or {}).items():
        if isinstance(value, dict):
            role_tables[role] = value
            roles[role] = value.get("model")
        else:
            roles[role] = value
    key = _env_key(env, section["api_key_env"], "[lm] api_key_env") if section.get("api_key_env") else None
    _apply(cfg, section.get("model"), roles, section.get("api_base"), key, None)
    timeout = section.get("first_token_timeout", section.get("timeout"))
    if timeout is not None:
        cfg.first_token_timeout = _seconds(timeout, "[lm] first_token_timeout")
    if section.get("idle_timeout") is not None:
        cfg.idle_timeout = _seconds(section["idle_timeout"], "[lm] idle_timeout")
    if "stream" in section:
        cfg.stream = bool(section["stream"])
    if "num_retries" in section:
        cfg.num_retries = int(section["num_retries"])
    for name, target, cast in (
        ("temperature", cfg.temperatures, float),
        ("max_tokens", cfg.max_tokens, _tokens),
        ("structured", cfg.structured, _dialect),
    ):
        value = section.get(name)
        if value is None:
            continue
        _per_role(target, value if isinstance(value, dict) else {"*": value}, cast, f"[lm.{name}]")
    for role, table in role_tables.items():
        extra = set(table) - ROLE_KEYS
        if extra:
            raise LMConfigError(f"[lm.roles.{role}] has unknown key(s) {', '.join(sorted(extra))}")
        if table.get("api_base"):
            cfg.api_bases[role] = str(table["api_base"])
        if table.get("api_key_env"):
            cfg.api_keys[role] = _env_key(env, table["api_key_env"], f"[lm.roles.{role}] api_key_env")
        for name, target, cast in (
            ("max_tokens", cfg.max_tokens, _tokens),
            ("structured", cfg.structured, _dialect),
            ("temperature", cfg.temperatures, float),
        ):
            if name in table:
                target[role] = cast(table[name])


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
        cfg.first_token_timeout = _seconds(timeout, "LM timeout")


def _per_role(target: dict, values: Mapping | None, cast, where: str) -> None:
    for role, value in (values or {}).items():
        if value is None or value == "":
            continue
        if role != "*" and role not in ROLES:
            raise LMConfigError(f"{where} has unknown role {role!r}; roles are {', '.join(ROLES)}")
        try:
            converted = cast(value)
        except (TypeError, ValueError) as e:
            raise LMConfigError(f"{where}: {e}") from None
        for r in ROLES if role == "*" else (role,):
            target[r] = converted


def _tokens(value) -> int:
    n = int(value)
    if n < 16:
        raise ValueError(f"max_tokens {value!r} is too small (at least 16)")
    return n


def _dialect(value) -> str:
    text = str(value)
    if text not in STRUCTURED:
        raise ValueError(f"structured {text!r} is not one of {', '.join(STRUCTURED)}")
    return text


def _seconds(value, where: str) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise LMConfigError(f"{where} {value!r} is not a number") from None
    if seconds <= 0:
        raise LMConfigError(f"{where} must be more than 0 seconds")
    return seconds


def _env_key(env: Mapping[str, str], name: str, where: str) -> str:
    value = env.get(str(name))
    if not value:
        raise LMConfigError(f"{where} names ${name}, which is not set")
    return value


def _read_section(path: str | Path | None, env: Mapping[str, str]) -> dict:
    """The ``[lm]`` table (`retrievers.config_file`), its faults as `LMConfigError`."""
    try:
        return read_table("lm", path, env)
    except ConfigFileError as e:
        raise LMConfigError(str(e)) from None
