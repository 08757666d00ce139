"""A question that asks whether something heard is true ("매달 먹으면 내성 생긴다는데 진짜에요?", "오렌지주스랑 먹으면
안된다는데 왜요?"): what was heard, its most particular word, and whether the quoted sentences speak of it.

People often ask about a claim they read or were told. The leaflets speak of some claims (자몽주스, 우유, 변비, 햇빛)
and of many not at all (내성, 치매, 살 빠지는지). When no quoted sentence carries the claim's most particular word,
the answer says plainly that the leaflets found do not say it, instead of letting a nearby sentence pass for an
answer.

The claim is the clause before the hearsay ending (…다던데, …다는데, …라는 말, …다고 들었어요, …대요) when the
question, right after it, asks whether it is so (진짜, 사실, 맞나요, 왜, 저만 그런가요) or stops there; who said it
(친구가 그러는데, 인터넷에서 봤는데) is a clause of its own. The claim's words are Kiwi's nouns, less what chose the
products (names, class and symptom words: 생리통약, 감기약), who it is for (임산부, 아들), a judgement (안전하다고),
words Kiwi does not know (names: 포타겔) and the words nearly every leaflet sentence uses (복용). The most particular
is the one the leaflets use least (their sentence IDF, `retrievers/aspects.py`) among those they use at all; a word no
leaflet uses (a speaker: 엄마, 유튜브) counts only when the claim has no other.

Example:
    >>> heard_claim("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?")
    '생리통약 매달 먹으면 내성 생긴다'
    >>> claim_word("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?")
    '내성'
    >>> claim_word("임산부 두통약 타이레놀은 먹어도 된다던데 맞나요?", names=("타이레놀",)) is None
    True
    >>> claim_notice("생리통약 매달 먹으면 내성 생긴다는데 진짜에요?", ["월경통에 사용합니다."])
    "※ 찾은 설명서에는 '생리통약 매달 먹으면 내성 생긴다'는 내용이 없습니다."
"""

from __future__ import annotations

import re

from programs.sentences import BODY_NOUNS, PERIODS, chosen_by, lay_words, leaflet_tokenizer, sentence_tokens
from retrievers.aspects import load_vocabulary
from retrievers.lexicon import Lexicon
from retrievers.names import squash
from retrievers.population import read_population
from retrievers.question_frame import kind_words

# a hearsay ending: …다던데, …다는데, …라던데, …다는 말(얘기·소리·글)이, …다는 게 (진짜예요), …다고 하던데, …대요,
# …카더라; the 다 or 라 it starts with is kept with the claim (…생긴다, …위염이라)
HEARD = re.compile(
    r"(?<=[다라])\s*(?:던데|는데|더라|더군요|면서요|는\s*(?:말|얘기|소리|글|기사|이야기|게|거|것)|던\s*(?:말|얘기|소리|글))"
    r"|(?<=[다라])고\s*(?:하던데|하는데|들었|하더라)|(?<=[가-힣])(?:대요|래요)|\s*카더라"
)
# right after the ending, the question asks whether it is so (진짜예요?, ㄹㅇ?, 사실이에요?, 맞나요?, 왜요?, 그런가요)
# or stops there (안된다던데요): "담배를 끊겠다는데 … 사줘도 될까요" reports what someone said and asks something else
ASKS_IF_TRUE = re.compile(
    r"^.{0,8}?(?:진짜|ㄹㅇ|레알|사실|정말|맞(?:아|나|죠|지|습|을까|는\s*거|는\s*건가)|왜|그런가|그래요|그렇죠|그런\s*거)"
)  # within a few characters: "…다는 말이 있던데 진짜예요?", "…던데 저만 그런가요"
ENDS_AT_CLAIM = 4  # characters after the ending (요?, 요ㅠ) that still leave the claim as the question
# a claim starts after a sentence or clause break, and after who said it (친구가 그러는데, 인터넷에서 봤는데)
CLAUSE_START = re.compile(
    r"[.?!,~ㅠㅜ]|\s(?:근데|그런데|그리고|혹시)\s|(?:그러|그랬|봤|들었|보니|읽었)(?:는데|던데|니까|어요)?\s"
)
# an effect asked about: a clause after …(으)면 that ends the sentence as a question (생겨요?, 나아요?, 늦어지나요)
EFFECT = re.compile(
    r"(?:(?<=[가-힣])면|(?<=약|제|고|림|럽)으?로)\s+(?P<effect>[^?.!,]{2,30}?)(?:나요|까요|어요|아요|여요|해요|요|죠|니)"
    r"\s*[?？]?\s*$"
)  # …or after the medicine it would come from (변비약으로 살 빠지나요?, 이 연고로 흉터 없어져요?)
# …whether one may, or how, when, how much: what to do, which the leaflets say; or whether what happened is normal
# (따가운데 정상인가요: an effect noticed, which the 이상반응 section answers)
MAY_OR_HOW = re.compile(r"돼|되|괜찮|안\s*좋|어떻|어떡|뭐|몇|얼마|언제|정상")
SENTENCES = re.compile(r"(?<=[?？.!])\s+")
NOUN_TAGS = ("NNG", "NNP")
COMMON_IDF = 1.5  # a word this common in leaflet sentences (복용 0.6, 사용) is no claim's own
MIN_CHARS = 2  # one-syllable nouns (말, 때, 낮) are too often a word's part


