"""MLflow wiring shared by the commands: the tracking URI (sqlite in mlruns/ unless MLFLOW_TRACKING_URI says
otherwise), the artifact location beside it, and experiments created on first use.

Example:
    >>> uri = configure()
    >>> uri.startswith("sqlite:") or "MLFLOW_TRACKING_URI" in os.environ
    True
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_STORE = Path("mlruns")


def default_tracking_uri() -> str:
    return f"sqlite:///{DEFAULT_STORE / 'mlflow.db'}"


def tracking_uri() -> str:
    """``$MLFLOW_TRACKING_URI``, else the default sqlite store (without importing MLflow)."""
    return os.environ.get("MLFLOW_TRACKING_URI") or default_tracking_uri()


def configure() -> str:
    """Point MLflow at ``$MLFLOW_TRACKING_URI`` or sqlite:///mlruns/mlflow.db; returns the URI."""
    import mlflow

    uri = tracking_uri()
    if uri.startswith("sqlite:///"):
        Path(uri[len("sqlite:///") :]).parent.mkdir(parents=True, exist_ok=True)
    mlflow.set_tracking_uri(uri)
    return uri


def experiment(name: str) -> str:
    """Set (creating when needed) the experiment `name`, with artifacts under mlruns/artifacts for sqlite stores."""
    import mlflow

    uri = configure()
    exp = mlflow.get_experiment_by_name(name)
    if exp is None:
        location = None
        if uri.startswith("sqlite:///"):
            store_dir = Path(uri[len("sqlite:///") :]).resolve().parent
            location = (store_dir / "artifacts").as_uri()
        exp_id = mlflow.create_experiment(name, artifact_location=location)
    else:
        exp_id = exp.experiment_id
    mlflow.set_experiment(experiment_id=exp_id)
    return exp_id
