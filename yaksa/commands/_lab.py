"""What compile / evaluate / ablation / bench share: LM flags, data sets, the search backend, LM-usage accounting,
evaluation with a per-example table, and the code version."""

from __future__ import annotations

import hashlib
import json
import math
import random
import subprocess
import time
from pathlib import Path

from yaksa.cli import UserError

ROLES = ("query", "generate", "verify", "judge")
ROOT = Path(__file__).resolve().parents[2]
QA_DIR = ROOT / "trainsets/qa"
TURN_FILE = ROOT / "trainsets/turns/turns.jsonl"
NEED_LM = (
    "{what} needs an LM: pass --lm MODEL (a litellm model string, e.g. openai/gpt-4o-mini, with --api-base for a "
    "local OpenAI-compatible server), or set YAKSA_LM, or an [lm] section in yaksa.toml"
)


def add_lm_args(p, cache_flag: bool = True) -> None:
    p.add_argument("--lm", help="litellm model string for every role, e.g. openai/gpt-4o-mini")
    for role in ROLES:
        p.add_argument(f"--lm-{role}", help=f"model for the {role} role only")
    p.add_argument("--api-base", help="base URL of an OpenAI-compatible server (vLLM, llama.cpp, Ollama)")
    p.add_argument("--config", help="config file with an [lm] section (default: ./yaksa.toml or $YAKSA_CONFIG)")
    if cache_flag:
        p.add_argument("--no-cache", action="store_true", help="bypass DSPy's LM cache (default: cached)")
    add_lm_limit_args(p)


def add_lm_limit_args(p, time_budget: bool = False) -> None:
    """Per-role servers, output limits, structured outputs and call limits (docs/crag.md "LM limits")."""
    g = p.add_argument_group("LM servers and limits (ROLE is query, generate, verify or judge)")
    g.add_argument("--role-api-base", action="append", metavar="ROLE=URL", help="a server for one role")
    g.add_argument(
        "--role-api-key-env", action="append", metavar="ROLE=VAR", help="environment variable holding a role's key"
    )
    g.add_argument("--max-tokens", action="append", metavar="[ROLE=]N", help="output limit for every role or one role")
    g.add_argument(
        "--structured",
        action="append",
        metavar="[ROLE=]MODE",
        help="structured outputs: auto (default), json_schema, json_object+schema or off",
    )
    g.add_argument("--first-token-timeout", type=float, metavar="S", help="seconds to the first token (default 60)")
    g.add_argument("--idle-timeout", type=float, metavar="S", help="seconds between tokens (default 30)")
    g.add_argument(
        "--no-lm-stream", action="store_true", help="do not stream LM calls (servers without server-sent events)"
    )
    if time_budget:
        g.add_argument("--time-budget", type=float, metavar="S", help="seconds per question, 0 for none (default 120)")


def role_values(values, what: str, all_roles: bool = True) -> dict[str, str]:
    """``["generate=800", "300"]`` -> ``{"generate": "800", "*": "300"}``; a bare value means every role."""
    out = {}
    for value in values or []:
        role, sep, rest = str(value).partition("=")
        if sep and role in ROLES:
            out[role] = rest
        elif all_roles and not (sep and role.isidentifier() and role.islower()):
            out["*"] = value
        else:
            raise UserError(f"{what} {value!r}: use ROLE=VALUE with ROLE one of {', '.join(ROLES)}")
    return out


def add_data_args(p, train: bool = True) -> None:
    p.add_argument("--program", choices=("crag", "turn"), default="crag", help="which program (default crag)")
    p.add_argument("--data", type=Path, help="folder with train.jsonl and dev.jsonl (default trainsets/qa)")
    if train:
        p.add_argument("--train", type=int, default=20, help="training examples drawn (seeded) from train.jsonl")
    p.add_argument("--dev", type=int, default=20, help="dev examples drawn (seeded) from dev.jsonl (0: all)")
    p.add_argument("--seed", type=int, default=0, help="seed for the draws and the optimizer (default 0)")
    p.add_argument("--threads", type=int, default=2, help="evaluation threads (default 2)")
    p.add_argument("--index-dir", help="search index folder (default: the built index)")
    p.add_argument("--experiment", default="yaksa", help="MLflow experiment name (default yaksa)")


