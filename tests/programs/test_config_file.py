"""yaksa.toml: CragSettings from [crag], ServeSettings from [serve] and the environment, flags over both, and a bad
table as one line naming the file."""

import pytest

from programs.ablations import ablation_settings
from programs.settings import CragSettings
from retrievers.config_file import ConfigFileError
from yaksa.app.settings import ServeSettings


def write(tmp_path, text: str):
    path = tmp_path / "yaksa.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_crag_settings_come_from_the_crag_table_and_flags_win(tmp_path):
    path = write(tmp_path, "[crag]\nlm_call_budget = 5\nquality_weights = [0.5, 0.3, 0.2]\n[retrieval]\nrrf_k = 1\n")
    loaded = CragSettings.load(path)
    assert loaded.lm_call_budget == 5
    assert loaded.quality_weights == (0.5, 0.3, 0.2)
    assert CragSettings.load(path, lm_call_budget=None).lm_call_budget == 5  # a flag left out changes nothing
    assert CragSettings.load(path, lm_call_budget=2).lm_call_budget == 2


def test_the_config_file_comes_from_yaksa_config(tmp_path, monkeypatch):
    monkeypatch.setenv("YAKSA_CONFIG", str(write(tmp_path, "[crag]\nmax_rewrites = 1\n")))
    assert CragSettings.load().max_rewrites == 1


def test_a_profile_sets_its_flags_over_the_crag_table(tmp_path):
    base = CragSettings.load(write(tmp_path, "[crag]\nlm_call_budget = 4\n"))
    baseline = ablation_settings("baseline", base=base)
    assert baseline.lm_call_budget == 4
    assert baseline.refine_strategy == "basic_rag"
    assert ablation_settings("baseline").lm_call_budget == CragSettings().lm_call_budget


@pytest.mark.parametrize(
    "table, words",
    [
        ("[crag]\nlm_budget = 3\n", ["[crag]", "unknown key", "lm_budget"]),
        ("[crag]\nlm_call_budget = -1\n", ["[crag]", "lm_call_budget must be >= 0"]),
        ("[crag]\nrefine_strategy = 'magic'\n", ["[crag]", "magic"]),
        ("crag = 3\n", ["[crag] must be a table"]),
        ("[crag\n", ["not valid TOML"]),
    ],
)
def test_a_bad_crag_table_is_one_line_naming_the_file(tmp_path, table, words):
    path = write(tmp_path, table)
    with pytest.raises(ConfigFileError) as e:
        CragSettings.load(path)
    message = str(e.value)
    assert str(path) in message
    for word in words:
        assert word in message
    assert "\n" not in message


def test_serve_settings_come_from_the_serve_table_then_the_environment_then_flags(tmp_path, monkeypatch):
    path = write(tmp_path, "[serve]\nworkers = 4\nrequest_timeout_s = 30\napi_token = 'from-file'\n")
    monkeypatch.delenv("YAKSA_API_TOKEN", raising=False)
    loaded = ServeSettings.load(path)
    assert (loaded.workers, loaded.request_timeout_s, loaded.api_token) == (4, 30, "from-file")
    monkeypatch.setenv("YAKSA_API_TOKEN", "from-env")
    assert ServeSettings.load(path).api_token == "from-env"
    assert ServeSettings.load(path, workers=None).workers == 4
    assert ServeSettings.load(path, workers=2).workers == 2


def test_ask_takes_the_budget_from_the_crag_table_unless_the_flag_is_given(tmp_path):
    from argparse import Namespace

    from yaksa.commands._program import crag_settings

    path = str(write(tmp_path, "[crag]\nlm_call_budget = 3\ntime_budget_s = 30\n"))
    args = Namespace(profile=None, config=path, budget=None, time_budget=None, no_web=False)
    assert (crag_settings(args).lm_call_budget, crag_settings(args).time_budget_s) == (3, 30)
    args.budget, args.time_budget = 7, 0
    assert (crag_settings(args).lm_call_budget, crag_settings(args).time_budget_s) == (7, 0)


def test_yaksa_ask_reports_a_bad_crag_table_in_one_line(tmp_path, capsys):
    from yaksa import cli

    path = write(tmp_path, "[crag]\nlm_call_budget = 'many'\n")
    assert cli.main(["ask", "게보린 부작용", "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("yaksa: error: ") and str(path) in err and err.count("\n") == 1
