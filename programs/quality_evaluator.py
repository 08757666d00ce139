"""QualityEvaluator: grounding, completeness and accuracy in [0, 1], overall = 0.4 g + 0.4 c + 0.2 a, with missing
information and suggestions that drive the next rewrite (docs/seeds/quality-evaluator-and-query-rewriter.md §1-4).

The LM sees the top 5 documents cut to 500 characters each. When the LM is off, fails, or answers something the
adapter cannot parse, the heuristic evaluation answers instead: it checks what the question asked for (sections,
slot words, the user's profile) against the answer's sentences and names what is missing, and the trace says so.

Example:
    >>> fb = QualityEvaluator()(question="q", answer="짧음", documents=[], use_lm=False).feedback
    >>> fb.method, fb.overall, fb.missing_info
    ('heuristic', 0.1, ['관련 문서'])
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import dspy

from programs.answer_requirements import cited_ids, covered, missing, requirements
from programs.aspect_check import WORDS, answer_quotes, aspect_check, document_quotes
from programs.citations import numbered
from programs.fallback import FallBack
from programs.routing import clamp, needs_refinement, overall_score
from programs.run import Run
from programs.settings import CragSettings
from programs.target_check import off_target
from retrievers.documents import Document
from signatures.evaluation import EvaluateQuality

DEFAULTS = CragSettings()  # the constructors' defaults are the settings' (programs/settings.py)


@dataclass
class QualityFeedback:
    """One evaluation of an answer (the seed's EvaluationResult)."""

    overall: float
    grounding: float
    completeness: float
    accuracy: float
    missing_info: list[str] = field(default_factory=list)
    improvement_suggestions: list[str] = field(default_factory=list)
    needs_retrieval: bool = False
    reason: str = ""
    method: str = "lm"

    def to_dict(self) -> dict:
        return asdict(self)

    def as_prompt(self) -> str:
        """The feedback as the rewrite and evaluation prompts read it."""
        lines = [f"품질 점수: {self.overall:.2f}"]
        if self.missing_info:
            lines.append("부족한 정보: " + "; ".join(self.missing_info))
        if self.improvement_suggestions:
            lines.append("개선 제안: " + "; ".join(self.improvement_suggestions))
        if self.reason:
            lines.append("사유: " + self.reason)
        return "\n".join(lines)


NO_DOCUMENTS = "관련 문서"  # what is missing when no document was found: feedback, not a search word


def format_documents(
    docs: list[Document], limit: int = DEFAULTS.quality_docs, chars: int = DEFAULTS.quality_doc_chars
) -> str:
    """The top `limit` documents, each cut to `chars` characters, numbered as in the answer."""
    return numbered(docs[:limit], chars)


def heuristic_evaluation(
    question: str,
    answer: str,
    docs: list[Document],
    weights=(0.4, 0.4, 0.2),
    threshold: float = 0.5,
    why: str = "no LM",
    sections=(),
    profile=None,
    frame=None,
    morphemes=(),
    keep=None,
) -> QualityFeedback:
    """Score an answer by what the question asked for (programs/answer_requirements.py), not by its length.

    * completeness: the share of requirements covered (asked sections by a cited document of that section; slot
      words and the profile's items by their words in the answer) and of the particular aspects the question asks
      (its `QuestionFrame`, `frame`) that the quoted sentences speak to (programs/aspect_check.py);
    * accuracy: the share of the safety requirements (slots, profile) covered — right for this user;
    * grounding: the answer cites documents it was given, and those documents touch what was asked (the safety
      items when there are any: a cold-medicine answer for a pregnant user must cite something about pregnancy).

    An answer that speaks to none of the aspects asked, or cites only leaflets of products other than the one the
    question names (`programs/target_check.py`) or, with `keep` (`programs/answer_target.on_target`), none of the
    products of the class or names it asks about, answers another question: completeness and accuracy are 0,
    so the quality stays below any threshold above 0.4 and the loop searches again.
    The missing requirements and aspects become `missing_info`, which the rewrite adds to the next search.
    """
    numbered = {i: d.id for i, d in enumerate(docs, 1)}
    reqs = requirements(question, sections, profile)
    gaps = missing(reqs, answer, numbered)
    ids = cited_ids(answer, numbered)
    check = aspect_check(frame, answer_quotes(answer, docs), morphemes) if frame is not None and docs else None
    asked = len(check.asked) if check else 0
    if not docs:
        g, c, a = 0.1, 0.0, 0.3
    else:
        safety = [r for r in reqs if r.kind == "safety"]
        total, met = len(reqs) + asked, len(reqs) - len(gaps) + (len(check.spoken) if check else 0)
        c = met / total if total else (1.0 if ids else 0.5)
        a = 1.0 - sum(r.kind == "safety" for r in gaps) / len(safety) if safety else (1.0 if ids else 0.5)
        cited = [d for d in docs if d.id in ids]
        elsewhere = off_target(frame, cited)  # grounded, but in other products' leaflets: no ground for this one
        leaflets = [d for d in cited if d.id.startswith("easydrug:")]
        elsewhere = elsewhere or (keep is not None and bool(leaflets) and not any(keep(d) for d in leaflets))
        if (check and check.missed_all) or elsewhere:
            c, a = 0.0, 0.0
        judged = safety or reqs  # the user's safety items decide what a cited document must touch
        touching = [d for d in cited if not judged or any(covered(r, d.text, [d.id]) for r in judged)]
        g = (0.4 + 0.6 * len(touching) / len(cited)) if cited and not elsewhere else 0.3
    g, c, a = (round(clamp(x), 4) for x in (g, c, a))
    overall = overall_score(g, c, a, weights)
    missing_info = [r.label for r in gaps] if docs else [NO_DOCUMENTS]
    if check and check.missed:  # an aspect no document found speaks to: its words go into the next search
        found = aspect_check(frame, document_quotes(docs), morphemes).spoken
        missing_info += [WORDS[a] for a in check.missed if a not in found and WORDS.get(a) not in missing_info]
    suggestions = [f"'{m}'에 관한 문서를 찾도록 질의에 넣어 다시 검색" for m in missing_info]
    spoken = f", {len(check.spoken)}/{asked} aspects spoken to" if asked else ""
    return QualityFeedback(
        overall,
        g,
        c,
        a,
        missing_info,
        suggestions,
        needs_refinement(overall, threshold),
        f"heuristic evaluation ({why}): {len(reqs) - len(gaps)}/{len(reqs)} requirements covered{spoken}",
        "heuristic",
    )


class QualityEvaluator(dspy.Module):
    """Judge an answer against its documents; fall back to the heuristic on any LM failure."""

    def __init__(self, settings: CragSettings | None = None):
        super().__init__()
        self.evaluate = dspy.Predict(EvaluateQuality)
        self.settings = settings or CragSettings()

    def forward(self, **inputs) -> dspy.Prediction:
        """``feedback``: the `QualityFeedback` of `judge` (its keyword arguments), and ``score``: its overall."""
        fb = self.judge(**inputs)
        return dspy.Prediction(feedback=fb, score=fb.overall)

    def judge(
        self,
        question: str,
        answer: str,
        documents: list[Document],
        profile_summary: str = "",
        previous_feedback: QualityFeedback | None = None,
        run: Run | None = None,
        use_lm: bool = True,
        profile=None,
        sections=(),
        frame=None,
        morphemes=(),
        keep=None,
    ) -> QualityFeedback:
        run, s = run or Run(budget_limit=None), self.settings
        heuristic = dict(sections=sections, profile=profile, frame=frame, morphemes=morphemes, keep=keep)
        if not use_lm or not run.has_lm("judge"):
            why = "LLM evaluation off" if not use_lm else "no LM"
            return heuristic_evaluation(
                question, answer, documents, s.quality_weights, s.quality_threshold, why, **heuristic
            )
        with FallBack(run.trace, "evaluate", "heuristic evaluation") as step:
            out = run.call(
                "judge",
                self.evaluate,
                question=question,
                answer=answer,
                documents=format_documents(documents, s.quality_docs, s.quality_doc_chars),
                profile_summary=profile_summary,
                previous_feedback=previous_feedback.as_prompt() if previous_feedback else "",
            )
            g, c, a = (clamp(_number(out[name])) for name in ("grounding", "completeness", "accuracy"))
        if step.failed:
            why = f"LM evaluation failed: {type(step.error).__name__}"
            return heuristic_evaluation(
                question, answer, documents, s.quality_weights, s.quality_threshold, why, **heuristic
            )
        overall = overall_score(g, c, a, s.quality_weights)
        return QualityFeedback(
            overall,
            g,
            c,
            a,
            _strings(out.missing_info),
            _strings(out.improvement_suggestions),
            needs_refinement(overall, s.quality_threshold),
            str(out.reason or ""),
            "lm",
        )


def _number(value) -> float:
    if isinstance(value, bool) or value is None:
        raise ValueError(f"score {value!r} is not a number")
    return float(value)


def _strings(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    return [str(v) for v in value if str(v).strip()]
