"""QueryRewriter: a feedback-driven rewrite with the user's profile and slots
(docs/seeds/quality-evaluator-and-query-rewriter.md §5-8, §11).

* feedback with missing information or suggestions: the LM rewrites (prefixes such as "재작성된 질의:" stripped);
* no feedback: profile enhancement only;
* LM off or failed: the seed's fallback, the original query plus the missing keywords and the profile;
* a relevance rewrite with no missing keywords and no LM (`keyword_rewrite`): what the question is about (the names
  retrieval recognised, its class and symptom words) and what it asks (the leaflet words of its aspects, the words of
  the sections asked), first added to the question, then alone.

Example:
    >>> fb = QualityFeedback(0.4, 0.4, 0.3, 0.7, missing_info=["유산증 위험"])
    >>> QueryRewriter()(original_query="메트포르민 부작용", feedback=fb, use_lm=False).query
    '메트포르민 부작용 유산증 위험'
"""

from __future__ import annotations

import re

import dspy

from programs.answer_requirements import QUERY_WORDS
from programs.fallback import FallBack
from programs.profile import UserProfile
from programs.quality_evaluator import NO_DOCUMENTS, QualityFeedback
from programs.run import Run
from programs.settings import CragSettings
from retrievers.aspects import load_vocabulary
from retrievers.question_frame import FRAME_VOCAB
from signatures.query import RewriteQuery

PREFIX = re.compile(
    r"^\s*(?:\*\*)?(?:재작성된\s*질의|재작성\s*질의|재작성된\s*질문|새\s*질의|검색\s*질의|질의|rewritten\s*query|query)"
    r"(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*",
    re.IGNORECASE,
)
MAX_QUERY_CHARS = 300


def strip_prefix(text: str) -> str:
    """'재작성된 질의: "X"' -> 'X' (first non-empty line, prefixes and quotes removed)."""
    line = next((ln for ln in str(text).splitlines() if ln.strip()), "")
    line = PREFIX.sub("", line).strip()
    return line.strip("\"'“”‘’`").strip()


def keyword_rewrite(query: str, result, attempt: int, names=None) -> str:
    """A no-LM rewrite after a low grade: attempt 1 adds to the query what it is about (the recognised names; with the
    result's `QuestionFrame`, its class and symptom words) and what it asks (the leaflet words of the frame's aspects:
    운전 → 운전 기계 조작; the asked sections' words); attempt 2 searches those words alone (colloquial filler
    dropped), but only when they keep what the question is about: section words alone would answer another question.
    An aspect word that `names` (the index's `NameIndex`) reads as a medicine (카페인) is left out: it would bring a
    medicine the question did not name. Unchanged when there are no words.

    >>> from retrievers.result import RetrievalResult
    >>> keyword_rewrite("게보린 먹고 속쓰려", RetrievalResult("q", names=["게보린"], sections=["se"]), 2)
    '게보린 이상반응 부작용'
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> frame = QuestionFrame("감기약 먹고 운전해도 돼요", Targets(classes=("감기약",)), ("driving",))
    >>> keyword_rewrite("감기약 먹고 운전해도 돼요", RetrievalResult("q", sections=["atpn"], frame=frame), 2)
    '감기약 운전 기계 조작 주의사항'
    >>> keyword_rewrite("이 약 어떻게 먹어요?", RetrievalResult("q", sections=["useMethod"]), 2)
    '이 약 어떻게 먹어요? 용법 용량'
    """
    if result is None:
        return query
    targets = list(result.names)
    frame = result.frame
    if frame is not None:
        targets += [*frame.targets.classes, *frame.targets.symptoms]
    targets = [w for w in dict.fromkeys(targets) if not any(w != o and w in o for o in targets)]
    situation = [w for w in aspect_words(frame) if names is None or not names.match(w).keys]
    words = [*targets, *situation, *(QUERY_WORDS[s] for s in result.sections if s in QUERY_WORDS)]
    words = list(dict.fromkeys(words))
    if not words:
        return query
    extra = [w for w in words if w not in query]
    return " ".join([query, *extra]) if attempt <= 1 or not targets else " ".join(words)


