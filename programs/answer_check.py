"""A deterministic check of an LM answer, before the LM verifier: an answer must answer.

An LM answer fails, with its cause, when

* it cites none of the documents it was given (``no_citation``; not checked when it was given none);
* it only repeats the question: beside the question's own words, the safety line and citations it says fewer than
  `MIN_NEW` new character bigrams (``repeats_question``: "코막힘 약 뭐 먹어요? [문서 1]");
* the question names a product or an ingredient and no cited line is about one (``off_target``): neither the line
  names it nor a document it cites is that product's leaflet or that ingredient's rule;
* the question asks something particular in its own words (its `QuestionFrame`'s aspects, generic ones and those
  only inferred left out: `worded_aspects`) that the documents speak to, and no cited line speaks to any of it
  (``misses_aspect``, by `programs.aspect_check.speaks_to`: the section of a cited document, the situation's leaflet
  words; for a section aspect also the section's question words in the line, since an LM writes "부작용으로 …"
  where a quote would come from the 이상반응 section).

The check is pure: it reads the answer, the numbered documents and the frame. The graph (programs/graph.py) sends a
failed answer to correction and, when corrections run out, to the extractive answer.

Example:
    >>> from retrievers.documents import Document
    >>> rule = Document("dur:cc:1", "[임부금기] 페닐레프린은(는) 임부에게 사용하면 안 되는 성분입니다.", {})
    >>> check_answer("전문가와 꼭 상담하세요. 코막힘 약 뭐 먹어요? [문서 1]", "코막힘 약 뭐 먹어요", [rule]).cause
    'repeats_question'
    >>> check_answer("코막힘에는 페닐레프린이 듭니다.", "코막힘 약 뭐 먹어요", [rule]).cause
    'no_citation'
    >>> check_answer("임신 중에는 페닐레프린을 쓰면 안 됩니다. [문서 1]", "코막힘 약 뭐 먹어요", [rule]).ok
    True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from programs.aspect_check import WORDS, Quoted, aspect_check, document_quotes, section_of
from programs.citations import CITE, cite_numbers, product
from programs.name_mentions import mentions
from programs.notices import SAFETY_LINE
from programs.text import bigrams
from retrievers.aspects import load_vocabulary
from retrievers.documents import Document
from retrievers.question_frame import SECTION_ASPECT, VOCAB_ASPECT, QuestionFrame

MIN_NEW = 4  # new character bigrams an answer must add to the question's own words
CAUSES = ("no_citation", "repeats_question", "off_target", "misses_aspect")


# what a correction is told, per cause ({detail}: the names or the aspects)
FEEDBACK = {
    "no_citation": "답변이 주어진 문서를 인용하지 않았습니다. 문서의 문장을 근거로 답하고 [문서 N]으로 인용하세요.",
    "repeats_question": "답변이 질문을 되풀이할 뿐 답하지 않습니다. 문서에서 질문에 답하는 문장을 찾아 인용하세요.",
    "off_target": "답변이 질문한 약({detail})에 대한 내용이 아닙니다. 그 약의 문서로 답하세요.",
    "misses_aspect": "답변이 질문한 내용({detail})에 답하지 않습니다. 그 내용을 말하는 문서의 문장으로 답하세요.",
}


@dataclass(frozen=True)
class AnswerCheck:
    """The check's outcome: `cause` is "" when the answer passes, else one of `CAUSES`; `detail` says what is
    missing (the documents' count, the names, the aspects)."""

    cause: str = ""
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.cause

    @property
    def feedback(self) -> str:
        """The correction's instruction ("" when the answer passed)."""
        return FEEDBACK.get(self.cause, "").format(detail=self.detail)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "cause": self.cause or "none", "detail": self.detail}


def claims(answer: str) -> str:
    """What the answer says: its lines without notices (※ …), citations and the safety line."""
    lines = [ln for ln in answer.splitlines() if ln.strip() and not ln.strip().startswith("※")]
    text = CITE.sub(" ", "\n".join(lines))
    return text.replace(SAFETY_LINE.rstrip("."), " ")


def repeats_question(answer: str, question: str) -> bool:
    """True when the answer adds fewer than `MIN_NEW` bigrams to the question's.

    >>> repeats_question("코막힘 약 뭐 먹어요? [문서 1] 전문가와 꼭 상담하세요.", "코막힘 약 뭐 먹어요")
    True
    >>> repeats_question("코막힘에는 슈도에페드린이 든 약을 씁니다. [문서 1]", "코막힘 약 뭐 먹어요")
    False
    """
    return len(bigrams(claims(answer)) - bigrams(question)) < MIN_NEW


