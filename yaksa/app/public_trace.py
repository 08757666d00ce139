"""The trace as HTTP clients see it: every LM error, fallback and cut call as a code and a message of ours
(`programs.error_codes`), never the error's own text. An LM server's error body can name hosts, paths or secrets;
it goes to the server log only (`log_failures`).

Example:
    >>> step = public_step({"step": "fallback", "where": "generate", "why": "InternalServerError: password=x",
    ...                     "error": "lm_error", "then": "extractive answer"})
    >>> step["error"], step["message"], "why" in step
    ('lm_error', 'the LM server answered with an error', False)
"""

from __future__ import annotations

import logging

from programs.error_codes import MESSAGES

CUT_CODES = {"unreachable": "lm_unreachable", "slow": "lm_timeout", "time_budget": "time_budget"}


def _coded(code: str | None) -> dict:
    code = code if code in MESSAGES else "step_failed"
    return {"error": code, "message": MESSAGES[code]}


def public_cut(entry: dict) -> dict:
    """A cut LM call without its detail: role, why (unreachable / slow / time_budget), seconds, tokens, code."""
    kept = {k: entry[k] for k in ("role", "why", "seconds", "tokens") if k in entry}
    return {**kept, **_coded(CUT_CODES.get(str(entry.get("why"))))}


def public_fallback(step: dict) -> dict:
    """A fallback step without its reason's text: where, the code, our message, and what the step did instead."""
    then = {"then": step["then"]} if step.get("then") else {}
    return {"step": "fallback", "where": step.get("where", ""), **_coded(step.get("error")), **then}


def public_step(step: dict) -> dict:
    """One trace step as clients see it (fallback and cut steps lose the error text; others are unchanged)."""
    if step.get("step") == "fallback":
        return public_fallback(step)
    if step.get("step") == "cut":
        return {"step": "cut", **public_cut(step)}
    return step


def public_trace(trace: dict) -> dict:
    """`trace` with ``errors``, ``fallbacks``, ``cut`` and the steps in codes and our messages.

    ``errors`` becomes ``[{"role", "error", "message"}]`` and ``fallbacks`` ``[{"where", "error", "message",
    "then"?}]``; ``error_codes`` is folded into ``errors``.
    """
    out = dict(trace)
    steps = [public_step(s) for s in trace.get("steps") or []]
    out["steps"] = steps
    out["errors"] = [{"role": e.get("role", ""), **_coded(e.get("error"))} for e in trace.get("error_codes") or []]
    if len(out["errors"]) < len(trace.get("errors") or []):  # a trace without codes for some lines
        out["errors"] += [_coded(None)] * (len(trace["errors"]) - len(out["errors"]))
    out.pop("error_codes", None)
    out["fallbacks"] = [{k: v for k, v in s.items() if k != "step"} for s in steps if s.get("step") == "fallback"]
    out["cut"] = [public_cut(c) for c in trace.get("cut") or []]
    return out


def log_failures(trace: dict, log: logging.Logger, request_id: str | None = None) -> None:
    """Log the trace's LM errors and fallbacks with their own text (the server log is where details go)."""
    lines = [*(trace.get("errors") or []), *(f"fallback {f}" for f in trace.get("fallbacks") or [])]
    if lines:
        where = f" (request {request_id})" if request_id else ""
        log.warning("LM errors and fallbacks%s: %s", where, " | ".join(lines))