def lm_config(args, cache: bool | None = None):
    from programs.lm_config import LMConfigError, load_lm_config

    try:
        config = load_lm_config(
            getattr(args, "config", None),
            model=getattr(args, "lm", None),
            api_base=getattr(args, "api_base", None),
            role_models={r: getattr(args, f"lm_{r}", None) for r in ROLES},
            timeout=getattr(args, "first_token_timeout", None),
            role_api_bases=role_values(getattr(args, "role_api_base", None), "--role-api-base", all_roles=False),
            role_api_key_envs=role_values(
                getattr(args, "role_api_key_env", None), "--role-api-key-env", all_roles=False
            ),
            max_tokens=role_values(getattr(args, "max_tokens", None), "--max-tokens"),
            structured=role_values(getattr(args, "structured", None), "--structured"),
            idle_timeout=getattr(args, "idle_timeout", None),
            stream=False if getattr(args, "no_lm_stream", False) else None,
        )
    except LMConfigError as e:
        raise UserError(str(e)) from None
    config.cache = (not getattr(args, "no_cache", False)) if cache is None else cache
    return config


def require_lm(config, what: str) -> None:
    if not config.configured:
        raise UserError(NEED_LM.format(what=what))


def open_backend(args):
    """The search backend: ``--index-dir`` when given, else `yaksa.commands.ask.open_backend` (patched in tests)."""
    if getattr(args, "index_dir", None):
        from yaksa.commands._common import open_searcher_or_explain

        return open_searcher_or_explain(args.index_dir)
    from yaksa.commands import ask

    return ask.open_backend()


def read_jsonl(path: Path) -> list[dict]:
    from yaksa.text_input import read_text

    lines = read_text(path).splitlines()
    try:
        return [json.loads(line) for line in lines if line.strip()]
    except json.JSONDecodeError as e:
        raise UserError(f"{path}: not JSON lines ({e.msg})") from None


def _require(rows: list, key: str, path: Path) -> None:
    """Each row is a JSON object with a non-empty text `key` (else a one-line error naming the file and line)."""
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict) or not isinstance(row.get(key), str) or not row[key].strip():
            raise UserError(f"{path}: row {n} has no {key!r} text; every row needs one (see trainsets/qa/dev.jsonl)")


def draw(rows: list[dict], n: int | None, seed: int) -> list[dict]:
    """`n` rows drawn with ``random.Random(seed)`` in file order (all rows for n None/0 or n >= len)."""
    if not n or n >= len(rows):
        return list(rows)
    keep = sorted(random.Random(seed).sample(range(len(rows)), n))
    return [rows[i] for i in keep]


def datasets(args, train: bool = True) -> tuple[list, list, str]:
    """(train examples, dev examples, dataset hash) for the chosen program."""
    import dspy

    if args.program == "turn":
        rows = read_jsonl(args.data / "turns.jsonl" if args.data else TURN_FILE)
        _require(rows, "prompt", args.data / "turns.jsonl" if args.data else TURN_FILE)
        rng = random.Random(args.seed)
        order = list(range(len(rows)))
        rng.shuffle(order)
        n_dev = max(1, len(rows) // 3)
        dev_rows = [rows[i] for i in sorted(order[:n_dev])]
        train_rows = [rows[i] for i in sorted(order[n_dev:])]
        keys = ("prompt", "ai_reply", "problem_title", "algorithms")
    else:
        folder = args.data or QA_DIR
        train_rows = read_jsonl(folder / "train.jsonl") if train else []  # evaluate reads dev.jsonl only
        dev_rows = read_jsonl(folder / "dev.jsonl")
        keys = ("question",)
        for name, rows in (("train.jsonl", train_rows), ("dev.jsonl", dev_rows)):
            _require(rows, "question", folder / name)
    train_rows = draw(train_rows, getattr(args, "train", None), args.seed) if train else []
    dev_rows = draw(dev_rows, args.dev, args.seed)
    digest = hashlib.sha256(json.dumps([train_rows, dev_rows], ensure_ascii=False, sort_keys=True).encode())

    def example(row):
        return dspy.Example(**row).with_inputs(*[k for k in keys if k in row])

    return [example(r) for r in train_rows], [example(r) for r in dev_rows], digest.hexdigest()[:12]


def code_version() -> str:
    from yaksa import __version__

    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "-uno"], capture_output=True, text=True, timeout=5)
        return f"{__version__}+{rev}{'.dirty' if dirty.stdout.strip() else ''}"
    except (OSError, subprocess.SubprocessError):
        return __version__


