"""Rubric scores from the metric bands alone, the turn evaluator's path when no LM is configured.

Each rubric picks one of its four bands from the text features and scores the band's representative value
(95, 80, 60 or 25); the turn's score is their mean. Judgement the seed leaves to the LM — whether examples carry
input/output pairs and edge cases, whether a vague reference is an "attempt" at context, whether a request fits the
problem — is not guessed: only what the metrics show moves a score.
"""

from __future__ import annotations

from dataclasses import dataclass

from programs.turn.rubrics import RUBRICS, Band
from programs.turn.text_features import TextFeatures, mentions_any

BAND_SCORES = (95.0, 80.0, 60.0, 25.0)
NO_LM_NOTE = "LM 없음 (no LM): 의도는 키워드 규칙으로, 루브릭 점수는 정량 메트릭의 점수 구간으로만 매겼습니다."


@dataclass(frozen=True)
class BandVerdict:
    """One rubric scored from its bands: the score, the band chosen and the evidence that chose it."""

    score: float
    band: Band
    evidence: str

    @property
    def reason(self) -> str:
        return f"{self.evidence} → {self.band.label}점 구간: {self.band.text}"


def band_scores(
    features: TextFeatures, prompt: str = "", problem_title: str = "", algorithms: tuple[str, ...] = ()
) -> dict[str, BandVerdict]:
    """Score the five rubrics from the metric bands.

    Args:
        features: The prompt's text features.
        prompt: The prompt itself, to see whether it names the problem or its required algorithms.
        problem_title: The problem's title, when given.
        algorithms: The problem's required algorithms, when given.

    Returns:
        A ``BandVerdict`` per rubric key, in rubric order.

    Example:
        >>> from programs.turn.text_features import text_features
        >>> verdicts = band_scores(text_features("정렬해줘"))
        >>> verdicts["clarity"].score, verdicts["clarity"].band.label
        (25.0, '0-49')
    """
    judges = {
        "clarity": _clarity(features),
        "problem_relevance": _relevance(features, prompt, problem_title, algorithms),
        "examples": _examples(features),
        "rules": _rules(features),
        "context": _context(features),
    }
    verdicts = {}
    for rubric in RUBRICS:
        index, evidence = judges[rubric.key]
        verdicts[rubric.key] = BandVerdict(BAND_SCORES[index], rubric.bands[index], evidence)
    return verdicts


def mean_score(verdicts: dict[str, BandVerdict]) -> float:
    """The turn score without an LM: the mean of the rubric scores."""
    return sum(v.score for v in verdicts.values()) / len(verdicts)


def _yes(flag: bool) -> str:
    return "예" if flag else "아니오"


def _clarity(f: TextFeatures) -> tuple[int, str]:
    words, sentences, values = f.word_count, f.sentence_count, f.specific_value_count
    evidence = f"단어 {words}개, 문장 {sentences}개, 구체적 값 {values}개"
    if words < 5 or sentences < 1:
        return 3, evidence
    if 20 <= words <= 200 and 2 <= sentences <= 10 and values >= 1:
        return 0, evidence
    if 10 <= words <= 300 and 1 <= sentences <= 15:
        return 1, evidence
    return 2, evidence


def _relevance(f: TextFeatures, prompt: str, title: str, algorithms: tuple[str, ...]) -> tuple[int, str]:
    terms = f.technical_term_count
    named = mentions_any(prompt, algorithms) if algorithms else None
    evidence = f"기술 용어 {terms}개, 필수 알고리즘 언급 {'(주어지지 않음)' if named is None else _yes(named)}"
    if terms >= 3 and named is not False:
        return 0, evidence
    if terms >= 1:
        return 1, evidence
    if named or f.has_code_blocks or (title.strip() and mentions_any(prompt, [title])):
        return 2, evidence + ", 코드나 문제를 직접 가리킴"
    return 3, evidence


def _examples(f: TextFeatures) -> tuple[int, str]:
    evidence = f"예시 {f.example_count}개"
    if f.example_count >= 2:
        return 0, evidence
    if f.example_count == 1:
        return 1, evidence
    if f.has_code_blocks or f.has_specific_values or f.sentence_count >= 2:
        return 2, evidence + ", 코드·구체적 값·여러 문장으로 상황을 설명"
    return 3, evidence


def _rules(f: TextFeatures) -> tuple[int, str]:
    strength = max(f.xml_tag_count, f.constraint_count)
    structured, output = f.has_structured_format, f.has_output_format
    evidence = (
        f"XML 태그 {f.xml_tag_count}개, 제약조건 {f.constraint_count}개, "
        f"구조화 형식 {_yes(structured)}, 출력 형식 지정 {_yes(output)}"
    )
    if strength >= 2 and structured and output:
        return 0, evidence
    if strength >= 1 and (structured or output):
        return 1, evidence
    if strength >= 1 or structured or output:
        return 2, evidence
    return 3, evidence


def _context(f: TextFeatures) -> tuple[int, str]:
    evidence = f"이전 대화 참조 {f.context_reference_count}회"
    if f.context_reference_count >= 2:
        return 0, evidence
    if f.context_reference_count == 1:
        return 1, evidence
    return 3, evidence
