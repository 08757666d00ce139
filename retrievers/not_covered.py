"""What a question names that the corpus does not cover: a supplement (루테인, 오메가3), a kind of medicine sold only
on prescription (혈압약, 당뇨약), an ingredient only the DUR rules know (졸피뎀: a prescription drug, no e약은요
leaflet), a name nobody knows (리피토, 자낙스).

These decide the honest outcome of `programs/outcome.py`: a question about a medicine the corpus lacks is told so
(with what DUR says of its ingredient), never answered with another product's leaflet.

Example:
    >>> from retrievers.documents import Document
    >>> from retrievers.names import NameIndex
    >>> leaflet = {"item_name": "게보린정", "item_seq": "1", "main_ingr": "아세트아미노펜"}
    >>> docs = [Document("easydrug:1:efcy", "x", leaflet), Document("dur:cc:1", "x", {"ingredient": "졸피뎀"})]
    >>> names = NameIndex.from_documents(docs)
    >>> supplement_words("루테인이랑 오메가3 같이 먹어도 돼요", names)
    ['루테인', '오메가3']
    >>> dur_only_ingredients(names.match("졸피뎀 먹고 술"), names), dur_only_ingredients(names.match("게보린"), names)
    (['졸피뎀'], [])
    >>> prescription_kinds("혈압 약 먹는데 부작용이 뭐예요", names)
    {'혈압 약': ()}
    >>> prescribed_phrase("병원에서 받은 스테로이드 코 스프레이는 오래 써도 괜찮나요")
    '병원에서 받은 스테로이드 코 스프레이는'
    >>> prescribed_phrase("약국에서 지은 가루약 남은거 먹어도 돼요"), prescribed_phrase("약국에서 산 감기약")
    ('약국에서 지은 가루약', '')
    >>> prescribed_phrase("약봉투에 식후 30분이라고 써있는데 바로 먹어도 돼요")
    '약봉투에'
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from retrievers.form_kinds import said_kinds, taken_by_mouth
from retrievers.names import NameIndex, NameMatch, squash
from retrievers.supplements import supplements

KINDS = Path(__file__).resolve().parent / "data" / "prescription_classes.json"


def supplement_words(question: str, names: NameIndex) -> list[str]:
    """The supplement words of `question` that no leaflet names as its product or ingredient (longest first, a
    word inside a longer one found counts once, and none inside a name the question writes whole)."""
    q = squash(question).lower()
    found: list[str] = []
    written = [k for k in names.match(question).keys if k in q]  # 판크레아틴 written whole holds no 크레아틴
    for word in supplements():
        if word in q and not any(word in f for f in (*found, *written)) and not names.match(word):
            found.append(word)
    return sorted(found, key=q.find)


# a form no product of the corpus comes in, as an answer names it (a question's 귀에 넣는 약)
FORM_NOUNS = {"ear": "귀에 넣는 약(점이제)"}


def absent_form(question: str, corpus_kinds: set[str]) -> str:
    """The form the question says its medicine comes in (`said_kinds`: 귀약, 귀에 넣는 약) when no product of the corpus
    comes in it (`corpus_kinds`: the kinds its product names say), as an answer names it; "" otherwise. No leaflet
    answers for ear drops, so another form's leaflet must not be quoted as if it did.

    >>> absent_form("귀에 물 들어가서 약국 귀약 넣어도 되나요", {"skin", "eye"})
    '귀에 넣는 약(점이제)'
    >>> absent_form("귀약 넣어도 되나요", {"ear", "skin"}), absent_form("귀약 넣어도", set())
    ('', '')
    >>> absent_form("안약 넣어도 되나요", {"skin"}), absent_form("코에 뿌려도 되나요", {"tablet"})
    ('', '')

    """
    kinds = said_kinds(question)
    # only a form the answer can name (뿌려 is no medicine's name), and none when no kinds were read
    if not kinds or not kinds <= FORM_NOUNS.keys() or not corpus_kinds or kinds & corpus_kinds:
        return ""
    return " ".join(FORM_NOUNS[k] for k in sorted(kinds))


def dur_only_ingredients(found: NameMatch, names: NameIndex) -> list[str]:
    """The question's ingredients that no leaflet contains (only DUR rules name them), when it names no product:
    졸피뎀, 알프라졸람. Display names where the index has them."""
    if found.products:
        return []
    return [names.display.get(c, c) for c in sorted(found.ingredients) if not names.ingredient_products.get(c)]


class Kind(NamedTuple):
    """One prescription kind of `KINDS`: a word of it as a pattern, its ingredients, whether it is one only when
    swallowed, and how the leaflets name it."""

    pattern: re.Pattern
    ingredients: tuple[str, ...]
    swallowed_only: bool
    leaflet_words: tuple[str, ...]


@lru_cache(maxsize=1)
def _kinds() -> tuple[Kind, ...]:
    """Each prescription kind's word as a pattern that allows spaces between its letters (혈압 약), longest first."""
    rows = json.loads(KINDS.read_text(encoding="utf-8"))["classes"]
    words = sorted(((w, r) for r in rows for w in r["words"]), key=lambda p: -len(p[0]))
    return tuple(
        Kind(
            re.compile(r"\s*".join(map(re.escape, w)), re.IGNORECASE),
            tuple(r["ingredients"]),
            bool(r.get("taken_by_mouth")),
            tuple(r.get("leaflet_words", ())),
        )
        for w, r in words
    )


