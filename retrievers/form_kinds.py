"""Dosage forms: which a question names (크림, 시럽, 안약), whether it speaks of swallowing, whether a product is one
that is not swallowed, the products a form word asks for (파스 → plasters), and forms coarse enough to compare a
product's name with the forms a DUR rule binds: a rule for 서방정 does not bind an acetaminophen syrup, a rule for
일반액상분무제 does not bind a tablet.

A form is a set of kinds (tablet, sr, capsule, granule, lozenge, oral_liquid, eye, nasal, ear, spray, skin, patch,
mouth, rectal, vaginal, inhaler, injection). Whatever is not read — a product name without a form word, a DUR form word
not listed — is ``any`` and binds: when in doubt a rule applies. A general form binds its particular ones (a rule
for 정제 binds a 서방정 product), never the other way round.

Example:
    >>> binds(("서방정", "서방성필름코팅정"), "타이레놀8시간이알서방정"), binds(("서방정",), "어린이타이레놀현탁액")
    (True, False)
    >>> binds(("정제",), "타이레놀8시간이알서방정"), binds(("일반액상분무제",), "스노콜정"), binds((), "스노콜정")
    (True, False, True)
    >>> binds(("일반액상분무제",), "노즈케어점비액"), binds(("일반액상분무제",), "가나크림")
    (True, False)
    >>> question_forms("클리어틴 크림 바르는 법"), taken_by_mouth("빈속에 먹으면"), external_form("벤지드로션5%")
    (['크림'], True, True)
"""

from __future__ import annotations

import functools
import re

from retrievers.name_keys import STRENGTH, squash
from retrievers.name_words import EXTERNAL_FORMS, EXTERNAL_VERBS, ORAL_VERBS, QUESTION_FORMS, SAID_FORMS

