"""The CRAG settings a command runs with: the ``[crag]`` table of yaksa.toml, then the ``--profile``'s feature
flags (`programs.ablations`), then the flags given (``--budget``, ``--time-budget``, ``--no-web``). A flag left out
is None and keeps the settings' value."""

from __future__ import annotations

from yaksa.errors import UserError

FLAGS = {"budget": "lm_call_budget", "time_budget": "time_budget_s"}  # flag -> the CragSettings field it sets
CHECKS = {"budget": "--budget must be 0 or more", "time_budget": "--time-budget must be 0 (no limit) or more seconds"}


def crag_settings(args, **overrides):
    """The `CragSettings` of `args` (``profile``, ``config``, ``budget``, ``time_budget``, ``no_web``) and `overrides`.

    Raises:
        UserError: an unknown profile, a negative budget, or a bad ``[crag]`` table.
    """
    from programs.ablations import ABLATIONS, ablation_settings
    from programs.settings import CragSettings

    name = getattr(args, "profile", None)
    if name and name not in ABLATIONS:
        raise UserError(f"unknown profile {name!r}; choose one of: {', '.join(ABLATIONS)}")
    values = {}
    for flag, field in FLAGS.items():
        value = getattr(args, flag, None)
        if value is not None and value < 0:
            raise UserError(CHECKS[flag])
        values[field] = value
    if getattr(args, "no_web", False):
        values["web_references"] = False
    values.update(overrides)
    try:
        base = CragSettings.load(getattr(args, "config", None))
        return ablation_settings(name, base=base, **{k: v for k, v in values.items() if v is not None})
    except ValueError as e:  # a bad value in [crag] (ConfigFileError names the file) or in the flags
        raise UserError(str(e)) from None


def settings_overrides(args) -> dict:
    """The settings the flags change on a loaded program (``--model``): only those given."""
    out = {field: getattr(args, flag, None) for flag, field in FLAGS.items()}
    if getattr(args, "no_web", False):
        out["web_references"] = False
    return {k: v for k, v in out.items() if v is not None}
