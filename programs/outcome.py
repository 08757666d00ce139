"""The honest outcome of a question: answered from the documents, or one of three ways of saying they cannot.

* ``out_of_scope``: not about medicines (the guard; no LM call).
* ``not_in_corpus``: about a medicine the corpus does not have (a supplement, a prescription-only or foreign
  brand, an ingredient only DUR rules know). When the question names nothing the corpus has, the answer says so and
  points to the prescriber or pharmacist, with no LM call and no other product's leaflet quoted (the DUR rules of
  its ingredient that speak to the question are); when it also names a medicine the corpus has, the answer is about
  that one and opens with a notice naming what was not found.
* ``not_in_leaflets``: about medicine, but the documents found do not say what was asked (the self-check of
  `programs/aspect_check.py`, the claim check of `programs/claim_check.py`, or the efficacy-only check of
  `programs/efficacy_only.py` flagged the answer, which then says so).
* ``answered``: everything else.

Each is a value of the trace's ``outcome`` and a column of `yaksa eval-answers`.

Example:
    >>> uncovered_only(("루테인",), named=False, supplements=("루테인",))
    True
    >>> uncovered_only(("리피토",), named=True)
    False
    >>> not_in_corpus_answer(["루테인", "오메가3"]).split(":")[0]
    "질문의 '루테인', '오메가3'은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다"
    >>> outcome(out_of_scope=False, mode="not_in_corpus", aspect_flagged=False)
    'not_in_corpus'
"""

from __future__ import annotations

import re

from programs.citations import cite
from programs.dur_rule import statement
from retrievers.not_covered import PRESCRIBED_WORD
from retrievers.question_frame import SECTION_ASPECT

ANSWERED, OUT_OF_SCOPE, NOT_IN_CORPUS, NOT_IN_LEAFLETS = "answered", "out_of_scope", "not_in_corpus", "not_in_leaflets"
OUTCOMES = (ANSWERED, OUT_OF_SCOPE, NOT_IN_CORPUS, NOT_IN_LEAFLETS)

_NOT_FOUND = "질문의 {words}은(는) e약은요(일반의약품 설명서)와 DUR 자료에서 찾지 못했습니다"
NOT_IN_CORPUS_ANSWER = (
    _NOT_FOUND + ": 건강기능식품이나 의약외품, 전문의약품, 해외 제품일 수 있습니다. 이 자료에 없는 제품은 효능이나 "
    "함께 먹어도 되는지를 여기서 답할 수 없으니, 처방한 의사나 약사에게 제품을 보여 주고 확인하세요."
)
NOT_IN_CORPUS_NOTICE = (
    "※ "
    + _NOT_FOUND
    + "(건강기능식품이나 의약외품, 전문의약품일 수 있습니다): 아래는 문서에 있는 의약품에 대한 내용입니다."
)

# a kind of medicine sold only on prescription (혈압약): the corpus has no leaflet of any of its ingredients
_KIND_NOT_FOUND = "질문의 {words}은(는) 처방받아 쓰는 전문의약품이라 e약은요(일반의약품 설명서)에서 찾지 못했습니다"
KIND_ANSWER = (
    _KIND_NOT_FOUND + ": 어떤 성분의 약인지, 복용법이나 부작용, 함께 먹어도 되는지는 처방한 의사나 약사에게 "
    "약 봉투나 처방전을 보여 주고 확인하세요."
)
KIND_NOTICE = "※ " + _KIND_NOT_FOUND + ": 아래는 문서에 있는 의약품에 대한 내용입니다."
# a medicine the question says a clinic prescribed (병원에서 받은 코 스프레이): which one it is, the corpus cannot know
_PRESCRIBED_NOT_FOUND = "병원에서 처방받은 약은 e약은요(일반의약품 설명서)에서 찾지 못했습니다"
PRESCRIBED_ANSWER = (
    _PRESCRIBED_NOT_FOUND + ": 같은 이름의 일반의약품이 있어도 성분과 용법이 다를 수 있으니, 약 봉투의 복약 안내를 "
    "보거나 처방한 의사나 약사에게 확인하세요."
)
PRESCRIBED_NOTICE = "※ " + _PRESCRIBED_NOT_FOUND + ": 아래는 문서에 있는 일반의약품에 대한 내용입니다."


DUR_ONLY_NOTICE = (
    "※ e약은요에서 {words}이(가) 든 일반의약품 설명서는 찾지 못했습니다(전문의약품일 수 있습니다): DUR 규칙은 "
    "성분에 대한 것이니, 복용은 처방한 의사나 약사와 상의하세요."
)


def _quoted(words) -> str:
    return ", ".join(f"'{w}'" for w in list(words)[:3])


