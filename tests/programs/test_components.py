"""The program's parts on their own: grading (TC-CB-017), knowledge refinement, the extractive answer, the quality
evaluator, the query rewriter and optimiser, and the verifier's self-correction."""

import pytest

from programs.budget import BudgetExhausted
from programs.extractive import extractive_answer
from programs.grading import LMGrader, RetrievalEvaluator
from programs.profile import UserProfile
from programs.quality_evaluator import QualityEvaluator, QualityFeedback, heuristic_evaluation
from programs.query_optimizer import QueryOptimizer
from programs.query_rewriter import QueryRewriter, strip_prefix
from programs.refinement import KnowledgeRefiner
from programs.run import Run
from programs.verifier import Verifier
from retrievers.documents import Document, Hit
from retrievers.result import RetrievalResult
from yaksa.testing.fake_backend import default_documents
from yaksa.testing.scripted_lm import PASS, ScriptedLM

DOCS = default_documents()
SEED_EVAL = {
    "grounding": 0.4,
    "completeness": 0.3,
    "accuracy": 0.7,
    "missing_info": ["유산증 위험", "비타민 B12 결핍"],
    "improvement_suggestions": ["부작용을 구체적으로"],
    "needs_retrieval": True,
    "reason": "누락",
}


def five_hits():
    scores = {"bm25": 5.0, "dense": 0.88, "product": 1.0, "section": 1.0, "fused": 3.5}
    return [
        Hit(Document(f"easydrug:{i}:se", f"약{i}\n[부작용] 구역 {i}"), 3.5 - i / 2, {**scores, "fused": 3.5 - i / 2})
        for i in range(5)
    ]


def test_calibrated_grade_gives_probabilities_per_document_and_result():
    grades = RetrievalEvaluator().grade(RetrievalResult("약0 부작용", five_hits(), names=["약0"]))
    assert grades.method == "calibrated"
    assert len(grades.documents) == 5
    assert all(0.0 <= p <= 1.0 for p in grades.documents)
    assert 0.0 <= grades.relevance <= 1.0
    assert grades.documents == sorted(grades.documents, reverse=True)  # lower fused score, lower probability
    assert grades.relevant == [p >= 0.5 for p in grades.documents]
    assert RetrievalEvaluator().grade(RetrievalResult("q")).relevance == 0.0


def test_reranker_grades_read_the_rerank_scores():
    hits = five_hits()
    for h, sc in zip(hits, (0.9, 0.2, 0.04, 0.01, 0.001), strict=True):
        h.scores["rerank"] = sc
    grades = RetrievalEvaluator().grade(RetrievalResult("q", hits, scorer="flag:x"))
    assert grades.method == "reranker"
    assert grades.relevance == 0.9
    assert grades.relevant == [True, True] + [False] * 3


def test_lm_grading_is_one_call_for_all_documents_combined_with_the_calibrated_grade():
    lm = ScriptedLM(grade=[{"verdicts": ["yes", "no", "no", "yes", "no"], "reason": "r"}])
    run = Run(lms={"judge": lm}, budget_limit=None)
    base = RetrievalEvaluator().grade(RetrievalResult("q", five_hits()))
    grades = LMGrader()(question="부작용", hits=five_hits(), base=base, run=run).grades
    assert lm.calls == ["grade"]
    assert grades.method == "lm"
    assert grades.relevant == [True, False, False, True, False]
    assert grades.documents[1] == round(base.documents[1] / 2, 4)
    assert grades.relevance == round((base.relevance + 1.0) / 2, 4)


@pytest.mark.parametrize("bad", ["garbage", {"verdicts": ["yes"], "reason": "r"}, {"verdicts": ["maybe"] * 5}])
def test_malformed_lm_grades_fall_back_to_the_calibrated_grade(bad):
    run = Run(lms={"judge": ScriptedLM(grade=[bad])}, budget_limit=None)
    base = RetrievalEvaluator().grade(RetrievalResult("q", five_hits()))
    assert LMGrader()(question="부작용", hits=five_hits(), base=base, run=run).grades is base
    assert run.trace.fallbacks[0].startswith("grade")


def test_lm_grading_past_the_budget_keeps_the_calibrated_grade():
    lm = ScriptedLM()
    run = Run(lms={"judge": lm}, budget_limit=0)
    base = RetrievalEvaluator().grade(RetrievalResult("q", five_hits()))
    assert LMGrader()(question="부작용", hits=five_hits(), base=base, run=run).grades is base
    assert lm.calls == []