SWALLOWED = ("알약", "쪼개", "쪼갠", "삼키", "삼켜")  # a tablet the question speaks of, beside the verbs of eating


def prescription_kinds(question: str, names: NameIndex) -> dict[str, tuple[str, ...]]:
    """The kinds of prescription-only medicine `question` names (혈압약, 당뇨약; a word inside a longer one found
    counts once), as written, with those of their ingredients the index knows (for their DUR rules); a kind any of
    whose ingredients a leaflet contains is left out (the corpus has the last word), and a kind that is one only when
    swallowed (먹는 탈모약) counts when the question says it is swallowed (먹는데, 알약, 쪼개진)."""
    found: dict[str, tuple[str, ...]] = {}
    for kind in _kinds():
        m = kind.pattern.search(question)
        if m is None or any(m.group(0) in w for w in found):
            continue
        if kind.swallowed_only and not (taken_by_mouth(question) or any(w in question for w in SWALLOWED)):
            continue  # 탈모약 바르는 법: the minoxidil the leaflets have
        keys = [k for i in kind.ingredients for k in sorted(names.match(i).ingredients)]
        if any(names.ingredient_products.get(k) for k in keys):
            continue
        found[m.group(0)] = tuple(names.display.get(k, k) for k in keys)
    return dict(sorted(found.items(), key=lambda p: question.find(p[0])))


def kind_leaflet_words(question: str) -> tuple[str, ...]:
    """How the leaflets name the prescription kinds `question` names, in their interaction and caution lists
    (혈압약 → 혈압강하제, 고혈압; 파킨슨약 → 레보도파), whether or not the corpus has a leaflet of the kind: what a
    sentence about taking a medicine beside it says.

    >>> kind_leaflet_words("파킨슨약 드시는 아버지 아로나민 드려도 돼요")
    ('레보도파', '항파킨슨', '파킨슨')
    >>> kind_leaflet_words("감기약 먹어도 돼요")
    ()
    """
    found = (kind.leaflet_words for kind in _kinds() if kind.pattern.search(question))
    return tuple(dict.fromkeys(w for words in found for w in words))


def kinds_said(question: str) -> dict[str, tuple[str, ...]]:
    """The prescription kinds `question` names, as written (a word inside a longer one found counts once), each with
    the words a leaflet speaking of it would hold: how the leaflets name the kind and its ingredients.

    >>> kinds_said("혈압약 먹는 사람은 타이레놀 먹어도 문제없나요")["혈압약"][:2]
    ('혈압강하제', '고혈압')
    >>> kinds_said("감기약 먹어도 돼요")
    {}
    """
    found: dict[str, tuple[str, ...]] = {}
    for kind in _kinds():
        m = kind.pattern.search(question)
        if m is not None and not any(m.group(0) in w for w in found):
            found[m.group(0)] = (*kind.leaflet_words, *kind.ingredients)
    return found


def kind_ingredients(medicine: str) -> tuple[str, ...]:
    """The ingredients of the prescription kinds a medicine's name is (혈압약 → 암로디핀, 로사르탄 …); () for none.

    >>> kind_ingredients("혈압약")[:2], kind_ingredients("타이레놀")
    (('암로디핀', '로사르탄'), ())
    """
    flat = "".join(medicine.split())
    return tuple(dict.fromkeys(i for kind in _kinds() if kind.pattern.fullmatch(flat) for i in kind.ingredients))


def medicine_leaflet_words(medicine: str) -> tuple[str, ...]:
    """How the leaflets name the prescription kind a medicine the user takes belongs to, by the kind's word or one of
    its ingredients (와파린 → 항응고제, 와파린, 혈액응고; 혈압약 → 혈압강하제, 고혈압 …); () for none.

    >>> medicine_leaflet_words("와파린나트륨")[:2], medicine_leaflet_words("타이레놀")
    (('항응고제', '와파린'), ())
    >>> medicine_leaflet_words("하이드로클로로티아지드 25mg")[:1]  # as some write 히드로클로로티아지드
    ('혈압강하제',)
    """
    flat = "".join(medicine.split())
    found = (
        kind.leaflet_words for kind in _kinds() if kind.pattern.search(flat) or any(i in flat for i in kind.ingredients)
    )
    return tuple(dict.fromkeys(w for words in found for w in words))