def cited_lines(answer: str, docs: list[Document]) -> list[tuple[str, list[Document]]]:
    """Each answer line citing given documents, without its citations, with the documents it cites."""
    out = []
    for line in answer.splitlines():
        numbers = cite_numbers(line)
        cited = [docs[n - 1] for n in dict.fromkeys(numbers) if 0 < n <= len(docs)]
        if cited:
            out.append((CITE.sub(" ", line).strip(), cited))
    return out


def about_target(line: str, cited: list[Document], frame: QuestionFrame) -> bool:
    """Whether a cited line is about a product or ingredient the question names: the line names it, or a cited
    document is its leaflet (item name, main ingredients) or its DUR rule (ingredient, partner)."""
    names = [*frame.targets.products, *frame.targets.ingredients]
    if any(mentions(line, n) for n in names):
        return True
    for doc in cited:
        meta = doc.metadata
        about = [product(doc), str(meta.get("main_ingr", "")), str(meta.get("partner", ""))]
        if any(mentions(a, n) for a in about if a for n in names):
            return True
    return False


def line_quotes(lines: list[tuple[str, list[Document]]], lexicon=None) -> list[Quoted]:
    """One quote per (line, cited document); with `lexicon`, also the line as a quote of each section its own words
    ask about (부작용 → ``se``)."""
    quotes = [Quoted(text, section_of(d)) for text, cited in lines for d in cited]
    if lexicon is not None:
        quotes += [Quoted(text, s) for text, _ in lines for s in lexicon.sections(text) if s in SECTION_ASPECT]
    return quotes


def worded_aspects(frame: QuestionFrame, morphemes=(), lexicon=None) -> tuple[str, ...]:
    """The frame's aspects the question asks in its own words: a situation's question words (운전, 술), a section's
    words (부작용, 보관; with `lexicon`), a group it names (임신 12주) — not an aspect the frame only inferred (게보린
    먹고 속이 쓰려요 asks no side effects by name), which an LM answer may rightly answer from another section.

    >>> from retrievers.population import Population
    >>> frame = QuestionFrame("게보린 먹고 운전해도 돼요", aspects=("driving", "side_effects"))
    >>> worded_aspects(frame)
    ('driving',)
    """
    vocab = load_vocabulary()
    words = [VOCAB_ASPECT[a] for a in vocab.asked(frame.question, morphemes) if a in VOCAB_ASPECT]
    if lexicon is not None:
        words += [SECTION_ASPECT[s] for s in lexicon.sections(frame.question) if s in SECTION_ASPECT]
    if frame.population.stated:
        words.append(frame.population.aspect)
    return tuple(a for a in frame.aspects if a in words)


def check_answer(
    answer: str, question: str, docs: list[Document], frame: QuestionFrame | None = None, morphemes=(), lexicon=None
) -> AnswerCheck:
    """Check an LM answer written from `docs` (numbered from 1 as ``[문서 N]``) for `question` (see the module
    docstring); `frame` is the question's `QuestionFrame` (target and aspect checks are skipped without one),
    `morphemes` its Kiwi morphemes, `lexicon` the section words (`retrievers.lexicon.Lexicon`)."""
    lines = cited_lines(answer, docs)
    if docs and not lines:
        return AnswerCheck("no_citation", f"0/{len(docs)}")
    if repeats_question(answer, question):
        return AnswerCheck("repeats_question", question[:80])
    if frame is None or not docs:
        return AnswerCheck()
    if (frame.targets.products or frame.targets.ingredients) and not any(
        about_target(text, cited, frame) for text, cited in lines
    ):
        return AnswerCheck("off_target", ", ".join([*frame.targets.products, *frame.targets.ingredients][:3]))
    asked = replace(frame, aspects=worded_aspects(frame, morphemes, lexicon))
    check = aspect_check(asked, line_quotes(lines, lexicon), morphemes)
    if check.missed_all:
        in_docs = aspect_check(asked, document_quotes(docs), morphemes).spoken
        if in_docs:
            return AnswerCheck("misses_aspect", ", ".join(WORDS.get(a, a) for a in in_docs))
    return AnswerCheck()