def test_knowledge_refinement_keeps_relevant_strips_in_order_and_every_document():
    docs = [d for d in DOCS if d.id.endswith(":atpn") or d.id.endswith(":se")]
    refined, stats = KnowledgeRefiner(threshold=0.2, max_strips=1).refine("술 마시면 간손상", docs)
    assert [d.id for d in refined] == [d.id for d in docs]
    assert refined[0].text.endswith("간손상이 나타날 수 있습니다.")
    assert "위궤양" not in refined[0].text
    assert stats["kept_strips"] == len(docs)
    assert stats["reduction"] > 0
    assert refined[0].text.startswith("게보린정 (")  # the product header stays


def test_extractive_answer_quotes_cites_and_warns():
    answer = extractive_answer("게보린 구토", DOCS[:4], max_quotes=2)
    quotes = answer.split("\n\n")[1].splitlines()
    assert quotes[0].startswith("[이상반응(부작용)] 구역, 구토")  # the answering sentence leads, not document 1
    assert quotes[0].endswith("[문서 4]")
    assert len(quotes) == 1  # the efficacy, dosing and caution sentences say nothing of 구토
    assert "전문가와 꼭 상담하세요." in answer
    assert "LM" in answer
    low = extractive_answer("게보린 구토", DOCS[:4], mode="generate_low_relevance")
    assert low.startswith("검색된 문서가 질문과 직접 관련되지 않을 수 있어")


def test_quality_evaluator_seed_example_and_clamping():
    lm = ScriptedLM(evaluate=[SEED_EVAL, {**SEED_EVAL, "grounding": 1.7, "completeness": -1, "accuracy": 0.5}])
    run = Run(lms={"judge": lm}, budget_limit=None)
    fb = QualityEvaluator()(question="q", answer="a", documents=DOCS, run=run).feedback
    assert fb.overall == 0.42
    assert fb.needs_retrieval
    assert fb.missing_info == ["유산증 위험", "비타민 B12 결핍"]
    fb = QualityEvaluator()(question="q", answer="a", documents=DOCS, run=run).feedback
    assert (fb.grounding, fb.completeness, fb.overall) == (1.0, 0.0, 0.5)
    prompt = lm.prompts[0][1][-1]["content"]
    assert "[문서 5]" in prompt
    assert "[문서 6]" not in prompt  # top 5 documents only


@pytest.mark.parametrize("bad", ["not json at all", RuntimeError("500"), {**SEED_EVAL, "grounding": "high"}])
def test_quality_evaluator_falls_back_to_the_heuristic_and_says_so(bad):
    run = Run(lms={"judge": ScriptedLM(evaluate=[bad])}, budget_limit=None)
    fb = QualityEvaluator()(question="q", answer="답 [문서 1] 전문가와 꼭 상담하세요", documents=DOCS, run=run).feedback
    assert fb.method == "heuristic"
    assert 0 <= fb.overall <= 1
    assert "LM evaluation failed" in fb.reason
    assert run.trace.fallbacks
    assert run.trace.fallbacks[0].startswith("evaluate")


def test_heuristic_evaluation_checks_what_the_question_asked_for():
    se = next(d for d in DOCS if d.id.endswith(":se"))
    efcy = next(d for d in DOCS if d.id.endswith(":efcy"))
    answer = "구역이 나타날 수 있습니다. [문서 1] 전문가와 꼭 상담하세요"
    good = heuristic_evaluation("게보린 부작용", answer, [se], sections=["se"])
    wrong = heuristic_evaluation("게보린 부작용", answer, [efcy], sections=["se"])
    assert good.overall == 1.0
    assert not good.needs_retrieval
    assert good.missing_info == []
    assert wrong.overall < good.overall
    assert wrong.missing_info == ["부작용"]
    nothing = heuristic_evaluation("q", "몰라요", [])
    assert nothing.overall < 0.5
    assert nothing.needs_retrieval
    assert nothing.missing_info == ["관련 문서"]


def test_heuristic_evaluation_asks_for_the_users_safety_items():
    efcy = next(d for d in DOCS if d.id.endswith(":efcy"))
    answer = "두통, 치통에 사용합니다. [문서 1] 전문가와 꼭 상담하세요"
    pregnant = UserProfile.from_dict({"pregnant": True})
    fb = heuristic_evaluation("감기약 추천", answer, [efcy], profile=pregnant)
    assert fb.needs_retrieval
    assert fb.missing_info == ["임신"]
    assert fb.overall < 0.5
    ok = heuristic_evaluation("감기약 추천", answer, [efcy])
    assert not ok.needs_retrieval