PRESCRIBED_WORD = "처방받은 약"  # how the answer names a medicine the question says was prescribed
# a medicine the question says a clinic gave (병원에서 받은, 병원서 지어온, 피부과에서 처방받은, 처방 받은, 지어 온): a
# prescription medicine, whose leaflet e약은요 (over-the-counter medicines) does not hold
_PRESCRIBED = re.compile(
    r"(?:(?:병원|의원|[가-힣]{1,4}과)\s*에?서\s*(?:처방\s*)?|처방\s*|병원\s*)"
    r"(?:받은|받아\s*온|지은|지어\s*온|타\s*온)(?![가-힣])"
    r"|약국\s*에서\s*(?:지은|지어\s*온)(?![가-힣])"  # dispensed (지은) at a pharmacy; bought there (산) is not
    r"|약\s*봉투(?:에|의)"  # 약봉투에 식후 30분: the dispensing envelope's own instructions
)
# the medicine written between the clinic and the receiving (피부과에서 소론도 받아서, 병원에서 일주일치 처방
# 받았어요, 정형외과서 트라마돌 들어간 진통제 받았는데; a consultation or a test received is none: 내과에서 진료
# 받았는데), and a days' supply received (항생제
# 일주일치 받았는데, 3일분 약 받았어요): only a clinic dispenses by the day
_PRESCRIBED_AROUND = re.compile(
    r"(?:병원|의원|(?<![가-힣])(?!효과|결과|학과|사과)[가-힣]{1,4}과)\s*에?서\s+(?:(?!진료|진찰|검사|치료|상담|진단|주사|수술|처치|설명)[^\s?.!,]+\s+){1,3}?"
    r"(?:처방\s*)?받(?:아서|았|아\s*왔|은)"
    r"|(?:[가-힣]{1,6}(?:약|제|시럽)\s*)?(?:일주일|이틀|사흘|나흘|보름|한\s*달|며칠|\d+\s*(?:일|주|개월))\s*(?:분|치)\s*"
    r"(?:약\s*)?(?:처방\s*)?(?:을\s*)?받"  # with the medicine named before the supply (항생제 일주일치 받았는데)
)
# the medicine named right before it was prescribed (인데놀 처방받아 먹어보려는데): a word, not where it was given
_PRESCRIBED_BEFORE = re.compile(
    r"(?<![가-힣A-Za-z0-9])(?!병원|의원|약국)[가-힣A-Za-z][가-힣A-Za-z0-9]{1,11}(?<!에서)(?<!에게)(?<!한테)"
    r"\s*(?:을|를|도)?\s*처방\s*받(?:아|았|은|고)"
)
_MEDICINE_END = re.compile(r"(?:약|제|액|연고|시럽|정|크림|캡슐|스프레이|패치|파스)$")
_PARTICLE_END = re.compile(r"(?:은|는|이|가|을|를|도|랑|하고|에|약|제|액|연고|시럽|정|크림|캡슐|스프레이|패치|파스)$")
MAX_PRESCRIBED_WORDS = 4  # words after the marker read as the medicine's name (스테로이드 코 스프레이는)


def prescribed_before(question: str) -> str:
    """The word said to be prescribed, with the saying (인데놀 처방받아), "" for none: whether it names a medicine
    the index knows (졸피뎀 처방받았는데) or none (같이 처방받았는데, beside named ones) is the caller's to read.

    >>> prescribed_before("담주 발표가 있어서 인데놀 처방받아 먹어보려는데")
    '인데놀 처방받아'
    >>> prescribed_before("병원에서 처방받아 먹는 약")
    ''
    """
    m = _PRESCRIBED_BEFORE.search(question)
    return m.group() if m else ""


def prescribed_phrase(question: str) -> str:
    """The words of `question` that say a clinic prescribed a medicine, with the medicine they name (병원에서 받은
    스테로이드 코 스프레이는: up to the first word ending in a particle or a medicine noun and the medicine nouns
    right after it, 해열제 시럽, within `MAX_PRESCRIBED_WORDS`); "" when it says none. 처방받았는데 (prescribed,
    said of a named drug) is not such a phrase: the name beside it says which medicine it is.

    >>> prescribed_phrase("허리 아파서 정형외과서 트라마돌 들어간 진통제 받았는데")
    '정형외과서 트라마돌 들어간 진통제 받았'
    >>> prescribed_phrase("내과서 진료 받았는데")
    ''
    """
    m = _PRESCRIBED.search(question)
    if m is None:
        around = _PRESCRIBED_AROUND.search(question)
        return around.group() if around else ""
    words = question[m.end() :].split()[:MAX_PRESCRIBED_WORDS]
    ends = [bool(_PARTICLE_END.search(w.rstrip("?.!,~"))) for w in words]
    if True not in ends:
        return question[m.start() : m.end()]
    n = ends.index(True) + 1
    while n < len(words) and _MEDICINE_END.search(words[n - 1]) and _MEDICINE_END.search(words[n].rstrip("?.!,~")):
        n += 1  # 해열제 시럽: a medicine noun after one
    return " ".join([question[m.start() : m.end()], *words[:n]])