def heard_claim(question: str) -> str:
    """The clause of `question` before its first hearsay ending, with the 다 or 라 the ending starts with, when the
    question asks whether it is so ("" when it has none, or asks something else after it).

    >>> heard_claim("수면제 오래 먹으면 치매 온다던데 사실이에요?"), heard_claim("타이레놀 먹어도 되나요?")
    ('수면제 오래 먹으면 치매 온다', '')
    >>> heard_claim("10개월 아기 빈혈 있다는데 훼럼키드 먹여도 되나요?")  # what a doctor said, then another question
    ''
    >>> heard_claim("친구가 그러는데 부루펜 먹으면 속 쓰리대요 진짜?")  # who said it is no part of the claim
    '부루펜 먹으면 속 쓰리'
    >>> heard_claim("모유수유 중에 철분제 먹어도 되나요? 출산하고 빈혈이래요")  # a report after the question
    ''
    >>> heard_claim("알레그라 먹는데 오렌지주스랑 먹으면 안된다는게 진짜에요?")  # …다는 게 진짜: not the effect 진짜
    '알레그라 먹는데 오렌지주스랑 먹으면 안된다'
    """
    found = HEARD.search(question)
    if not found:
        return ""
    after, before = question[found.end() :], question[: found.start()]
    # stopping at the claim asks about it only when nothing was asked before it and it is not a plain report
    # (…먹어도 되나요? 출산하고 빈혈이래요: what the doctor said, after the question)
    ends_there = len(after.strip()) <= ENDS_AT_CLAIM and "?" not in before and not found.group().endswith("요")
    if not ASKS_IF_TRUE.search(after) and not ends_there:
        return ""
    breaks = list(CLAUSE_START.finditer(before))
    start = breaks[-1].end() if breaks else 0
    return before[start:].strip()


def asked_effect(question: str) -> str:
    """What a question asks happens after doing something, when it asks no more than whether it does: the clause
    after …(으)면 in a sentence ending there (자주 먹으면 내성 생겨요? → '내성 생겨'; 해열주사 맞히는 게 나아요?). Not
    a question whether one may (먹으면 안 돼요?, 괜찮아요?, 안 좋아요?) or how, when or how much (어떡해요, 몇 알): the
    leaflets answer those with what to do. "" when there is none, and for a claim the asker heard (`heard_claim`).

    >>> asked_effect("진통제 자주 먹으면 내성 생겨요?"), asked_effect("게보린 먹으면 안 돼요?")
    ('내성 생겨', '')
    >>> asked_effect("해열제 먹여도 열이 안 떨어지면 해열주사 맞히는 게 나아요?")
    '해열주사 맞히는 게 나'
    >>> asked_effect("알보칠 바르면 엄청 따가운데 정상인가요?")  # what was noticed, asked whether it is normal
    ''
    """
    if heard_claim(question):
        return ""
    for part in SENTENCES.split(question.strip()):
        m = EFFECT.search(part)
        if m and not MAY_OR_HOW.search(part[m.start("effect") :]):
            return m.group("effect").strip()
    return ""


def claim_nouns(question: str, names=(), claim: str | None = None) -> list[str]:
    """The claim's own nouns (see the module docstring), in the order written; `claim`: another clause to read
    instead of the heard claim (an effect asked about, `asked_effect`)."""
    claim = heard_claim(question) if claim is None else claim
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
    tokens = leaflet_tokenizer().tagged(claim if claim.endswith(("다", "라")) else claim + "다")  # 안전하다: + XSA
    for i, t in enumerate(tokens):
        word = t.form
        if t.tag not in NOUN_TAGS or (len(word) < MIN_CHARS and word not in BODY_NOUNS) or word in out:
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
    if not out:  # no noun of its own (먹으면 살쪄요?): an everyday word in it, as the leaflets write it (체중 증가)
        compact = squash(claim)
        out = [words[0] for said, words in lay_words().items() if said in compact][:1]
    return out


