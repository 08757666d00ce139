"""Text features on hand-made prompts, each value counted by hand."""

from programs.turn.text_features import TECHNICAL_TERMS, mentions_any, text_features

STRUCTURED = """<role>You are a C++ tutor.</role>
<rules>
- Use only the STL.
- Time complexity must be O(n log n) or better.
</rules>
Example 1: Input: 5 3 Output: 8
Example 2: Input: 0 0 Output: 0
Answer in Korean.
```cpp
#include <vector>
int main() { vector<int> v; }
```"""


def test_korean_generation_prompt():
    f = text_features("N <= 10^5 일 때 정렬 후 이분 탐색으로 풀어줘. 예시: 입력: 3 1 2")
    assert f.as_dict() == {
        "text_length": 45,
        "word_count": 14,  # "<=" has no letter or digit
        "sentence_count": 2,
        "has_specific_values": True,
        "specific_value_count": 4,  # 10^5, 3, 1, 2
        "has_examples": True,
        "example_count": 1,  # 예시 (and one 입력: marker)
        "xml_tag_count": 0,
        "constraint_count": 1,  # <=
        "has_structured_format": False,
        "has_output_format": False,
        "has_context_reference": False,
        "context_reference_count": 0,
        "technical_term_count": 2,  # sorting, binary search
        "has_code_blocks": False,
        "code_block_count": 0,
    }


def test_structured_english_prompt_sets_code_aside():
    f = text_features(STRUCTURED)
    assert f.text_length == len(STRUCTURED)
    assert f.word_count == 35  # 5 + 4 + 9 + 7 + 7 + 3, without tags, bullets or code
    assert f.sentence_count == 6  # tag-only lines are not sentences
    assert f.specific_value_count == 8  # 1, 5, 3, 8, 2, 0, 0, 0; nothing from the code
    assert (f.has_examples, f.example_count) == (True, 2)
    assert f.xml_tag_count == 2  # <role>, <rules>; not <vector> or <int> inside the code
    assert f.constraint_count == 2  # only, must
    assert f.has_structured_format
    assert f.has_output_format
    assert f.technical_term_count == 2  # time complexity, big-O
    assert (f.has_code_blocks, f.code_block_count) == (True, 1)
    assert (f.has_context_reference, f.context_reference_count) == (False, 0)


def test_follow_up_references_and_distinct_terms():
    f = text_features("아까 주신 코드에서 우선순위큐 말고 큐로 하면? 이전 답변처럼 DP로.")
    assert (f.has_context_reference, f.context_reference_count) == (True, 3)  # 아까, 주신 코드, 이전
    assert f.technical_term_count == 3  # priority queue, queue, dynamic programming
    assert (f.word_count, f.sentence_count) == (10, 2)


def test_values_units_and_numeric_bounds():
    f = text_features("1.5초 안에, 메모리 256MB, 값은 -1e9 이상")
    assert (f.text_length, f.word_count, f.sentence_count) == (30, 7, 1)
    assert f.specific_value_count == 3  # 1.5, 256, 1e9
    assert f.constraint_count == 1  # "9 이상", a numeric bound


def test_terse_and_empty_prompts():
    f = text_features("고쳐줘")
    assert (f.text_length, f.word_count, f.sentence_count) == (3, 1, 1)
    assert not any([f.has_specific_values, f.has_examples, f.has_code_blocks, f.has_context_reference])
    empty = text_features("   ")
    assert (empty.text_length, empty.word_count, empty.sentence_count) == (0, 0, 0)


def test_unclosed_angle_brackets_are_not_xml_tags():
    f = text_features("vector<int> 를 써")
    assert (f.xml_tag_count, f.word_count) == (0, 3)


def test_korean_and_english_spellings_of_a_term_count_once():
    assert text_features("BFS (너비 우선 탐색) 로, breadth-first 순서").technical_term_count == 1
    assert text_features("DP로 풀어").technical_term_count == 1  # ASCII boundary works next to Hangul
    assert text_features("ADPCM 디코더").technical_term_count == 0
    assert len(TECHNICAL_TERMS) >= 30


def test_mentions_any():
    assert mentions_any("Dijkstra로 될까요", ["dijkstra"])
    assert not mentions_any("BFS", ["", "DFS"])
