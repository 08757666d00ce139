"""The no-LM evaluator's target check: an answer from other products' leaflets rates below one from the named
product's, so the corrective loop keeps the answer about what was asked (programs/target_check.py)."""

from programs.quality_evaluator import heuristic_evaluation
from programs.target_check import off_target
from retrievers.documents import Document
from retrievers.question_frame import QuestionFrame, Targets

QUESTION = "비판텐 계속 발라도 될까요?"
FRAME = QuestionFrame(QUESTION, targets=Targets(products=("비판텐",)), aspects=("how_to_take",))
OWN = Document(
    "easydrug:1:useMethod",
    "비판텐연고\n[용법·용량] 1일 1~수회 환부에 바릅니다.",
    {"item_name": "비판텐연고(덱스판테놀)", "section": "useMethod"},
)
OTHER = Document(
    "easydrug:2:useMethod",
    "어린이타이레놀현탁액\n[용법·용량] 만 12세 이하의 소아는 1회 권장용량을 4~6시간마다 필요 시 복용합니다.",
    {"item_name": "어린이타이레놀현탁액(아세트아미노펜)", "section": "useMethod"},
)
RULE = Document("dur:cc:1", "[임부금기] 덱스판테놀은(는) 임부에게 사용하면 안 됩니다.", {"ingredient": "덱스판테놀"})


def test_an_answer_citing_only_other_products_leaflets_rates_below_any_threshold():
    own = heuristic_evaluation(QUESTION, "[용법·용량] 1일 1~수회 환부에 바릅니다. [문서 1]", [OWN], frame=FRAME)
    other_text = "[용법·용량] 만 12세 이하의 소아는 1회 권장용량을 4~6시간마다 필요 시 복용합니다. [문서 1]"
    other = heuristic_evaluation(QUESTION, other_text, [OTHER], frame=FRAME)
    assert own.overall > 0.5 and not own.needs_retrieval
    assert (other.grounding, other.completeness, other.accuracy) == (0.3, 0.0, 0.0)
    assert other.overall < own.overall and other.needs_retrieval
    unframed = heuristic_evaluation(QUESTION, other_text, [OTHER])  # without the frame nothing knows the target
    assert unframed.overall > other.overall


def test_only_leaflets_are_judged_and_a_question_naming_no_product_is_not():
    assert off_target(FRAME, [OTHER]) and not off_target(FRAME, [OWN, OTHER])
    assert not off_target(FRAME, [RULE])  # a DUR row is about an ingredient
    assert not off_target(QuestionFrame("해열제 먹여도 돼요"), [OTHER])
    assert not off_target(None, [OTHER])
