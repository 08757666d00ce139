"""What of the question the retrieved documents leave out.

Retrieval scores say how well the top documents match what was recognised in a question; they cannot see what was
*not* recognised. These can: a recognised name that no top document mentions (a two-drug question answered with
one drug's leaflets), and a word that neither Kiwi's dictionary nor the corpus knows and no top document contains
(an unknown brand, a misspelt ingredient, a name in Latin letters). The program tells the user when the answer's
documents are about something other than a name it could not recognise (`programs/extractive.py` `unknown_name_notice`).

Example:
    >>> from retrievers.documents import Document, Hit
    >>> hits = [Hit(Document("easydrug:1:intrc", "이부프로펜과 함께 복용하지 마십시오"), 3.0)]
    >>> uncovered_names(["이부프로펜", "메토트렉세이트"], hits)
    ['메토트렉세이트']
    >>> unknown_words(["부루팬", "이부프로펜"], vocabulary={"이부프로펜"}, names=[], hits=hits)
    ['부루팬']
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable

from retrievers.documents import Hit
from retrievers.name_keys import written_words
from retrievers.names import PARTICLE
from retrievers.names import squash as _squash
from retrievers.population import grown_words, people_words


def _hit_text(hits: list[Hit]) -> str:
    return _squash(" ".join(f"{h.doc.title} {h.doc.text}" for h in hits))


def uncovered_names(names: Iterable[str], hits: list[Hit]) -> list[str]:
    """The recognised names that appear in no hit's title or text (spaces, punctuation and case ignored)."""
    text = _hit_text(hits)
    return [n for n in dict.fromkeys(_squash(n) for n in names) if n and n not in text]


MY = re.compile(r"^(?:우리|울|저희|내)")  # "my" before a family word, as people write it together (울엄마)


def unknown_words(words: Iterable[str], vocabulary: Container[str], names: Iterable[str], hits: list[Hit]) -> list[str]:
    """The question's unknown `words` (`KiwiTokenizer.unknown_words`, two characters or more) that are neither in
    the corpus `vocabulary`, nor part of a recognised name, nor in any hit, nor a mimetic word (`mimetic`), nor a
    word for who the question is about (고딩, `population.people_words`; 울엄마, 우리딸: one said with "my" before it).

    >>> unknown_words(["고딩", "부루팬", "울엄마"], vocabulary=set(), names=[], hits=[])
    ['부루팬']
    >>> unknown_words(["나잘워시랑", "리피토랑"], vocabulary=set(), names=["메타리빈나잘워시액"], hits=[])
    ['리피토랑']
    """
    text = _hit_text(hits)
    known = [_squash(n) for n in names]
    people = people_words()
    grown = people | set(grown_words())

    def is_known(w: str) -> bool:
        mine = MY.sub("", w)  # 울엄마, 우리딸: "my" and someone, never a medicine's name
        return (
            w in vocabulary
            or w in text
            or any(w in n for n in known)
            or mimetic(w)
            or no_name(w)
            or w in people
            or mine in grown
        )

    # a particle Kiwi left on a word it did not know (나잘워시랑 of 메타리빈나잘워시액): the word without it
    return [
        w
        for w in dict.fromkeys(_squash(w) for w in words)
        if len(w) >= 2 and not is_known(w) and not (len(stem := PARTICLE.sub("", w)) >= 2 and is_known(stem))
    ]


# bought abroad (일본 여행 가서 산, 미국에서 사온, 해외직구한): the medicine named next is a foreign product, which
# e약은요 (Korea's leaflets) covers only when the index reads its name
_ABROAD = re.compile(
    r"(?:일본|미국|중국|대만|태국|베트남|필리핀|유럽|독일|프랑스|영국|호주|캐나다|홍콩|싱가포르|괌|하와이|해외|외국|면세점)"
    r"\S*\s*(?:\S*\s*)?(?:산|사온|사\s*온|사왔|샀|구입한|구매한|사다\s*준|사\s*준)\s+(\S+)"
    r"|(?:해외\s*)?직구(?:한|로\s*산|해서\s*산)\s+(\S+)"
)
_TRAILING = re.compile(r"(?:이랑|랑|하고|은|는|이|가|을|를|도|으로|로)$")


def bought_abroad(question: str) -> list[str]:
    """The word named right after saying it was bought abroad, particles off (일본여행가서 산 이브A정 → 이브a정).

    >>> bought_abroad("일본여행가서 산 이브A정 생리통에 먹으려는데"), bought_abroad("미국에서 사온 애드빌은 몇알")
    (['이브a정'], ['애드빌'])
    >>> bought_abroad("약국에서 산 타이레놀"), bought_abroad("해외직구한 멜라토닌 먹어도")
    ([], ['멜라토닌'])
    """
    out = []
    for m in _ABROAD.finditer(question):
        word = _TRAILING.sub("", re.sub(r"[^\w]", "", m.group(1) or m.group(2) or "")).lower()
        if len(word) >= 2:
            out.append(word)
    return out