DUR_ONLY_ANSWER = (
    "e약은요(일반의약품 설명서)에서 {words}이(가) 든 의약품은 찾지 못했습니다: 전문의약품일 수 있습니다. DUR 자료의 "
    "성분 규칙 말고는 이 자료로 답할 수 없으니, 복용법이나 함께 먹어도 되는지는 처방한 의사나 약사와 상의하세요."
)


DUR_NO_RULE = "DUR 자료에 있는 이 성분의 규칙 중 질문에 답하는 것은 없습니다."


def not_in_corpus_answer(words, rules_only=(), kinds=()) -> str:
    """The whole answer to a question about medicines the corpus does not have; `rules_only`: those of `words` that
    are ingredients only DUR rules know (졸피뎀), which the answer does not say DUR lacks; `kinds`: those that are
    kinds of prescription-only medicine (혈압약), which the answer calls so.

    >>> not_in_corpus_answer(["졸피뎀"], rules_only=["졸피뎀"]).startswith("e약은요(일반의약품 설명서)에서 '졸피뎀'")
    True
    >>> not_in_corpus_answer(["당뇨약"], kinds=["당뇨약"]).split(":")[0]
    "질문의 '당뇨약'은(는) 처방받아 쓰는 전문의약품이라 e약은요(일반의약품 설명서)에서 찾지 못했습니다"
    """
    others = [w for w in words if w not in rules_only and w not in kinds]
    named_kinds = [w for w in words if w in kinds and w != PRESCRIBED_WORD]
    lines = [PRESCRIBED_ANSWER] if PRESCRIBED_WORD in words else []
    lines += [KIND_ANSWER.format(words=_quoted(named_kinds))] if named_kinds else []
    lines += [NOT_IN_CORPUS_ANSWER.format(words=_quoted(others))] if others else []
    if rules_only:
        lines.append(DUR_ONLY_ANSWER.format(words=_quoted(rules_only)))
    return "\n".join(lines)


def not_in_corpus_notice(words, kinds=()) -> str:
    """The opening line of an answer about a medicine the corpus has, beside one it does not ("" without words);
    `kinds`: those of `words` that are kinds of prescription-only medicine (혈압약 먹는데 감기약)."""
    if list(words) == [PRESCRIBED_WORD]:
        return PRESCRIBED_NOTICE
    if words and all(w in kinds for w in words):
        return KIND_NOTICE.format(words=_quoted(w for w in words if w != PRESCRIBED_WORD))
    return NOT_IN_CORPUS_NOTICE.format(words=_quoted(words)) if words else ""


def uncovered_only(words, named: bool, supplements=(), corpus_speaks: bool = False) -> bool:
    """Whether the question is about uncovered medicines alone: it names some (`words`) and no medicine the corpus
    has (`named`). A supplement (`supplements`, a reviewed list checked against the corpus's names; also an
    ingredient only DUR rules know, 졸피뎀) is enough unless the rest of the question names a class the leaflets
    have products of, or a symptom it asks what to take for (`corpus_speaks`: 감기약이랑 홍삼, 홍삼 먹는데 두통약 뭐
    먹어요, 아카보즈 먹는데 감기약; not 두통 있을 때 오메가3 먹어도: the symptom is when it is taken). A word
    nobody knows (리피토; 파브론 골드 감기에) is enough: a misspelt name (로페라미트, 개보린) is read as the name it
    is a syllable or two off before this, so it is `named`; a sound word (꾸륵꾸륵) is never counted unknown
    (`retrievers.query_coverage.mimetic`)."""
    if not words or named:
        return False
    if all(w in supplements for w in words):
        return not corpus_speaks
    return True  # a word nobody knows among them (안과에서 비가목스 받아서: prescribed, and no name the corpus has)


GROUP_RULE = {"pregnant": "임부금기", "elderly": "노인주의", "infant": "특정연령대금기", "child": "특정연령대금기",
              "adolescent": "특정연령대금기"}  # fmt: skip
RULES_LEAD = "DUR에 있는 성분 규칙입니다:"
KIND_RULES_LEAD = (
    "{words}에 쓰이는 성분 중 DUR 규칙이 있는 것입니다(드시는 약의 성분은 약 봉투나 처방전에서 확인하세요):"  # noqa: E501
)
MAX_RULES = 3
DUR_CODES = ("ac", "bc", "cc", "dc", "ec", "fc", "gc", "ic")  # every DUR rule type


# an aspect the question asks -> the DUR rule type that answers it for an ingredient (최대 며칠 → 투여기간주의)
ASPECT_RULES = {
    a: code for key, a in SECTION_ASPECT.items() if (code := key.removeprefix("dur:")) in ("bc", "cc", "dc", "ec", "fc")
}


