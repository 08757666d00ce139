"""Words Kiwi does not know that are no medicine's name (retrievers/query_coverage.no_name): a disease, a flavour, a
time (셀리악병, 딸기맛, 배란기쯤) or 다음 shortened (담날) never make a question one about a medicine the corpus
lacks (the flavour and time endings are the module's doctest); the real `Searcher` on the mini index, and the
shipped leaflets' names."""

import re

import pytest

from programs.crag import CRAG
from retrievers.corpus import load_corpus
from retrievers.query_coverage import NOT_NAME_ENDINGS


@pytest.mark.parametrize(
    "question, word",
    [
        ("술먹고 담날 속이 울렁울렁 토할거같은데 타이레놀 먹어도 되나여", "담날"),
        ("셀리악병 있는데 타이레놀 먹어도 되나요?", "셀리악병"),
    ],
)
def test_a_disease_a_time_or_a_shortened_word_is_not_told_as_a_medicine_the_corpus_lacks(searcher, question, word):
    pred = CRAG(backend=searcher)(question=question)
    assert f"'{word}'" not in pred.answer
    assert pred.trace["outcome"] != "not_in_corpus"


def test_no_leaflet_product_name_ends_in_a_word_read_as_no_name():
    names = {d.metadata["item_name"] for d in load_corpus() if d.id.startswith("easydrug:")}
    bare = {re.sub(r"\([^)]*\)|\s", "", n) for n in names}
    assert not [n for n in bare if n.endswith(NOT_NAME_ENDINGS)]
