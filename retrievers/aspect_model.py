"""Which aspects does a question ask? A learned multi-label model over its characters, read beside the reader's rules.

The no-LM reader (`retrievers.question_frame.read_aspects`) finds an aspect from the words that mark it; a question
often asks a second one in words no rule lists (몇 시간 있다가 또 먹여도 asks a dose interval; 끊어도 되나요 how long
to take it). This model reads them from the question's characters: one logistic regression per aspect over TF-IDF
character 1–3-grams within words, fitted on questions written for the project (``trainsets/aspects/``: each labelled
with the aspects it asks, none of them an evaluated question, and fitting leaves out any within a 0.8 similarity
ratio of one: the real-question, retrieval, QA and scope sets), unweighted, with one C for all aspects chosen by
5-fold cross-validated log loss.

The fitted model ships as JSON (``data/aspect_model.json``) and is read without scikit-learn or pickle;
``python -m retrievers.aspect_model`` fits it again (scikit-learn) and records the training files' SHA-256.

Example:
    >>> model = load_aspect_model()
    >>> model.asked("아기 해열제 몇 시간 있다가 또 먹여도 돼요?")[:2]
    ['child_use', 'dosage']
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from retrievers.aspect_names import ASPECTS
from retrievers.char_ngrams import NgramLinearModel
from retrievers.refit import digests, fail, parse_out, write_model
from retrievers.unseen import evaluated_questions, far_from

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = Path(__file__).parent / "data" / "aspect_model.json"
TRAIN_DIR = ROOT / "trainsets" / "aspects"
NGRAMS = (1, 3)
MIN_DF = 2
C_GRID = (1.0, 3.0, 10.0, 30.0, 100.0)
FOLDS = 5
ASKED = 0.5  # each aspect's own boundary: at or above, the question asks it
# probabilities as the data has them: with classes weighted to balance, a rare aspect was read into common wording
# (두통에 먹는 약: interactions 0.84) and the 5-fold log loss was higher (0.0605 against 0.0583)
CLASS_WEIGHT = None


@dataclass(frozen=True)
class AspectModel(NgramLinearModel):
    """The fitted model: one logistic regression per aspect (`labels`), each its own yes or no."""

    LABELS: ClassVar[str] = "aspects"

    @property
    def aspects(self) -> tuple[str, ...]:
        return self.labels

    @staticmethod
    def _link(scores: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-scores))

    def asked(self, question: str, threshold: float = ASKED) -> list[str]:
        """The aspects `question` asks by the model, most probable first."""
        p = self.probabilities(question)
        return sorted((a for a in self.aspects if p[a] >= threshold), key=lambda a: -p[a])


@functools.lru_cache(maxsize=1)
def load_aspect_model(path: str | Path = MODEL_PATH) -> AspectModel:
    """The shipped model (``data/aspect_model.json``)."""
    return AspectModel.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def training_files(folder: Path = TRAIN_DIR) -> list[Path]:
    return sorted(folder.glob("train*.jsonl"))


def read_labelled(paths: list[Path]) -> list[dict]:
    rows = []
    for path in paths:
        rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows


def fit(rows: list[dict], aspects, c_grid=C_GRID, folds: int = FOLDS) -> dict:
    """Fit one logistic regression per aspect of `aspects` on `rows` (``question``, ``aspects``); one C for all by
    `folds`-fold cross-validated log loss, averaged over the aspects. Returns the JSON-ready model."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.model_selection import KFold, cross_val_predict
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.pipeline import make_pipeline

    aspects = list(aspects)
    texts = [r["question"] for r in rows]
    labels = np.array([[a in r["aspects"] for a in aspects] for r in rows], dtype=int)

    def pipeline(c: float):
        return make_pipeline(
            TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS, sublinear_tf=True, min_df=MIN_DF),
            OneVsRestClassifier(LogisticRegression(C=c, max_iter=5000, class_weight=CLASS_WEIGHT)),
        )

    splits = KFold(folds, shuffle=True, random_state=0)
    losses = {}
    for c in c_grid:
        p = cross_val_predict(pipeline(c), texts, labels, cv=splits, method="predict_proba")
        per = [log_loss(labels[:, j], p[:, j], labels=[0, 1]) for j in range(len(aspects))]
        losses[c] = round(float(np.mean(per)), 4)
    best = min(c_grid, key=lambda c: (losses[c], c))
    model = pipeline(best).fit(texts, labels)
    vectorizer, ovr = model[0], model[1]
    vocabulary = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    return {
        "aspects": aspects,
        "ngrams": list(NGRAMS),
        "min_df": MIN_DF,
        "C": best,
        "cv_log_loss": {str(c): v for c, v in losses.items()},
        "vocabulary": vocabulary,
        "idf": [round(float(v), 6) for v in vectorizer.idf_],
        "coef": [[round(float(v), 6) for v in est.coef_[0]] for est in ovr.estimators_],
        "intercepts": [round(float(est.intercept_[0]), 6) for est in ovr.estimators_],
    }


def main(argv: list[str] | None = None) -> None:
    module = "retrievers.aspect_model"
    args = parse_out(argv, module, MODEL_PATH, __doc__.splitlines()[0])
    paths = training_files()
    try:
        rows = read_labelled(paths)
        evaluated = evaluated_questions()
    except (OSError, json.JSONDecodeError, KeyError) as e:
        raise fail(module, f"cannot read the training questions: {e}") from None
    unknown = sorted({a for r in rows for a in r.get("aspects", ()) if a not in ASPECTS})
    if not paths or unknown or any("question" not in r or "aspects" not in r for r in rows):
        raise fail(
            module,
            f"{TRAIN_DIR} needs train*.jsonl rows with a question and known aspects"
            + (f" (unknown: {', '.join(unknown)})" if unknown else ""),
        )
    kept = far_from(rows, evaluated)
    data = {
        "version": 1,
        "trained_on": digests(paths),
        "n": len(kept),
        "left_out_near_evaluated": len(rows) - len(kept),
        **fit(kept, ASPECTS),
    }
    write_model(data, args.out, module)
    print(
        f"aspect model: {len(kept)} labelled questions ({len(rows) - len(kept)} left out as near an evaluated one), "
        f"{len(ASPECTS)} aspects; C={data['C']} (5-fold mean log loss "
        f"{data['cv_log_loss'][str(data['C'])]}), {len(data['vocabulary'])} n-grams -> {args.out}"
    )


if __name__ == "__main__":
    main()