class Usage:
    """LM calls, tokens and cost since `start()`, read from the LMs' DSPy history (cache hits are not calls)."""

    def __init__(self, lms):
        self.lms = [lm for i, lm in enumerate(lms) if lm is not None and all(lm is not o for o in list(lms)[:i])]
        self.marks = {}

    def start(self) -> Usage:
        self.marks = {id(lm): len(lm.history) for lm in self.lms}
        return self

    def totals(self) -> dict:
        calls = cached = prompt = completion = 0
        cost, priced = 0.0, False
        for lm in self.lms:
            for entry in lm.history[self.marks.get(id(lm), 0) :]:
                usage = entry.get("usage") or {}
                if getattr(entry.get("response"), "cache_hit", False) or not usage:  # DSPy empties usage on hits
                    cached += 1
                    continue
                calls += 1
                prompt += int(usage.get("prompt_tokens") or usage.get("input_tokens") or 0)
                completion += int(usage.get("completion_tokens") or usage.get("output_tokens") or 0)
                if entry.get("cost") is not None:
                    cost += float(entry["cost"])
                    priced = True
        out = {
            "lm_calls": calls,
            "lm_cache_hits": cached,
            "lm_prompt_tokens": prompt,
            "lm_completion_tokens": completion,
            "lm_tokens": prompt + completion,
        }
        if priced:
            out["lm_cost_usd"] = round(cost, 6)
        return out


def describe_lms(config) -> dict:
    params = {f"lm.{role}": config.models.get(role) or "none" for role in ROLES}
    params["lm.api_base"] = config.api_base or "default"
    return params


def program_row(example, pred, score, kind: str) -> dict:
    """One row of the per-example table."""
    if kind == "turn":
        return {
            "id": example.get("id", ""),
            "prompt": str(example.prompt)[:120],
            "score": score,
            "gold_score": example.get("score"),
            "predicted_score": getattr(pred, "score", None),
            "intents": ",".join(getattr(pred, "intents", []) or []),
        }
    trace = getattr(pred, "trace", {}) or {}
    quality = trace.get("quality") or {}
    return {
        "id": example.get("id", ""),
        "question": example.question,
        "score": score,
        "answer": str(getattr(pred, "answer", ""))[:300],
        "out_of_scope": bool(getattr(pred, "out_of_scope", False)),
        "stop_reason": trace.get("stop_reason", ""),
        "iterations": trace.get("iterations", 0),
        "lm_calls": (trace.get("lm_calls") or {}).get("total", 0),
        "grounding": quality.get("grounding"),
        "overall": quality.get("overall"),
        "contexts": len(getattr(pred, "contexts", []) or []),
    }


def evaluate(program, devset, metric, threads: int = 2, kind: str = "crag", progress: bool = True) -> dict:
    """Run `dspy.Evaluate`; returns the mean over determined scores, the rows, and the undetermined count.

    A metric returning None (undetermined, e.g. a NaN RAGAS score) is recorded as missing, never as 0.
    """
    import dspy

    raw: dict[int, float | None] = {}
    grounding: dict[int, float] = {}

    def scored(example, pred, trace=None):
        if hasattr(metric, "judge_feedback"):  # the quality metric: keep its grounding for the table
            fb = metric.judge_feedback(example, pred)
            grounding[id(example)] = fb.grounding
            value = fb.overall
        else:
            value = metric(example, pred)
        value = getattr(value, "score", value)
        value = None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)
        raw[id(example)] = value
        return value or 0.0

    start = time.perf_counter()
    result = dspy.Evaluate(
        devset=devset,
        metric=scored,
        num_threads=threads,
        display_progress=progress,
        display_table=False,
        provide_traceback=False,
        max_errors=len(devset) + 1,
    )(program)
    rows, values, preds = [], [], []
    for example, pred, _ in result.results:
        preds.append(pred)
        value = raw.get(id(example))
        rows.append(program_row(example, pred, value, kind))
        if kind == "crag":
            rows[-1]["judge_grounding"] = grounding.get(id(example))
        if value is not None:
            values.append(value)
    return {
        "score": sum(values) / len(values) if values else float("nan"),
        "rows": rows,
        "preds": preds,
        "undetermined": len(rows) - len(values),
        "seconds": round(time.perf_counter() - start, 3),
        "parts": getattr(metric, "undetermined", None) or getattr(getattr(metric, "ragas", None), "undetermined", {}),
    }


def log_table(rows: list[dict], name: str) -> None:
    """Log the per-example rows as an MLflow table artifact (JSON) and a CSV beside it."""
    import mlflow

    if not rows:
        return
    columns = list(rows[0])
    mlflow.log_table({c: [r.get(c) for r in rows] for c in columns}, artifact_file=f"{name}.json")
    import csv
    import io

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    mlflow.log_text(buf.getvalue(), f"{name}.csv")
