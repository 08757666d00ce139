"""The LM flags every command that may call an LM shares (``--lm``, ``--lm-ROLE``, ``--api-base``, ``--config``, the
per-role servers and limits), and the `LMConfig` they build (`programs.lm_config`).

A flag left out is None: the value then comes from ``yaksa.toml`` ``[lm]``, the environment, or the default, in
that order (`programs.lm_config.load_lm_config`).

Example:
    >>> role_values(["generate=800", "300"], "--max-tokens")
    {'generate': '800', '*': '300'}
"""

from __future__ import annotations

from programs.budget import ROLES
from programs.call_limits import CallLimits
from yaksa.errors import UserError

NEED_LM = (
    "{what} needs an LM: pass --lm MODEL (a litellm model string, e.g. openai/gpt-4o-mini, with --api-base for a "
    "local OpenAI-compatible server), or set YAKSA_LM, or an [lm] section in yaksa.toml"
)


def add_lm_args(p, cache_flag: bool = True, time_budget: bool = False) -> None:
    """The model flags, and the limits of `add_lm_limit_args` (with ``--time-budget`` when `time_budget`)."""
    p.add_argument("--lm", help="litellm model string for every role, e.g. openai/gpt-4o-mini (default: none, no LM)")
    for role in ROLES:
        p.add_argument(f"--lm-{role}", help=f"model for the {role} role only")
    p.add_argument("--api-base", help="base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama)")
    p.add_argument("--config", help="config file with an [lm] section (default: ./yaksa.toml or $YAKSA_CONFIG)")
    if cache_flag:
        p.add_argument("--no-cache", action="store_true", help="bypass DSPy's LM cache (default: cached)")
    add_lm_limit_args(p, time_budget=time_budget)


def add_lm_limit_args(p, time_budget: bool = False) -> None:
    """Per-role servers, output limits, structured outputs and call limits (docs/crag.md "LM limits")."""
    from programs.settings import CragSettings

    limits = CallLimits()
    g = p.add_argument_group(f"LM servers and limits (ROLE is {', '.join(ROLES[:-1])} or {ROLES[-1]})")
    g.add_argument("--role-api-base", action="append", metavar="ROLE=URL", help="a server for one role")
    g.add_argument(
        "--role-api-key-env", action="append", metavar="ROLE=VAR", help="environment variable holding a role's key"
    )
    g.add_argument("--max-tokens", action="append", metavar="[ROLE=]N", help="output limit for every role or one role")
    g.add_argument(
        "--structured",
        action="append",
        metavar="[ROLE=]MODE",
        help="structured outputs: auto (default), json_schema, json_object+schema or off",
    )
    g.add_argument(
        "--first-token-timeout",
        type=float,
        metavar="S",
        help=f"seconds to the first token (default {limits.first_token_s:g})",
    )
    g.add_argument(
        "--idle-timeout", type=float, metavar="S", help=f"seconds between tokens (default {limits.idle_s:g})"
    )
    g.add_argument(
        "--no-lm-stream", action="store_true", help="do not stream LM calls (servers without server-sent events)"
    )
    if time_budget:
        default = CragSettings().time_budget_s
        g.add_argument(
            "--time-budget", type=float, metavar="S", help=f"seconds per question, 0 for none (default {default:g})"
        )


def role_values(values, what: str, all_roles: bool = True) -> dict[str, str]:
    """``["generate=800", "300"]`` -> ``{"generate": "800", "*": "300"}``; a bare value means every role."""
    out = {}
    for value in values or []:
        role, sep, rest = str(value).partition("=")
        if sep and role in ROLES:
            out[role] = rest
        elif all_roles and not (sep and role.isidentifier() and role.islower()):
            out["*"] = value
        else:
            raise UserError(f"{what} {value!r}: use ROLE=VALUE with ROLE one of {', '.join(ROLES)}")
    return out


def lm_config(args, cache: bool | None = None):
    """The `LMConfig` of the flags over ``[lm]`` and the environment; a malformed value is a `UserError`."""
    from programs.lm_config import LMConfigError, LMOverrides, load_lm_config

    try:
        flags = LMOverrides(
            model=getattr(args, "lm", None),
            api_base=getattr(args, "api_base", None),
            role_models={r: getattr(args, f"lm_{r}", None) for r in ROLES},
            timeout=getattr(args, "first_token_timeout", None),
            role_api_bases=role_values(getattr(args, "role_api_base", None), "--role-api-base", all_roles=False),
            role_api_key_envs=role_values(
                getattr(args, "role_api_key_env", None), "--role-api-key-env", all_roles=False
            ),
            max_tokens=role_values(getattr(args, "max_tokens", None), "--max-tokens"),
            structured=role_values(getattr(args, "structured", None), "--structured"),
            idle_timeout=getattr(args, "idle_timeout", None),
            stream=False if getattr(args, "no_lm_stream", False) else None,
        )
        config = load_lm_config(getattr(args, "config", None), overrides=flags)
    except LMConfigError as e:
        raise UserError(str(e)) from None
    config.cache = (not getattr(args, "no_cache", False)) if cache is None else cache
    return config


def require_lm(config, what: str) -> None:
    """A `UserError` saying how to set an LM when `config` has none."""
    if not config.configured:
        raise UserError(NEED_LM.format(what=what))


def describe_lms(config) -> dict:
    """The model of each role and the server, as MLflow params."""
    params = {f"lm.{role}": config.models.get(role) or "none" for role in ROLES}
    params["lm.api_base"] = config.api_base or "default"
    return params
