"""The compiled instructions of each predictor in MLflow's prompt registry: ``yaksa compile`` registers one prompt
version per predictor (``yaksa-generator-generate`` ...), tagged with the run and the registered model version and
linked to the run and the logged model; a tracking store without a prompt registry is skipped with one line.

Example:
    >>> prompt_name("generator.generate")
    'yaksa-generator-generate'
"""

from __future__ import annotations

import re


def prompt_name(predictor: str) -> str:
    """The registry name of a predictor's prompt: ``yaksa-`` and the predictor path with dots as dashes."""
    return "yaksa-" + re.sub(r"[^0-9A-Za-z_-]+", "-", predictor).strip("-")


def compiled_prompts(state: dict) -> dict:
    """{prompt name: (predictor, instructions)} of a JSON state (predictors without instructions are left out)."""
    out = {}
    for name, entry in state.items():
        if name == "yaksa" or not isinstance(entry, dict):
            continue
        text = ((entry.get("signature") or {}).get("instructions") or "").strip()
        if text:
            out[prompt_name(name)] = (name, text)
    return out


def register(state: dict, run_id: str, model: str | None, version: str | None, model_id: str | None) -> str:
    """Register every predictor's instructions; returns the line to print (what was registered, or why not)."""
    import mlflow
    from mlflow import MlflowClient

    client = MlflowClient()
    header = state.get("yaksa") or {}
    tags = {
        "yaksa.run_id": run_id,
        "yaksa.optimizer": str(header.get("optimizer")),
        "yaksa.metric": str(header.get("metric")),
        **({"yaksa.model_version": f"{model}/{version}"} if version else {}),
    }
    registered = []
    try:
        for name, (predictor, text) in compiled_prompts(state).items():
            prompt = mlflow.genai.register_prompt(
                name=name,
                template=text,
                commit_message=f"yaksa compile run {run_id}",
                tags={**tags, "yaksa.predictor": predictor},
            )
            client.link_prompt_version_to_run(run_id, prompt)
            if model_id:
                client.link_prompt_version_to_model(name, str(prompt.version), model_id)
            registered.append(f"{name}/{prompt.version}")
    except Exception as e:  # a store without a prompt registry (or one refusing it): the compile itself stands
        done = f" after {len(registered)}" if registered else ""
        return f"prompts not registered{done}: the tracking store does not support it ({type(e).__name__}: {e})"[:300]
    if registered and version:
        client.set_model_version_tag(model, version, "yaksa.prompts", ",".join(registered))
    return f"registered {len(registered)} prompts ({', '.join(registered[:3])}{' ...' if len(registered) > 3 else ''})"