ANY = "any"
ORAL_SOLUTION = {"oral_liquid", "mouth"}
PARENTS = {"sr": {"tablet", "capsule"}, "lozenge": {"tablet"}}  # a rule for the general form binds these too
_SPRAY = {"spray", "skin", "mouth", "nasal"}  # a spray's name seldom says where it goes
_PATCH = {"skin", "patch"}  # stuck on the skin (플라스타, 패취): a skin form, and the one 파스 asks for
DEFINING = ("patch", "spray")  # a form whose kinds include one of these is that: a cream is no spray
# DUR form words: (any of these in the word, kinds), the first match decides
_RULE_WORDS = (
    (
        ("주사", "수액", "이식", "투석", "혈액", "장기보존", "관류", "방광", "체외진단", "단자시험", "장관용"),
        {"injection"},
    ),
    (("점안", "안연고", "안겔"), {"eye"}),
    (("점비", "비강"), {"nasal"}),
    (("점이",), {"ear"}),
    (("흡입",), {"inhaler"}),
    # a liquid spray rule binds the nose's liquids too: a 점비액 is as often sprayed (노즈케어점비액: 비강내에 분무)
    (("분무", "에어로솔"), {"spray", "nasal"}),
    (("직장", "항문", "관장"), {"rectal"}),
    (("가글", "구강용", "치과", "치약", "껌", "박칼"), {"mouth"}),
    (
        ("경피", "첩부", "첩포", "카타플라스마", "피부", "크림", "연고", "로션", "도료", "라카", "샴푸", "틴크"),
        {"skin"},
    ),
    (("리니멘트", "외용", "거즈", "면봉", "스폰지", "페이스트", "반고형"), {"skin"}),
    (("경구용겔", "젤리형겔"), {"oral_liquid"}),
    (("겔",), {"skin"}),
    (("좌제",), {"rectal"}),
    (("서방", "스팬슐"), {"sr"}),
    (("캡슐",), {"capsule"}),
    (("트로키", "로젠지"), {"lozenge"}),
    (("고형제",), {"tablet", "capsule", "granule", "lozenge"}),
    (("주정제",), {"oral_liquid"}),
    (("건조시럽",), {"oral_liquid", "granule"}),
    (("정", "환제", "필름"), {"tablet"}),
    (("과립", "산제", "세립"), {"granule"}),
    (("액제",), {"oral_liquid", "skin", "mouth"}),
    (("시럽", "액", "현탁", "엘릭서", "유제", "레모네이드", "방향수", "주정", "전제", "침제"), {"oral_liquid"}),
)
# product-name endings, the longest that fits decides
_NAME_ENDINGS = {
    **dict.fromkeys(("서방정", "서방캡슐", "서방성캡슐", "이알", "서방필름코팅정"), {"sr"}),
    **dict.fromkeys(("질정", "질좌제", "질연질캡슐", "질크림", "질세정액"), {"vaginal"}),
    **dict.fromkeys(("좌제", "좌약", "관장액"), {"rectal"}),
    **dict.fromkeys(("점안액", "점안제", "안약", "점안겔", "안연고"), {"eye"}),
    **dict.fromkeys(("점비액", "점비제", "코연고"), {"nasal"}),
    **dict.fromkeys(("나잘스프레이", "비강분무액", "비강분무제", "나잘", "코스프레이"), {"nasal", "spray"}),
    **dict.fromkeys(("점이액",), {"ear"}),
    **dict.fromkeys(("흡입제", "흡입액", "흡입기"), {"inhaler"}),
    **dict.fromkeys(("가글", "가글액", "구강액", "치약", "구강스프레이", "구강용해필름"), {"mouth"}),
    **dict.fromkeys(("트로키", "로젠지", "캔디"), {"lozenge"}),
    **dict.fromkeys(("스프레이", "분무액", "분무제", "에어로솔", "에어"), _SPRAY),
    **dict.fromkeys(("크림", "연고", "로션", "겔", "젤", "외용액", "외용제"), {"skin"}),
    **dict.fromkeys(("첩부제", "플라스타", "카타플라스마", "패취", "패치", "찜파스", "파프", "경고제", "TTS"), _PATCH),
    # a name ending in 파스 is as often a liquid or a spray (신신물파스, 안티푸라민롤파스, 에어신신파스)
    **dict.fromkeys(("파스", "라카", "폼", "샴푸", "스틱", "솔루션", "스왑액", "도포액", "밤", "연고제"), {"skin"}),
    **dict.fromkeys(("로오숀", "로오션", "로숀", "오일", "리니멘트", "에멀젼", "거즈", "밴드"), {"skin"}),
    **dict.fromkeys(("반창고", "파스타", "스왑", "통고", "패드"), {"skin"}),
    **dict.fromkeys(("스프레이제", "에어로졸"), _SPRAY),
    **dict.fromkeys(("관장약",), {"rectal"}),
    **dict.fromkeys(("껌", "구강필름", "페이스트"), {"mouth", "skin", "tablet"}),
    **dict.fromkeys(("트로키제",), {"lozenge"}),
    **dict.fromkeys(("엑스", "연조엑스"), {"oral_liquid", "granule"}),
    **dict.fromkeys(("캡슐", "연질캡슐", "캅셀"), {"capsule"}),
    **dict.fromkeys(("시럽", "현탁액", "내복액", "내용액", "드링크", "엘릭서", "현탁시럽"), {"oral_liquid"}),
    **dict.fromkeys(("건조시럽",), {"oral_liquid", "granule"}),
    **dict.fromkeys(("과립", "산", "세립", "분말"), {"granule"}),
    **dict.fromkeys(("정", "환", "츄정", "정제"), {"tablet"}),
    **dict.fromkeys(("액",), {"oral_liquid", "skin", "mouth"}),
}
# products whose brand ends in 질, so that their name ends like a vaginal form while their leaflets say nothing
# vaginal (reviewed over the corpus: an antihistamine tablet and two urea creams; every other 질정/질크림 product's
# 효능 is a vaginal infection)
JIL_BRANDS = frozenset({"마스질정", "맨질크림", "반질크림"})
_DOSE = re.compile(
    r"[\d.,/%]+\s*(?:밀리그램|밀리그람|마이크로그램|그램|밀리리터|mg|g|ml|μg|%|퍼센트|iu|아이유|단위)?$", re.I
)
_TRAILING = re.compile(r"(?:에스|에프|에이|골드|플러스|스트롱|포르테)$")  # 코푸정에스, 현대물파스에프


def rule_kinds(forms: tuple[str, ...] | list[str]) -> set[str]:
    """The kinds a rule's DUR form words name; {any} for none ("-": every form) or a word not read.

    >>> sorted(rule_kinds(["서방정", "정제"])), sorted(rule_kinds(["일반액상분무제"])), rule_kinds(["-"])
    (['sr', 'tablet'], ['nasal', 'spray'], {'any'})
    >>> "skin" in rule_kinds(["정제", "액제", "시럽"]), "skin" in rule_kinds(["액제"])
    (False, True)
    """
    kinds: set[str] = set()
    for form in forms:
        if form in ("-", ""):
            continue
        found = next((k for words, k in _RULE_WORDS if any(w in form for w in words)), {ANY})
        if form.startswith("질"):  # 질정, 질세정액, 질좌제 (연질캡슐 is no vaginal form)
            found = {"vaginal"}
        if form == "액제" and len(forms) > 1:  # "정제/캡슐/과립/액제/시럽": among other forms, a solution to swallow
            found = ORAL_SOLUTION  # (a skin solution is 피부액제 or 외용액제)
        kinds |= found
    return kinds or {ANY}