def test_query_rewriter_lm_path_strips_prefixes_and_sees_profile_and_slots():
    lm = ScriptedLM(rewrite=[{"rewritten_query": "재작성된 질의: 메트포르민 부작용 유산증"}])
    run = Run(lms={"query": lm}, budget_limit=None)
    profile = UserProfile.from_dict({"age": 60, "sex": "남", "conditions": ["2형 당뇨병"]})
    fb = QualityFeedback(0.42, 0.4, 0.3, 0.7, missing_info=["유산증"])
    out = QueryRewriter()(
        original_query="메트포르민 부작용",
        feedback=fb,
        previous_answer="가" * 500,
        profile=profile,
        iteration=1,
        run=run,
    )
    assert out.query == "메트포르민 부작용 유산증"
    assert out.method == "lm"
    prompt = lm.prompts[0][1][-1]["content"]
    assert "60세 남성" in prompt
    assert "- 질환: 2형 당뇨병" in prompt
    assert "가" * 200 in prompt
    assert "가" * 201 not in prompt


def test_query_rewriter_without_feedback_only_adds_the_profile():
    lm = ScriptedLM()
    run = Run(lms={"query": lm}, budget_limit=None)
    out = QueryRewriter()(original_query="감기약", profile=UserProfile.from_dict({"age": 70}), run=run)
    assert out.query == "감기약 (70세)"
    assert out.method == "profile"
    assert lm.calls == []


def test_query_rewriter_falls_back_to_missing_keywords_and_profile():
    run = Run(lms={"query": ScriptedLM(rewrite=[RuntimeError("down")])}, budget_limit=None)
    fb = QualityFeedback(0.3, 0.3, 0.3, 0.3, missing_info=["금기", "부작용"])
    out = QueryRewriter()(
        original_query="게보린 부작용", feedback=fb, profile=UserProfile.from_dict({"age": 70}), run=run
    )
    assert out.query == "게보린 부작용 금기 (70세)"
    assert out.method == "fallback"


def test_keyword_rewrite_adds_no_medicine_the_question_did_not_name(mini_searcher):
    from programs.query_rewriter import keyword_rewrite

    question = "게보린 먹고 커피 마셔도 돼요"
    result = mini_searcher.retrieve(question)
    assert "카페인" in keyword_rewrite(question, result, 1)  # a seed word of the food aspect, and an ingredient
    rewritten = keyword_rewrite(question, result, 1, names=mini_searcher.names)
    assert "카페인" not in rewritten and "음식" in rewritten
    assert keyword_rewrite(question, result, 2, names=mini_searcher.names).startswith("게보린 음식")


def test_strip_prefix():
    assert strip_prefix('재작성된 질의: "게보린 용법"\n설명...') == "게보린 용법"
    assert strip_prefix("**Rewritten query:** aspirin dose") == "aspirin dose"


def test_query_optimizer_falls_back_to_the_question():
    run = Run(lms={"query": ScriptedLM(optimize=["{broken"])}, budget_limit=None)
    out = QueryOptimizer()(question="눈이 침침해요", run=run)
    assert out.method == "rules"
    assert out.query == "눈이 침침해요"
    assert run.trace.fallbacks


def test_verifier_check_and_fix():
    fail = {"verdict": "FAIL", "failure_cause": "hallucination", "feedback": "근거 없음"}
    lm = ScriptedLM(verify=[fail], correct=[{"corrected_answer": "고친 답"}])
    run = Run(lms={"verify": lm, "generate": lm}, budget_limit=None)
    assert Verifier().check("q", "[문서 1] x", "a", run) == ("FAIL", "hallucination", "근거 없음")
    assert Verifier().fix("q", "[문서 1] x", "a", "근거 없음", run) == "고친 답\n\n전문가와 꼭 상담하세요."
    assert lm.calls == ["verify", "correct"]


def test_verifier_refuses_an_unparseable_verdict():
    run = Run(lms={"verify": ScriptedLM(verify=[{**PASS, "verdict": "MAYBE"}])}, budget_limit=None)
    with pytest.raises(Exception, match="PASS"):
        Verifier().check("q", "c", "a", run)


def test_verifier_charges_the_budget():
    run = Run(lms={"verify": ScriptedLM()}, budget_limit=0)
    with pytest.raises(BudgetExhausted):
        Verifier().check("q", "c", "a", run)


def sibling(seq: str, name: str, text: str) -> Document:
    meta = {"item_name": name, "section": "efcy", "section_label": "효능·효과"}
    return Document(f"easydrug:{seq}:efcy", f"{name}\n[효능·효과] {text}", meta)


