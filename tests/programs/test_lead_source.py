"""The product an answer says it quotes (its opening line) is the one the question names when the quoted sentence is
in several siblings' leaflets: 써스펜 좌약's "실온에서 보관하십시오" is the suppository's, though retrieval put the
tablet's identical storage line first (real leaflet names and text)."""

from programs.extractive import extractive_answer
from retrievers.documents import Document


def _storage(seq: str, name: str) -> Document:
    meta = {"item_seq": seq, "item_name": name, "section": "depositMethod"}
    return Document(f"easydrug:{seq}:depositMethod", f"{name}\n[보관법] 실온에서 보관하십시오.", meta)


def test_the_opening_names_the_sibling_of_the_form_the_question_names():
    tablet = _storage("200301818", "써스펜8시간이알서방정650밀리그램(아세트아미노펜)")
    docs = [tablet, _storage("199102142", "복합써스펜좌약")]
    answer = extractive_answer("써스펜 좌약 냉장고에 넣어둬야 돼요?", docs, names=["써스펜"])
    assert answer.splitlines()[0].startswith("복합써스펜좌약에서 찾은 내용입니다")
    assert "[문서 1, 2]" in answer  # the sentence is still cited from both