def product_kinds(item_name: str) -> set[str]:
    """The kinds a product's name says ({any} when it says none): its ending after the parentheses and the dose.

    >>> [sorted(product_kinds(n)) for n in ("타이레놀정500밀리그람(아세트아미노펜)", "챔프시럽", "오트리빈0.1%")]
    [['tablet'], ['oral_liquid'], ['any']]
    >>> [sorted(product_kinds(n)) for n in ("마스질정(클레마스틴푸마르산염)", "카네스텐질정(클로트리마졸)")]
    [['tablet'], ['vaginal']]
    >>> sorted(product_kinds("오라메디연고{수출명:오라메디파스타(ORAMEDYPASTE)}"))
    ['skin']
    """
    return set(_name_kinds(item_name))


@functools.lru_cache(maxsize=8192)
def _name_kinds(item_name: str) -> frozenset[str]:
    """`product_kinds`, remembered: the same few thousand product names are read by every answer."""
    name = re.sub(r"\s|\[.*?\]|\{.*?\}", "", item_name)  # an export name in braces ({수출명:…}) says no form
    while (shorter := re.sub(r"\([^()]*\)", "", name)) != name:
        name = shorter
    name = name.split("(")[0]
    for _ in range(2):
        name = _DOSE.sub("", name)
    if name in JIL_BRANDS:
        name = name.replace("질", "", 1)  # 마스질정 is 마스질 + 정: a tablet, not a vaginal tablet
    for candidate in (name, _TRAILING.sub("", name)):
        for n in range(min(len(candidate), 8), 0, -1):
            if candidate[-n:] in _NAME_ENDINGS:
                return frozenset(_NAME_ENDINGS[candidate[-n:]])
    return frozenset({ANY})


def asked_kinds(form_word: str) -> set[str]:
    """The kinds a question means by a form word (`QUESTION_FORMS`' spelling): 파스 is a plaster, as people say it,
    whatever product names end in; the others as a product name ending in them would be.

    >>> sorted(asked_kinds("파스")), sorted(asked_kinds("점안액")), sorted(asked_kinds("액"))
    (['patch', 'skin'], ['eye'], ['mouth', 'oral_liquid', 'skin'])
    """
    return set(_PATCH) if form_word == "파스" else product_kinds(form_word)


def of_kinds(asked: set[str], item_name: str) -> bool:
    """Whether the product so named is of the form a question asked (`asked_kinds`): its kinds are among the asked
    ones, and it has the kind that defines the form when the form has one (a plaster for 파스, a spray for 스프레이:
    a cream is neither); a name that says no form is of none.

    >>> of_kinds(asked_kinds("스프레이"), "코앤나잘스프레이"), of_kinds(asked_kinds("스프레이"), "후시딘연고")
    (True, False)
    >>> of_kinds(asked_kinds("연고"), "후시딘연고"), of_kinds(asked_kinds("연고"), "신신물파스에스")
    (True, True)
    >>> of_kinds(asked_kinds("파스"), "신신물파스에스"), of_kinds(asked_kinds("연고"), "판콜에이내복액")
    (False, False)
    """
    return kinds_fit(asked, product_kinds(item_name))


def may_be_of_kinds(asked: set[str], item_name: str) -> bool:
    """A product whose name says a form that takes in several kinds, one of them asked (삼아탄툼액: a liquid that may
    be a gargle, for 탄툼 가글), though not `of_kinds`: the one to choose among a brand's products when none is of the
    form asked for certain.

    >>> may_be_of_kinds(asked_kinds("가글"), "삼아탄툼액"), may_be_of_kinds(asked_kinds("가글"), "탄툼베르데네뷸라이저")
    (True, False)

    A form that defines itself (a spray, a patch) is asked of that form only: a liquid is no 스프레이.

    >>> may_be_of_kinds(asked_kinds("스프레이"), "삼아탄툼액")
    False
    """
    kinds = product_kinds(item_name)
    defining = [k for k in DEFINING if k in asked]
    return ANY not in kinds and ANY not in asked and bool(kinds & asked) and all(k in kinds for k in defining[:1])


def kinds_fit(asked: set[str], kinds: set[str]) -> bool:
    """Whether a product of `kinds` is of the form asked (`of_kinds`, for kinds read otherwise than from a name).

    >>> kinds_fit(asked_kinds("파스"), {"skin", "patch"}), kinds_fit(asked_kinds("파스"), {"skin"})
    (True, False)
    """
    if ANY in kinds or ANY in asked or not kinds <= asked:
        return False
    defining = [k for k in DEFINING if k in asked]
    return all(k in kinds for k in defining[:1])


