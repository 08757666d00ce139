"""Whether a product holds some substance (돼지 성분, 젤라틴, 글루텐, 유당) is said only where a quoted leaflet line
names it (programs/contents_check.py): otherwise the answer says the leaflets found do not say and where to look;
the real `Searcher` on the mini index (훼스탈플러스정's leaflet names no pork; 부루펜정200밀리그램's names 유당)."""

from programs.contents_check import NOTICE, TASTE_NOTICE
from programs.crag import CRAG


def test_a_substance_no_quoted_line_names_is_said_not_to_be_in_the_leaflets_one_it_names_is_quoted(searcher):
    question = "무슬림 친구가 소화 안된다고 해서 훼스탈플러스 주려는데 돼지 성분이나 젤라틴 들어있나요? 할랄 괜찮은지"
    pred = CRAG(backend=searcher)(question=question)
    assert pred.answer.startswith(NOTICE)
    assert next(s for s in pred.trace["steps"] if s["step"] == "contents_check")["substances"] == [
        "돼지",
        "젤라틴",
        "할랄",
    ]
    assert pred.trace["outcome"] == "not_in_leaflets"
    # one the leaflet names is answered by its line, with no such notice
    named = CRAG(backend=searcher)(question="유당불내증 있는데 부루펜정200밀리그램 먹어도 되나요? 유당 들어있나요")
    assert NOTICE not in named.answer and "유당" in named.answer


def test_what_a_medicine_tastes_like_is_said_not_to_be_in_the_leaflets(searcher):
    pred = CRAG(backend=searcher)(question="부루펜정 무슨 맛이에요? 애가 약을 잘 안먹어서요")
    assert pred.answer.startswith(TASTE_NOTICE)
    assert next(s for s in pred.trace["steps"] if s["step"] == "taste_check")["flagged"]
