"""A question comparing the products it names (타이레놀이랑 게보린 차이가 뭐예요, 판콜이랑 판피린 뭐가 나아요): each
product with its ingredients and the efficacy sentence that best matches the question, side by side, so the asker
sees what each is for and whether they share an ingredient. The no-LM answer quotes these instead of whatever
section a pair word (이랑) drew retrieval to.

Example:
    >>> from retrievers.documents import Document
    >>> a = Document("easydrug:1:efcy", "타이레놀정 (아세트아미노펜)\\n[효능·효과] 두통, 월경통에 사용합니다.",
    ...              {"section": "efcy"})
    >>> b = Document("easydrug:2:efcy", "게보린정 (아세트아미노펜,카페인무수물)\\n[효능·효과] 두통, 치통에 사용합니다.",
    ...              {"section": "efcy"})
    >>> for c in compared(["1", "2"], [a, b], lambda s: 0.0):
    ...     print(c.label, "|", c.sentence, "|", c.n)
    타이레놀정 (아세트아미노펜) | [효능·효과] 두통, 월경통에 사용합니다. | 1
    게보린정 (아세트아미노펜,카페인무수물) | [효능·효과] 두통, 치통에 사용합니다. | 2
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from programs.text import split_sentences
from retrievers.documents import Document

MAX_COMPARED = 3  # products set side by side at most
OPENING = "질문한 제품을 나란히 적었습니다(성분 · {section}): {names}."
COMPARED_ON = {"side_effects": "se", "dosage": "useMethod"}  # an aspect compared on its own section (덜 졸린 것)
CAUTIONS = ("atpnWarn", "atpn")  # read beside a section compared on that is not 효능·효과
# asked with any comparison (what for, may I: the efficacy says it); who it is for (임신 중인데) is said beside
NOT_BESIDE = frozenset({"comparison", "efficacy", "cautions"})
SECTION_LABELS = {
    "efcy": "효능·효과",
    "se": "이상반응(부작용)",
    "useMethod": "용법·용량",
    "atpnWarn": "사용 전 경고",
    "atpn": "사용상 주의사항",
}


# a comparison that ranks: a word asking which (뭐가, 어떤 게, 어느 쪽, A랑 B 중에) and one of better, less or more
# as a word of its own (나아요, 나은, 낫나요, 더 좋아요, 덜 졸린); 더부룩, 안 나아서 (gets no better) and
# 모르겠더라고요 rank nothing
WHICH = re.compile(r"뭐가|머가|어떤\s*(?:게|것|거|걸|약)|어느\s*(?:게|것|거|쪽|약)|중에?\s")
RANKING = re.compile(
    r"(?:^|\s)(?:더|덜)\s|나아요|나아\?|나은|나을까|낫나|낫다|낫겠|낫죠|좋아요|좋은\s*(?:거|게|건|약)|좋을까"
)
RANKING_NOTICE = (
    "※ 설명서는 제품끼리 비교하지 않아, 어느 쪽이 더 나은지는 나와 있지 않습니다. 아래는 찾은 설명서의 "
    "내용이니, 증상과 사정에 맞는 약은 약사와 상의하세요."
)


def asks_which_is_better(frame) -> bool:
    """Whether the question's frame compares (`QuestionFrame.comparison`) and ranks: 판콜이랑 판피린 뭐가 나아요,
    지르텍이랑 클라리틴 중에 덜 졸린 게 뭐예요; not 타이레놀이랑 게보린 차이가 뭐예요 (what differs, which the
    leaflets show).

    >>> from retrievers.question_frame import QuestionFrame
    >>> ranked = QuestionFrame("판콜이랑 판피린 뭐가 나아요", aspects=("comparison",), comparison=True)
    >>> differs = QuestionFrame("타이레놀이랑 게보린 차이가 뭐예요", aspects=("comparison",), comparison=True)
    >>> bloated = QuestionFrame("베아제랑 훼스탈 차이가 뭐예요? 속이 더부룩해요", comparison=True)
    >>> asks_which_is_better(ranked), asks_which_is_better(differs), asks_which_is_better(bloated)
    (True, False, False)
    >>> asks_which_is_better(QuestionFrame("타이레놀이 게보린보다 순해요?", comparison=True))
    True
    """
    question = frame.question
    # A보다 B …: 타이레놀이 게보린보다 순해요? ranks the two by itself
    ranks = (bool(WHICH.search(question)) and bool(RANKING.search(question))) or "보다" in question
    return bool(frame.comparison) and ranks


@dataclass(frozen=True)
class Compared:
    """One product of a comparison: its leaflet's first line (the name and its ingredients), the efficacy sentence
    quoted, and the 1-based position of the document it is from."""

    label: str
    sentence: str
    n: int


def named_products(docs: list[Document], is_named: Callable[[Document], bool], question: str = "") -> list[str]:
    """The item numbers of the leaflets the question names, in the order the question names them (by the first two
    letters of the product's name; one it does not write so goes last), else in the order they were found."""
    seqs = [d.id.split(":")[1] for d in docs if d.id.startswith("easydrug:") and is_named(d)]
    first = {}
    for d in docs:
        seq = d.id.split(":")[1] if d.id.startswith("easydrug:") else ""
        if seq and seq not in first:
            at = question.find(str(d.metadata.get("item_name", d.text))[:2])
            first[seq] = at if at >= 0 else len(question)
    return sorted(dict.fromkeys(seqs), key=lambda seq: first.get(seq, len(question)))


def compared_section(aspects) -> str:
    """The leaflet section a comparison is made on: that of the first aspect asked beside the comparison which one
    of `SECTION_LABELS` answers (덜 졸린 → se), else 효능·효과.

    >>> compared_section(["comparison", "side_effects"]), compared_section(["comparison", "child_use"])
    ('se', 'efcy')
    """
    return next((COMPARED_ON[a] for a in aspects if a in COMPARED_ON), "efcy")


def asked_beside(aspects) -> tuple[str, ...]:
    """What the question asks beside the comparison that the sections compared do not answer (번갈아 먹여도 →
    interactions): the answer quotes its sentences after the products set side by side, whether the two go
    together first (a question about two products asks that before how either is taken).

    >>> asked_beside(["comparison", "how_to_take", "interactions"]), asked_beside(["comparison", "side_effects"])
    (('interactions', 'how_to_take'), ())
    >>> asked_beside(["comparison", "pregnancy"])
    ('pregnancy',)
    """
    beside = [a for a in aspects if a not in NOT_BESIDE and a not in COMPARED_ON]
    return tuple(sorted(beside, key=lambda a: a != "interactions"))


def compared(
    seqs: list[str], docs: list[Document], score: Callable[[str], float], section: str = "efcy"
) -> list[Compared]:
    """For each product of `seqs` whose `section` (효능·효과 unless the comparison asks another: 덜 졸린 → 이상반응)
    is among `docs`, its best sentence by `score` (a tie to the first); up to `MAX_COMPARED` products. Fewer than
    two found: nothing to set side by side, so none."""
    out = []
    for seq in seqs:
        at = next((n for n, d in enumerate(docs, 1) if d.id == f"easydrug:{seq}:{section}"), None)
        if at is None:
            continue
        head = docs[at - 1].text.partition("\n")[0]
        # beside the section compared on, its cautions: 졸음 … 운전 주의 is in 주의사항 when the 이상반응 list
        # leaves it out (판콜이랑 판피린 중에 뭐가 덜 졸려요)
        also = (
            [n for n, d in enumerate(docs, 1) if d.id.startswith(f"easydrug:{seq}:") and _section(d) in CAUTIONS]
            if section != "efcy"
            else []
        )
        sentences = [
            (s, n) for n in (at, *also) for s in split_sentences(docs[n - 1].text.partition("\n")[2]) if s.strip()
        ]
        if not sentences:
            continue
        best, n = max(sentences, key=lambda sn: (score(sn[0]), sn[1] == at, -sentences.index(sn)))
        out.append(Compared(head.strip(), best, n))
        if len(out) == MAX_COMPARED:
            break
    return out if len(out) >= 2 else []


def _section(doc: Document) -> str:
    return doc.id.rsplit(":", 1)[-1]
