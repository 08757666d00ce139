"""``yaksa compare``: a table of chosen MLflow runs, one column per metric (never two metrics in one column), the
params that say what was measured (command, optimizer, metric, profile, dataset and its version, dev size, LM per
role) and the LM requests sent and served from cache, plus a PNG chart, logged as artifacts of a small ``compare``
run; a warning when the runs measured different dev sets. ``--diff A B`` shows what changed between two compiled
programs instead (`yaksa.commands._program_diff`).

Example:
    $ yaksa compare                       # the last 10 yaksa runs of the experiment
    $ yaksa compare 3f2a... 9bc1... --experiment yaksa --json
    $ yaksa compare models:/yaksa-crag/1 models:/yaksa-crag/2 --diff
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from yaksa.commands import _compare_table, _program_diff
from yaksa.errors import UserError


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help="compare MLflow runs (a column per metric, params, LM calls) or diff two compiled programs"
    )
    p.add_argument("runs", nargs="*", help="run ids (default: the latest runs); with --diff: two programs")
    p.add_argument("--experiment", default="yaksa", help="experiment to list runs from (default yaksa)")
    p.add_argument("--last", type=int, default=10, help="how many latest runs when no ids are given")
    p.add_argument("--no-log", action="store_true", help="print only; do not log the table and chart to MLflow")
    p.add_argument("--json", action="store_true", help="print the table as JSON (columns, rows, warning)")
    p.add_argument(
        "--diff",
        action="store_true",
        help="what changed from program A to B (JSON state paths, compile run ids, runs:/ or models:/ URIs)",
    )
    p.set_defaults(func=run)


def run(args) -> int:
    if args.diff:
        run_diff(args)
    else:
        run_compare(args)
    return 0


def run_diff(args) -> str:
    """Print what changed between the two programs of ``args.runs``."""
    from yaksa import tracking

    if len(args.runs) != 2:
        raise UserError("--diff needs exactly two programs: yaksa compare A B --diff")
    tracking.configure()
    a, b = args.runs
    text = _program_diff.diff_states(_program_diff.resolve(a), _program_diff.resolve(b), a, b)
    print(text)
    return text


def collect(args) -> list[dict]:
    """The records of the runs named, else of the latest runs of the experiment (compare runs left out)."""
    import mlflow
    from mlflow import MlflowClient

    from yaksa import tracking

    tracking.configure()
    client = MlflowClient()
    if args.runs:
        try:
            runs = [client.get_run(r) for r in args.runs]
        except Exception as e:
            raise UserError(f"no such run: {str(e)[:200]}") from None
    else:
        exp = mlflow.get_experiment_by_name(args.experiment)
        if exp is None:
            raise UserError(f"no experiment {args.experiment!r} in {mlflow.get_tracking_uri()}")
        runs = client.search_runs(
            [exp.experiment_id],
            filter_string="tags.`yaksa.command` != 'compare'",
            order_by=["attributes.start_time DESC"],
            max_results=args.last,
        )
    if not runs:
        raise UserError("no runs to compare")
    return [record(r) for r in runs]


def record(r) -> dict:
    """The plain record of an MLflow run that `_compare_table` reads."""
    end = r.info.end_time or r.info.start_time
    return {
        "run_id": r.info.run_id,
        "name": r.info.run_name or "",
        "tags": dict(r.data.tags),
        "params": dict(r.data.params),
        "metrics": {
            **({"duration_s": (end - r.info.start_time) / 1000} if end else {}),
            **r.data.metrics,
        },
    }


def chart(metrics: list[str], rows: list[dict], path: Path) -> Path:
    """Bars per run: each metric column (up to four), LM requests sent and cache hits, duration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [*metrics[:4], "lm_calls", "duration_s"]
    labels = [f"{r['run']}\n{r['name'][:18]}" for r in rows]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8, 1.6 * len(rows) * len(panels) / 3), 4), squeeze=False)
    for ax, key in zip(axes[0], panels, strict=True):
        x = range(len(rows))
        if key == "lm_calls":
            sent = [r.get("lm_calls") or 0 for r in rows]
            ax.bar(x, sent, color="#2b7a78", label="sent")
            ax.bar(x, [r.get("lm_cache_hits") or 0 for r in rows], bottom=sent, color="#9fd3c7", label="cached")
            ax.legend(fontsize=7)
            ax.set_title("LM calls")
        else:
            ax.bar(x, [r.get(key) or 0 for r in rows], color="#2b7a78")
            ax.set_title(key)
        ax.set_xticks(list(x), labels, rotation=45, ha="right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def run_compare(args) -> list[dict]:
    """Print (and unless --no-log, log) the table of the runs; returns its rows."""
    import mlflow

    from yaksa import tracking

    records = collect(args)
    columns, rows = _compare_table.build_rows(records)
    warning = _compare_table.dataset_warning(records)
    text = _compare_table.render(columns, rows)
    if args.json:
        print(json.dumps(_compare_table.as_json(columns, rows, warning), ensure_ascii=False, indent=1))
    else:
        print(text)
    if warning:
        print(warning, file=sys.stderr if args.json else sys.stdout)
    if not args.no_log:
        tracking.experiment(args.experiment)
        with mlflow.start_run(run_name="compare") as run, tempfile.TemporaryDirectory() as tmp:
            mlflow.set_tags({"yaksa.command": "compare", "compared_runs": ",".join(r["run_id"] for r in rows)})
            mlflow.log_text(text + (f"\n{warning}\n" if warning else "\n"), "compare.txt")
            mlflow.log_dict(_compare_table.as_json(columns, rows, warning), "compare.json")
            mlflow.log_artifact(str(chart(_compare_table.metric_columns(records), rows, Path(tmp) / "compare.png")))
        where = f"table and chart logged to run {run.info.run_id} (compare.txt, compare.json, compare.png)"
        print(where, file=sys.stderr if args.json else sys.stdout)
    return rows