def rules_for_question(rows, question: str, group: str | None, own=(), aspects=()) -> list:
    """Of an uncovered medicine's DUR rows (its ingredient known from a rule: 리피토 -> 아토르바스타틴), those
    that speak to the question: a 병용금기 pair whose other ingredient the question names, the rule of the group
    it is asked for (임부금기 for a pregnant asker), or a rule of the type an asked aspect is answered by
    (`aspects` of the question's frame: duration → 투여기간주의, dosage → 용량주의). At most `MAX_RULES`. `own`:
    the names of the medicine whose rows these are, as the question may write them (메트포르민): a row listing it
    as the partner of a third drug is no pair the question names.

    >>> from retrievers.documents import Document
    >>> pair = {"dur_type": "병용금기", "partner": "이트라코나졸"}
    >>> rows = [Document("dur:ac:1", "[병용금기] 알프라졸람 … 이트라코나졸", pair),
    ...         Document("dur:cc:2", "[임부금기] 알프라졸람 …", {"dur_type": "임부금기"})]
    >>> [d.id for d in rules_for_question(rows, "자낙스랑 이트라코나졸 같이", None)]
    ['dur:ac:1']
    >>> [d.id for d in rules_for_question(rows, "임신 중 자낙스", "pregnant")]
    ['dur:cc:2']
    >>> third = Document("dur:ac:3", "[병용금기] 이오파미돌 … 메트포르민", {**pair, "partner": "메트포르민"})
    >>> [d.id for d in rules_for_question([third], "메트포르민 먹는데 술", None, own=["메트포르민"])]
    []
    >>> days = Document("dur:ec:4", "[투여기간주의] 졸피뎀 … 28일", {"dur_type": "투여기간주의", "dur_code": "ec"})
    >>> [d.id for d in rules_for_question([days], "졸피뎀 최대 며칠", None, aspects=("duration",))]
    ['dur:ec:4']
    """
    flat = question.replace(" ", "")
    own = [o.replace(" ", "") for o in own if o]

    def named(side: str) -> bool:  # in the question's text, or what an uncovered name in it is made of
        return bool(side) and (side in flat or any(o in side or side in o for o in own))

    out, said = [], set()
    for d in rows:
        ingredient, partner = ((d.metadata.get(k) or "").replace(" ", "") for k in ("ingredient", "partner"))
        # a pair the question names: its partner written, and (for an uncovered name's rows) its other side too
        pair = bool(partner) and partner in flat and ingredient != partner and (named(ingredient) or not own)
        asked = d.metadata.get("dur_code") in {ASPECT_RULES[a] for a in aspects if a in ASPECT_RULES}
        if pair or asked or (group and d.metadata.get("dur_type") == GROUP_RULE.get(group)):
            text = re.sub(r"\(\d등급\)", "", statement(d.text))  # one row per grade says the same thing
            if text not in said:
                said.add(text)
                out.append(d)
    return sorted(out, key=combination)[:MAX_RULES]  # the ingredient's own limit before a combination's


def combination(rule) -> bool:
    """A DUR rule whose statement is about a combination of ingredients (메트포르민 2,000밀리그램/시타글립틴
    100밀리그램), its forms aside.

    >>> from retrievers.documents import Document
    >>> combination(Document("dur:dc:1", "[용량주의] … 메트포르민2,000mg/시타글립틴100mg입니다. 대상 제형: 정제"))
    True
    >>> combination(Document("dur:dc:2", "[용량주의] … 2,550밀리그램입니다. 대상 제형: 정제/서방정"))
    False
    """
    return "/" in statement(rule.text).split("대상 제형")[0]


def with_rules(answer: str, rules, kinds=()) -> str:
    """The not-in-corpus answer followed by the DUR rules quoted, each cited (``[문서 N]``, 1-based); led as rules
    of some of the ingredients of `kinds` (혈압약) when the question names one."""
    if not rules:
        return answer
    lines = [f"{statement(d.text)} {cite([i])}" for i, d in enumerate(rules, 1)]
    lead = KIND_RULES_LEAD.format(words=_quoted(kinds)) if kinds else RULES_LEAD
    return "\n".join([answer, "", lead, *lines])


def dur_only_notice(ingredients) -> str:
    """The opening line of an answer about ingredients only DUR rules know (졸피뎀): no leaflet has them."""
    return DUR_ONLY_NOTICE.format(words=_quoted(ingredients)) if ingredients else ""


def outcome(out_of_scope: bool, mode: str, aspect_flagged: bool, uncovered: bool = False) -> str:
    """The outcome of one answered question (see the module docstring); `uncovered`: the answer opened with a
    notice naming a medicine the corpus lacks."""
    if out_of_scope:
        return OUT_OF_SCOPE
    if mode == NOT_IN_CORPUS or uncovered:
        return NOT_IN_CORPUS
    if mode == NOT_IN_LEAFLETS:  # about medicines in general (programs/general_question.py)
        return NOT_IN_LEAFLETS
    if aspect_flagged:
        return NOT_IN_LEAFLETS
    return ANSWERED
