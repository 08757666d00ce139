"""The answer's own doubt: how likely a no-LM answer misses the sentence that answers the question, read from what
the run already knows — the grader's relevance, the rewrites, the evaluator's scores, the aspect check, what the
answer cites. A logistic model fitted on the real-question dev split (`yaksa fit-self-check`) turns these into a
probability; above the model's threshold the answer is flagged (a ``doubt_check`` step) and, unless it already
opens with a notice saying as much, opens with `NOTICE`.

The features are written into the step whether or not a model is installed, so the fit reads exactly what the
program saw.

Example:
    >>> steps = [{"step": "grade", "relevance": 0.2, "documents": [0.3, 0.1], "relevant": [False, False],
    ...           "route": "rewrite"}, {"step": "rewrite"}, {"step": "class_sections"}]
    >>> f = answer_features(steps, "두통에 씁니다. [문서 1]", [Document("easydrug:1:efcy", "x", {"item_seq": "1"})])
    >>> f["relevance_first"], f["rewrites"], f["class_question"], f["efficacy_first"], f["products_cited"]
    (0.2, 1.0, 1.0, 1.0, 1.0)
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

from programs.citations import cite_numbers
from programs.routing import LOW_RELEVANCE
from retrievers.documents import Document
from retrievers.relevance import Logistic

MODEL_PATH = Path(__file__).parent / "data" / "answer_doubt.json"
NOTICE = "※ 찾은 문장이 질문에 바로 답하지 않을 수 있습니다. 설명서 전체를 확인하거나 약사와 상의하세요."
FEATURES = (
    "relevance_first",  # the result-level grade of the first retrieval
    "relevance_best",  # the best grade of any retrieval
    "document_first",  # the first retrieval's top document grade
    "relevant_first",  # how many of its documents were graded relevant
    "fused_top",  # the first retrieval's top fused score
    "rewrites",
    "low_relevance",  # some grade routed to an answer with the low-relevance notice
    "evaluator_overall",
    "evaluator_grounding",
    "evaluator_completeness",
    "aspects_asked",
    "aspects_missed",
    "class_question",  # a class word chose the products
    "dur_rules",  # DUR rules were added to the answer
    "unknown_names",  # a word read as a name the index does not know
    "products_cited",
    "documents_cited",
    "efficacy_first",  # the first cited document is an efficacy section
    "answer_kchars",  # the answer's length in thousands of characters (at most 2)
)


def answer_features(steps: list[dict], answer: str, docs: list[Document]) -> dict[str, float]:
    """The `FEATURES` of an answer written from `docs` after the run's `steps` (trace step dicts)."""

    def last(name: str) -> dict:
        return next((s for s in reversed(steps) if s.get("step") == name), {})

    grades = [s for s in steps if s.get("step") == "grade"]
    first = grades[0] if grades else {}
    retrieve = next((s for s in steps if s.get("step") == "retrieve"), {})
    evaluated, check = last("evaluate"), last("aspect_check")
    cited = [docs[n - 1] for n in dict.fromkeys(cite_numbers(answer)) if 0 < n <= len(docs)]
    return {
        "relevance_first": float(first.get("relevance") or 0.0),
        "relevance_best": max((float(s.get("relevance") or 0.0) for s in grades), default=0.0),
        "document_first": float((first.get("documents") or [0.0])[0]),
        "relevant_first": float(sum(bool(r) for r in first.get("relevant") or [])),
        "fused_top": float(retrieve.get("top_score") or 0.0),
        "rewrites": float(sum(s.get("step") == "rewrite" for s in steps)),
        "low_relevance": float(any(s.get("route") == LOW_RELEVANCE for s in grades)),
        "evaluator_overall": float(evaluated.get("overall") or 0.0),
        "evaluator_grounding": float(evaluated.get("grounding") or 0.0),
        "evaluator_completeness": float(evaluated.get("completeness") or 0.0),
        "aspects_asked": float(len(check.get("asked") or ())),
        "aspects_missed": float(len(check.get("missed") or ())),
        "class_question": float(any(s.get("step") == "class_sections" for s in steps)),
        "dur_rules": float(any(s.get("step") == "dur_rules" for s in steps)),
        "unknown_names": float(any(s.get("step") == "unknown_names" for s in steps)),
        "products_cited": float(len({d.metadata["item_seq"] for d in cited if d.metadata.get("item_seq")})),
        "documents_cited": float(len(cited)),
        "efficacy_first": float(bool(cited) and cited[0].id.rsplit(":", 1)[-1] == "efcy"),
        "answer_kchars": min(len(answer), 2000) / 1000,
    }


@dataclass(frozen=True)
class DoubtModel:
    """P(the answer quotes no answering sentence | `FEATURES`), and the probability above which it is flagged.

    Attributes:
        model: the logistic regression over `FEATURES` (in their raw units).
        threshold: flagged above it (chosen on cross-validated dev predictions for a share of good answers flagged).
        report: what it was fitted on and its cross-validated figures.
    """

    model: Logistic
    threshold: float
    report: dict = field(default_factory=dict)

    def miss_probability(self, features: dict[str, float]) -> float:
        return self.model([features[name] for name in FEATURES])

    def flags(self, features: dict[str, float]) -> bool:
        return self.miss_probability(features) > self.threshold

    @classmethod
    def load(cls, path: str | Path | None = None) -> DoubtModel:
        """Read a model file. Raises ValueError naming the file when it is broken or fitted on other features."""
        path = Path(path or MODEL_PATH)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if tuple(data["features"]) != FEATURES:
                raise ValueError("its features differ from this version's")
            model = Logistic(tuple(float(c) for c in data["coef"]), float(data["intercept"]))
            return cls(model, float(data["threshold"]), dict(data.get("report", {})))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: not an answer-doubt model ({e}); run `yaksa fit-self-check`") from None

    def save(self, path: str | Path | None = None) -> Path:
        path = Path(path or MODEL_PATH)
        data = {
            "features": list(FEATURES),
            "coef": list(self.model.coef),
            "intercept": self.model.intercept,
            "threshold": self.threshold,
            "report": self.report,
        }
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return path


@functools.cache
def shipped_model() -> DoubtModel | None:
    """The model the project ships, None when there is none (the check then only records its features)."""
    return DoubtModel.load() if MODEL_PATH.exists() else None
