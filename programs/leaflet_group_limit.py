"""A product's own prohibition for a pregnant or nursing asker, as its leaflet's cautions state it ("임부 또는
임신하고 있을 가능성이 있는 여성 및 수유부는 이 약을 사용하지 마십시오"): a rule of the user's like a DUR 임부금기
row, so a product whose leaflet forbids it to pregnant women is not offered to a pregnant asker (the profile or the
question: 임신 중인데 마이녹실 발라도 돼요), nor one forbidden to nursing mothers to a nursing asker, nor one
forbidden to women to any woman (the profile's sex, or a woman the question names: 30대 여자인데, 와이프가). DUR
has no rule for nursing at all, and its 임부금기 rows bind some forms only (미녹시딜's binds tablets, not the
solution).

Only a sentence that forbids (…하지 마십시오) and names the group counts, not one that asks to consult
(상의하십시오) before the forbidding clause. A stage of pregnancy it names (임신 말기 3개월 기간의 임부, 임신 3개월
이내) binds a pregnant asker too — when in doubt a rule applies, as with DUR forms — and is said in the verdict's
label. The verdict cites the sentence as a rule of its own (`group_rule`): its document is the leaflet section cut to
the sentence, labelled ``설명서`` with what it forbids.

Example:
    >>> forbids("임부 또는 임신하고 있을 가능성이 있는 여성 및 수유부는 이 약을 사용하지 마십시오.")
    {'pregnant': '임부 금지', 'nursing': '수유부 금지'}
    >>> forbids("이 약을 사용하기 전에 임부 또는 수유부는 의사 또는 약사와 상의하십시오.")
    {}
    >>> forbids("임신 말기 3개월 기간의 임부, 수유부는 이 약을 복용하지 마십시오.")
    {'pregnant': '임신 말기 3개월 기간의 임부 금지', 'nursing': '수유부 금지'}
    >>> forbids("이 약에 과민증 환자, 여성 환자, 18세 미만 환자는 이 약을 사용하지 마십시오.")
    {'pregnant': '여성 금지', 'nursing': '여성 금지', 'women': '여성 금지'}
    >>> forbids("임신 3개월 이내의 여성은 비타민A를 5,000 IU/일 이상 투여하지 마십시오.")
    {}
    >>> forbids("심한 증상의 궤양성 대장염, 수유부는 이 약을 복용하지 마십시오.")
    {'nursing': '수유부 금지'}
"""

from __future__ import annotations

import re

from programs.leaflet_age_limit import CAUTION_SECTIONS, CONSULT  # one reading of "consult"
from programs.offer_guard import NOT_FOR_USER
from programs.text import split_sentences
from retrievers.documents import Document

LEAFLET_LABEL = "설명서"  # the verdict's label: 마이녹실액3%(설명서 임부 금지 [문서 3])
# how the leaflets name each group (수유부, 임부 또는 임신하고 있을 가능성이 있는 여성)
GROUP_WORDS = {
    "pregnant": ("임부", "임신부", "임산부", "임신하고 있을 가능성", "임신 중인 여성", "임신중인 여성", "임신한 여성"),
    "nursing": ("수유부", "수유 중인 여성", "수유중인 여성", "수유 중인 부인", "수유중인 부인"),
}
SAID = {"pregnant": "임부 금지", "nursing": "수유부 금지"}  # each group's label in the verdict
# a product no woman may use (마이녹실액5%: 여성 환자 … 사용하지 마십시오): any woman's, pregnant or not
WOMEN = "여성 환자"
WOMEN_SAID = "여성 금지"
FORBIDS = re.compile(r"(?:복용|사용|투여|투약|먹이|바르|붙이|뿌리|점안|삽입)(?:하)?지\s*마(?:십시오|세요)")
# a stage of pregnancy, as the leaflets bound it: 임신 말기 3개월 기간의 임부, 임신 6개월 이상의 임부, 임신 3개월 이내
_STAGE = re.compile(r"임신\s*(?:말기|초기|중기|후기|\d+\s*(?:개월|주))[^,.]{0,14}?(?:임부|이내|이상|여성)")
# an amount it must not exceed (비타민A를 5,000 IU/일 이상 투여하지 마십시오): a dose limit, not the product forbidden
_DOSE_LIMIT = re.compile(r"\d[\d,.]*\s*(?:IU|mg|g|mL|정|캡슐|포)[^,]{0,12}(?:이상|초과|넘)")


def forbids(sentence: str) -> dict[str, str]:
    """The groups (``pregnant``, ``nursing``, ``women``) the sentence forbids the product to, each with its label:
    each named before a forbidding clause with no consulting clause between them (women: 여성 환자, so all three)."""
    verb = FORBIDS.search(sentence)
    if not verb or _DOSE_LIMIT.search(sentence, 0, verb.start()):
        return {}
    out = {}
    at = sentence.find(WOMEN)
    women = 0 <= at < verb.start() and not CONSULT.search(sentence, at, verb.start())
    if women:
        return dict.fromkeys(("pregnant", "nursing", "women"), WOMEN_SAID)
    for group, words in GROUP_WORDS.items():
        at = [sentence.find(w) for w in words if 0 <= sentence.find(w) < verb.start()]
        if at and not CONSULT.search(sentence, min(at), verb.start()):
            stage = _STAGE.search(sentence, 0, verb.start()) if group == "pregnant" else None
            out[group] = " ".join(stage.group().split()) + " 금지" if stage else SAID[group]
    return out


def first_rule(section: Document, reads) -> Document | None:
    """The first sentence of the leaflet `section` that `reads` (a sentence -> (id suffix, label), or None when it
    forbids nothing of the asker's) says forbids the product, as a rule document citing it: id
    ``<section id>#<suffix>``, the section's metadata with ``dur_type`` 설명서 and the label as its ``ingredient``,
    the verdict on its product citing itself. The leaflet rules for a group, a kind taken with it and a condition
    share it."""
    head, _, body = section.text.partition("\n")
    for sentence in split_sentences(body or head):
        found = reads(sentence)
        if found:
            suffix, label = found
            rule_id = f"{section.id}#{suffix}"
            meta = {**section.metadata, "dur_type": LEAFLET_LABEL, "ingredient": label, "partner": ""}
            meta[NOT_FOR_USER] = [rule_id]
            return Document(rule_id, f"{head}\n{sentence}" if body else sentence, meta)
    return None


def group_rule(section: Document, groups: tuple[str, ...]) -> Document | None:
    """The leaflet section's sentence that forbids the product to one of the asker's `groups`, as a rule document
    citing it (`first_rule`: id ``…#pregnant`` or ``…#nursing``, what it forbids as the label); None when none does."""
    if section.metadata.get("section") not in CAUTION_SECTIONS or not groups:
        return None

    def reads(sentence: str):
        said = forbids(sentence)
        hit = next((g for g in groups if g in said), None)
        return (hit, said[hit]) if hit else None

    return first_rule(section, reads)


def product_rule(seq: str, groups: tuple[str, ...], leaflet) -> list[Document]:
    """The product's own caution that forbids it to one of the asker's `groups` (``pregnant``, ``nursing``), as a
    rule (`group_rule`; at most one, [] for none); `leaflet`: a document id -> the document (the backend's ``get``)."""
    for section in CAUTION_SECTIONS if groups else ():
        doc = leaflet(f"easydrug:{seq}:{section}")
        if doc is not None and (rule := group_rule(doc, groups)) is not None:
            return [rule]
    return []
