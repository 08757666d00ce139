"""The table of ``yaksa compare``, from plain run records (pure functions, no MLflow): one column per metric, named
by the metric (a compile's ``dev_score_after`` under its ``metric`` param), the params that say what was measured
and how, and the LM calls sent and served from cache as separate columns.

A run record is ``{"run_id", "name", "tags", "params", "metrics", "duration_s"}``.

Example:
    >>> rec = {"run_id": "abc", "params": {"metric": "combined"}, "metrics": {"dev_score_after": 0.7}}
    >>> run_metrics(rec)
    {'combined': 0.7}
"""

from __future__ import annotations

MISSING = "—"
# metrics that are scores under their own name (ablation children, bench arms)
NAMED_SCORES = ("quality", "grounding", "self_quality", "no_retrieval.accuracy", "retrieval.accuracy")
PARAMS = ("optimizer", "metric", "profile", "dataset", "dataset_version", "dev_n")  # in this order, when logged
USAGE = ("lm_calls", "lm_cache_hits", "lm_cost_usd", "duration_s")
MAX_CELL = 28


def run_metrics(rec: dict) -> dict:
    """{metric name: score} of one run: ``dev_score_after`` / ``dev_score`` under the run's ``metric`` param (the
    score before compiling as ``<metric> before``), and the scores logged under their own name."""
    m, metric = rec.get("metrics") or {}, (rec.get("params") or {}).get("metric") or "score"
    out = {}
    if "dev_score_after" in m:
        out[metric] = m["dev_score_after"]
    elif "dev_score" in m:
        out[metric] = m["dev_score"]
    if "dev_score_before" in m:
        out[f"{metric} before"] = m["dev_score_before"]
    for name in NAMED_SCORES:
        if name in m:
            out[name] = m[name]
    return out


def run_usage(rec: dict) -> dict:
    """LM requests sent, cache hits, cost and duration (a bench run's per-arm counts summed)."""
    m = rec.get("metrics") or {}

    def total(key):
        if key in m:
            return m[key]
        parts = [v for k, v in m.items() if k.endswith(f".{key}")]
        return sum(parts) if parts else None

    return {key: total(key) for key in USAGE}


def run_params(rec: dict) -> dict:
    """The params shown: command (tag), optimizer, metric, profile, dataset, its version, dev size, LM per role."""
    p, tags = rec.get("params") or {}, rec.get("tags") or {}
    out = {"command": tags.get("yaksa.command")}
    out.update({k: p[k] for k in PARAMS if k in p})
    out.update({k: v for k, v in sorted(p.items()) if k.startswith("lm.") and k != "lm.api_base" and v != "none"})
    return out


def build_rows(records: list[dict]) -> tuple[list[str], list[dict]]:
    """(the columns, one row per run): run, name, the params any run logged, one column per metric, LM usage."""
    rows = []
    for rec in records:
        row = {"run_id": rec["run_id"], "run": rec["run_id"][:8], "name": rec.get("name") or ""}
        row.update(run_params(rec))
        row.update(run_metrics(rec))
        row.update(run_usage(rec))
        rows.append(row)
    metric_names = metric_columns(records)
    roles = sorted({k for rec in records for k in run_params(rec) if k.startswith("lm.")})
    param_names = [k for k in ("command", *PARAMS, *roles) if any(r.get(k) is not None for r in rows)]
    usage = [k for k in USAGE if any(r.get(k) is not None for r in rows)]
    return ["run", "name", *param_names, *metric_names, *usage], rows


def metric_columns(records: list[dict]) -> list[str]:
    """The metric names any run has, sorted, each score before compiling after the scores."""
    return sorted({k for rec in records for k in run_metrics(rec)}, key=_metric_order)


def _metric_order(name: str) -> tuple:
    return (name.endswith(" before"), name.removesuffix(" before"))


def dataset_warning(records: list[dict]) -> str | None:
    """A warning when the runs' scores were measured on different dev sets (``dataset_version``, else the dataset
    name and dev size; runs that logged neither are not checked), else None."""
    seen = {}
    for rec in records:
        if not run_metrics(rec):
            continue
        p = rec.get("params") or {}
        key = p.get("dataset_version") or (f"{p['dataset']} n={p.get('dev_n')}" if p.get("dataset") else None)
        if key:  # a run that logged neither (older yaksa) cannot be checked
            seen.setdefault(key, []).append(rec["run_id"][:8])
    if len(seen) < 2:
        return None
    parts = "; ".join(f"{k}: {', '.join(v)}" for k, v in seen.items())
    return f"warning: these runs measured different dev sets, so their scores do not compare ({parts})"


def cell(value) -> str:
    if value is None:
        return MISSING
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e9:
            return str(int(value))
        return f"{value:.3f}" if abs(value) < 1e4 else f"{value:.0f}"
    text = str(value)
    if len(text) <= MAX_CELL:
        return text
    return "…" + text[-(MAX_CELL - 1) :] if "/" in text else text[: MAX_CELL - 1] + "…"  # a path: its end


def render(columns: list[str], rows: list[dict]) -> str:
    """A plain-text table, one column per entry of `columns` ("—" where a run lacks it)."""
    cells = [[cell(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c), *(len(line[i]) for line in cells)]) for i, c in enumerate(columns)]
    text = [c in ("name", "command") or not _numeric(rows, c) for c in columns]

    def line(values):
        return "  ".join(v.ljust(w) if t else v.rjust(w) for v, w, t in zip(values, widths, text, strict=True))

    head = line(columns)
    return "\n".join([head.rstrip(), "-" * len(head.rstrip()), *(line(v).rstrip() for v in cells)])


def _numeric(rows: list[dict], column: str) -> bool:
    values = [r.get(column) for r in rows if r.get(column) is not None]
    return bool(values) and all(isinstance(v, int | float) for v in values)


def as_json(columns: list[str], rows: list[dict], warning: str | None) -> dict:
    """The table as JSON: the columns, the rows (None where a run lacks a column) and the dataset warning."""
    out = [{"run_id": r["run_id"], **{c: r.get(c) for c in columns}} for r in rows]
    return {"columns": columns, "rows": out, "warning": warning}
