"""What a question is once it enters the program: its whitespace folded to single spaces, and at most
`MAX_QUESTION_CHARS` characters (longer ones are cut, with a warning). `CRAG`, ``yaksa ask`` and the HTTP app all
clean questions here.

Example:
    >>> clean_question("  게보린\\n 부작용 ")
    ('게보린 부작용', [])
    >>> clean_question("가" * 600)[1]
    ['question cut to 500 characters']
    >>> clean_question("   ")
    Traceback (most recent call last):
    ...
    programs.question.EmptyQuestion: the question is empty
"""

from __future__ import annotations

from retrievers.unicode_text import normalise

MAX_QUESTION_CHARS = 500  # the longest question answered; the HTTP schema's maxLength, settings may only lower it


class EmptyQuestion(ValueError):
    """Nothing but whitespace was asked."""


def fold_whitespace(text: str) -> str:
    """Runs of whitespace (spaces, tabs, newlines) become one space; the ends are stripped; Hangul composed and
    invisible characters removed (`retrievers.unicode_text.normalise`), so a question from Python reads as one from
    the CLI."""
    return " ".join(normalise(str(text or "")).split())


def clean_question(text: str, limit: int = MAX_QUESTION_CHARS) -> tuple[str, list[str]]:
    """(the question with its whitespace folded and cut to `limit` characters, the warnings saying what was cut).

    Raises:
        EmptyQuestion: nothing is left after folding.
    """
    question = fold_whitespace(text)
    if not question:
        raise EmptyQuestion("the question is empty")
    if len(question) > limit:
        return question[:limit], [f"question cut to {limit} characters"]
    return question, []
