"""The five rubrics of a turn evaluation and their score bands, as the seed gives them.

One source for both paths: the LM reads them rendered by ``rubric_guide``; the no-LM scorer (``no_lm.py``) picks
a band from the metrics and cites the band's text as its reason.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Band:
    """A score band: scores ``low``..``high`` for prompts matching ``text``."""

    low: int
    high: int
    text: str

    @property
    def label(self) -> str:
        return f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Rubric:
    """A rubric: its key (as in ``RubricScores``), its title, the metrics it reads and its four bands, best first."""

    key: str
    title: str
    metrics: str
    bands: tuple[Band, Band, Band, Band]


RUBRICS: tuple[Rubric, ...] = (
    Rubric(
        "clarity",
        "명확성 (Clarity)",
        "word_count, sentence_count, specific_value_count",
        (
            Band(90, 100, "단어 수 20-200개, 문장 수 2-10개, 구체적 값 1개 이상"),
            Band(70, 89, "단어 수 10-20개 또는 200-300개, 문장 수 1-2개 또는 10-15개"),
            Band(50, 69, "단어 수 5-10개 또는 300개 이상, 문장 수 1개 또는 15개 이상"),
            Band(0, 49, "단어 수 5개 미만, 문장 수 1개 미만, 매우 모호한 표현"),
        ),
    ),
    Rubric(
        "problem_relevance",
        "문제 적절성 (Problem Relevance)",
        "technical_term_count",
        (
            Band(90, 100, "기술 용어 3개 이상, 문제 특성에 맞는 알고리즘 명시"),
            Band(70, 89, "기술 용어 1-2개, 문제 관련 키워드 언급"),
            Band(50, 69, "기술 용어 0-1개, 문제와 관련 있지만 구체적 알고리즘 없음"),
            Band(0, 49, "기술 용어 0개, 문제와 무관한 요청"),
        ),
    ),
    Rubric(
        "examples",
        "예시 (Examples)",
        "has_examples, example_count",
        (
            Band(90, 100, "예시 2개 이상, 입출력 쌍 포함, 엣지 케이스 포함"),
            Band(70, 89, "예시 1개, 기본 케이스만"),
            Band(50, 69, "예시 없지만 상황 설명"),
            Band(0, 49, "예시 없음, 추상적 표현만"),
        ),
    ),
    Rubric(
        "rules",
        "규칙 (Rules)",
        "xml_tag_count, constraint_count, has_structured_format, has_output_format",
        (
            Band(90, 100, "XML 태그 2개 이상 또는 제약조건 2개 이상, 구조화 형식 사용, 출력 형식 지정"),
            Band(70, 89, "XML 태그 1개 또는 제약조건 1개, 구조화 형식 사용, 출력 형식 지정"),
            Band(50, 69, "제약조건 언급 (XML 태그 없음), 간단한 구조화, 출력 형식 지정"),
            Band(0, 49, "제약조건 없음, 구조화 형식 없음, 출력 형식 지정 없음"),
        ),
    ),
    Rubric(
        "context",
        "문맥 (Context)",
        "has_context_reference, context_reference_count",
        (
            Band(90, 100, "이전 대화 참조 2회 이상, 구체적 내용 언급"),
            Band(70, 89, "이전 대화 참조 1회, 간단한 언급"),
            Band(50, 69, "맥락 활용 시도 (불명확)"),
            Band(0, 49, "맥락 활용 없음"),
        ),
    ),
)
RUBRIC_KEYS = tuple(rubric.key for rubric in RUBRICS)


def rubric_guide(criterion: str) -> str:
    """Render the five rubrics and their bands for the LM, with rubric 4 (Rules) asking ``criterion``.

    Example:
        >>> print(rubric_guide("입출력 예시를 제공했는가?").splitlines()[0])
        1. clarity — 명확성 (Clarity); metrics: word_count, sentence_count, specific_value_count
    """
    lines = []
    for number, rubric in enumerate(RUBRICS, start=1):
        lines.append(f"{number}. {rubric.key} — {rubric.title}; metrics: {rubric.metrics}")
        if rubric.key == "rules":
            lines.append(f"   criterion: {criterion}")
        lines.extend(f"   - {band.label}점: {band.text}" for band in rubric.bands)
    return "\n".join(lines)
