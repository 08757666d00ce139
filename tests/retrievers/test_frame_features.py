"""The question frame against the top hits (retrievers/frame_features.py): what the retrieval evaluator reads beside the
fused scores, over the mini index, and how the shipped evaluator grades a kind-of-medicine question."""

import pytest

from retrievers.documents import Document, Hit
from retrievers.frame_features import FRAME_FEATURES, NEUTRAL, frame_features, speaks
from retrievers.question_frame import QuestionFrame, Targets
from retrievers.relevance import RelevanceModel

FOUND = 0.7  # the seed's threshold: a result graded at or above it generates


@pytest.mark.parametrize(
    "question, expected",
    [
        # a kind of medicine and one of its aspects: a few particular leaflets answer
        ("감기약 먹고 운전해도 돼요?", {"kind_asks_particular": 1.0, "asks_for_medicine": 0.0, "top_speaks": 1.0}),
        ("임신 중에 감기약 먹어도 되나요", {"kind_asks_particular": 1.0, "asks_for_medicine": 0.0}),
        # a symptom and which medicine treats it: any of the kind answers
        ("기침이 멈추질 않아요", {"kind_asks_particular": 0.0, "asks_for_medicine": 1.0, "top_speaks": 1.0}),
        ("속이 더부룩해요", {"asks_for_medicine": 1.0, "speaks_share": 1.0}),
        # a named product: the top hit is its section that answers
        ("게보린 부작용", {"kind_asks_particular": 0.0, "top_speaks": 1.0, "target_share": 1.0}),
        ("게보린 먹고 술 마셔도 돼요", {"top_speaks": 1.0, "two_medicines": 0.0}),
        # two medicines, or a second one taken beside it
        ("게보린이랑 부루펜 같이 먹어도 돼?", {"two_medicines": 1.0, "kind_asks_particular": 0.0}),
        ("혈압약 먹는데 게보린 먹어도 돼요", {"two_medicines": 1.0}),
    ],
)
def test_frame_features_of_mini_index_retrievals(mini_searcher, question, expected):
    result = mini_searcher.retrieve(question)
    assert result.hits and result.frame is not None
    assert set(result.frame_features) == set(FRAME_FEATURES)
    assert all(0.0 <= v <= 1.0 for v in result.frame_features.values())
    assert {k: result.frame_features[k] for k in expected} == expected


def test_no_frame_or_no_hits_is_the_neutral_row():
    frame = QuestionFrame("감기약 먹고 운전해도 돼요?", Targets(classes=("감기약",)), ("driving",))
    assert frame_features(None, []) == NEUTRAL
    assert frame_features(frame, []) == NEUTRAL
    assert set(NEUTRAL) == set(FRAME_FEATURES)


def hit(doc_id: str, text: str, **meta) -> Hit:
    return Hit(Document(doc_id, text, meta), 1.0, {})


@pytest.mark.parametrize(
    "aspects, h, expected",
    [
        (("side_effects",), hit("easydrug:1:se", "발진", section="se"), 1.0),  # the section answers
        (("pregnancy",), hit("dur:cc:1", "임부금기", dur_code="cc"), 1.0),  # a DUR rule type answers
        (("driving",), hit("easydrug:1:atpn", "운전을 하지 마십시오", section="atpn"), 1.0),  # a seed word
        (("driving",), hit("easydrug:1:efcy", "감기의 제증상", section="efcy"), 0.0),
        (("efficacy",), hit("easydrug:1:efcy", "감기의 제증상", section="efcy"), 1.0),
    ],
)
def test_a_hit_speaks_to_an_aspect_by_its_section_or_its_words(aspects, h, expected):
    assert speaks(QuestionFrame("q", aspects=aspects), h) == expected


def test_target_share_reads_named_products_ingredients_and_a_kinds_efficacy():
    named = QuestionFrame("q", Targets(ingredients=("이부프로펜",)), ("pregnancy",))
    hits = [
        hit("easydrug:7:atpn", "임부", item_seq="7", section="atpn", main_ingr="이부프로펜"),
        hit("dur:cc:1", "임부금기", dur_code="cc", ingredient="이부프로펜"),
        hit("easydrug:9:atpn", "임부", item_seq="9", section="atpn", main_ingr="아세트아미노펜"),
    ]
    f = frame_features(named, hits, named=True, named_ingredients={"이부프로펜"})
    assert f["target_share"] == round(2 / 3, 4)
    kind = QuestionFrame("q", Targets(classes=("변비약",)), ("pregnancy",))
    efficacy = {"7": "변비의 치료", "9": "두통, 발열"}.get
    f = frame_features(kind, hits[::2], named=False, efficacy=efficacy)
    assert f["target_share"] == 0.5 and f["kind_asks_particular"] == 1.0


def test_the_shipped_evaluator_sends_a_kinds_particular_aspect_to_a_corrective_route(searcher):
    model = RelevanceModel.load()
    particular = model.grade_result(searcher.retrieve("감기약 먹고 운전해도 돼요?")).result
    named = model.grade_result(searcher.retrieve("게보린 부작용")).result
    assert particular < FOUND <= named
