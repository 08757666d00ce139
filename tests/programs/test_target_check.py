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


def test_an_answer_from_leaflets_outside_the_asked_class_rates_below_one_from_its_products():
    """여드름 연고 … 14살: a re-search that added 연령금기 어린이 found children's ibuprofen syrups, whose cautions
    scored higher than the acne creams' answer and shipped; with the class's products known (`keep`), they rate as
    another question's answer."""
    question = "중딩 아들 14살 여드름 연고 발라도 돼요?"
    frame = QuestionFrame(question, targets=Targets(classes=("연고",), symptoms=("여드름",)), aspects=("child_use",))
    cream = Document(
        "easydrug:1:atpn",
        "가상여드름연고\n신생아는 의사 또는 약사와 상의하십시오.",
        {"item_name": "가상여드름연고", "item_seq": "1", "section": "atpn"},
    )
    syrup = Document(
        "easydrug:2:atpn",
        "어린이가상시럽\n소아는 의사 또는 약사와 상의하십시오.",
        {"item_name": "어린이가상시럽", "item_seq": "2", "section": "atpn"},
    )

    def keep(doc):
        return doc.metadata.get("item_seq") == "1"  # the class's products, as the backend knows them

    drifted = heuristic_evaluation(
        question, "소아는 의사 또는 약사와 상의하십시오. [문서 1]", [syrup], frame=frame, keep=keep
    )
    first = heuristic_evaluation(
        question, "신생아는 의사 또는 약사와 상의하십시오. [문서 1]", [cream], frame=frame, keep=keep
    )
    assert (drifted.completeness, drifted.accuracy) == (0.0, 0.0)
    assert drifted.overall < first.overall
    unkept = heuristic_evaluation(question, "소아는 의사 또는 약사와 상의하십시오. [문서 1]", [syrup], frame=frame)
    assert unkept.overall == first.overall > drifted.overall  # without the class's products it tied the first


def test_the_program_gives_the_evaluator_the_questions_targets(searcher, monkeypatch):
    """The corrective loop's evaluation reads the class's products (`programs/graph.evaluate` passes `keep`)."""
    from programs import quality_evaluator
    from programs.crag import CRAG

    seen = []
    real = quality_evaluator.heuristic_evaluation

    def recording(*args, **kwargs):
        seen.append(kwargs.get("keep"))
        return real(*args, **kwargs)

    monkeypatch.setattr(quality_evaluator, "heuristic_evaluation", recording)
    CRAG(backend=searcher)(question="두통약 먹고 속이 쓰려요")
    assert seen and all(callable(k) for k in seen)
