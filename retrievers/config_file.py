"""yaksa.toml: one file, one table per settings object, and the environment variables that override them.

The file is ``$YAKSA_CONFIG`` or ./yaksa.toml. Each settings object is a frozen dataclass read from its own table:
``[crag]`` `programs.settings.CragSettings`, ``[serve]`` `yaksa.app.settings.ServeSettings`, ``[lm]``
`programs.lm_config.LMConfig` (its environment variables are listed there), ``[retrieval]``
`retrievers.settings.RetrievalSettings` (this module lives in retrievers/, the lowest layer, so every settings
object reads its table here). The
order is always: the dataclass's defaults, then the file's table, then the environment (`ENVIRONMENT`), then the
values a caller passes (command-line flags; a flag left out is None and changes nothing).

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Limits:
    ...     budget: int = 12
    ...     weights: tuple = (0.4, 0.6)
    >>> load_settings(Limits, "limits", path="/nonexistent.toml", budget=None)
    Limits(budget=12, weights=(0.4, 0.6))
    >>> load_settings(Limits, "limits", path="/nonexistent.toml", budget=3).budget
    3
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

DEFAULT_FILE = "yaksa.toml"
CONFIG_ENV = "YAKSA_CONFIG"
# every table the file may hold (a misspelt table, e.g. [crga], would otherwise be ignored without a word)
TABLES = ("crag", "lm", "retrieval", "serve")

# every environment variable that overrides a settings field: table -> {field: variable}
ENVIRONMENT: dict[str, dict[str, str]] = {
    "serve": {"api_token": "YAKSA_API_TOKEN", "trace_sample": "YAKSA_TRACE_SAMPLE"},
}


class ConfigFileError(ValueError):
    """yaksa.toml (or a value overriding it) is not valid; the message names the file, the table and the key."""


def config_path(path: str | Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The config file: `path`, else ``$YAKSA_CONFIG``, else ./yaksa.toml (it need not exist)."""
    env = os.environ if env is None else env
    return Path(path or env.get(CONFIG_ENV) or DEFAULT_FILE)


def read_table(name: str, path: str | Path | None = None, env: Mapping[str, str] | None = None) -> dict:
    """The ``[name]`` table of the config file ({} when the file or the table is absent).

    Raises:
        ConfigFileError: the file is not UTF-8 TOML, ``name`` is not a table, or the file has a table (or a top-level
            key) that is none of `TABLES`.
    """
    file = config_path(path, env)
    if not file.is_file():
        return {}
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigFileError(f"{file}: not valid TOML ({e})") from None
    except UnicodeDecodeError as e:
        raise ConfigFileError(f"{file}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise ConfigFileError(
            f"{file}: unknown table(s) {', '.join(f'[{t}]' for t in unknown)} (known: {', '.join(TABLES)})"
        )
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise ConfigFileError(f"{file}: [{name}] must be a table")
    return table


def environment(name: str, field: str, env: Mapping[str, str] | None = None) -> str | None:
    """The environment's value for `field` of table `name` (None when no variable overrides it, or it is empty)."""
    env = os.environ if env is None else env
    variable = ENVIRONMENT.get(name, {}).get(field)
    return (env.get(variable) or None) if variable else None


def load_settings(cls, name: str, path: str | Path | None = None, env: Mapping[str, str] | None = None, **values):
    """A `cls` (a frozen dataclass) from its defaults, the ``[name]`` table, the environment, then `values`.

    A value of None (a flag left out) changes nothing; a list in the file becomes a tuple where the field's default
    is one.

    Raises:
        ConfigFileError: an unknown key, or a value the dataclass refuses (its ``__post_init__``).
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    where = f"{config_path(path, env)}: [{name}]"
    table = read_table(name, path, env)
    unknown = sorted(set(table) - set(fields))
    if unknown:
        raise ConfigFileError(f"{where} has unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(fields))})")
    merged = {k: _like_default(fields[k], v) for k, v in table.items()}
    for field in ENVIRONMENT.get(name, {}):
        value = environment(name, field, env)
        if value is not None:
            merged[field] = value
    unknown = sorted(set(values) - set(fields))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(unknown)}")
    merged.update({k: v for k, v in values.items() if v is not None})
    try:
        return cls(**merged)
    except (TypeError, ValueError) as e:
        raise ConfigFileError(f"{where}: {e}") from None


def _like_default(field: dataclasses.Field, value):
    default = field.default
    if isinstance(default, tuple) and isinstance(value, list):
        return tuple(value)
    return value
