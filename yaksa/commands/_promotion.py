"""``yaksa compile --promote``: move the ``champion`` alias only to a strictly better model, scored like with like.

Every candidate is scored on one fixed dev set, the `promotion_set` (``--dev`` questions drawn with seed 0 whatever
``--seed`` says, so two compiles with different seeds are scored on the same questions), and its version tags say
what the score means: ``dev_score`` on ``dataset_version`` (a content hash of those questions), with ``metric`` /
``metric_weights`` and ``lm`` (the model and server of each role). A champion measured the same way is compared by
its recorded score; one measured on another set, metric or LM is loaded and re-scored on this set with this scorer
first (a flaky LM re-scoring a good champion is how a worse model used to win).

The decision is a compare-and-set under a file lock (`registry_lock`, beside the sqlite store): the alias is
re-read under the lock and moved only if it still points at the version that was compared, so concurrent compiles
end with the best of them as champion.

Example:
    >>> scorer_key({"dataset_version": "a1", "metric": "quality", "lm": "generate=openai/x"})
    ('a1', 'quality', '', 'generate=openai/x')
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import tempfile
from pathlib import Path

CHAMPION = "champion"
PROMOTION_SEED = 0
KEY_TAGS = ("dataset_version", "metric", "metric_weights", "lm")


def promotion_set(args) -> tuple[list, str]:
    """The fixed dev set (``--dev`` examples drawn with `PROMOTION_SEED`) and its `dataset_version`."""
    from yaksa.commands import _datasets

    fixed = argparse.Namespace(**{**vars(args), "seed": PROMOTION_SEED})
    _, dev, _ = _datasets.datasets(fixed, train=False)
    return dev, dataset_version(dev)


def dataset_version(examples) -> str:
    """A content hash of the questions (and their gold): the same rows give the same version.

    Example:
        >>> dataset_version([{"question": "q"}]) == dataset_version([{"question": "q"}])
        True
    """
    rows = [dict(e.toDict() if hasattr(e, "toDict") else e) for e in examples]
    text = json.dumps(rows, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def describe_lms(lms: dict | None) -> str:
    """The model and server of each role, e.g. ``generate=openai/x@http://127.0.0.1:8000/v1 judge=...``."""
    parts = []
    for role, lm in sorted((lms or {}).items()):
        base = (getattr(lm, "kwargs", None) or {}).get("api_base") or "default"
        parts.append(f"{role}={getattr(lm, 'model', lm)}@{base}")
    return " ".join(parts) or "none"


def scorer_key(tags: dict) -> tuple[str, ...]:
    """What a ``dev_score`` tag was measured with; two scores compare only when their keys are equal."""
    return tuple(str(tags.get(name, "")) for name in KEY_TAGS)


def registry_lock_path(name: str) -> Path:
    """The lock file: beside the sqlite database, else in the temp folder (one per tracking URI and model)."""
    import mlflow

    uri = mlflow.get_tracking_uri()
    if uri.startswith("sqlite:///"):
        db = Path(uri[len("sqlite:///") :])
        return db.with_name(f"{db.name}.{name}.promote.lock")
    digest = hashlib.sha256(uri.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"yaksa-{digest}-{name}.promote.lock"


@contextlib.contextmanager
def registry_lock(name: str):
    """Hold an exclusive `fcntl.flock` on the model's promotion lock file (blocks until the holder releases it)."""
    path = registry_lock_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def current_champion(client, name: str):
    """The champion's model version (with its tags), or None when the alias is not set."""
    version = client.get_registered_model(name).aliases.get(CHAMPION)
    return None if version is None else client.get_model_version(name, str(version))


def promote(client, name: str, version: str, tags: dict, rescore, tries: int = 5) -> dict:
    """Move ``champion`` to `version` when its ``dev_score`` beats the champion's under the same scorer.

    Args:
        client: an `mlflow.MlflowClient`.
        name, version: the candidate model version; `tags` are its tags (``dev_score`` and the `KEY_TAGS`).
        rescore: ``champion_version -> score`` on the candidate's set with its scorer, for a champion whose tags were
            measured another way (called outside the lock: it makes LM calls).
        tries: how many times the alias may move under us while a champion is re-scored.

    Returns:
        ``{"promoted", "champion_version", "champion_score", "reason"}``.
    """
    score = float(tags["dev_score"])
    rescored: dict[str, float] = {}
    for _ in range(tries):
        with registry_lock(name):
            champion = current_champion(client, name)
            if champion is None:
                client.set_registered_model_alias(name, CHAMPION, version)
                return {"promoted": True, "champion_version": None, "champion_score": None, "reason": "no champion"}
            if str(champion.version) == str(version):
                return {"promoted": True, "champion_version": version, "champion_score": score, "reason": "itself"}
            best = _comparable_score(champion, tags, rescored)
            if best is not None:
                won = score == score and (best != best or score > best)  # NaN never wins, and beats nothing
                if won:
                    client.set_registered_model_alias(name, CHAMPION, version)
                reason = "recorded score" if str(champion.version) not in rescored else "re-scored"
                return {"promoted": won, "champion_version": champion.version, "champion_score": best, "reason": reason}
        rescored[str(champion.version)] = rescore(champion.version)
    from yaksa.errors import UserError

    raise UserError(f"the @{CHAMPION} alias of {name} kept moving while it was compared; run --promote again")


def _comparable_score(champion, tags: dict, rescored: dict) -> float | None:
    """The champion's score under the candidate's scorer: its recorded one, or a re-score; None: not known yet."""
    if str(champion.version) in rescored:
        return rescored[str(champion.version)]
    if "dev_score" in champion.tags and scorer_key(champion.tags) == scorer_key(tags):
        return float(champion.tags["dev_score"])
    return None
