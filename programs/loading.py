"""Save a compiled program as JSON state and load it back for apps: `programs.load(uri)`.

A state file is the program's ``dump_state()`` (instructions and demos of every predictor) plus a ``yaksa`` header
naming the program (``crag`` or ``turn``), its profile and settings. Loading reads JSON only: nothing is unpickled
and no code from the file runs; an LM stored on a predictor is dropped (the program's LMs come from the caller or
the LM configuration). `load` accepts:

* a path to a ``.json`` state file;
* an MLflow URI (``models:/yaksa-crag@champion``, ``models:/yaksa-crag/3``, or ``runs:/<id>/program``, the compile
  run's state artifact): only the JSON state artifact is downloaded and read; the pickled pyfunc wrapper is never
  opened.

``.pkl`` files are refused unless ``allow_pickle=True`` (they can run arbitrary code). Whatever is in a state file is
sent to the LM on every call, so a file is refused (`StateError`, naming the limit) when it is larger than
`MAX_STATE_BYTES`, when an instruction or field text is longer than `MAX_INSTRUCTION_CHARS`, when a predictor has more
than `MAX_DEMOS` demos or a demo is longer than `MAX_DEMO_CHARS`, when its header's ``format`` is not one this code
reads (`FORMATS`), and when its settings hold a key `programs.settings.CragSettings` does not have.

Example (not run as a doctest: it needs an MLflow registry with a registered yaksa-crag):
    >>> program = load("models:/yaksa-crag@champion")              # doctest: +SKIP
    >>> program(question="게보린 먹고 속이 쓰려요").answer           # doctest: +SKIP
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STATE_FILE = "yaksa_state.json"
FORMAT = 1
FORMATS = (1,)  # the header formats this code reads; 1 is every file written so far (tests/fixtures/crag_state_v1.json)
MAX_STATE_BYTES = 5_000_000  # a compiled CRAG state with 2 demos per predictor is ~60 kB; GEPA's longest ~200 kB
MAX_INSTRUCTION_CHARS = 20_000  # per instruction, field prefix or description (GEPA writes ~2-6k characters)
MAX_DEMOS = 32  # per predictor (DSPy's optimizers default to 4 bootstrapped + 16 labeled)
MAX_DEMO_CHARS = 50_000  # per demo as JSON: a question, up to five documents of context, an answer
# names that changed since format 1 files were first written: read under the new name, so older states still load
RENAMED_SETTINGS = {"extractive_docs": "extractive_quotes"}
RETIRED_SETTINGS = ("extractive_sentences", "strip_threshold", "max_strips_per_doc")  # never read by the program
RENAMED_PREDICTORS = {"grader.grade": "lm_grader.grade", "evaluator.evaluate": "quality_evaluator.evaluate"}


class StateError(ValueError):
    """The file is not a yaksa program state."""


def save_state(program, path: str | Path, kind: str = "crag", profile: str | None = None, **info: Any) -> Path:
    """Write `program`'s JSON state with the yaksa header; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = program.dump_state(json_mode=True)
    settings = getattr(program, "settings", None)
    state["yaksa"] = {
        "format": FORMAT,
        "program": kind,
        "profile": profile,
        "settings": settings.to_dict() if hasattr(settings, "to_dict") else None,
        **info,
    }
    path.write_text(json.dumps(state, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return path


def read_state(path: str | Path) -> dict:
    """Parse a state file (JSON only) and check its header."""
    path = Path(path)
    if path.suffix == ".pkl":
        raise StateError(f"{path}: pickled programs can run code when loaded; pass allow_pickle=True if you trust it")
    try:
        size = path.stat().st_size
        if size > MAX_STATE_BYTES:
            raise StateError(f"{path}: the state file is {size:,} bytes; the limit is {MAX_STATE_BYTES:,}")
        state = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StateError(f"{path}: no such state file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise StateError(f"{path}: not a JSON state file ({e})") from None
    if not isinstance(state, dict) or not isinstance(state.get("yaksa"), dict):
        raise StateError(f"{path}: not a yaksa program state (no 'yaksa' header)")
    upgrade(state)
    check_header(state["yaksa"], path)
    check_limits(state, path)
    return state


def upgrade(state: dict) -> dict:
    """Read a state written before a rename under today's names (`RENAMED_SETTINGS`, `RENAMED_PREDICTORS`), and
    drop settings the program no longer has because nothing read them (`RETIRED_SETTINGS`).

    >>> upgrade({"grader.grade": {}, "yaksa": {"settings": {"extractive_docs": 2, "strip_threshold": 0.2}}})
    {'yaksa': {'settings': {'extractive_quotes': 2}}, 'lm_grader.grade': {}}
    """
    for old, new in RENAMED_PREDICTORS.items():
        if old in state and new not in state:
            state[new] = state.pop(old)
    settings = state.get("yaksa", {}).get("settings")
    if isinstance(settings, dict):
        for old, new in RENAMED_SETTINGS.items():
            if old in settings and new not in settings:
                settings[new] = settings.pop(old)
        for old in RETIRED_SETTINGS:
            settings.pop(old, None)
    return state


def check_header(header: dict, where) -> None:
    """Refuse a header this code cannot read: an unknown ``format``, or settings keys `CragSettings` lacks.

    Raises:
        StateError: naming the format or the keys.
    """
    if header.get("format") not in FORMATS:
        known = ", ".join(map(str, FORMATS))
        raise StateError(f"{where}: state format {header.get('format')!r} is not one this version reads ({known})")
    if header.get("program", "crag") == "crag":
        check_settings(header.get("settings"), where)


def check_settings(settings, where) -> None:
    """Refuse saved settings that are not an object, or that hold keys `CragSettings` lacks (named)."""
    if settings is None:
        return
    if not isinstance(settings, dict):
        raise StateError(f"{where}: the header's settings are not a JSON object")
    from programs.settings import CragSettings

    unknown = sorted(set(settings) - set(CragSettings.__dataclass_fields__))
    if unknown:
        raise StateError(f"{where}: unknown settings key(s) in the state header: {', '.join(map(str, unknown))}")


def check_limits(state: dict, where) -> None:
    """Refuse predictor state whose text would bloat every prompt: instructions, field texts, demo count and size.

    Raises:
        StateError: naming the predictor, the size and the limit.
    """
    for name, entry in state.items():
        if name == "yaksa" or not isinstance(entry, dict):
            continue
        signature = entry.get("signature") if isinstance(entry.get("signature"), dict) else {}
        texts = [("instructions", signature.get("instructions"))]
        for field in signature.get("fields") or []:
            if isinstance(field, dict):
                texts += [(f"field {key}", field.get(key)) for key in ("prefix", "description")]
        for what, text in texts:
            if isinstance(text, str) and len(text) > MAX_INSTRUCTION_CHARS:
                raise StateError(
                    f"{where}: {name} {what} is {len(text):,} characters; the limit is {MAX_INSTRUCTION_CHARS:,}"
                )
        demos = entry.get("demos") or []
        if not isinstance(demos, list):
            raise StateError(f"{where}: {name} demos are not a list")
        if len(demos) > MAX_DEMOS:
            raise StateError(f"{where}: {name} has {len(demos)} demos; the limit is {MAX_DEMOS}")
        for n, demo in enumerate(demos, 1):
            size = len(json.dumps(demo, ensure_ascii=False, default=str))
            if size > MAX_DEMO_CHARS:
                raise StateError(f"{where}: {name} demo {n} is {size:,} characters; the limit is {MAX_DEMO_CHARS:,}")


def build_program(header: dict, backend=None, lms: dict | None = None, web_references: bool = True):
    """An uncompiled program of the kind and profile the header names.

    Web references are on unless `web_references` is False: a compile runs without them (its profile says
    ``web_references=False``), which must not switch them off for the apps that load the result.
    """
    kind = header.get("program", "crag")
    if kind == "turn":
        from programs.turn import TurnEvaluator

        return TurnEvaluator()
    if kind != "crag":
        raise StateError(f"unknown program {kind!r} in the state header")
    from programs.ablations import ablation_settings
    from programs.crag import CRAG

    settings = ablation_settings(header.get("profile") or None)
    saved = header.get("settings")
    check_settings(saved, "state header")
    if saved:
        settings = settings.replace(**{k: _tuple(v) for k, v in saved.items()})
    return CRAG(backend=backend, settings=settings.replace(web_references=web_references), lms=lms)


def load(
    uri: str | Path,
    backend=None,
    lms: dict | str | None = "config",
    allow_pickle: bool = False,
    web_references: bool = True,
):
    """A ready program from a JSON state path or an MLflow model URI.

    Args:
        uri: a ``.json`` path, or ``models:/...`` / ``runs:/...``.
        backend: the search backend (None: the default searcher, opened on first use).
        lms: LMs per role; ``"config"`` (default) builds them from yaksa.toml / the environment; None or {} for none.
        allow_pickle: allow ``.pkl`` programs (trusted files only; they run code when loaded).
        web_references: look up web links for answers (on unless False; the compile's own setting is not kept).
    """
    if lms == "config":
        from programs.lm_config import load_lm_config

        lms = load_lm_config().build()
    text = str(uri)
    if text.endswith(".pkl"):
        if not allow_pickle:
            raise StateError(f"{text}: pickled programs can run code when loaded; pass allow_pickle=True if trusted")
        import dspy

        return dspy.load(text, allow_pickle=True)
    path = _download(text) if text.startswith(("models:/", "runs:/", "mlflow-artifacts:")) else Path(text)
    state = read_state(path)
    program = build_program(state["yaksa"], backend=backend, lms=lms, web_references=web_references)
    for entry in state.values():  # a predictor's own LM would bypass the per-role LMs: never taken from a file
        if isinstance(entry, dict) and entry.get("lm") is not None:
            entry["lm"] = None
    program.load_warnings = drop_incompatible(program, state)
    program.load_state(state)
    program.yaksa_header = state["yaksa"]
    return program


def fetch_state(ref: str | Path) -> dict:
    """The checked JSON state of a ``.json`` path or an MLflow URI (``models:/...``, ``runs:/...``): data only.

    Raises:
        StateError: a pickle, a missing or non-JSON file, a file that is not a yaksa state, or a model without one.
    """
    text = str(ref)
    if text.endswith(".pkl"):
        raise StateError(f"{text}: pickled programs can run code when loaded; only JSON states are read here")
    path = _download(text) if text.startswith(("models:/", "runs:/", "mlflow-artifacts:")) else Path(text)
    return read_state(path)


def drop_incompatible(program, state: dict) -> list[str]:
    """Remove the state of predictors whose signature changed since the file was written (their demos would not
    fit the new fields), and say which: those predictors start uncompiled until `yaksa compile` runs again."""
    warnings = []
    for name, predictor in program.named_predictors():
        entry = state.get(name)
        saved = (entry or {}).get("signature", {}).get("fields") if isinstance(entry, dict) else None
        if saved is None:
            continue
        current = [f.json_schema_extra["prefix"] for f in predictor.signature.fields.values()]
        if [f.get("prefix") for f in saved] != current:
            state[name] = predictor.dump_state()
            warnings.append(
                f"{name} was compiled for an older signature and starts uncompiled; recompile with `yaksa compile`"
            )
    return warnings


def _download(uri: str) -> Path:
    """Fetch only the JSON state artifact of an MLflow model (never the pickled wrapper)."""
    import os

    import mlflow
    from mlflow.tracking._tracking_service.utils import is_tracking_uri_set

    if not is_tracking_uri_set():
        mlflow.set_tracking_uri(os.environ.get("MLFLOW_TRACKING_URI") or "sqlite:///mlruns/mlflow.db")
    base = uri.rstrip("/")
    if base.startswith("models:/"):
        base = _model_source(base[len("models:/") :])
    for sub in (f"artifacts/{STATE_FILE}", STATE_FILE):
        try:
            return Path(mlflow.artifacts.download_artifacts(artifact_uri=f"{base}/{sub}"))
        except Exception as e:  # MlflowException (not found) or an OSError from the artifact store
            last = e
    raise StateError(f"{uri}: no {STATE_FILE} in this model ({type(last).__name__}: {str(last)[:200]})")


def _model_source(ref: str) -> str:
    """The artifact location of ``name@alias``, ``name/version`` or ``name`` (latest version)."""
    from mlflow import MlflowClient

    client = MlflowClient()
    if "@" in ref:
        name, alias = ref.split("@", 1)
        version = client.get_model_version_by_alias(name, alias).version
    elif "/" in ref:
        name, version = ref.split("/", 1)
    else:
        name = ref
        version = max(int(v.version) for v in client.search_model_versions(f"name='{name}'"))
    return client.get_model_version_download_uri(name, str(version))


def _tuple(value):
    return tuple(value) if isinstance(value, list) else value