def aspect_words(frame, per_aspect: int = 3) -> list[str]:
    """The first leaflet seed words (two or more characters, no space) of the situation the frame asks about first
    (its aspects come the most particular first; the later ones add noise more often than words that find), when the
    question's own words ask it (술 마셔도: alcohol; an aspect read from a section word, 어떻게 먹어요 → how to take,
    brings no situation's words).

    >>> from retrievers.question_frame import QuestionFrame
    >>> aspect_words(QuestionFrame("술 마셔도 돼요", aspects=("alcohol", "timing_food")))
    ['음주', '알코올', '음주자']
    >>> aspect_words(QuestionFrame("이 약 어떻게 먹어요?", aspects=("how_to_take",)))
    []
    """
    if frame is None or not frame.aspects:
        return []
    vocab = load_vocabulary()
    tokens = frame.question.split()
    asked = set(vocab.asked(frame.question, [*tokens, *(t[0] for t in tokens)]))
    out = []
    for aspect in FRAME_VOCAB.get(frame.aspects[0], ()):
        if aspect in asked:
            out += [w for w in vocab.seeds.get(aspect, ()) if len(w) >= 2 and " " not in w][:per_aspect]
    return list(dict.fromkeys(out))


def enhance_with_profile(query: str, profile: UserProfile | None) -> str:
    """The query with who the user is (the seed's _enhance_with_profile), not the medicines they take nor their
    diseases: those choose the 병용금기 rows paired with the answer's products (programs/user_rules.py) and the
    leaflet limits that forbid a product, and would otherwise pull their own DUR rows or the products that treat
    them into every search (변비약 추천 -> 와파린's pairs; 인데놀 괜찮을까요 -> an expectorant for 기관지천식)."""
    summary = profile.summary(medicines=False, conditions=False) if profile else ""
    return f"{query} ({summary})" if summary and summary not in query else query


def fallback_rewrite(query: str, feedback: QualityFeedback | None, profile: UserProfile | None) -> str:
    """The original query plus up to five missing keywords it does not already contain, then the profile ("no
    document was found" is feedback, not a keyword)."""
    missing = [m for m in (feedback.missing_info if feedback else []) if m != NO_DOCUMENTS]
    extra = [m for m in missing[:5] if m and m not in query]
    return enhance_with_profile(" ".join([query, *extra]), profile)


class QueryRewriter(dspy.Module):
    """Rewrite a query for the next search."""

    def __init__(self, settings: CragSettings | None = None):
        super().__init__()
        self.rewrite = dspy.Predict(RewriteQuery)
        self.settings = settings or CragSettings()  # previous_answer_chars

    def forward(
        self,
        original_query: str,
        feedback: QualityFeedback | None = None,
        previous_answer: str = "",
        profile: UserProfile | None = None,
        iteration: int = 0,
        run: Run | None = None,
        use_lm: bool = True,
        result=None,
        names=None,
    ) -> dspy.Prediction:
        run = run or Run(budget_limit=None)
        if not feedback or not (feedback.missing_info or feedback.improvement_suggestions):
            return dspy.Prediction(query=enhance_with_profile(original_query, profile), method="profile")
        if not use_lm or not run.has_lm("query"):
            if result is not None and not feedback.missing_info:
                query = enhance_with_profile(keyword_rewrite(original_query, result, iteration, names), profile)
                return dspy.Prediction(query=query, method="keywords")
            return dspy.Prediction(query=fallback_rewrite(original_query, feedback, profile), method="fallback")
        with FallBack(run.trace, "rewrite", "keyword rewrite") as step:
            out = run.call(
                "query",
                self.rewrite,
                original_query=original_query,
                quality_feedback=feedback.as_prompt(),
                previous_answer=previous_answer[: self.settings.previous_answer_chars],
                profile_summary=profile.summary() if profile else "",
                slots=profile.slots_text() if profile else "",
                iteration=iteration,
            )
            query = strip_prefix(out.rewritten_query)[:MAX_QUERY_CHARS]
            if not query:
                raise ValueError("empty rewrite")
        if step.failed:
            return dspy.Prediction(query=fallback_rewrite(original_query, feedback, profile), method="fallback")
        return dspy.Prediction(query=query, method="lm")