# someone has a condition: 수족구에 걸렸어요, 독감 진단, 장염 판정 (a medicine is taken, a disease is had)
_CONDITION_AFTER = re.compile(r"^(?:에|이|가)?\s*(?:걸리|걸려|걸렸|걸린|진단|확진|판정|앓)")
# …or is said to be it: 아이가 수족구인데, 저 대상포진이래요 (a person, then the word and a copula)
_COPULA_AFTER = re.compile(r"^(?:이)?(?:인데|이라|라서|이래|래요|이에요|예요|이고|이어서|였는데|이었는데)")
_FIRST_PERSON = ("저", "제가", "저는", "나", "내가", "나는")


def said_to_have(question: str, word: str) -> bool:
    """Whether `question` says someone has `word` (a disease or condition the leaflets never name), rather than
    takes it: the word before 걸리다 / 진단 / 판정 / 앓다, or a person (a people word, a grown-up's, 저) as its subject
    with a copula after it. A medicine is taken; a person is not said to be one.

    >>> said_to_have("아이가 수족구인데 해열제 먹여도 되나요", "수족구"), said_to_have("수족구 걸렸는데 약", "수족구")
    (True, True)
    >>> said_to_have("먹는 약이 리피토인데 자몽", "리피토"), said_to_have("리피토 먹는데 자몽", "리피토")
    (False, False)
    """
    people = people_words() | set(grown_words())
    for m in re.finditer(re.escape(word), question):
        after = question[m.end() :]
        if _CONDITION_AFTER.match(after):
            return True
        before = question[: m.start()].split()
        said = before[-1] if before else ""
        subject = re.sub(r"(이|가|은|는|도)$", "", said)
        person = said in _FIRST_PERSON or said in people or subject in people
        if person and _COPULA_AFTER.match(after):
            return True
    return False


# a colour or state said to have come about (시커|매졌어요, 시퍼레|졌어요: Kiwi cuts an adjective it does not know
# before 지다, "to become"); a name is never followed by 지다 in its word
_BECAME_AFTER = re.compile(r"^[가-힣]?(?:졌|져|지(?:고|다|더|네|는|면|니))")


def said_to_become(question: str, word: str) -> bool:
    """Whether `word` is written right before 지다 ("to become") in its word of `question`: the stem of an adjective
    Kiwi did not know (변이 시커매졌어요), not a medicine's name.

    >>> said_to_become("변이 시커매졌어요 계속 먹어도", "시커"), said_to_become("리피토 먹는데 자몽", "리피토")
    (True, False)
    """
    return any(_BECAME_AFTER.match(question[m.end() :]) for m in re.finditer(re.escape(word), question))


def whole_word(question: str, fragment: str) -> str:
    """The word of `question` (spaces apart, its particle and punctuation off) that holds `fragment`, a piece Kiwi
    split off an unknown name (아목 of 아목시실린); the fragment itself when no longer word holds it.

    >>> whole_word("아목시실린 먹고 설사해요", "아목"), whole_word("리피토랑 먹어도", "리피토")
    ('아목시실린', '리피토')
    >>> whole_word("미노씬(테트라사이클린계) 먹는데", "미노")  # a bracket parts words
    '미노씬'
    """
    for word in written_words(question):
        word = PARTICLE.sub("", re.sub(r"[^\w]+$", "", word))
        if fragment in word and len(word) > len(fragment):
            return word
    return fragment


# what a word Kiwi does not know ends in when it is a disease, a flavour or a time (셀리악병, 과민성대장증후증,
# 딸기맛, 배란기쯤, 생리무렵): no leaflet's product name ends in one of these (checked in a test)
NOT_NAME_ENDINGS = ("병", "증", "맛", "쯤", "무렵")
# 다음 as people shorten it (담날 다음날, 담주, 담달, 담번): a time, never a name
SHORTENED_NEXT = frozenset({"담날", "담주", "담달", "담번", "담엔", "담에"})


def no_name(word: str) -> bool:
    """A word that cannot be a medicine's name: one ending in a disease's, flavour's or time's word
    (`NOT_NAME_ENDINGS`) after at least two letters, or 다음 shortened (`SHORTENED_NEXT`).

    >>> no_name("셀리악병"), no_name("딸기맛"), no_name("배란기쯤"), no_name("담날"), no_name("리피토"), no_name("병")
    (True, True, True, True, False, False)
    """
    return word in SHORTENED_NEXT or (len(word) >= 3 and word.endswith(NOT_NAME_ENDINGS))


def mimetic(word: str) -> bool:
    """A Korean sound or manner word, made by repeating its first half (꾸륵꾸륵, 헤롱헤롱, 지끈지끈, 욱신욱신): how
    something feels, never a medicine's name.

    >>> mimetic("꾸륵꾸륵"), mimetic("헤롱헤롱"), mimetic("부루팬"), mimetic("타타")
    (True, True, False, False)
    """
    half = len(word) // 2
    return len(word) >= 4 and len(word) % 2 == 0 and word[:half] == word[half:]
