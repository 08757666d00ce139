"""bench/tracing.py over the mini index (`--repeat 1`): both arms are timed, the traced arm really records traces
(spans in its first trace), and the added cost is the traced minus the untraced figure. No timing thresholds: a
shared machine's load moves them."""

import json

from bench import tracing


def test_json_figures_compare_the_two_arms_and_the_traced_one_has_spans(mini_index, monkeypatch, tmp_path, capsys):
    from yaksa.testing.hash_embedder import open_searchers_with_hash_embedder

    open_searchers_with_hash_embedder(monkeypatch)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "")  # the bench sets its own store; the test's env is restored
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    argv = ["--index-dir", str(mini_index[0]), "--repeat", "1", "--tracking-uri", uri, "--json"]
    assert tracing.main(argv) == 0
    f = json.loads(capsys.readouterr().out)
    assert f["answers_per_arm"] == len(tracing.QUESTIONS)
    assert f["spans_in_first_trace"] >= 5  # root, retrieve + search, grade, generate ...
    for arm in ("untraced_ms", "traced_ms"):
        assert 0 < f[arm]["p50"] <= f[arm]["p95"], arm
    assert f["added_ms"]["p50"] == round(f["traced_ms"]["p50"] - f["untraced_ms"]["p50"], 2)
    assert f["target_added_p50_ms"] == 5.0
