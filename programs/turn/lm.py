"""The LM the turn evaluator judges with: the project's "judge" role (``programs/lm_config.py``); none means the
no-LM path.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from programs.lm_config import LMOverrides, load_lm_config

LOCAL_API_KEY = "not-needed"


def turn_lm(
    model: str | None = None,
    api_base: str | None = None,
    environ: Mapping[str, str] = os.environ,
    config: str | Path | None = None,
):
    """Build the judge LM from flags, the environment and ``yaksa.toml`` (flags win, then env, then file).

    ``model`` falls back to ``$YAKSA_LM_JUDGE`` / ``$YAKSA_LM`` and ``api_base`` to ``$YAKSA_API_BASE``;
    ``$YAKSA_API_KEY`` is the key. A local server (an ``api_base`` with no key anywhere) gets a placeholder key,
    since the OpenAI client insists on one.

    Args:
        model: A litellm model string such as ``openai/gpt-4o-mini``; None reads the environment and config file.
        api_base: Base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama); None reads env and file.
        environ: Where to read the environment from.
        config: The ``yaksa.toml`` to read; None means ``$YAKSA_CONFIG`` or ``./yaksa.toml`` when present.

    Returns:
        A ``dspy.LM``, or None when no model is configured.

    Raises:
        ValueError: An ``api_base`` is given without a model, or the configuration is malformed.

    Example:
        >>> turn_lm(environ={}, config="/nonexistent") is None
        True
        >>> turn_lm("openai/qwen2.5-7b", "http://127.0.0.1:8000/v1", environ={}, config="/nonexistent").model
        'openai/qwen2.5-7b'
    """
    cfg = load_lm_config(path=config, env=environ, overrides=LMOverrides(model=model, api_base=api_base))
    judge = cfg.models.get("judge")
    if not judge:
        if api_base:
            raise ValueError("an API base URL was given but no model: pass --lm MODEL or set YAKSA_LM")
        return None
    if cfg.api_base and not cfg.api_key and not environ.get("OPENAI_API_KEY"):
        cfg.api_key = LOCAL_API_KEY
    return cfg.build()["judge"]
