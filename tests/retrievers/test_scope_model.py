"""The learned scope model (retrievers/scope_model.py): read from JSON exactly as scikit-learn scores it, fitted on the
shipped training questions only, and deciding, on the real `Searcher` over the mini index, the questions with no name
and no rule that the dense cuts decided before (issue 23, item 1)."""

from __future__ import annotations

import copy
import hashlib
import json

import numpy as np
import pytest

from retrievers import scope_model
from retrievers.char_ngrams import char_wb_ngrams
from retrievers.scope_model import MODEL_PATH, ROOT, TRAIN_OUT, ScopeModel, fit, load_scope_model, read_questions

EVALUATION_SETS = (
    "trainsets/scope/probe.jsonl",
    "trainsets/scope/off_topic.jsonl",
    "trainsets/retrieval/dev.jsonl",
    "trainsets/retrieval/test.jsonl",
    "trainsets/real_questions/dev.jsonl",
    "trainsets/real_questions/test.jsonl",
)


def test_the_json_model_scores_as_scikit_learn_does():
    from sklearn.feature_extraction.text import TfidfVectorizer

    inside = read_questions(scope_model.training_files(scope_model.TRAIN_IN))[:120]
    outside = read_questions(scope_model.training_files(scope_model.TRAIN_OUT))[:200]
    data = fit(inside, outside, c_grid=(10.0,), folds=3)
    ours = ScopeModel.from_dict(data)
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(1, 3), sublinear_tf=True, min_df=2)
    vectorizer.fit(inside + outside)
    assert sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.get) == data["vocabulary"]
    questions = ["콧속이 헐었어요", "  파마   얼마나 유지돼요 ", "ABC 대문자도", "ㅠㅠㅠ", "", "약"]
    x = vectorizer.transform(questions).toarray()
    expected = 1 / (1 + np.exp(-(x @ np.array(data["coef"]) + data["intercept"])))
    assert [round(ours.probability(q), 4) for q in questions] == [round(float(p), 4) for p in expected]
    assert char_wb_ngrams("헐 a", 1, 3) == [" ", "헐", " ", " 헐", "헐 ", " 헐 ", " ", "a", " ", " a", "a ", " a "]


def test_the_shipped_model_was_fitted_on_the_shipped_training_files_with_its_best_c():
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    for path, digest in data["trained_on"].items():
        assert hashlib.sha256((ROOT / path).read_bytes()).hexdigest() == digest, (
            "refit: python -m retrievers.scope_model"
        )
    losses = {float(c): v for c, v in data["cv_log_loss"].items()}
    assert data["C"] == min(losses, key=losses.get)
    written = read_questions(scope_model.training_files(scope_model.TRAIN_IN) + scope_model.training_files(TRAIN_OUT))
    assert data["n_in"] + data["n_out"] + data["left_out_near_evaluated"] == len(written)
    files = scope_model.training_files(scope_model.TRAIN_IN) + scope_model.training_files(scope_model.TRAIN_OUT)
    assert set(data["trained_on"]) == {p.relative_to(ROOT).as_posix() for p in files}


def test_no_training_question_is_one_the_guard_is_measured_on():
    def squashed(path):
        return {
            "".join(json.loads(line)["question"].split()) for line in (ROOT / path).read_text().splitlines() if line
        }

    files = scope_model.training_files(scope_model.TRAIN_IN) + scope_model.training_files(scope_model.TRAIN_OUT)
    training = set().union(*(squashed(p.relative_to(ROOT)) for p in files))
    for path in EVALUATION_SETS:
        assert not training & squashed(path), path


@pytest.fixture
def dense_cuts(searcher):
    """The same searcher with the older guard: condition words and the dense cuts."""
    older = copy.copy(searcher)
    older.settings = searcher.settings.updated(scope_model=False)
    return older


@pytest.mark.parametrize("question", ["콧속이 헐었어요", "허벅지 안쪽이 쓸려서 쓰라려요"])
def test_a_symptom_statement_the_dense_cut_refused_is_kept(searcher, dense_cuts, question):
    assert dense_cuts.retrieve(question).out_of_scope  # nearest passage below the cut, no condition word
    r = searcher.retrieve(question)
    assert not r.out_of_scope and r.oos_reason == ""
    assert load_scope_model().about_medicine(question)


@pytest.mark.parametrize("question", ["팔굽혀펴기 하루 몇 개 해야 돼요", "파마 얼마나 유지돼요", "비트코인 시세"])
def test_a_question_about_something_else_is_blocked_by_the_model_with_its_reason(searcher, question):
    r = searcher.retrieve(question)
    assert r.out_of_scope and r.hits == []
    assert r.oos_reason.startswith("no drug name or symptom recognised, and the scope model reads it as about")


def test_a_name_or_a_rule_keeps_a_question_whatever_the_model_reads(searcher):
    """The model decides only what names and symptom rules leave: 게보린 keeps a question worded like chit-chat."""
    assert not load_scope_model().about_medicine("게보린 ㅋㅋㅋ")
    assert not searcher.retrieve("게보린 ㅋㅋㅋ").out_of_scope


def test_a_question_the_model_alone_blocks_is_not_embedded(searcher):
    """Its guard reads no dense score, so the ~15 ms embedding is not made (bench/retrieval.py's p95)."""
    blocked = searcher.gather("파마 얼마나 유지돼요")
    assert blocked.off_topic and blocked.relevance == 0.0 and not any(blocked.raw["dense"])
    kept = searcher.gather("콧속이 헐었어요")  # no name, no rule, in scope by the model: searched by meaning
    assert not kept.off_topic and kept.relevance > 0.5
    named = searcher.gather("게보린 파마")  # a name keeps it whatever the model reads
    assert not named.off_topic
