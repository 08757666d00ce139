"""The kind words a symptom's medicines are warned of by (retrievers/mine_class_kinds.py), mined from the leaflets."""

from retrievers.class_products import leaflet_kinds
from retrievers.corpus import load_corpus
from retrievers.lexicon import Lexicon
from retrievers.mine_class_kinds import CLASS_KINDS_PATH, mine_class_kinds, products_of, rule_heads


def test_the_shipped_table_is_what_the_corpus_gives():
    import json

    shipped = json.loads(CLASS_KINDS_PATH.read_text(encoding="utf-8"))["kinds"]
    assert mine_class_kinds(rule_heads(), products_of(load_corpus())) == shipped


def test_a_class_said_by_its_symptom_reads_the_kind_its_leaflets_warn_of():
    lexicon = Lexicon.load()
    assert leaflet_kinds("두통약", lexicon)[0] == "해열진통제"
    assert leaflet_kinds("멀미약", lexicon) == ("진토제",)
    assert leaflet_kinds("위장약", lexicon) == ()  # its leaflets warn of no kind of their own often enough


def test_mining_from_a_missing_index_says_so_and_writes_nothing(tmp_path, capsys):
    import pytest

    from retrievers.mine_class_kinds import main

    before = CLASS_KINDS_PATH.read_bytes()
    with pytest.raises(SystemExit) as stop:
        main(["--index-dir", str(tmp_path / "none")])
    assert stop.value.code == 2 and "yaksa index" in capsys.readouterr().err
    assert CLASS_KINDS_PATH.read_bytes() == before