def claim_word(question: str, names=(), claim: str | None = None) -> str | None:
    """The claim's most particular noun, or None when there is no claim or it holds no word of its own (임산부
    두통약 타이레놀은 먹어도 된다던데: only who, what and "may I"). A noun the leaflets use beats one they never do
    (엄마가 … 생긴다던데: 엄마 is who said it). `claim`: as for `claim_nouns`."""
    nouns = claim_nouns(question, names, claim)
    if not nouns:
        return None
    vocab = load_vocabulary()
    used = [w for w in nouns if w in vocab.idf] or nouns
    return max(used, key=lambda w: (vocab.idf.get(w, vocab.idf_unseen), -nouns.index(w)))


def forms(word: str) -> tuple[str, ...]:
    """The word and how leaflets write it when they write it otherwise: a period as people say it
    (`programs/sentences.PERIODS`: 하루 세번 먹으라는데 → 1일 3회), and a situation's question word as the leaflets'
    seed words of it (`retrievers/aspects.py`: 햇빛 → 자외선, 옥외활동), spaces removed.

    >>> forms("하루"), forms("치매")
    (('하루', '1일'), ('치매',))
    >>> "자외선" in forms("햇빛"), forms("우유"), forms("장기")
    (True, ('우유',), ('장기',))
    """
    vocab = load_vocabulary()
    # only a word people say that the leaflets do not (햇빛): a seed itself (우유, 장기) has siblings, no synonyms
    seeded = any(word in (squash(s) for s in seeds) for seeds in vocab.seeds.values())
    asked = [] if seeded else [a for a, asks in vocab.asks.items() if word in (w.lstrip("^") for w in asks)]
    seeds = [squash(s) for a in asked for s in vocab.seeds[a] if len(squash(s)) >= 2]
    lay = [squash(w) for words in lay_words().values() if word in words for w in words]  # 체중 증가, 체중증가
    return tuple(dict.fromkeys((squash(word), *PERIODS.get(word, ()), *seeds, *lay)))


def effect_word(question: str, names=()) -> str | None:
    """The most particular noun of the effect the question asks about (`asked_effect`), as `claim_word` reads a
    claim's, unless it names a section (효과, 부작용: 먹으면 효과 없나요 asks what it is for, which 효능 answers).

    >>> effect_word("진통제 자주 먹으면 내성 생겨요?"), effect_word("바로 감으면 효과 없나요") is None
    ('내성', True)
    """
    effect = asked_effect(question)
    word = claim_word(question, names, effect) if effect else None
    return None if word is None or Lexicon.load().sections(word) else word


def carries(sentence: str, form: str) -> bool:
    """Whether `sentence` writes `form` as a word of its own or the start of one (내성, 내성균), not as the end of
    a longer word Kiwi reads whole (갈락토오스 불내성 says nothing of 내성).

    >>> carries("약물 내성이 생길 수 있습니다.", "내성"), carries("갈락토오스 불내성 환자", "내성")
    (True, False)
    """
    if form not in squash(sentence):
        return False
    tokens = sentence_tokens(sentence)
    return form in tokens or not any(form in t and not t.startswith(form) for t in tokens)


def effect_notice(quoted: list[str], word: str | None) -> str:
    """The notice for an effect asked about (`asked_effect`) whose word no quoted sentence carries ("" when there
    is no word or a sentence carries it).

    >>> effect_notice(["월경통에 사용합니다."], "내성")
    "※ 찾은 설명서에는 '내성'에 대한 내용이 없습니다."
    """
    if word is None or any(carries(q, f) for q in quoted for f in forms(word)):
        return ""
    return f"※ 찾은 설명서에는 '{word}'에 대한 내용이 없습니다."


def claim_notice(question: str, quoted: list[str], word: str | None = None) -> str:
    """The notice for a claim no quoted sentence speaks of ("" when there is no claim word, `word` as `claim_word`
    reads it, or a sentence carries it)."""
    word = word if word is not None else claim_word(question)
    if word is None or any(carries(q, f) for q in quoted for f in forms(word)):
        return ""
    claim = heard_claim(question)
    claim = claim if claim.endswith(("다", "라")) else claim + "다"  # …쓰리대요 → '…쓰리다'
    return f"※ 찾은 설명서에는 '{claim}'는 내용이 없습니다."
