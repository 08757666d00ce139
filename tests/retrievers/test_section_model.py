"""The learned answering-section model (retrievers/section_model.py): read from JSON exactly as scikit-learn scores
it, fitted on the shipped sentence pairs only (none near an evaluated question), and reading a section from words no
aspect lists."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from retrievers.section_model import (
    MODEL_PATH,
    PAIRS_PATH,
    ROOT,
    SECTIONS,
    SectionModel,
    fit,
    load_section_model,
    main,
    read_pairs,
)


def test_the_json_model_scores_as_scikit_learn_does():
    from scipy.special import softmax
    from sklearn.feature_extraction.text import TfidfVectorizer

    rows = read_pairs()[::8]
    data = fit(rows, c_grid=(4.0,), folds=3)
    ours = SectionModel.from_dict(data)
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 3), sublinear_tf=True, min_df=2)
    vectorizer.fit([r["question"] for r in rows])
    assert sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get) == data["vocabulary"]
    questions = ["연고 하루 몇 번 발라요", "  약   먹고 어지러워요 ", "ABC", "ㅠㅠ", ""]
    x = vectorizer.transform(questions).toarray()
    expected = softmax(x @ np.array(data["coef"]).T + np.array(data["intercepts"]), axis=1)
    got = [[round(ours.probabilities(q)[s], 4) for s in SECTIONS] for q in questions]
    assert got == [[round(float(p), 4) for p in row] for row in expected]
    assert all(abs(sum(ours.probabilities(q).values()) - 1) < 1e-9 for q in questions)


def test_the_shipped_model_was_fitted_on_the_shipped_pairs_with_its_best_c():
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert data["trained_on"] == {
        PAIRS_PATH.relative_to(ROOT).as_posix(): hashlib.sha256(PAIRS_PATH.read_bytes()).hexdigest()
    }, "refit: python -m retrievers.section_model"
    losses = {float(c): v for c, v in data["cv_log_loss"].items()}
    assert data["C"] == min(losses, key=losses.get)
    assert data["n"] + data["left_out_near_evaluated"] == len(read_pairs())
    assert data["left_out_near_evaluated"] > 0  # the pairs hold questions written alike evaluated ones
    assert data["sections"] == list(SECTIONS)


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("변비약 먹고 배가 엄청 아프고 토할거같아요", "se"),  # what happened after taking it, in no aspect's words
        ("시럽 한번에 몇미리씩 먹이면 돼요", "useMethod"),
        ("차 안에 약 두면 안되나요", "depositMethod"),
        ("위염약이랑 같이 먹어도 되나요", "intrc"),
    ],
)
def test_the_model_reads_the_answering_section_from_the_question(question, section):
    p = load_section_model().probabilities(question)
    assert max(p, key=p.get) == section


def test_a_refit_to_a_missing_folder_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--out", str(tmp_path / "no" / "model.json")])
    assert "retrievers.section_model: error: cannot write" in str(stop.value)
