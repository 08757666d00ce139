"""Which leaflet section holds the sentence that answers a question? A learned model over the question's characters.

The frame reads the sections a question asks from the words that mark an aspect; many questions say what they ask
in words no aspect lists (배가 엄청 아프고 토할거같아요 asks what the 이상반응 section says, 몇번 나눠서 the 용법).
This model reads it from the question's characters: one multinomial logistic regression over TF-IDF character
1–3-grams within words, fitted on the sentence pairs (``trainsets/sentence_pairs/pairs.jsonl``: a question written
for one sampled leaflet sentence, labelled with that sentence's section; pairs within a 0.8 similarity ratio of an
evaluated question are left out), classes weighted to balance (the pairs sample sentences, not the questions
people ask: 효능 sentences are few), one C chosen by 5-fold cross-validated log loss.

The fitted model ships as JSON (``data/section_model.json``) and is read without scikit-learn or pickle;
``python -m retrievers.section_model`` fits it again (scikit-learn) and records the training file's SHA-256.

Example:
    >>> model = load_section_model()
    >>> max(model.probabilities("변비약 먹고 배가 엄청 아프고 토할거같아요"), key=model.probabilities(
    ...     "변비약 먹고 배가 엄청 아프고 토할거같아요").get)
    'se'
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from retrievers.char_ngrams import NgramLinearModel
from retrievers.refit import digests, fail, parse_out, write_model
from retrievers.unseen import evaluated_questions, far_from

ROOT = Path(__file__).resolve().parents[1]
MODEL_PATH = Path(__file__).parent / "data" / "section_model.json"
PAIRS_PATH = ROOT / "trainsets" / "sentence_pairs" / "pairs.jsonl"
SECTIONS = ("efcy", "useMethod", "atpnWarn", "atpn", "intrc", "se", "depositMethod")
NGRAMS = (1, 3)
MIN_DF = 2
C_GRID = (1.0, 4.0, 16.0, 64.0)
FOLDS = 5
CLASS_WEIGHT = "balanced"


def section_of(sid: str) -> str:
    """The section of a sentence id (``easydrug:<item_seq>:<section>:<n>``).

    >>> section_of("easydrug:198300147:useMethod:0")
    'useMethod'
    """
    return sid.split(":")[2]


@dataclass(frozen=True)
class SectionModel(NgramLinearModel):
    """The fitted model: one multinomial regression over the sections (`labels`); the probabilities add up to 1."""

    LABELS: ClassVar[str] = "sections"

    @staticmethod
    def _link(scores: np.ndarray) -> np.ndarray:
        p = np.exp(scores - scores.max())
        return p / p.sum()


@functools.lru_cache(maxsize=1)
def load_section_model(path: str | Path = MODEL_PATH) -> SectionModel:
    """The shipped model (``data/section_model.json``)."""
    return SectionModel.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def read_pairs(path: Path = PAIRS_PATH) -> list[dict]:
    """The sentence pairs as ``{"question", "section"}`` rows."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{"question": r["question"], "section": section_of(r["sid"])} for r in rows]


def fit(rows: list[dict], c_grid=C_GRID, folds: int = FOLDS) -> dict:
    """Fit the multinomial regression on `rows` (``question``, ``section``), C by `folds`-fold cross-validated log
    loss. Returns the JSON-ready model."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline

    texts = [r["question"] for r in rows]
    labels = np.array([SECTIONS.index(r["section"]) for r in rows])

    def pipeline(c: float):
        return make_pipeline(
            TfidfVectorizer(analyzer="char_wb", ngram_range=NGRAMS, sublinear_tf=True, min_df=MIN_DF),
            LogisticRegression(C=c, max_iter=5000, class_weight=CLASS_WEIGHT),
        )

    splits = StratifiedKFold(folds, shuffle=True, random_state=0)
    losses, accuracy = {}, {}
    for c in c_grid:
        p = cross_val_predict(pipeline(c), texts, labels, cv=splits, method="predict_proba")
        losses[c] = round(float(log_loss(labels, p, labels=list(range(len(SECTIONS))))), 4)
        accuracy[c] = round(float(np.mean(p.argmax(1) == labels)), 4)
    best = min(c_grid, key=lambda c: (losses[c], c))
    model = pipeline(best).fit(texts, labels)
    vectorizer, regression = model[0], model[1]
    vocabulary = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get)
    order = [list(regression.classes_).index(i) for i in range(len(SECTIONS))]
    return {
        "sections": list(SECTIONS),
        "ngrams": list(NGRAMS),
        "min_df": MIN_DF,
        "C": best,
        "cv_log_loss": {str(c): v for c, v in losses.items()},
        "cv_accuracy": {str(c): v for c, v in accuracy.items()},
        "vocabulary": vocabulary,
        "idf": [round(float(v), 6) for v in vectorizer.idf_],
        "coef": [[round(float(v), 6) for v in regression.coef_[i]] for i in order],
        "intercepts": [round(float(regression.intercept_[i]), 6) for i in order],
    }


def main(argv: list[str] | None = None) -> None:
    module = "retrievers.section_model"
    args = parse_out(argv, module, MODEL_PATH, __doc__.splitlines()[0])
    try:
        rows = read_pairs()
        evaluated = evaluated_questions()
    except (OSError, json.JSONDecodeError, KeyError, IndexError) as e:
        raise fail(module, f"cannot read the sentence pairs: {e}") from None
    unknown = sorted({r["section"] for r in rows} - set(SECTIONS))
    if not rows or unknown:
        raise fail(module, f"{PAIRS_PATH} needs rows whose sid names a leaflet section (unknown: {unknown})")
    kept = far_from(rows, evaluated)
    data = {
        "version": 1,
        "trained_on": digests([PAIRS_PATH]),
        "n": len(kept),
        "left_out_near_evaluated": len(rows) - len(kept),
        **fit(kept),
    }
    write_model(data, args.out, module)
    print(
        f"section model: {len(kept)} sentence questions ({len(rows) - len(kept)} left out as near an evaluated one); "
        f"C={data['C']} (5-fold log loss {data['cv_log_loss'][str(data['C'])]}, accuracy "
        f"{data['cv_accuracy'][str(data['C'])]}), {len(data['vocabulary'])} n-grams -> {args.out}"
    )


if __name__ == "__main__":
    main()