def test_extractive_answer_quotes_a_sentence_shared_by_siblings_once_citing_all():
    same = "이 약은 눈의 피로, 눈의 침침함에 사용합니다."
    docs = [sibling("1", "가점안액", same), sibling("2", "나점안액", same)]
    docs.append(sibling("3", "다점안액", "결막염에 씁니다."))
    answer = extractive_answer("가점안액 눈이 침침해요", docs)
    assert answer.count("눈의 침침함") == 1
    assert f"[효능·효과] {same} [문서 1, 2]" in answer


def test_extractive_answer_lists_products_for_which_medicine_questions():
    texts = {"가정": "두통에 씁니다.", "나정": "두통, 치통에 씁니다.", "다정": "두통."}
    docs = [sibling(str(n), name, text) for n, (name, text) in enumerate(texts.items(), 1)]
    answer = extractive_answer("머리 아플 때 무슨 약 먹어요?", docs)
    assert answer.startswith("효능·효과가 질문과 맞는 제품입니다: 가정, 나정, 다정.")
    assert "가정: [효능·효과] 두통에 씁니다. [문서 1]" in answer
    assert "나정: " in answer


def section_of(name: str, sec: str, label: str, body: str, seq: str = "1") -> Document:
    """One section of one product's leaflet."""
    meta = {"item_name": name, "section": sec, "section_label": label}
    return Document(f"easydrug:{seq}:{sec}", f"{name}\n[{label}] {body}", meta)


def test_a_question_asking_for_a_section_quotes_that_section_before_others(monkeypatch):
    import programs.extractive as extractive

    docs = [
        section_of("활명수", "atpn", "사용상 주의사항", "만 3개월 미만의 젖먹이는 이 약을 복용하지 마십시오."),
        section_of(
            "활명수", "useMethod", "용법·용량", "15세 이상은 1회 1병을 복용합니다. 복용간격은 4시간 이상으로 합니다."
        ),
        section_of("활명수", "efcy", "효능·효과", "이 약은 식욕감퇴, 소화불량, 과식, 체함, 구역, 구토에 사용합니다."),
    ]
    question, asked = "활명수 몇살부터 먹일수 있어요", ["useMethod", "atpn"]
    chosen = extractive.choose(question, docs, sections=asked, max_sentences=2)
    assert sorted(q.sources for q in chosen) == [[1], [2]]  # 효능 was not asked
    monkeypatch.setattr(extractive, "SECTION_PRIOR", 0.0)  # the asked sections' priors are what quote 용법
    monkeypatch.setattr(extractive, "FRAME_PRIOR", 0.0)
    # and the age bound 15세 이상 (from what age is asked: programs/sentences.AGE_LIMIT_ASKED) counts for nothing
    monkeypatch.setattr("programs.sentences.AGE_WEIGHT", 0.0)
    assert [q.sources for q in extractive.choose(question, docs, sections=asked, max_sentences=2)] == [[1]]


def test_a_question_naming_a_product_does_not_quote_another_products_leaflet():
    docs = [
        section_of("베아제정", "useMethod", "용법·용량", "성인 1회 1정 1일 3회 식후에 복용합니다.", seq="1"),
        section_of(
            "무좀크림", "useMethod", "용법·용량", "감염부위에 하루에 2번 바르고, 4주 동안 계속 사용합니다.", seq="2"
        ),
    ]
    answer = extractive_answer("베아제 하루에 몇번 먹어요", docs)
    assert "1일 3회" in answer
    assert "하루에 2번" not in answer  # the other product's dosing would read as 베아제's
    assert "[문서 2]" not in answer
    # without the named product's leaflet, the other leaflet is still quoted
    assert "하루에 2번" in extractive_answer("베아제 하루에 몇번 먹어요", docs[1:])


def test_a_sentence_with_nothing_of_the_question_does_not_fill_the_last_place(monkeypatch):
    import programs.extractive as extractive

    docs = [
        section_of("가나정", "useMethod", "용법·용량", "1회 1정 1일 3회 식후에 복용합니다."),
        section_of("가나정", "intrc", "상호작용(함께 먹으면 안 되는 약·음식)", "제산제와 함께 복용하지 마십시오."),
    ]
    chosen = extractive.choose("가나정 하루 몇번 먹어요", docs, sections=["useMethod"], max_sentences=3)
    assert [q.sources for q in chosen] == [[1]]
    monkeypatch.setattr(extractive, "MIN_SCORE", -1.0)
    chosen = extractive.choose("가나정 하루 몇번 먹어요", docs, sections=["useMethod"], max_sentences=3)
    assert [q.sources for q in chosen] == [[1], [2]]  # the filler the floor keeps out
