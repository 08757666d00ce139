"""``yaksa compare``: a table of chosen MLflow runs (scores, LM calls, cost, duration) and a PNG chart of them,
logged as artifacts of a small ``compare`` run.

Example:
    $ yaksa compare                       # the last 10 yaksa runs of the experiment
    $ yaksa compare 3f2a... 9bc1... --experiment yaksa
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from yaksa.errors import UserError

SCORE_KEYS = ("dev_score_after", "dev_score", "quality", "no_retrieval.accuracy")
COLUMNS = ("run", "name", "command", "score", "before", "lm_calls", "cost_usd", "duration_s")


def register(subparsers) -> None:
    p = subparsers.add_parser("compare", help="compare MLflow runs: scores, LM calls, cost, duration; PNG chart")
    p.add_argument("runs", nargs="*", help="run ids (default: the latest runs of the experiment)")
    p.add_argument("--experiment", default="yaksa", help="experiment to list runs from (default yaksa)")
    p.add_argument("--last", type=int, default=10, help="how many latest runs when no ids are given")
    p.add_argument("--no-log", action="store_true", help="print only; do not log the table and chart to MLflow")
    p.set_defaults(func=run)


def run(args) -> int:
    run_compare(args)
    return 0


def collect(args) -> list[dict]:
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
    rows = []
    for r in runs:
        m = r.data.metrics
        score = next((m[k] for k in SCORE_KEYS if k in m), None)
        end = r.info.end_time or r.info.start_time
        rows.append(
            {
                "run": r.info.run_id[:8],
                "run_id": r.info.run_id,
                "name": r.info.run_name or "",
                "command": r.data.tags.get("yaksa.command", ""),
                "score": score,
                "before": m.get("dev_score_before"),
                "lm_calls": m.get("lm_calls", sum(v for k, v in m.items() if k.endswith(".lm_calls")) or None),
                "cost_usd": m.get("lm_cost_usd", sum(v for k, v in m.items() if k.endswith(".lm_cost_usd")) or None),
                "duration_s": m.get("duration_s", (end - r.info.start_time) / 1000 if end else None),
            }
        )
    if not rows:
        raise UserError("no runs to compare")
    return rows


def render(rows: list[dict]) -> str:
    def cell(v, width):
        if v is None:
            return f"{'-':>{width}}"
        if isinstance(v, float):
            return f"{v:{width}.3f}" if abs(v) < 1e4 else f"{v:{width}.0f}"
        return f"{str(v)[:width]:>{width}}"

    widths = {
        "run": 8,
        "name": 28,
        "command": 9,
        "score": 7,
        "before": 7,
        "lm_calls": 8,
        "cost_usd": 9,
        "duration_s": 10,
    }
    head = " ".join(f"{c:>{widths[c]}}" if c != "name" else f"{c:<{widths[c]}}" for c in COLUMNS)
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            " ".join(
                f"{str(r[c])[: widths[c]]:<{widths[c]}}" if c == "name" else cell(r[c], widths[c]) for c in COLUMNS
            )
        )
    return "\n".join(lines)


def chart(rows: list[dict], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r['run']}\n{r['name'][:18]}" for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(max(8, 1.6 * len(rows)), 4))
    for ax, key, title in zip(
        axes, ("score", "lm_calls", "duration_s"), ("score", "LM calls", "duration (s)"), strict=True
    ):
        ax.bar(range(len(rows)), [r[key] or 0 for r in rows], color="#2b7a78")
        ax.set_xticks(range(len(rows)), labels, rotation=45, ha="right", fontsize=7)
        ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def run_compare(args) -> list[dict]:
    import mlflow

    from yaksa import tracking

    rows = collect(args)
    text = render(rows)
    print(text)
    if not args.no_log:
        tracking.experiment(args.experiment)
        with mlflow.start_run(run_name="compare") as run, tempfile.TemporaryDirectory() as tmp:
            mlflow.set_tags({"yaksa.command": "compare", "compared_runs": ",".join(r["run_id"] for r in rows)})
            mlflow.log_text(text, "compare.txt")
            mlflow.log_artifact(str(chart(rows, Path(tmp) / "compare.png")))
        print(f"table and chart logged to run {run.info.run_id} (compare.txt, compare.png)")
    return rows
