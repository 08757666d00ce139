"""A time spent without getting better asks how long to go on (retrievers/unimproved.py): the frame reads duration,
first when the question asks whether to go on, and the sentence ranker finds the leaflet's "N일 사용하여도 증상의
개선이 없을 경우" line beside the dose the asker used."""

import pytest

import programs.sentences as sentences
import retrievers.question_frame as question_frame
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.question_frame import read_frame
from retrievers.unimproved import asks_to_go_on, unimproved_after

GO_ON = "멍크림 하루에 서너번씩 일주일 발랐는데 멍이 그대로예요 더 발라도 돼요?"
TOLD = "허리 파스 하루에 몇 번 갈아요? 열흘째 붙이는데 여전히 아파요"


def frame(question: str):
    return read_frame(question, NameIndex(), Lexicon.load(), learned=False)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("연고 5일 발랐는데 안 나아요", True),
        ("감기약 며칠 먹었는데 차도가 없어요", True),
        ("한 달 먹었는데 효과가 별로예요", True),
        ("두통약 먹었는데 안 나아요", False),  # no time spent
        ("3일 뒤에 여행 가는데 멀미약 먹어도 돼요?", False),  # a time ahead, and nothing that did not get better
        ("피임약 하루 늦게 먹었는데 효과 그대로인가요?", False),  # asks whether it still works
        ("하루에 세 번 먹는데 안 나아요", False),  # how often, not how long
        ("1일 3회 바르는데 여전히 가려워요", False),
        ("열흘째 붙이는데 여전히 아파요", True),
        ("파스 닷새째 붙이는데 무릎이 여전히 쑤셔요", True),
    ],
)
def test_a_time_spent_and_no_better(question, expected):
    assert unimproved_after(question) is expected


def test_duration_leads_when_asked_whether_to_go_on_and_follows_what_else_is_asked(monkeypatch):
    assert asks_to_go_on(GO_ON) and not asks_to_go_on(TOLD)
    assert frame(GO_ON).aspects[0] == "duration"
    told = frame(TOLD).aspects
    assert "duration" in told and told[0] != "duration"
    monkeypatch.setattr(question_frame, "UNIMPROVED", False)
    assert "duration" not in frame(GO_ON).aspects


def test_the_ranker_finds_the_no_improvement_line_beside_the_dose_asked(monkeypatch):
    line = "5~6일 정도 사용하여도 증상의 개선이 없을 경우 사용을 중지하고 의사 또는 약사와 상의하십시오."
    other = "너무 넓게 바르지 마십시오."
    ranker = sentences.SentenceRanker(GO_ON)
    assert "duration" in ranker.aspects and ranker.score(line) > ranker.score(other)
    monkeypatch.setattr(sentences, "MERGE_FRAMED", False)
    plain = sentences.SentenceRanker(GO_ON)
    assert "duration" not in plain.aspects and plain.score(line) <= plain.score(other)
