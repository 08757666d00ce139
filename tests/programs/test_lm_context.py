"""The generating LM's context comes from the sentence ranking (programs/lm_context.py), over the real searcher on
the mini corpus with a scripted LM."""

from programs import lm_context
from programs.crag import CRAG
from retrievers.documents import Document

QUESTION = "감기약 먹고 운전해도 돼요?"
AS_ASKED = {"core_terms": [], "recall_terms": [], "avoid_terms": [], "rerank_query": QUESTION}


def test_the_sentence_that_answers_is_in_the_lm_context(searcher, scripted):
    answer = {"answer": "운전은 피하세요. [문서 1]\n\n전문가와 꼭 상담하세요."}
    # the mini corpus grades this retrieval below 0.7: a rewrite that keeps the question ends in the same documents
    lm, lms = scripted(optimize=[AS_ASKED], rewrite=[{"rewritten_query": QUESTION}], generate=[answer])
    pred = CRAG(backend=searcher, lms=lms)(question=QUESTION)
    assert {"generate", "generate_low_relevance"} & set(lm.calls)
    refine = [s for s in pred.trace["steps"] if s.get("step") == "refine_knowledge"][0]
    assert refine["method"] == "ranked_sentences"
    assert any("운전" in c for c in pred.contexts[:2])  # the driving caution leads the context
    assert len(pred.contexts) <= lm_context.MAX_DOCS


def doc(seq: str, section: str, text: str) -> Document:
    meta = {"item_name": f"약{seq}", "section": section, "item_seq": seq}
    return Document(f"easydrug:{seq}:{section}", f"약{seq}\n{text}", meta)


def test_rules_lead_then_the_quoted_documents_then_the_graded_ones():
    rule = Document("dur:cc:1", "[임부금기] 이부프로펜은(는) 임부에게 사용하면 안 됩니다.", {"dur_type": "임부금기"})
    graded = doc("1", "efcy", "두통에 사용합니다.")
    leaflet = doc("1", "atpn", "임부는 복용하지 마십시오. 수유부는 상의하십시오. 고령자는 상의하십시오. 운전 주의.")
    docs, stats = lm_context.ranked_context("임신 중에 먹어도 돼요", [rule, graded, leaflet], graded=1, rules=1)
    assert [d.id for d in docs] == ["dur:cc:1", "easydrug:1:atpn", "easydrug:1:efcy"]
    assert docs[1].text.startswith("약1\n임부는 복용하지 마십시오.")  # the header stays, the best sentences kept
    assert "운전 주의" not in docs[1].text and stats["from_leaflets"] == 1


def test_a_low_relevance_context_keeps_its_top_three():
    docs = [doc(str(i), "efcy", f"증상{i}에 사용합니다.") for i in range(6)]
    out, _ = lm_context.ranked_context("증상 약", docs, graded=6, max_docs=3)
    assert len(out) == 3
