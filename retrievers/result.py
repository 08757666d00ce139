"""What a retrieval returns (programs see the searcher through `retrievers.backend.SearchBackend`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from retrievers.documents import Document, Hit

if TYPE_CHECKING:
    from retrievers.question_frame import QuestionFrame


@dataclass
class RetrievalResult:
    """Ranked evidence for one query plus everything a trace needs to explain it.

    Attributes:
        query: the query as searched (after cutting and expansion bookkeeping).
        hits: the final ranked documents (reranked or fused, after MIN_RERANK_SCORE), at most k.
        candidates: the fused candidates before reranking (top 20 by default).
        scorer: which scorer produced `hits` scores: a reranker name or ``"fused"``.
        top_score: score of the first hit (0.0 when there is none).
        relevance: the guard's relevance in [0, 1] (dense top-1 cosine for the fused scorer).
        out_of_scope: True when the OOS guard blocked the query.
        oos_reason: why it was blocked ("" when not).
        names: the product and ingredient names recognised in the query (name keys, not item ids).
        sections: sections the query asks about (e.g. ``se``, ``dur:cc``).
        expansions: terms the rule lexicon added (symptom -> ingredient, synonyms).
        read_as: names the query wrote with a same-sounding vowel, and the name searched (부루팬 -> 부루펜).
        warnings: non-fatal notes for the user (e.g. the query was cut).
        timings: milliseconds per stage.
        frame: what the question asks (`retrievers.question_frame.QuestionFrame`; None when not read).
        frame_features: the question's frame against the top hits (`retrievers.frame_features`), which the retrieval
            evaluator reads; empty when not computed (the evaluator then assumes the common case).
    """

    query: str
    hits: list[Hit] = field(default_factory=list)
    candidates: list[Hit] = field(default_factory=list)
    scorer: str = "fused"
    top_score: float = 0.0
    relevance: float = 0.0
    out_of_scope: bool = False
    oos_reason: str = ""
    names: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    expansions: list[str] = field(default_factory=list)
    read_as: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    frame: QuestionFrame | None = None
    frame_features: dict[str, float] = field(default_factory=dict)

    @property
    def documents(self) -> list[Document]:
        return [h.doc for h in self.hits]
