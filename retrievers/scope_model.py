"""Is a question about medicines at all? A learned model over its characters, for the questions nothing else decides.

The out-of-scope guard keeps a question that names a product or an ingredient, matches a symptom rule, says 약 or a
kind of medicine, or names a supplement. The questions left — 허벅지 안쪽이 쓸려서 쓰라려요, 파마 얼마나 유지돼요 —
were decided by a cosine cut on the nearest passage, set on one dev set; it kept 팔굽혀펴기 하루 몇 개 (0.889) and
refused 콧속이 헐었어요 (0.866). This model decides them instead: a logistic regression over TF-IDF character 1–3-grams
within words (Korean topic words are a few syllables: 파마, 미용, 콧속, 쓰라), fitted on questions written for the
project (``trainsets/scope/train_in_scope*.jsonl``: symptom statements, kinds of medicine, brands, misspelt and
colloquial, complaints told in everyday settings; ``train_off_topic*.jsonl``: everyday requests, health-adjacent ones
and words medicine talk also uses),
with classes weighted to balance and C chosen by 5-fold cross-validated log loss. The probe, off-topic and retrieval
sets it is measured on are not among them, and fitting leaves out any training question within a 0.8 similarity ratio
of an evaluated one (`retrievers.unseen`).

The fitted model ships as JSON (``data/scope_model.json``: n-gram vocabulary, IDF, coefficients) and is read without
scikit-learn or pickle; ``python -m retrievers.scope_model`` fits it again (scikit-learn) and records the training
files' SHA-256.

Example:
    >>> model = load_scope_model()
    >>> model.probability("콧속이 헐었어요") > 0.5 > model.probability("파마 얼마나 유지돼요")
    True
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from retrievers.char_ngrams import tfidf_weights
from retrievers.refit import digests, fail, parse_out, write_model
from retrievers.unseen import evaluated_questions, near

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = Path(__file__).parent / "data" / "scope_model.json"
SCOPE_DIR = ROOT / "trainsets" / "scope"
TRAIN_IN = "train_in_scope*.jsonl"  # every batch of questions about medicines, symptoms or the body
TRAIN_OUT = "train_off_topic*.jsonl"  # every batch about anything else
NGRAMS = (1, 3)
MIN_DF = 2  # an n-gram of one training question alone says nothing general
C_GRID = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0)
FOLDS = 5
ABOUT_MEDICINE = 0.5  # the model's own boundary (classes balanced in fitting): at or above, about medicines


@dataclass(frozen=True)
class ScopeModel:
    """The fitted model: each n-gram's column, its IDF and coefficient, and the intercept."""

    columns: dict[str, int]
    idf: np.ndarray
    coef: np.ndarray
    intercept: float
    ngrams: tuple[int, int] = NGRAMS

    def probability(self, question: str) -> float:
        """The model's probability that `question` is about medicines, symptoms or the body (0–1)."""
        cols, weights = tfidf_weights(question, self.columns, self.idf, self.ngrams)
        score = self.intercept + float(weights @ self.coef[cols])
        return 1.0 / (1.0 + math.exp(-score))

    def about_medicine(self, question: str) -> bool:
        return self.probability(question) >= ABOUT_MEDICINE

    @classmethod
    def from_dict(cls, data: dict) -> ScopeModel:
        vocabulary = data["vocabulary"]
        return cls(
            {g: i for i, g in enumerate(vocabulary)},
            np.asarray(data["idf"], dtype=np.float64),
            np.asarray(data["coef"], dtype=np.float64),
            float(data["intercept"]),
            tuple(data["ngrams"]),
        )


@functools.lru_cache(maxsize=1)
def load_scope_model(path: str | Path = MODEL_PATH) -> ScopeModel:
    """The shipped model (``data/scope_model.json``)."""
    return ScopeModel.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def training_files(pattern: str, folder: Path = SCOPE_DIR) -> list[Path]:
    return sorted(folder.glob(pattern))


def read_questions(paths) -> list[str]:
    """The questions of one JSONL file or of several, in order."""
    out: list[str] = []
    for path in [paths] if isinstance(paths, Path) else paths:
        out += [json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def fit(inside: list[str], outside: list[str], c_grid=C_GRID, folds: int = FOLDS) -> dict:
    """Fit the model on questions about medicines (`inside`) and about anything else (`outside`); C by `folds`-fold
    cross-validated log loss. Returns the JSON-ready model with the log loss of each C."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline

    texts = inside + outside
    labels = np.array([1] * len(inside) + [0] * len(outside))

    def pipeline(c: float):
        return make_pipeline(
            TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS, sublinear_tf=True, min_df=MIN_DF),
            LogisticRegression(C=c, max_iter=5000, class_weight="balanced"),
        )

    splits = StratifiedKFold(folds, shuffle=True, random_state=0)
    losses = {}
    for c in c_grid:
        p = cross_val_predict(pipeline(c), texts, labels, cv=splits, method="predict_proba")[:, 1]
        losses[c] = round(float(log_loss(labels, p)), 4)
    best = min(c_grid, key=lambda c: (losses[c], c))
    model = pipeline(best).fit(texts, labels)
    vectorizer, regression = model[0], model[1]
    vocabulary = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    return {
        "ngrams": list(NGRAMS),
        "min_df": MIN_DF,
        "C": best,
        "cv_log_loss": {str(c): v for c, v in losses.items()},
        "vocabulary": vocabulary,
        "idf": [round(float(v), 6) for v in vectorizer.idf_],
        "coef": [round(float(v), 6) for v in regression.coef_[0]],
        "intercept": round(float(regression.intercept_[0]), 6),
    }


def main(argv: list[str] | None = None) -> None:
    module = "retrievers.scope_model"
    args = parse_out(argv, module, MODEL_PATH, __doc__.splitlines()[0])
    try:
        files_in, files_out = training_files(TRAIN_IN), training_files(TRAIN_OUT)
        if not files_in or not files_out:
            raise OSError(f"no {TRAIN_IN} or {TRAIN_OUT} in {SCOPE_DIR}")
        inside, outside = read_questions(files_in), read_questions(files_out)
        evaluated = evaluated_questions()
    except (OSError, json.JSONDecodeError, KeyError) as e:
        raise fail(module, f"cannot read the training questions: {e}") from None
    written = len(inside) + len(outside)
    inside, outside = ([q for q in qs if not near(q, evaluated)] for qs in (inside, outside))
    data = {
        "version": 1,
        "trained_on": digests(files_in + files_out),
        "n_in": len(inside),
        "n_out": len(outside),
        "left_out_near_evaluated": written - len(inside) - len(outside),
        **fit(inside, outside),
    }
    write_model(data, args.out, module)
    print(
        f"scope model: {len(inside)} questions about medicines, {len(outside)} about anything else "
        f"({data['left_out_near_evaluated']} left out as near an evaluated one); "
        f"C={data['C']} (5-fold log loss {data['cv_log_loss'][str(data['C'])]}), {len(data['vocabulary'])} n-grams "
        f"-> {args.out}"
    )


if __name__ == "__main__":
    main()
