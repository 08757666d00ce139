"""A question set as an MLflow evaluation dataset (``mlflow.genai.datasets``), versioned by its content.

A record is ``{"inputs": {"question"}, "expectations": the row's labels}`` (gold ids, gold phrases, answerable …;
labels that are null are left out). The version is the first 12 hex digits of the SHA-256 of the records: the same
questions and labels are the same version, whatever the file is called. One MLflow dataset is kept per set name and
version (tags ``yaksa.dataset`` and ``yaksa.dataset_version``): a run over a version already registered reuses it.

MLflow outside Databricks keeps no dataset versions of its own (``get_dataset(version=...)`` is Databricks only), so
the content digest is the version.

Example:
    >>> records([{"id": "q1", "question": "게보린 부작용", "gold": ["a"], "note": None}])
    [{'inputs': {'question': '게보린 부작용'}, 'expectations': {'id': 'q1', 'gold': ['a']}}]
    >>> version(records([{"question": "게보린 부작용"}]))
    'fa82ef82b827'
"""

from __future__ import annotations

import hashlib
import json

from yaksa.errors import UserError

NAME_TAG = "yaksa.dataset"
VERSION_TAG = "yaksa.dataset_version"


def records(questions: list[dict]) -> list[dict]:
    """The evaluation records of `questions`: the question as input, every other non-null field as an expectation."""
    out = []
    for q in questions:
        labels = {k: v for k, v in q.items() if k != "question" and v is not None}
        out.append({"inputs": {"question": q["question"]}, "expectations": labels})
    return out


def version(recs: list[dict]) -> str:
    """The content digest of the records (12 hex digits)."""
    text = json.dumps(recs, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def register(name: str, questions: list[dict], source: str):
    """(the MLflow evaluation dataset of `questions` named `name`, its version), created on first use in the
    active experiment."""
    from mlflow.genai.datasets import create_dataset, search_datasets

    recs = records(questions)
    _refuse_repeats(questions)
    ver = version(recs)
    name_q = name.replace("'", "")
    found = search_datasets(
        filter_string=f"name = '{name_q}' AND tags.{NAME_TAG} = '{name_q}' AND tags.{VERSION_TAG} = '{ver}'",
        max_results=1,
    )
    if found:
        return found[0], ver
    dataset = create_dataset(name=name_q, tags={NAME_TAG: name_q, VERSION_TAG: ver, "yaksa.source": source})
    dataset.merge_records(recs)
    return dataset, ver


def _refuse_repeats(questions: list[dict]) -> None:
    """MLflow keys a dataset's records by their inputs: a question asked twice would be one record."""
    seen: dict[str, int] = {}
    for n, q in enumerate(questions, 1):
        if q["question"] in seen:
            raise UserError(
                f"rows {seen[q['question']]} and {n} ask the same question; an MLflow evaluation dataset keeps one "
                "record per question (remove the repeat, or run with --no-mlflow)"
            )
        seen[q["question"]] = n
