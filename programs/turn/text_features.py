"""Quantitative text features of a user's prompt turn (Korean and English), the evaluator's metric inputs.

Pure Python and deterministic. Fenced code blocks (```...```) are counted, then set aside: the other features
read the prose only, so a pasted program does not pass for a long, precise request. Words (whitespace-separated,
with a letter or digit) and sentences are counted without XML tags. ``text_length`` counts the whole text.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?。？！])\s+|\n+")
_HAS_LETTER = re.compile(r"[^\W_]")
# Numbers with an optional decimal part and power (10^5, 1e9); a run of digits is one value.
_VALUE = re.compile(r"(?<![A-Za-z_\d.])\d+(?:[.,]\d+)*(?:\s*\^\s*\d+|[eE]\d+)?")
_A = r"(?<![A-Za-z])"  # an ASCII word boundary that still works next to Hangul
_Z = r"(?![A-Za-z])"
_EXAMPLE = re.compile(rf"예시|예제|예를 들어|예컨대|{_A}(?:for example|e\.g\.|examples?|samples?){_Z}", re.I)
_IO_PAIR = re.compile(rf"(?:입력|{_A}input){_Z}\s*\d*\s*[:：=]", re.I)
_XML_OPEN = re.compile(r"<([A-Za-z_][\w.-]*)(?:\s[^<>]*)?>")
_XML_CLOSE = re.compile(r"</([A-Za-z_][\w.-]*)\s*>")
_XML_ANY = re.compile(r"</?[A-Za-z_][\w.-]*(?:\s[^<>]*)?>")
_CONSTRAINT = re.compile(
    r"반드시|절대|금지|하지\s?(?:마|말)|쓰지\s?(?:마|말)|사용하지|없이|만\s?(?:사용|써)|제한|"
    r"[\d)]\s*(?:이하|이상|이내|미만|초과)|최대|최소|<=|>=|≤|≥|"
    rf"{_A}(?:must(?: not)?|should(?: not)?|do not|don't|never|only|without|at most|at least|within|"
    rf"no more than|limit(?:ed)?|constraints?){_Z}",
    re.I,
)
_CONTEXT_REF = re.compile(
    r"이전|앞서|앞에서|위의|위\s?코드|위에서|아까|방금|말씀하신|말한|주신\s?코드|그\s?코드|그\s?답변|"
    rf"{_A}(?:previous(?:ly)?|earlier|above|as before|last (?:answer|reply|response|turn|time)|"
    rf"you (?:said|wrote|suggested|gave)|your (?:code|answer|solution|reply)){_Z}",
    re.I,
)
_LIST_LINE = re.compile(r"^\s*(?:[-*•]|\d+[.)]|#{1,6})\s+\S", re.M)
_OUTPUT_FORMAT = re.compile(
    r"출력\s?형식|형식으로|포맷|양식|표로|코드만|한국어로|영어로|마크다운|"
    rf"{_A}(?:json|markdown|format(?:ted)?|respond (?:in|with)|answer (?:in|with)|only the code|"
    rf"in (?:korean|english)|as a (?:table|list)){_Z}",
    re.I,
)
# Canonical technical term -> its spellings. A term counts once however often and in whichever language it appears.
TECHNICAL_TERMS: dict[str, str] = {
    "dynamic programming": rf"동적\s?계획법|다이나믹\s?프로그래밍|{_A}(?:DP|dynamic programming){_Z}",
    "greedy": rf"그리디|탐욕|{_A}greedy{_Z}",
    "bfs": rf"너비\s?우선|{_A}(?:BFS|breadth[- ]first){_Z}",
    "dfs": rf"깊이\s?우선|{_A}(?:DFS|depth[- ]first){_Z}",
    "binary search": rf"이분\s?탐색|이진\s?탐색|{_A}binary search{_Z}",
    "sorting": rf"정렬|{_A}sort(?:ed|ing)?{_Z}",
    "hashing": rf"해시|{_A}hash(?:ing|map|set)?{_Z}|{_A}(?:dict|dictionary){_Z}",
    "stack": rf"스택|{_A}stack{_Z}",
    "queue": rf"(?<!우선순위 )(?<!우선순위)큐|{_A}(?<!priority )(?:queue|deque){_Z}",
    "priority queue": rf"우선순위\s?큐|힙|{_A}(?:priority queue|heap|heapq){_Z}",
    "graph": rf"그래프|{_A}graph{_Z}",
    "tree": rf"트리|{_A}tree{_Z}",
    "recursion": rf"재귀|{_A}recursi(?:on|ve){_Z}",
    "memoization": rf"메모이제이션|{_A}memoi[sz](?:ation|e){_Z}",
    "time complexity": rf"시간\s?복잡도|{_A}time complexity{_Z}",
    "space complexity": rf"공간\s?복잡도|{_A}space complexity{_Z}",
    "big-o": r"(?<![A-Za-z])O\([^()]*\)",
    "array": rf"배열|{_A}array{_Z}",
    "string": rf"문자열|{_A}string{_Z}",
    "two pointers": rf"투\s?포인터|{_A}two[- ]pointers?{_Z}",
    "sliding window": rf"슬라이딩\s?윈도우|{_A}sliding window{_Z}",
    "prefix sum": rf"누적\s?합|구간\s?합|{_A}prefix sums?{_Z}",
    "shortest path": rf"최단\s?경로|다익스트라|{_A}(?:shortest path|dijkstra){_Z}",
    "union-find": rf"유니온\s?파인드|{_A}(?:union[- ]find|disjoint set){_Z}",
    "backtracking": rf"백트래킹|{_A}backtracking{_Z}",
    "bitmask": rf"비트\s?마스크|{_A}bitmask{_Z}",
    "divide and conquer": rf"분할\s?정복|{_A}divide and conquer{_Z}",
    "segment tree": rf"세그먼트\s?트리|{_A}segment tree{_Z}",
    "topological sort": rf"위상\s?정렬|{_A}topological sort{_Z}",
    "brute force": rf"완전\s?탐색|브루트\s?포스|{_A}brute[- ]force{_Z}",
    "modulo": rf"나머지\s?연산|모듈러|{_A}(?:modulo|mod){_Z}",
    "overflow": rf"오버플로|{_A}overflow{_Z}",
    "edge case": rf"엣지\s?케이스|경계\s?값|{_A}(?:edge cases?|corner cases?){_Z}",
}
_TERMS = {name: re.compile(pattern, re.I) for name, pattern in TECHNICAL_TERMS.items()}


@dataclass(frozen=True)
class TextFeatures:
    """The seed's quantitative metrics of one prompt (names as in the evaluation prompt)."""

    text_length: int
    word_count: int
    sentence_count: int
    has_specific_values: bool
    specific_value_count: int
    has_examples: bool
    example_count: int
    xml_tag_count: int
    constraint_count: int
    has_structured_format: bool
    has_output_format: bool
    has_context_reference: bool
    context_reference_count: int
    technical_term_count: int
    has_code_blocks: bool
    code_block_count: int

    def as_dict(self) -> dict[str, int | bool]:
        return asdict(self)