def binds(forms: tuple[str, ...] | list[str], item_name: str) -> bool:
    """A rule for these DUR forms binds the product so named (general forms bind their particular ones)."""
    rule, product = rule_kinds(forms), product_kinds(item_name)
    if ANY in rule or ANY in product:
        return True
    return bool(rule & product) or any(rule & PARENTS.get(kind, set()) for kind in product)


# one-letter forms, read only as a word's end (니코틴 껌, 니코틴껌을, 여드름 겔; not 겔포스, 젤리, 껌딱지) -> as names
# write them (젤 타입 인공눈물: the names' 겔, where 젤 is mostly a brand's syllable, 아이엔젤)
SHORT_FORMS = {"껌": "껌", "겔": "겔", "젤": "겔"}
_SHORT_FORM = re.compile(r"(껌|겔|젤)(?:을|를|이|은|는|도|만|에|으로|로|타입|형)?(?![가-힣])")


def question_forms(query: str) -> list[str]:
    """The dosage forms a question names, as product names write them ("클리어틴 크림" -> ["크림"]).

    >>> question_forms("니코틴 껌 씹을때"), question_forms("여드름 젤타입 바르고"), question_forms("겔포스 먹고 젤리")
    (['껌'], ['겔'], [])
    """
    short = {SHORT_FORMS[m.group(1)] for m in _SHORT_FORM.finditer(query)}
    return sorted({name_form for word, name_form in QUESTION_FORMS.items() if word in query} | short)


def said_kinds(query: str) -> set[str]:
    """The kinds a question means by how it says the medicine is used or looks, when it names no form (붙이는 멀미약 →
    a patch, 가루 변비약 → granules, 짜먹는 위장약 → a liquid); empty when it says none.

    >>> sorted(said_kinds("붙이는 멀미약 언제 붙여요")), sorted(said_kinds("가루 변비약")), said_kinds("멀미약 먹어요")
    (['patch', 'skin'], ['granule'], set())
    >>> said_kinds("꽃가루 알레르기약"), said_kinds("콧물약 먹여요")
    (set(), set())
    >>> sorted(said_kinds("타이레놀 한알 먹어도 될까요")), said_kinds("알레르기약 먹어요")
    (['capsule', 'sr', 'tablet'], set())
    >>> of_kinds(said_kinds("붙이는 멀미약"), "키미테패취"), of_kinds(said_kinds("붙이는 멀미약"), "키미테정")
    (True, False)
    """
    return next((set(kinds) for words, kinds in SAID_FORMS if any(_said(w).search(query) for w in words)), set())


def said_before(query: str, words: list[str]) -> list[str]:
    """Those of `words` (class words as the question writes them) a form word of `said_kinds` stands right before
    (가루 설사약, 붙이는 멀미약): the medicine the form is said of, when the question names another beside it.

    >>> said_before("스멕타 같은 가루 설사약 다른 약이랑 같이 먹어도 돼요? 감기약 먹는중", ["설사약", "감기약"])
    ['설사약']
    """
    spans = [m.end() for ws, _ in SAID_FORMS for w in ws for m in _said(w).finditer(query)]
    return [w for w in words if any(0 <= query.find(w, end) - end <= SAID_GAP for end in spans)]


SAID_GAP = 4  # characters between a form word and the class word it is said of (붙이는 멀미약, 가루형 변비약)


@functools.lru_cache(maxsize=64)
def _said(word: str) -> re.Pattern:
    """`word` where a word starts (가루, not 꽃가루; 물약, not 콧물약)."""
    return re.compile(r"(?<![가-힣])" + re.escape(word))


def taken_by_mouth(query: str) -> bool:
    """Whether the question speaks of swallowing the medicine (먹으면, 복용, 씹어) and of no other way of using it."""
    q = squash(query)
    return any(v in q for v in ORAL_VERBS) and not any(v in q for v in EXTERNAL_VERBS)


@functools.lru_cache(maxsize=8192)
def external_form(item_name: str) -> bool:
    """Whether a product name (outside its brackets) ends in a form that is not swallowed: creams, patches, sprays,
    drops, suppositories (이부스타플라스타, 벤지드로션5%; not 겔포스엠현탁액).

    >>> external_form("오라메디연고{수출명:오라메디파스타"), external_form("겔포스엠현탁액")
    (True, False)
    """
    # brackets and what is in them; one left open (오라메디연고{수출명:오라메디파스타) to the end
    name = STRENGTH.sub("", re.sub(r"\(.*?\)|\[.*?\]|\{.*?\}|[({\[].*$", "", item_name))
    return squash(name).rstrip("0123456789.%").endswith(EXTERNAL_FORMS)
