"""bench/scope_probe.py: its sets load as written, its counts come from the real guard on the mini index, and a
missing index is one line, not a traceback."""

from bench import scope_probe


def test_the_sets_hold_symptom_statements_and_off_topic_requests():
    sets = scope_probe.load_sets()
    assert sum(inside for _, inside in sets["probe"]) == 45 and len(sets["probe"]) == 70
    assert len(sets["off_topic"]) == 216 and not any(inside for _, inside in sets["off_topic"])
    assert {"retrieval dev", "retrieval test"} <= set(sets)


def test_counts_come_from_the_guard(searcher, capsys):
    items = {"s": [("입술이 부르텄어요", True), ("엑셀 vlookup 함수 쓰는 법", False), ("안녕 뭐해", True)]}
    out = scope_probe.run(searcher, items, show=True)
    assert out["s"] == {"in_scope": 2, "refused": 1, "out_of_scope": 1, "kept": 0}  # 안녕 뭐해 labelled in: refused
    assert "refused: 안녕 뭐해" in capsys.readouterr().out


def test_a_missing_index_is_one_line(tmp_path, capsys):
    assert scope_probe.main(["--index-dir", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bench/scope_probe.py: error: no index at") and "Traceback" not in err
