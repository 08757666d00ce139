"""Two medicines read as taken together ask their 상호작용 even when the question's words ask another section
(자기 전에 먹어도: 용법): the frame's interactions aspect makes the 상호작용 sections implied in retrieval
(`retrievers.frame_features.implied_by_frame`), on the mini index's real leaflets."""


def test_two_medicines_taken_together_retrieve_their_interactions(mini_searcher):
    result = mini_searcher.retrieve("판콜에이 낮에 마셨는데 자기 전에 게보린 먹어도 돼요?", k=4)
    assert "interactions" in result.frame.aspects
    sections = {h.doc.metadata.get("section") for h in result.hits}
    assert {"useMethod", "intrc"} <= sections


def test_one_medicine_asked_about_timing_keeps_its_sections(mini_searcher):
    result = mini_searcher.retrieve("게보린 자기 전에 먹어도 돼요?", k=2)
    assert "interactions" not in result.frame.aspects
    assert "intrc" not in {h.doc.metadata.get("section") for h in result.hits}
