"""The table of `yaksa compare` from plain run records: one column per metric (GEPA's ``combined`` and bootstrap's
``quality`` never share a column; a run without a metric shows "—"), the params as columns, the LM requests sent
and cache hits as separate columns, and a warning when the runs measured different dev sets."""

from yaksa.commands._compare_table import MISSING, as_json, build_rows, dataset_warning, render, run_metrics

LM = {"lm.generate": "openai/qwen", "lm.judge": "openai/judge", "lm.api_base": "http://x", "lm.verify": "none"}


def compile_run(run_id, optimizer, metric, after, before, version="v1", calls=26, cached=140):
    return {
        "run_id": run_id * 32,
        "name": f"compile-crag-{optimizer}",
        "tags": {"yaksa.command": "compile"},
        "params": {
            "optimizer": optimizer,
            "metric": metric,
            "profile": "baseline",
            "dataset": "trainsets/qa",
            "dataset_version": version,
            "dev_n": "20",
            **LM,
        },
        "metrics": {
            "dev_score_after": after,
            "dev_score_before": before,
            "lm_calls": calls,
            "lm_cache_hits": cached,
            "duration_s": 12.5,
        },
    }


GEPA = compile_run("a", "gepa", "combined", 0.713, 0.6)
BOOT = compile_run("b", "bootstrap", "quality", 0.765, 0.7)


def test_two_metrics_never_share_a_column():
    columns, rows = build_rows([GEPA, BOOT])
    assert {"combined", "quality", "combined before", "quality before"} <= set(columns)
    assert "score" not in columns
    gepa, boot = rows
    assert (gepa["combined"], gepa.get("quality")) == (0.713, None)
    assert (boot["quality"], boot.get("combined")) == (0.765, None)
    lines = render(columns, rows).splitlines()
    head = lines[0].split()
    assert head[:2] == ["run", "name"]
    quality_at = lines[0].index("quality")
    gepa_line = next(line for line in lines if line.startswith("aaaaaaaa"))
    assert gepa_line[quality_at : quality_at + len("quality")].strip() in ("", MISSING)
    assert MISSING in gepa_line
    assert columns.index("combined") < columns.index("combined before")  # scores first, the before-scores after


def test_params_are_columns_and_lm_calls_sent_and_cached_are_separate():
    columns, rows = build_rows([GEPA, BOOT])
    for name in ("command", "optimizer", "metric", "profile", "dataset", "dataset_version", "dev_n"):
        assert name in columns
    assert {"lm.generate", "lm.judge"} <= set(columns)
    assert "lm.api_base" not in columns and "lm.verify" not in columns  # the server, and a role not set
    assert columns.index("lm_calls") + 1 == columns.index("lm_cache_hits")
    assert (rows[0]["lm_calls"], rows[0]["lm_cache_hits"]) == (26, 140)
    text = render(columns, rows)
    assert "gepa" in text and "bootstrap" in text and "openai/qwen" in text
    line = next(line for line in text.splitlines() if line.startswith("aaaaaaaa"))
    assert " 26 " in f"{line} " and " 140 " in f"{line} "


def test_a_run_of_another_command_keeps_its_own_metrics():
    child = {
        "run_id": "c" * 32,
        "name": "baseline",
        "tags": {"yaksa.command": "ablation"},
        "params": {"profile": "baseline", "metric": "quality"},
        "metrics": {"quality": 0.5, "grounding": 0.8, "lm_calls": 1, "lm_cache_hits": 23},
    }
    bench = {"run_id": "d" * 32, "tags": {"yaksa.command": "bench"}, "params": {}, "metrics": {}}
    bench["metrics"] = {"no_retrieval.accuracy": 0.4, "no_retrieval.lm_calls": 5, "retrieval.lm_calls": 7}
    assert run_metrics(child) == {"quality": 0.5, "grounding": 0.8}
    columns, rows = build_rows([child, bench])
    assert rows[1]["lm_calls"] == 12  # a bench run's arms summed
    assert rows[1]["lm_cache_hits"] is None
    assert {"quality", "grounding", "no_retrieval.accuracy"} <= set(columns)


def test_a_warning_when_the_dev_sets_differ():
    assert dataset_warning([GEPA, BOOT]) is None
    other = compile_run("e", "bootstrap", "quality", 0.9, 0.8, version="v2")
    warning = dataset_warning([GEPA, other])
    assert "different dev sets" in warning
    assert "v1: aaaaaaaa" in warning and "v2: eeeeeeee" in warning
    compare_run = {"run_id": "f" * 32, "params": {"dataset_version": "v3"}, "metrics": {}}
    assert dataset_warning([GEPA, compare_run]) is None  # a run without scores measured nothing
    older = {"run_id": "9" * 32, "params": {"metric": "quality"}, "metrics": {"dev_score": 0.5}}
    assert dataset_warning([GEPA, older]) is None  # logged no dev set: not checked
    unversioned = {"run_id": "8" * 32, "params": {"dataset": "qa", "dev_n": "5"}, "metrics": {"dev_score": 0.5}}
    assert "qa n=5: 88888888" in dataset_warning([GEPA, unversioned])


def test_json_has_the_same_columns_and_none_for_a_missing_metric():
    columns, rows = build_rows([GEPA, BOOT])
    out = as_json(columns, rows, "w")
    assert out["columns"] == columns
    assert out["rows"][0]["run_id"] == "a" * 32
    assert out["rows"][0]["quality"] is None
    assert out["rows"][1]["quality"] == 0.765
    assert out["warning"] == "w"
