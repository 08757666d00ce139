"""A question comparing the products it names, answered with no LM over the real `Searcher` (mini corpus): each
product side by side with its ingredients and efficacy sentence, not the interaction list a pair word (이랑) draws."""

import pytest

from programs.crag import CRAG

BEAZE = "베아제정 (디아스타제·프로테아제·셀룰라제"
FESTAL = "훼스탈플러스정 (판크레아틴,셀룰라제"


@pytest.mark.parametrize("question", ["베아제랑 훼스탈 차이가 뭐예요?", "베아제하고 훼스탈 중에 뭐가 나아요? 과식"])
def test_two_named_products_compared_are_set_side_by_side_with_their_ingredients(searcher, question):
    answer = CRAG(backend=searcher)(question=question).answer
    opening = next(line for line in answer.splitlines() if line.strip() and not line.startswith("※"))
    assert opening == "질문한 제품을 나란히 적었습니다(성분 · 효능·효과): 베아제정, 훼스탈플러스정."
    lines = [line for line in answer.splitlines() if "[문서 " in line]
    assert lines[0].startswith(BEAZE) and lines[1].startswith(FESTAL)  # in the order the question names them
    assert all("[효능·효과]" in line for line in lines[:2])
    assert "[상호작용" not in answer


def test_what_a_comparison_asks_beside_it_is_quoted_after_the_products(searcher):
    answer = CRAG(backend=searcher)(question="게보린이랑 부루펜 뭐가 달라요? 번갈아 먹어도 돼요?").answer
    lines = [line for line in answer.splitlines() if "[문서 " in line]
    assert lines[0].startswith("게보린정 (") and lines[1].startswith("부루펜정200밀리그램 (")
    assert any("[상호작용" in line for line in lines[2:])  # 번갈아 먹어도: whether the two go together


def test_a_product_the_users_rules_forbid_is_never_set_side_by_side(searcher):
    question = "게보린이랑 부루펜 뭐가 달라요? 번갈아 먹어도 돼요?"
    pred = CRAG(backend=searcher)(question=question, user={"pregnant": True})
    lines = [line for line in pred.answer.splitlines() if "[문서 " in line]
    assert not any(line.startswith(("부루펜정200밀리그램 (", "부루펜정200밀리그램:")) for line in lines)  # 임부금기
    assert "나란히 적었습니다" not in pred.answer  # one product left: nothing to set beside it


def test_which_is_better_is_said_not_in_the_leaflets_what_differs_is_not(searcher):
    from programs.comparison import RANKING_NOTICE

    ranked = CRAG(backend=searcher)(question="게보린이랑 부루펜 중에 뭐가 나아요?")
    assert ranked.answer.startswith(RANKING_NOTICE)
    assert ranked.trace["outcome"] == "not_in_leaflets"
    assert "질문한 제품을 나란히 적었습니다" in ranked.answer  # the products are still set side by side
    differs = CRAG(backend=searcher)(question="게보린이랑 부루펜 차이가 뭐예요?")
    assert RANKING_NOTICE not in differs.answer and differs.trace["outcome"] == "answered"


@pytest.mark.parametrize(
    "question,ranks",
    [
        ("판콜이랑 판피린 뭐가 나아요?", True),
        ("타이레놀이랑 게보린 생리통엔 어떤게 더 나아요", True),
        ("지르텍이랑 클라리틴 중에 덜 졸린 게 뭐예요?", True),
        ("베아제랑 훼스탈 차이가 뭐예요? 속이 더부룩해요", False),  # 더부룩: no 더
        ("판콜 먹다가 판피린으로 바꿔도 돼요? 감기가 안 나아서요", False),  # 안 나아서: gets no better
        ("타이레놀이랑 게보린 차이가 뭔지 모르겠더라고요", False),
    ],
)
def test_a_comparison_ranks_only_with_a_which_word_and_a_ranking_word_of_its_own(question, ranks):
    from programs.comparison import asks_which_is_better
    from retrievers.question_frame import QuestionFrame

    assert asks_which_is_better(QuestionFrame(question, aspects=("comparison",), comparison=True)) is ranks


def test_a_comparison_on_an_effect_reads_the_cautions_that_name_it():
    """판콜이랑 판피린 중에 뭐가 덜 졸려요: neither 이상반응 list names 졸음; each 주의사항 does ("졸음이 나타날 수
    있으므로 …"), which answers what the question compares."""
    from programs.comparison import compared
    from programs.sentences import SentenceRanker
    from retrievers.documents import Document

    def leaflet(seq: str, name: str, section: str, body: str) -> Document:
        return Document(f"easydrug:{seq}:{section}", f"{name}\n{body}", {"section": section, "item_seq": seq})

    docs = [
        leaflet("1", "가감기액", "se", "발진, 구역, 구토, 변비, 배뇨곤란이 나타나는 경우 복용을 중지하십시오."),
        leaflet(
            "1",
            "가감기액",
            "atpn",
            "과민증 환자는 복용하지 마십시오. 복용 후 졸음이 나타날 수 있으므로 운전 시 주의하십시오.",
        ),
        leaflet("2", "나감기액", "se", "발진, 가려움, 구역, 식욕부진이 나타나는 경우 복용을 중지하십시오."),
        leaflet("2", "나감기액", "atpn", "이 약 복용 후 졸음이 나타날 수 있으므로 기계조작 시 주의하십시오."),
    ]
    ranker = SentenceRanker("가감기랑 나감기 중에 뭐가 덜 졸려요?")
    side = compared(["1", "2"], docs, ranker.score, "se")
    assert [c.n for c in side] == [2, 4]
    assert all("졸음" in c.sentence for c in side)