def text_features(text: str) -> TextFeatures:
    """Measure a prompt.

    Args:
        text: The user's prompt, Korean, English or both.

    Returns:
        The prompt's ``TextFeatures``.

    Example:
        >>> f = text_features("N <= 10^5 일 때 정렬 후 이분 탐색으로 풀어줘. 예시: 입력: 3 1 2")
        >>> f.word_count, f.sentence_count, f.specific_value_count, f.technical_term_count, f.constraint_count
        (14, 2, 4, 2, 1)
    """
    text = text.strip()
    code_blocks = _FENCE.findall(text)
    prose = _FENCE.sub("\n", text)
    values = _VALUE.findall(prose)
    examples = max(len(_EXAMPLE.findall(prose)), len(_IO_PAIR.findall(prose)))
    references = len(_CONTEXT_REF.findall(prose))
    xml_tags = _xml_tag_pairs(prose)
    words = _XML_ANY.sub(" ", prose)  # tags are markup, not words or sentences
    return TextFeatures(
        text_length=len(text),
        word_count=sum(1 for word in words.split() if _HAS_LETTER.search(word)),
        sentence_count=sum(1 for s in _SENTENCE_END.split(words) if _HAS_LETTER.search(s)),
        has_specific_values=bool(values),
        specific_value_count=len(values),
        has_examples=examples > 0,
        example_count=examples,
        xml_tag_count=xml_tags,
        constraint_count=len(_CONSTRAINT.findall(prose)),
        has_structured_format=xml_tags > 0 or bool(_LIST_LINE.search(prose)),
        has_output_format=bool(_OUTPUT_FORMAT.search(prose)),
        has_context_reference=references > 0,
        context_reference_count=references,
        technical_term_count=sum(1 for pattern in _TERMS.values() if pattern.search(prose)),
        has_code_blocks=bool(code_blocks),
        code_block_count=len(code_blocks),
    )


def mentions_any(text: str, names: list[str] | tuple[str, ...]) -> bool:
    """Whether the text names any of ``names`` (case-insensitive), e.g. a problem's required algorithms.

    Example:
        >>> mentions_any("BFS로 풀면 될까요?", ["bfs", "dijkstra"])
        True
    """
    lowered = text.lower()
    return any(name.strip() and name.strip().lower() in lowered for name in names)


def _xml_tag_pairs(prose: str) -> int:
    """Count XML-style tags that open and close (``<rules>...</rules>`` is one); a lone ``<int>`` is not a tag."""
    opened: dict[str, int] = {}
    for name in _XML_OPEN.findall(prose):
        opened[name] = opened.get(name, 0) + 1
    closed: dict[str, int] = {}
    for name in _XML_CLOSE.findall(prose):
        closed[name] = closed.get(name, 0) + 1
    return sum(min(count, closed.get(name, 0)) for name, count in opened.items())
