"""A full disk or a broken MLflow store while a command logs its run is one line naming the store (the tracking
URI) and the fix, exit 2, with the results already printed left in place (yaksa/errors.py)."""

import errno
import sqlite3

import pytest
import sqlalchemy.exc
from mlflow.store.tracking.sqlalchemy_store import SqlAlchemyStore

from tests.helpers.lab import *  # noqa: F403
from tests.yaksa.test_retrieval_eval_cli import setup  # noqa: F401
from yaksa import cli
from yaksa.errors import explain

FAULTS = {
    "database full": lambda: sqlalchemy.exc.OperationalError(
        "INSERT INTO params", {}, sqlite3.OperationalError("database or disk is full")
    ),
    "no space": lambda: OSError(errno.ENOSPC, "No space left on device"),
}


@pytest.fixture(params=sorted(FAULTS))
def full_store(request, monkeypatch):
    """Every batch of params / metrics / tags the store writes fails with the fault."""

    def fail(self, *args, **kwargs):
        raise FAULTS[request.param]()

    monkeypatch.setattr(SqlAlchemyStore, "log_batch", fail)
    return request.param


def one_line(capsys) -> tuple[str, str]:
    """stdout, and the error line: the only line of stderr after the progress bars and MLflow's INFO notes."""
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "[SQL:" not in err, err
    line = err.strip().splitlines()[-1]
    assert err.count("yaksa: error") == 1 and line.startswith("yaksa: error: the MLflow store sqlite:///"), err
    assert "free disk space" in line and "MLFLOW_TRACKING_URI" in line
    return out, line


def test_eval_retrieval_keeps_its_table_and_ends_with_one_line(setup, full_store, capsys):  # noqa: F811
    index_dir, questions, tmp_path = setup
    assert cli.main(["eval-retrieval", "--questions", questions, "--index-dir", index_dir]) == 2
    out, err = one_line(capsys)
    assert "hybrid" in out and "R@5" in out  # the results printed before the logging failed stay printed
    assert str(tmp_path / "mlflow.db") in err


def test_evaluate_ends_with_one_line(lab, full_store, capsys):
    assert cli.main(["evaluate", "--profile", "baseline", *lab.data, *lab.lm]) == 2
    _, err = one_line(capsys)
    assert lab.uri in err


def test_a_full_disk_elsewhere_names_the_file():
    message = explain(OSError(errno.ENOSPC, "No space left on device", "/data/index/bm25.tmp"))
    assert message == "/data/index/bm25.tmp: No space left on device: free disk space and run the command again"
    assert explain(OSError(errno.ECONNRESET, "reset")) is None  # not a disk fault: left to the caller
