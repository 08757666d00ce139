"""A small in-memory `retrievers.backend.SearchBackend` over hand-made Korean documents (게보린정, 타이레놀정500mg,
two DUR rules), for tests that must not touch the real index.

Scores are the share of the query's character bigrams found in a document, min-max free and in [0, 1]. A question
with no match, or one that names something clearly outside drugs (주가, 날씨 ...), is out of scope. `score_script`
replaces the scores of the next retrievals, one list per call, to force a relevance route; `guard=False` returns
an empty result instead of an out-of-scope one.

Example:
    backend = FakeBackend(score_script=[[0.9, 0.1, 0.1, 0.1, 0.1]])
    backend.retrieve("게보린 부작용").hits[0].score   # 0.9
"""

from __future__ import annotations

from programs.text import bigrams, gram_share
from retrievers.documents import Document, Hit
from retrievers.result import RetrievalResult

NAMES = ("게보린", "타이레놀", "아세트아미노펜")
OOS_WORDS = ("주가", "삼성전자", "날씨", "ㅋㅋ", "축구")
SECTION_WORDS = {
    "se": ("부작용", "쓰려", "쓰림", "이상반응"),
    "useMethod": ("먹", "복용", "용법", "어떻게"),
    "efcy": ("효능", "효과", "두통"),
}


def _leaflet(seq, name, ingr, section, label, body):
    meta = {
        "item_seq": seq,
        "item_name": name,
        "entp_name": "테스트제약",
        "main_ingr": ingr,
        "section": section,
        "section_label": label,
    }
    return Document(f"easydrug:{seq}:{section}", f"{name} ({ingr})\n[{label}] {body}", meta)


def default_documents() -> list[Document]:
    g = ("197900277", "게보린정", "아세트아미노펜,카페인무수물,이소프로필안티피린")
    t = ("202106092", "타이레놀정500밀리그람", "아세트아미노펜")
    return [
        _leaflet(*g, "efcy", "효능·효과", "이 약은 두통, 치통, 생리통의 진통과 발열시의 해열에 사용합니다."),
        _leaflet(
            *g,
            "useMethod",
            "용법·용량",
            "성인은 1회 1정, 1일 3회까지 공복을 피해 복용합니다. 복용 간격은 4시간 이상으로 합니다.",
        ),
        _leaflet(
            *g,
            "atpn",
            "사용상 주의사항",
            "위궤양 환자는 복용 전 의사 또는 약사와 상의하십시오. "
            "매일 세 잔 이상 술을 마시는 사람은 간손상이 나타날 수 있습니다.",
        ),
        _leaflet(
            *g,
            "se",
            "이상반응(부작용)",
            "구역, 구토, 식욕부진, 위장 출혈, 속쓰림 등 위장 장애가 나타날 수 있습니다. "
            "발진이 나타나면 복용을 즉각 중지하십시오.",
        ),
        _leaflet(*t, "efcy", "효능·효과", "이 약은 감기로 인한 발열 및 두통, 치통의 완화에 사용합니다."),
        _leaflet(*t, "se", "이상반응(부작용)", "쇽 증상, 피부 발진, 구역, 구토가 나타날 수 있습니다."),
        Document(
            "dur:cc:1001",
            "[임부금기] 이소프로필안티피린(isopropylantipyrine)은(는) 임부(임신부)에게 "
            "사용하면 안 되는 성분입니다(2등급).",
            {"dur_type": "임부금기", "dur_code": "cc", "ingredient": "이소프로필안티피린"},
        ),
        Document(
            "dur:fc:2002",
            "[노인주의] 카페인무수물(caffeine)은(는) 노인(고령자)에게 사용할 때 주의가 필요합니다.",
            {"dur_type": "노인주의", "dur_code": "fc", "ingredient": "카페인무수물"},
        ),
    ]


class FakeBackend:
    """An in-memory backend that records every call; it has no name dictionary, lexicon or tokenizer."""

    names = None
    lexicon = None
    tokenizer = None

    def __init__(
        self,
        docs: list[Document] | None = None,
        score_script: list[list[float]] | None = None,
        scorer: str = "fused",
        guard: bool = True,
    ):
        self.docs = docs if docs is not None else default_documents()
        self.by_id = {d.id: i for i, d in enumerate(self.docs)}
        self.leaflets = [d for d in self.docs if d.source == "easydrug"]
        self.score_script = list(score_script or [])
        self.scorer = scorer
        self.guard = guard
        self.calls: list[dict] = []

    def retrieve(self, query, k=5, extra_terms=None, avoid_terms=None) -> RetrievalResult:
        self.calls.append({"query": query, "k": k, "extra_terms": extra_terms, "avoid_terms": avoid_terms})
        if any(w in query for w in OOS_WORDS):
            return RetrievalResult(query, out_of_scope=True, oos_reason="not about drugs")
        grams = bigrams(" ".join([query, *(extra_terms or [])]))
        sections = [s for s, words in SECTION_WORDS.items() if any(w in query for w in words)]
        scored = []
        for doc in self.leaflets:
            score = gram_share(grams, doc.text) + (0.3 if doc.metadata["section"] in sections else 0.0)
            scored.append((min(score, 1.0), doc))
        scored.sort(key=lambda pair: -pair[0])
        hits = [Hit(doc, score, {"fused": score}) for score, doc in scored[:k] if score > 0]
        if self.score_script:
            script = self.score_script.pop(0)
            hits = [
                Hit(h.doc, s, {"fused": s}) for h, s in zip([Hit(d, 0) for _, d in scored[:k]], script, strict=False)
            ]
            hits = [h for h in hits if h.score > 0]
        if not hits:
            return RetrievalResult(
                query, out_of_scope=self.guard, oos_reason="no document matched" if self.guard else ""
            )
        products = [stem for stem in NAMES if stem in query]
        return RetrievalResult(
            query,
            names=products,
            hits=hits,
            scorer=self.scorer,
            top_score=hits[0].score,
            relevance=hits[0].score,
            sections=sections,
        )

    def get(self, doc_id):
        return next((d for d in self.docs if d.id == doc_id), None)

    def dur_rules(self, ingredients, dur_types):
        return [
            d
            for d in self.docs
            if d.source == "dur" and d.metadata["dur_type"] in dur_types and d.metadata["ingredient"] in ingredients
        ]

    def query_coverage(self, query, names, hits):
        return {"names_uncovered": [], "unknown_words": []}

    def class_members(self, classes):
        return set()  # no lexicon: no class word is read
