"""The six ablation profiles of the CRAG self-refine seed (docs/seeds/crag-self-refine-strategy.md §8) as named
`CragSettings`.

Each profile adds one idea to the one before it:

* ``baseline``: BasicRAG, one generation, no grading, no evaluation, no re-search.
* ``self_refine_heuristic``: CorrectiveRAG with the heuristic quality evaluation and the static rewrite.
* ``self_refine_llm_quality``: the LM evaluates quality; queries are still rewritten statically.
* ``self_refine_dynamic_query``: the LM also rewrites the query from its feedback.
* ``self_refine_full_safety``: plus the duplicate-document, stagnation and decline stops.
* ``full_context_engineering``: everything, including knowledge refinement and the user context (the default).

Example:
    >>> ablation_settings("baseline").refine_strategy
    'basic_rag'
"""

from __future__ import annotations

from programs.settings import CragSettings

DEFAULT_ABLATION = "full_context_engineering"

_STEPS = {
    "baseline": dict(
        refine_strategy="basic_rag",
        relevance_routing=False,
        knowledge_refinement=False,
        verification=False,
        llm_quality=False,
        dynamic_query=False,
        safety_checks=False,
        user_context=False,
    ),
    "self_refine_heuristic": dict(
        llm_quality=False, dynamic_query=False, safety_checks=False, knowledge_refinement=False, user_context=False
    ),
    "self_refine_llm_quality": dict(
        dynamic_query=False, safety_checks=False, knowledge_refinement=False, user_context=False
    ),
    "self_refine_dynamic_query": dict(safety_checks=False, knowledge_refinement=False, user_context=False),
    "self_refine_full_safety": dict(knowledge_refinement=False, user_context=False),
    "full_context_engineering": dict(),
}

ABLATIONS: dict[str, CragSettings] = {name: CragSettings(**flags) for name, flags in _STEPS.items()}


def ablation_settings(name: str | None = None, base: CragSettings | None = None, **overrides) -> CragSettings:
    """The settings of a named profile (default ``full_context_engineering``), with optional overrides.

    Args:
        name: one of `ABLATIONS` (None: the default profile).
        base: the settings the profile's feature flags apply to (default: `CragSettings`' defaults), e.g.
            ``CragSettings.load()`` with the ``[crag]`` table of yaksa.toml.
        overrides: single settings changed after the profile.

    Raises:
        KeyError: the name is not one of `ABLATIONS`.
    """
    name = name or DEFAULT_ABLATION
    if name not in ABLATIONS:
        raise KeyError(f"unknown profile {name!r}; choose one of {', '.join(ABLATIONS)}")
    if base is not None:
        return base.replace(**_STEPS[name], **overrides)
    return ABLATIONS[name].replace(**overrides) if overrides else ABLATIONS[name]
