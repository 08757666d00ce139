"""The LM calls `yaksa compile` prints are the ones it logs: one snapshot of the usage, taken after the run's last
LM call. (They used to differ: the metrics were logged before ``--promote`` re-scored the champion, whose LM calls
reached only the printout, e.g. "LM calls: 30 (+157 from cache)" against a logged 26 / 140.)"""

import re

import mlflow
from mlflow import MlflowClient

from tests.helpers.lab import *  # noqa: F403
from yaksa import cli

COMPILE = ["compile", "--optimizer", "bootstrap", "--train", "2", "--dev", "2", "--profile", "baseline", "--promote"]


def test_printed_lm_calls_equal_the_logged_ones_when_promote_rescores_the_champion(lab, capsys):
    assert cli.main([*COMPILE, *lab.data, *lab.lm]) == 0
    client = MlflowClient()
    # the champion was measured with another LM, so the next --promote loads it and re-scores it (LM calls)
    client.set_model_version_tag("yaksa-crag", "1", "lm", "generate=openai/other@http://elsewhere/v1")
    capsys.readouterr()
    before = len(lab.stub.requests)
    assert cli.main([*COMPILE, "--seed", "1", *lab.data, *lab.lm]) == 0
    out = capsys.readouterr().out
    calls, cached = map(int, re.search(r"LM calls: (\d+) \(\+(\d+) from cache\)", out).groups())
    runs = client.search_runs(
        [mlflow.get_experiment_by_name("test").experiment_id],
        filter_string="tags.`yaksa.command` = 'compile'",
        order_by=["attributes.start_time DESC"],
    )
    logged = runs[0].data.metrics
    assert (logged["lm_calls"], logged["lm_cache_hits"]) == (calls, cached)
    assert calls == len(lab.stub.requests) - before  # every request the stub saw, the champion's re-scoring included
