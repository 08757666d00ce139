"""Every aspect a question asks gets its sentence, when the found leaflets have one.

A question asks two things at once (로피딘 먹고 한 시간 뒤 운전해도 돼요? 하루 몇 알까지?): the sentences chosen by
score can all answer one of them (three dose lines), and the self-check then says the leaflets are silent on the other
though a found sentence speaks to it ("운전 또는 기계조작 시 주의하십시오"). `cover_asked` puts, for each asked aspect
no chosen sentence speaks to (`programs/aspect_check.py`), the best-ranked sentence that does among the chosen,
in the place of the last one no other asked aspect needs.

Example:
    >>> from retrievers.question_frame import QuestionFrame
    >>> frame = QuestionFrame("먹고 운전해도 돼요? 하루 몇 알?", aspects=("driving", "dosage"))
    >>> ranked = [("1회 1캡슐 복용합니다.", "useMethod"), ("1일 최대 8캡슐입니다.", "useMethod"),
    ...           ("졸음이 올 수 있으므로 운전 시 주의하십시오.", "atpn")]
    >>> cover_asked(frame, ranked[:2], ranked, most=2)
    [('1회 1캡슐 복용합니다.', 'useMethod'), ('졸음이 올 수 있으므로 운전 시 주의하십시오.', 'atpn')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from programs.aspect_check import Quoted, aspect_check
from retrievers.aspects import load_vocabulary
from retrievers.question_frame import FRAME_VOCAB, POPULATION_ASPECTS, SECTION_ASPECT, VOCAB_ASPECT

# asked of a section, or of whom; how long is asked of a DUR row type (투여기간주의) but answered by a leaflet's own
# line as well ("장기간 사용하지 마십시오")
SECTIONS_ASPECTS = (frozenset(SECTION_ASPECT.values()) | POPULATION_ASPECTS) - {"duration"}

T = TypeVar("T")


def said_situations(frame, morphemes=()) -> set[str]:
    """The frame's aspects the question asks in a situation's own words (운전, 술, 우유랑: the vocabulary's question
    words) that no section is about: those a leaflet line answers by saying the same thing. Not a dose, whom it is
    for or another section's aspect (a dose a child's question had left out is never put back).

    >>> from retrievers.question_frame import QuestionFrame
    >>> sorted(said_situations(QuestionFrame("먹고 운전해도 돼요? 하루 몇 알?", aspects=("driving", "dosage"))))
    ['driving']
    >>> sorted(said_situations(QuestionFrame("이가 누래졌어요 계속 써도 되나", aspects=("duration", "side_effects"))))
    ['duration']
    """
    said = {VOCAB_ASPECT.get(v) for v in load_vocabulary().asked(frame.question, morphemes)}
    return {a for a in frame.aspects if a in said and a in FRAME_VOCAB and a not in SECTIONS_ASPECTS}


def cover_asked(
    frame, chosen: list[T], ranked: Sequence[T], most: int, section_of=None, text_of=None, only=None, fits=None
) -> list[T]:
    """`chosen` with, for each asked aspect it misses (of `only`, when given), the first of `ranked` that speaks to
    it (and `fits(aspect, item)`, when given): added while fewer than `most` are chosen, else in the place of the
    last chosen one (never the first, which leads) whose leaving keeps every aspect the chosen ones speak to.
    `section_of` / `text_of` read an item's section and text (default: an item is a (text, section) pair). An aspect
    the chosen speak to only by items that do not fit it is missed too."""
    section_of = section_of or (lambda item: item[1])
    text_of = text_of or (lambda item: item[0])

    def quoted(items) -> list[Quoted]:
        return [Quoted(text_of(i), section_of(i)) for i in items]

    out = list(chosen)
    if only is not None and not only:
        return out  # nothing it may cover: no check to run on the answer's hot path
    check = aspect_check(frame, quoted(out))
    unfit = [  # spoken to only by items that do not fit it (복용 중에는 음주하지 마십시오 for a pair's interactions)
        a
        for a in check.spoken
        if fits is not None and not any(fits(a, i) and a in aspect_check(frame, quoted([i])).spoken for i in out)
    ]
    for aspect in (*check.missed, *unfit):
        if only is not None and aspect not in only:
            continue
        best = next(
            (
                i
                for i in ranked
                if i not in out
                and aspect in aspect_check(frame, quoted([i])).spoken
                and (fits is None or fits(aspect, i))
            ),
            None,
        )
        if best is None:
            continue
        if len(out) < most:
            out.append(best)
            continue
        spoken = set(aspect_check(frame, quoted(out)).spoken)
        for at in range(len(out) - 1, 0, -1):
            rest = out[:at] + out[at + 1 :]
            if spoken <= set(aspect_check(frame, quoted([*rest, best])).spoken) | {aspect}:
                out = [*rest[:at], best, *rest[at:]]
                break
    return out
