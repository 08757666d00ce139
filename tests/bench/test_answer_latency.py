"""bench/answer_latency.py over the mini index (`--limit 3`): the figures it prints, as JSON and as text, are there
and positive, and a missing index is one line. No timing thresholds: a shared machine's load moves them."""

import json

import pytest

from bench import answer_latency

SPREADS = ("answer_ms", "retrieval_ms", "beyond_retrieval_ms", "answer_cpu_ms", "retrieval_cpu_ms")


@pytest.fixture
def index_dir(mini_index, monkeypatch):
    from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder

    open_searchers_with_hash_embedder(monkeypatch)
    return str(mini_index[0])


def test_json_figures_have_their_keys_and_are_positive(index_dir, capsys):
    assert answer_latency.main(["--index-dir", index_dir, "--limit", "3", "--repeat", "1", "--json"]) == 0
    f = json.loads(capsys.readouterr().out)
    assert f["split"] == "real-dev"
    assert (f["questions"], f["repeat"], f["lm_calls"]) == (3, 1, 0)
    assert f["cold_first_answer_ms"] > 0 and f["open_index_s"] > 0
    for key in SPREADS:
        assert set(f[key]) == {"p50", "p95"}, key
        assert 0 < f[key]["p50"] <= f[key]["p95"], key
    assert f["target_answer_p95_ms"] == 50
    assert isinstance(f["target_met"], bool)
    assert sum(f["stop_reasons"].values()) == 3


def test_text_report_prints_answer_retrieval_and_beyond(index_dir, capsys):
    assert answer_latency.main(["--index-dir", index_dir, "--limit", "3", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "questions: 3 (real-question dev split) x 1" in out
    rows = {
        label: [float(x) for x in line.split()[-4:]]
        for line in out.splitlines()
        for label in ("no-LM answer", "retrieval alone", "beyond retrieval")
        if line.startswith(label)
    }
    assert set(rows) == {"no-LM answer", "retrieval alone", "beyond retrieval"}
    assert all(v > 0 for values in rows.values() for v in values)
    assert "cold first answer:" in out
    assert "target: no-LM answer p95 <= 50 ms:" in out


def test_a_missing_index_is_one_line(tmp_path, capsys):
    assert answer_latency.main(["--index-dir", str(tmp_path / "none"), "--limit", "3"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("bench/answer_latency.py: error: ")
    assert "yaksa index" in captured.err
