"""Logging a per-example table to the active MLflow run, as a table artifact (JSON) and a CSV beside it."""

from __future__ import annotations

import csv
import io


def log_table(rows: list[dict], name: str) -> None:
    """Log the per-example rows as an MLflow table artifact (JSON) and a CSV beside it."""
    import mlflow

    if not rows:
        return
    columns = list(rows[0])
    mlflow.log_table({c: [r.get(c) for r in rows] for c in columns}, artifact_file=f"{name}.json")
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    mlflow.log_text(buf.getvalue(), f"{name}.csv")
