"""Rubric scores from the metric bands alone: each rubric lands in the band its metrics call for."""

import dataclasses

import pytest

from programs.turn.no_lm import BAND_SCORES, band_scores, mean_score
from programs.turn.text_features import TextFeatures

ZERO = TextFeatures(**{f.name: 0 if f.type == "int" else False for f in dataclasses.fields(TextFeatures)})


def features(**values) -> TextFeatures:
    return dataclasses.replace(ZERO, **values)


@pytest.mark.parametrize(
    ("words", "sentences", "values", "score"),
    [
        (40, 3, 1, 95.0),
        (40, 3, 0, 80.0),  # no specific value: not the top band
        (15, 1, 2, 80.0),
        (250, 12, 3, 80.0),
        (7, 1, 0, 60.0),
        (350, 20, 5, 60.0),
        (4, 1, 1, 25.0),
    ],
)
def test_clarity_bands(words, sentences, values, score):
    f = features(word_count=words, sentence_count=sentences, specific_value_count=values)
    assert band_scores(f)["clarity"].score == score


def test_problem_relevance_reads_terms_and_the_required_algorithms():
    three = features(technical_term_count=3)
    assert band_scores(three)["problem_relevance"].score == 95.0
    assert band_scores(three, "DP와 정렬과 스택", algorithms=("BFS",))["problem_relevance"].score == 80.0
    assert band_scores(three, "BFS와 정렬과 스택", algorithms=("BFS",))["problem_relevance"].score == 95.0
    assert band_scores(features(technical_term_count=1))["problem_relevance"].score == 80.0
    assert band_scores(features(has_code_blocks=True))["problem_relevance"].score == 60.0
    assert band_scores(ZERO, "두 수의 합 어떻게 해요", problem_title="두 수의 합")["problem_relevance"].score == 60.0
    assert band_scores(ZERO, "hello")["problem_relevance"].score == 25.0


def test_examples_bands():
    assert band_scores(features(example_count=2))["examples"].score == 95.0
    assert band_scores(features(example_count=1))["examples"].score == 80.0
    assert band_scores(features(sentence_count=2))["examples"].score == 60.0
    assert band_scores(features(sentence_count=1))["examples"].score == 25.0


def test_rules_bands():
    top = features(xml_tag_count=2, has_structured_format=True, has_output_format=True)
    assert band_scores(top)["rules"].score == 95.0
    assert band_scores(features(constraint_count=1, has_output_format=True))["rules"].score == 80.0
    assert band_scores(features(constraint_count=3))["rules"].score == 60.0
    assert band_scores(ZERO)["rules"].score == 25.0


def test_context_bands():
    assert band_scores(features(context_reference_count=2))["context"].score == 95.0
    assert band_scores(features(context_reference_count=1))["context"].score == 80.0
    assert band_scores(ZERO)["context"].score == 25.0


def test_reasons_explain_the_band_and_the_mean_is_the_score():
    verdicts = band_scores(features(word_count=40, sentence_count=3, specific_value_count=1, example_count=1))
    assert list(verdicts) == ["clarity", "problem_relevance", "examples", "rules", "context"]
    assert verdicts["clarity"].reason == (
        "단어 40개, 문장 3개, 구체적 값 1개 → 90-100점 구간: 단어 수 20-200개, 문장 수 2-10개, 구체적 값 1개 이상"
    )
    assert mean_score(verdicts) == (95 + 25 + 80 + 25 + 25) / 5
    assert set(BAND_SCORES) == {95.0, 80.0, 60.0, 25.0}
