"""Small text helpers shared by grading, knowledge refinement and the extractive answer: sentence strips, query
terms and a character-bigram overlap that needs no tokenizer (Korean particles attach to words; bigrams do not care).

Example:
    >>> split_sentences("두통에 씁니다. 1회 1정 복용합니다.")
    ['두통에 씁니다.', '1회 1정 복용합니다.']
    >>> round(gram_share(bigrams("속이 쓰려요"), "속이 쓰리거나 메스꺼움"), 2)
    0.33
"""

from __future__ import annotations

import functools
import re

from programs.citations import CITE

_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|(?<=[다요음함오])\.\s*|\n+")  # leaflets run on: 마십시오.이 약을
_WORD = re.compile(r"[0-9A-Za-z가-힣]+")
STOPWORDS = frozenset(
    "이 그 저 것 거 뭐 무엇 어떻게 왜 언제 좀 약 먹고 먹어도 되나요 돼요 있나요 해요 하나요 주세요 알려 알려줘 어떤 "
    "그거 이거 저거 해 해도 같이 때 수 있어요 인가요 뭔가요".split()
)


def split_sentences(text: str) -> list[str]:
    """Split text into sentence strips (keeps the final period, drops empty pieces)."""
    parts = []
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip()
        if piece:
            parts.append(piece if piece[-1] in ".!?。" or not re.search(r"[다요음함오]$", piece) else piece + ".")
    return parts


def words(text: str) -> list[str]:
    """Words of two or more characters that are not question fillers."""
    return [w for w in _WORD.findall(text) if len(w) >= 2 and w not in STOPWORDS]


@functools.lru_cache(maxsize=16384)  # the same leaflet sentences are compared again and again within an answer
def bigrams(text: str) -> frozenset[str]:
    """Character bigrams inside each word of `text` (a one-character word counts as itself)."""
    grams: set[str] = set()
    for w in _WORD.findall(text.lower()):
        if w in STOPWORDS:
            continue
        grams.update(w[i : i + 2] for i in range(len(w) - 1)) if len(w) > 1 else grams.add(w)
    return frozenset(grams)


def gram_share(query_grams: set[str], text: str) -> float:
    """Share of the query's bigrams that occur in `text` (0 when the query has none)."""
    if not query_grams:
        return 0.0
    return len(query_grams & bigrams(text)) / len(query_grams)


@functools.lru_cache(maxsize=256)
def expansion_terms(query: str) -> tuple[str, ...]:
    """The retriever's rule-based expansion of `query` (symptom -> ingredient, synonyms), or () when unavailable."""
    try:
        from retrievers.lexicon import Lexicon

        return tuple(_lexicon(Lexicon).expand(query))
    except Exception:  # the lexicon is optional here; strips are still scored on the query itself
        return ()


@functools.lru_cache(maxsize=256)
def target_words(query: str) -> tuple[str, ...]:
    """The query's symptom and class words (감기약, 두통) that chose the products (`Lexicon.target_words`), or ()."""
    try:
        from retrievers.lexicon import Lexicon

        return tuple(_lexicon(Lexicon).target_words(query))
    except Exception:  # the lexicon is optional here
        return ()


@functools.lru_cache(maxsize=1)
def _lexicon(cls):
    return cls.load()


MIN_GRAMS = 12  # shorter sentences count as the same only when equal
SAME = 0.85  # bigram Jaccard at which two sentences count as the same


def same(a: str, b: str) -> bool:
    """Two sentences the same up to a few characters (sibling products' leaflets), never two that state different
    numbers (만 12세 미만 / 만 2세 미만, 1회 1정 / 1회 2정: an age or a dose is no few characters).

    >>> same("만 12세 미만의 어린이는 이 약을 사용하지 마십시오.", "만 2세 미만의 어린이는 이 약을 사용하지 마십시오.")
    False
    """
    if letters(a) == letters(b):
        return True
    if _NUMBER.findall(a) != _NUMBER.findall(b):
        return False
    ga, gb = bigrams(a), bigrams(b)
    return min(len(ga), len(gb)) >= MIN_GRAMS and len(ga & gb) / len(ga | gb) >= SAME


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


@functools.lru_cache(maxsize=16384)
def letters(text: str) -> str:
    """`text` with every non-word character removed."""
    return re.sub(r"\W", "", text)


_LEADS = re.compile(r"^(?:[^:\s]{2,40}:\s*)?(?:\[[^\]]{1,30}\]\s*)?")
MIN_CUT = 10  # letters the pieces of a cut quote need in all to tell its sentence


def quoted_in(sentence: str, answer: str) -> bool:
    """`sentence` is quoted in `answer` already: whole, or as a line cut to the items around a word (a line with
    "…", its pieces all in the sentence), whatever product name or section label leads the line. A shorter sentence
    quoted whole is not the longer one holding it (… 아세트아미노펜을 포함하는 다른 제품과 함께 복용하지 마십시오
    inside a longer list that also forbids MAO 억제제).

    >>> s = "이 약을 복용하기 전에 수두, 간장질환, 당뇨병, 고혈압, 부종 환자는 의사 또는 약사와 상의하십시오."
    >>> quoted_in(s, "가상액: 이 약을 복용하기 전에 수두, … 고혈압, 부종 환자는 의사 또는 약사와 상의하십시오.")
    True
    >>> quoted_in(s, "가상액: 고혈압, 부종 환자는 의사 또는 약사와 상의하십시오. [문서 1]")
    False
    """
    if sentence in answer:
        return True
    flat = letters(sentence)
    for line in answer.splitlines():
        if "…" not in line:
            continue
        body = _LEADS.sub("", CITE.sub("", line)).strip()
        pieces = [letters(p) for p in body.split("…")]
        pieces = [p for p in pieces if p]
        if pieces and sum(map(len, pieces)) >= MIN_CUT and all(p in flat for p in pieces):
            return True
    return False
