"""A question that asks whether something heard is true ("매달 먹으면 내성 생긴다는데 진짜에요?", "오렌지주스랑 먹으면
안된다는데 왜요?"): what was heard, its most particular word, and whether the quoted sentences speak of it.

People often ask about a claim they read or were told. The leaflets speak of some claims (자몽주스, 우유, 변비, 햇빛)
and of many not at all (내성, 치매, 살 빠지는지). When no quoted sentence carries the claim's most particular word,
the answer says plainly that the leaflets found do not say it, instead of letting a nearby sentence pass for an
answer.

The claim's words are Kiwi's nouns of the clause before the hearsay ending (…다던데, …다는데, …라는 말), less
what chose the products (names, class and symptom words: 생리통약, 감기약), who it is for (임산부, 아들), a
judgement (안전하다고), words Kiwi does not know (names: 포타겔) and the words nearly every leaflet sentence uses
(복용). The most particular is the one the leaflets use least (their sentence IDF, `retrievers/aspects.py`); a word
no leaflet uses counts as the most particular of all.

Example:
    >>> heard_claim("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?")
    '생리통약 매달 먹으면 내성 생긴'
    >>> claim_word("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?")
    '내성'
    >>> claim_word("임산부 두통약 타이레놀은 먹어도 된다던데 맞나요?", names=("타이레놀",)) is None
    True
    >>> claim_notice("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?", ["월경통에 사용합니다."])
    "※ 찾은 설명서에는 '생리통약 매달 먹으면 내성 생긴다'는 내용이 없습니다."
"""

from __future__ import annotations

import re

from retrievers.aspects import load_vocabulary
from retrievers.names import squash
from retrievers.population import read_population

# a hearsay ending: …다던데, …다는데, …라던데, …대요, …다는 말(얘기·소리·글)이, …다고 하던데, …카더라
HEARD = re.compile(
    r"(?:다|라)\s*(?:던데|는데|더라|더군요|면서요)|(?:다는|라는|다던|라던)\s*(?:말|얘기|소리|글|기사|이야기)"
    r"|(?:다|라)고\s*(?:하던데|하는데|들었|하더라|해서)|카더라"
)
# after the ending, the question asks whether it is so (진짜예요?, 사실이에요?, 맞나요?, 왜요?, 저만 그런가요) or
# stops there (안된다던데요): "담배를 끊겠다는데 … 사줘도 될까요" reports what someone said and asks something else
ASKS_IF_TRUE = re.compile(r"진짜|사실|정말|맞(?:아|나|죠|는|을|습|지)|왜|그런가|그래요|그런\s*거|그렇")
ENDS_AT_CLAIM = 4  # characters after the ending (요?, 요ㅠ) that still leave the claim as the question
CLAUSE_START = re.compile(r"[.?!,~ㅠㅜ]|\s(?:근데|그런데|그리고|혹시)\s")  # a claim starts after these
NOUN_TAGS = ("NNG", "NNP")
COMMON_IDF = 1.5  # a word this common in leaflet sentences (복용 0.6, 사용) is no claim's own
MIN_CHARS = 2  # one-syllable nouns (말, 때, 낮) are too often a word's part


def heard_claim(question: str) -> str:
    """The clause of `question` before its first hearsay ending, when the question asks whether it is so ("" when
    it has none, or asks something else after it): from the last sentence or clause break before the ending.

    >>> heard_claim("수면제 오래 먹으면 치매 온다던데 사실이에요?"), heard_claim("타이레놀 먹어도 되나요?")
    ('수면제 오래 먹으면 치매 온', '')
    >>> heard_claim("10개월 아기 빈혈 있다는데 훼럼키드 먹여도 되나요?")  # what a doctor said, then another question
    ''
    """
    found = HEARD.search(question)
    if not found:
        return ""
    after = question[found.end() :]
    if not ASKS_IF_TRUE.search(after) and len(after.strip()) > ENDS_AT_CLAIM:
        return ""
    before = question[: found.start()]
    breaks = list(CLAUSE_START.finditer(before))
    start = breaks[-1].end() if breaks else 0
    return before[start:].strip()


def claim_nouns(question: str, names=()) -> list[str]:
    """The claim's own nouns (see the module docstring), in the order written."""
    from programs.sentences import chosen_by, leaflet_tokenizer
    from retrievers.question_frame import kind_words

    claim = heard_claim(question)
    if not claim:
        return []
    # a symptom word chose the products only when no medicine is named (포타겔 먹으면 변비: 변비 is the claim)
    chose = chosen_by(question) if not names else ()
    taken = [squash(n) for n in names if n] + list(chose) + kind_words(question)
    group = read_population(claim).detail
    if group:
        taken.append(squash(group))
    vocab = load_vocabulary()
    out = []
    tokens = leaflet_tokenizer().tagged(claim + "다")  # with its ending, as Kiwi reads it (안전하다: 안전 + XSA)
    for i, t in enumerate(tokens):
        word = t.form
        if t.tag not in NOUN_TAGS or len(word) < MIN_CHARS or word in out:
            continue
        if getattr(t, "oov", False):
            continue  # a word Kiwi does not know is a name more often than a claim (포타겔, 리피토)
        if i + 1 < len(tokens) and tokens[i + 1].tag == "XSA":
            continue  # 안전하다, 위험하다: how it is judged, not what it is about
        if any(word in w or w in word for w in taken if w) or read_population(word).group:
            continue  # what chose the products, or who it is for (아들, 아기)
        if vocab.idf.get(word, vocab.idf_unseen) < COMMON_IDF:
            continue
        out.append(word)
    return out


def claim_word(question: str, names=()) -> str | None:
    """The claim's most particular noun (the one leaflet sentences use least), or None when there is no claim or it
    holds no word of its own (임산부 두통약 타이레놀은 먹어도 된다던데: only who, what and "may I")."""
    nouns = claim_nouns(question, names)
    if not nouns:
        return None
    vocab = load_vocabulary()
    return max(nouns, key=lambda w: (vocab.idf.get(w, vocab.idf_unseen), -nouns.index(w)))


def forms(word: str) -> tuple[str, ...]:
    """The word and the nouns a leaflet writes it as (졸리 → 졸음, 쓰리 → 쓰림: `programs/sentences.py`).

    >>> forms("졸리")
    ('졸리', '졸림', '졸음')
    """
    from programs.sentences import nominal, noun_without_ri

    return tuple(dict.fromkeys(f for f in (word, nominal(word), noun_without_ri(word)) if f))


def claim_notice(question: str, quoted: list[str], names=()) -> str:
    """The notice for a claim no quoted sentence speaks of ("" when there is no claim or a sentence carries its
    most particular word)."""
    word = claim_word(question, names)
    if word is None or any(f in squash(q) for q in quoted for f in forms(word)):
        return ""
    claim = heard_claim(question)
    return f"※ 찾은 설명서에는 '{claim}다'는 내용이 없습니다."
