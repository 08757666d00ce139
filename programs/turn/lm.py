"""The LM the turn evaluator judges with, from flags or environment; none means the no-LM path.

A small stand-in until the project has one shared LM configuration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import dspy

LOCAL_API_KEY = "not-needed"


def turn_lm(model: str | None = None, api_base: str | None = None, environ: Mapping[str, str] = os.environ):
    """Build the judge LM from a litellm model string and an optional OpenAI-compatible base URL.

    ``model`` falls back to ``$YAKSA_LM`` and ``api_base`` to ``$YAKSA_API_BASE``; ``$YAKSA_API_KEY`` is the key.
    A local server (an ``api_base`` with no key anywhere) gets a placeholder key, since the client insists on one.

    Args:
        model: A litellm model string such as ``openai/gpt-4o-mini``; None reads the environment.
        api_base: Base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama); None reads the environment.
        environ: Where to read the environment from.

    Returns:
        A ``dspy.LM``, or None when no model is configured.

    Raises:
        ValueError: An ``api_base`` is given without a model.

    Example:
        >>> turn_lm(environ={}) is None
        True
        >>> turn_lm("openai/qwen2.5-7b", "http://127.0.0.1:8000/v1", environ={}).model
        'openai/qwen2.5-7b'
    """
    model = model or environ.get("YAKSA_LM") or None
    api_base = api_base or environ.get("YAKSA_API_BASE") or None
    if not model:
        if api_base:
            raise ValueError("an API base URL was given but no model: pass --lm MODEL or set YAKSA_LM")
        return None
    kwargs = {}
    api_key = environ.get("YAKSA_API_KEY")
    if api_base:
        kwargs["api_base"] = api_base
        if not api_key and not environ.get("OPENAI_API_KEY"):
            api_key = LOCAL_API_KEY
    if api_key:
        kwargs["api_key"] = api_key
    return dspy.LM(model, **kwargs)
