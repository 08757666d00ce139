"""Structured outputs that parse with any OpenAI-compatible server: an adapter built on DSPy's `JSONAdapter` that sends
each signature's output-field JSON schema in the dialect the server accepts.

Dialects (the ``structured`` setting, per LM):

* ``json_schema``: ``response_format={"type": "json_schema", "json_schema": {"name", "schema", "strict"}}`` —
  OpenAI, vLLM, llama.cpp's C++ ``llama-server``; litellm turns it into Ollama's ``format`` for ``ollama/`` models.
* ``json_object+schema``: ``response_format={"type": "json_object", "schema": {...}}`` — llama-cpp-python's server
  (grammar-constrained decoding; it answers 500 to ``json_schema``).
* ``off``: no schema; DSPy's field-marker format (`dspy.ChatAdapter`), parsed as before (parse failures counted).
* ``auto`` (default): ``json_schema`` for a hosted provider; for a local server (an ``api_base``) one ``GET /models``
  names the server (vLLM, llama.cpp, Ollama, llama-cpp-python) and picks its dialect, ``json_object+schema`` when it
  cannot tell. The answer is remembered per server; when the server refuses the remembered dialect (another server
  took the port), it is asked again and the call retried once in its new dialect.

The schema is tight so that a small model cannot wander: literal fields are enums, scores bounded numbers
(``"0.0-1.0"`` in a field's description becomes ``minimum``/``maximum``), lists have ``maxItems`` and short items,
and free text a ``maxLength`` sized so that the whole reply fits the role's ``max_tokens`` at one token per
character (a limit too small even for the shortest bounds is raised to what they need for that call). With
grammar-constrained decoding the reply therefore always closes its JSON before the limit.

Example:
    >>> import dspy
    >>> schema = output_schema(dspy.Signature("question -> verdict: bool, answer"), max_tokens=200)
    >>> schema["properties"]["answer"]["maxLength"] <= 200, schema["required"]
    (True, ['verdict', 'answer'])
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

import dspy
from dspy.adapters.json_adapter import JSONAdapter, _get_structured_outputs_response_format

from programs.lm_call import CallLimits, LMCallCut

HOSTED = "json_schema"
UNKNOWN_LOCAL = "json_object+schema"
SERVER_DIALECTS = {"vllm": "json_schema", "llamacpp": "json_schema", "library": "json_schema", "ollama": "json_schema"}
LLAMA_CPP_PYTHON_OWNER = "me"  # what llama-cpp-python's server puts in /v1/models "owned_by"
LIST_ITEM_CHARS = 16
MIN_TEXT_CHARS = 16
PROBE_TIMEOUT = 3.0
_probed: dict[str, str] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class CallSettings:
    """What `programs.run.Run` needs to know about one role's LM besides the LM itself.

    Attributes:
        role: the role the LM serves.
        limits: first-token and inactivity limits, and whether calls stream.
        structured: the output dialect (``auto`` is resolved on first use).
    """

    role: str
    limits: CallLimits = CallLimits()
    structured: str = "auto"


def resolve_dialect(structured: str, model: str, api_base: str = "") -> str:
    """The configured dialect, or ``auto`` kept for `dialect_for` to resolve on first use (no I/O here)."""
    return structured or "auto"


def dialect_for(lm) -> str:
    """The dialect to use with `lm` now: its setting, with ``auto`` resolved (and remembered per server).

    Raises:
        LMCallCut: ``auto`` with a local server that did not answer ``GET /models`` within the first-token limit (at
            most 3 s): the server is down, and the call is cut as unreachable without a second wait.
    """
    settings = getattr(lm, "yaksa", None)
    structured = settings.structured if settings else "off"
    if structured != "auto":
        return structured
    model = str(getattr(lm, "model", ""))
    if model.split("/", 1)[0] in ("ollama", "ollama_chat"):
        return "json_schema"
    base = str((getattr(lm, "kwargs", {}) or {}).get("api_base") or "")
    if not base:
        return HOSTED
    with _lock:
        if base in _probed:
            return _probed[base]
    wait = min(PROBE_TIMEOUT, settings.limits.first_token_s if settings else PROBE_TIMEOUT)
    start = time.monotonic()
    dialect = probe_server(base, timeout=wait)
    if dialect is None:
        waited = time.monotonic() - start
        raise LMCallCut("unreachable", f"the server gave no answer to GET /models within {wait:g} s", waited, 0)
    with _lock:
        _probed[base] = dialect
    return dialect


def reprobe_refused(lm) -> str | None:
    """After `lm`'s server refused the remembered ``auto`` dialect, ask the server again (another server may have taken
    the port since it was first asked) and remember its answer.

    Returns the new dialect when it differs from the refused one (the call is worth one retry), else None.
    """
    settings = getattr(lm, "yaksa", None)
    base = str((getattr(lm, "kwargs", {}) or {}).get("api_base") or "")
    if settings is None or settings.structured != "auto" or not base:
        return None
    with _lock:
        refused = _probed.pop(base, None)
    if refused is None:
        return None
    dialect = probe_server(base, timeout=min(PROBE_TIMEOUT, settings.limits.first_token_s))
    if dialect is None:
        return None
    with _lock:
        _probed[base] = dialect
    return dialect if dialect != refused else None


def probe_server(api_base: str, timeout: float = 3.0) -> str | None:
    """Ask an OpenAI-compatible server which one it is (``GET {api_base}/models``) and return its dialect.

    Returns ``json_object+schema`` for llama-cpp-python and for servers it cannot name (an error status is an
    answer too), None when the server did not answer at all (refused, silent: the caller tries again next time).
    """
    try:
        with urllib.request.urlopen(api_base.rstrip("/") + "/models", timeout=timeout) as response:  # noqa: S310
            data = json.loads(response.read().decode("utf-8", "replace") or "{}")
    except (urllib.error.HTTPError, ValueError):  # it answered: an error status, or not JSON
        return UNKNOWN_LOCAL
    except OSError:  # refused, silent
        return None
    if not isinstance(data, dict):
        return UNKNOWN_LOCAL
    owners = {str(m.get("owned_by", "")).lower() for m in (data.get("data") or []) if isinstance(m, dict)}
    for owner in owners:
        if owner in SERVER_DIALECTS:
            return SERVER_DIALECTS[owner]
    return UNKNOWN_LOCAL


def adapter_for(lm) -> dspy.Adapter:
    """The adapter for a call with `lm`: `StructuredAdapter` in the LM's dialect, or DSPy's field-marker format."""
    dialect = dialect_for(lm)
    if dialect == "off":
        return dspy.ChatAdapter(use_json_adapter_fallback=False)
    max_tokens = int((getattr(lm, "kwargs", {}) or {}).get("max_tokens") or 1024)
    return StructuredAdapter(dialect, max_tokens)


class StructuredAdapter(JSONAdapter):
    """DSPy's `JSONAdapter`, sending the bounded output schema in one dialect and never making a second call.

    Args:
        dialect: ``json_schema`` or ``json_object+schema``.
        max_tokens: the role's output limit, which sizes the free-text bounds.
    """

    def __init__(self, dialect: str = "json_schema", max_tokens: int = 1024):
        super().__init__(use_native_function_calling=False)
        if dialect not in ("json_schema", "json_object+schema"):
            raise ValueError(f"unknown structured-output dialect {dialect!r}")
        self.dialect = dialect
        self.max_tokens = max_tokens

    def _prepare_response_format(self, lm, lm_kwargs, signature):
        limit = int(lm_kwargs.get("max_tokens") or (getattr(lm, "kwargs", {}) or {}).get("max_tokens") or 0)
        schema = output_schema(signature, limit or self.max_tokens)
        lm_kwargs["response_format"] = response_format(self.dialect, schema, signature.__name__)
        need = worst_case_tokens(schema)
        if limit and need > limit:  # a limit too small for the shortest schema would cut the JSON: raise it
            lm_kwargs["max_tokens"] = need

    def parse(self, signature, completion: str) -> dict[str, Any]:
        try:
            fields = super().parse(signature, completion)
        except Exception:
            if "[[ ## " not in completion:  # a server that ignored the schema but wrote DSPy's field markers
                raise
            fields = dspy.ChatAdapter(use_json_adapter_fallback=False).parse(signature, completion)
        return clamp_numbers(signature, fields)


def response_format(dialect: str, schema: dict, name: str = "outputs") -> dict:
    """The ``response_format`` body for `schema` in `dialect`."""
    if dialect == "json_object+schema":
        return {"type": "json_object", "schema": schema}
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "outputs"
    return {"type": "json_schema", "json_schema": {"name": safe, "schema": schema, "strict": True}}


def output_schema(signature, max_tokens: int = 1024) -> dict:
    """The JSON schema of `signature`'s output fields, bounded to fit `max_tokens` (see the module docstring)."""
    schema = _get_structured_outputs_response_format(signature, use_native_function_calling=False).model_json_schema()
    schema = json.loads(json.dumps(schema))  # a private copy
    props = schema.get("properties", {})
    descs = {name: _desc(f) for name, f in signature.output_fields.items()}
    budget = int(max_tokens * 0.8) - 10 - sum(len(name) + 8 for name in props)
    texts, lists = [], []
    for name, prop in props.items():
        kind = prop.get("type")
        if "enum" in prop or kind == "boolean":
            budget -= max((len(str(v)) for v in prop.get("enum", ["false"])), default=5) + 2
        elif kind in ("number", "integer"):
            budget -= 18
            low_high = _range(descs.get(name, ""))
            if low_high:
                prop["minimum"], prop["maximum"] = low_high
        elif kind == "array" and prop.get("items", {}).get("type") == "string":
            lists.append(name)
        elif kind == "string":
            texts.append(name)
        else:
            _bound_nested(prop, schema)
            budget -= 300
    list_share = max(budget, 0) * (0.6 if texts else 1.0) / max(len(lists), 1)
    for name in lists:
        most = _at_most(descs.get(name, "")) or 5
        items = max(1, min(most, int(list_share // (LIST_ITEM_CHARS + 4))))
        props[name]["maxItems"] = items
        props[name]["items"]["maxLength"] = LIST_ITEM_CHARS
        budget -= items * (LIST_ITEM_CHARS + 4)
    for name in texts:
        props[name]["maxLength"] = max(MIN_TEXT_CHARS, budget // len(texts))
    return schema


def worst_case_tokens(schema: dict) -> int:
    """The most tokens a reply to `schema` can take at one token per character (top-level fields)."""
    total = 12
    for name, prop in schema.get("properties", {}).items():
        total += len(name) + 8
        if "enum" in prop:
            total += max(len(str(v)) for v in prop["enum"]) + 2
        elif prop.get("type") == "array" and "maxItems" in prop:
            total += prop["maxItems"] * (prop.get("items", {}).get("maxLength", LIST_ITEM_CHARS) + 4) + 2
        elif prop.get("type") == "string" and "maxLength" in prop:
            total += prop["maxLength"] + 2
        elif prop.get("type") in ("number", "integer", "boolean"):
            total += 18
        else:
            total += 300
    return total


def clamp_numbers(signature, fields: dict) -> dict:
    """Clip numbers whose description gives a range (a server that ignores ``minimum``/``maximum``)."""
    for name, f in signature.output_fields.items():
        low_high = _range(_desc(f))
        value = fields.get(name)
        if low_high and isinstance(value, (int, float)) and not isinstance(value, bool):
            fields[name] = type(value)(min(max(value, low_high[0]), low_high[1]))
    return fields


def _desc(field) -> str:
    extra = getattr(field, "json_schema_extra", None) or {}
    return str(extra.get("desc", "")) if isinstance(extra, dict) else ""


def _range(desc: str) -> tuple[float, float] | None:
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)", desc)
    if not m:
        return None
    low, high = float(m.group(1)), float(m.group(2))
    return (low, high) if low < high else None


def _at_most(desc: str) -> int | None:
    m = re.search(r"at most (\d+)", desc)
    return int(m.group(1)) if m else None


def _bound_nested(part: Any, root: dict, depth: int = 0) -> None:
    """Bound the strings and lists inside nested objects (e.g. a pydantic output type) with modest fixed limits."""
    if depth > 8 or not isinstance(part, dict):
        return
    if part.get("type") == "string" and "enum" not in part:
        part.setdefault("maxLength", 200)
    if part.get("type") == "array":
        part.setdefault("maxItems", 8)
    for value in part.values():
        if isinstance(value, dict):
            _bound_nested(value, root, depth + 1)
        elif isinstance(value, list):
            for item in value:
                _bound_nested(item, root, depth + 1)
    if depth == 0:
        for definition in (root.get("$defs") or {}).values():
            _bound_nested(definition, root, depth + 1)
