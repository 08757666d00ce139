"""The learned aspect model (retrievers/aspect_model.py): read from JSON exactly as scikit-learn scores it, fitted on
the shipped training questions only (none of them an evaluated one), and read beside the rules by the question
frame: an aspect asked in words no rule lists is in the frame, and one the model is sure of leads a generic one."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from retrievers.aspect_model import MODEL_PATH, ROOT, AspectModel, fit, load_aspect_model, read_labelled, training_files
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.question_frame import ASPECTS, MORE, read_frame
from retrievers.unseen import EVALUATION_SETS, far_from


def test_the_json_model_scores_as_scikit_learn_does():
    from sklearn.feature_extraction.text import TfidfVectorizer

    rows = read_labelled(training_files())[::10]
    aspects = ["dosage", "child_use", "washing"]
    data = fit(rows, aspects, c_grid=(10.0,), folds=3)
    ours = AspectModel.from_dict(data)
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 3), sublinear_tf=True, min_df=2)
    vectorizer.fit([r["question"] for r in rows])
    assert sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get) == data["vocabulary"]
    questions = ["애기 해열제 몇 번 먹여요", "  파스   붙이고 샤워 ", "ABC", "ㅠㅠ", ""]
    x = vectorizer.transform(questions).toarray()
    expected = 1 / (1 + np.exp(-(x @ np.array(data["coef"]).T + np.array(data["intercepts"]))))
    got = [[round(ours.probabilities(q)[a], 4) for a in aspects] for q in questions]
    assert got == [[round(float(p), 4) for p in row] for row in expected]


def test_the_shipped_model_was_fitted_on_the_shipped_training_files_with_its_best_c():
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert set(data["trained_on"]) == {p.relative_to(ROOT).as_posix() for p in training_files()}
    for path, digest in data["trained_on"].items():
        digest_now = hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
        assert digest_now == digest, "refit: python -m retrievers.aspect_model"
    losses = {float(c): v for c, v in data["cv_log_loss"].items()}
    assert data["C"] == min(losses, key=losses.get)
    assert data["n"] + data["left_out_near_evaluated"] == len(read_labelled(training_files()))
    assert data["aspects"] == list(ASPECTS)


def test_every_training_row_names_known_aspects_and_none_is_an_evaluated_question():
    rows = read_labelled(training_files())
    assert rows and all(r["aspects"] and set(r["aspects"]) <= set(ASPECTS) for r in rows)
    training = {"".join(r["question"].split()) for r in rows}
    for path in EVALUATION_SETS:
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
        assert not training & {"".join(json.loads(line)["question"].split()) for line in lines if line}, path


def test_a_question_written_alike_an_evaluated_one_is_left_out_of_fitting():
    rows = [{"question": "지르텍 아침에 먹어요 자기 전에 먹어요?"}, {"question": "파스 붙이고 샤워해도 돼요?"}]
    assert far_from(rows, ["지르텍은 아침에 먹어요 자기 전에 먹어요?"]) == rows[1:]


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("애기 해열제 먹인지 세시간 됐는데 열이 또 나요 또 먹여도 되나요", "dosage"),  # an interval, in no rule's words
        ("변비약 먹다가 끊으면 다시 변비 생기나요", "duration"),  # stopping it
        ("진통제 먹고 나서 얼마 지나면 듣기 시작해요?", "onset"),  # (얼마 있으면 효과 is a rule's words now)
    ],
)
def test_an_aspect_asked_in_words_no_rule_lists_is_in_the_frame(question, asked):
    names, lexicon = NameIndex(), Lexicon.load()
    assert asked not in read_frame(question, names, lexicon, learned=False).aspects
    assert asked in read_frame(question, names, lexicon).aspects
    assert load_aspect_model().probabilities(question)[asked] >= MORE


def test_an_aspect_the_model_is_sure_of_leads_a_generic_one_the_rules_read():
    names, lexicon = NameIndex(), Lexicon.load()
    question = "연고 바르고 바다 들어가도 돼요?"  # (수영장 가도 is a washing ask of the reviewed list now)
    assert read_frame(question, names, lexicon, learned=False).aspects[0] == "efficacy"
    assert read_frame(question, names, lexicon).aspects[0] == "washing"


@pytest.mark.parametrize("module", ["retrievers.aspect_model", "retrievers.scope_model"])
def test_refitting_into_a_folder_that_is_not_there_says_so_in_one_line_before_fitting(module, tmp_path):
    import subprocess
    import sys

    out = tmp_path / "missing" / "model.json"
    done = subprocess.run([sys.executable, "-m", module, "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and not out.exists()
    assert done.stderr.strip() == f"{module}: error: cannot write {out}: no folder {out.parent}"


def test_forgetting_the_texts_drops_every_reading_remembered_per_question(searcher):
    """`Searcher.forget_texts` times each question afresh (bench/retrieval.py): the aspect probabilities, who the
    question is about and its kinds of medicine are read again after it."""
    from retrievers.population import _read_population
    from retrievers.question_frame import _kind_readings

    question = "다섯살 애기 해열제 시럽 몇 번 먹여요"
    searcher.retrieve(question)
    model = load_aspect_model()
    assert question in model._memo
    assert _read_population.cache_info().currsize and _kind_readings.cache_info().currsize
    searcher.forget_texts()
    assert question not in model._memo
    assert _read_population.cache_info().currsize == 0 and _kind_readings.cache_info().currsize == 0
    assert model.probabilities(question) == dict(model._probabilities(question))  # the same, read again
