"""The grounding check over the real mini-corpus documents: every fault kind is caught, and answers built only from
document sentences lose nothing."""

import pytest

from programs.grounding import check, normalise, quantities
from programs.refinement import header_and_body
from programs.text import split_sentences
from yaksa.testing.mini_index import real_searcher


@pytest.fixture(scope="module")
def corpus():
    s = real_searcher()
    return s, {d.id: d for d in s.docs}


def doc_of(docs, product: str, section: str):
    return next(d for d in docs.values() if d.id.endswith(":" + section) and product in d.metadata.get("item_name", ""))


@pytest.fixture(scope="module")
def given(corpus):
    """[문서 1] 게보린 용법, [문서 2] 게보린 경고, [문서 3] 부루펜 용법."""
    _, docs = corpus
    wanted = [("게보린", "useMethod"), ("게보린", "atpnWarn"), ("부루펜", "useMethod")]
    return [doc_of(docs, product, section) for product, section in wanted]


GOOD = "성인은 1회 1정 1일 3회까지 공복시를 피해 복용합니다. [문서 1]"
FAULTS = {
    "invented dose": ("이 약은 하루 최대 37정까지 복용해도 안전합니다. [문서 1]", "number"),
    "invented dose in mg": ("성인은 1회 750 mg을 복용합니다. [문서 1]", "number"),
    "wrong unit": ("성인은 1회 1캡슐 복용합니다. [문서 1]", "number"),
    "wrong frequency": ("성인은 1일 6회까지 복용합니다. [문서 1]", "number"),
    "wrong frequency in words": ("하루 다섯 번까지 드셔도 됩니다. [문서 1]", "number"),
    "wrong interval": ("복용간격은 2시간 이상으로 합니다. [문서 1]", "number"),
    "wrong daily maximum": ("아세트아미노펜으로 일일 최대 용량(6,000 mg)을 넘지 마십시오. [문서 2]", "number"),
    "fake citation": ("게보린은 안전한 약입니다. [문서 9]", "cites"),
    "fake citation beside a real one": ("성인은 1회 1정 복용합니다. [문서 1, 7]", "cites"),
    "flipped prohibition": ("아세트아미노펜을 포함하는 다른 제품과 함께 복용해도 됩니다. [문서 2]", "permits"),
    "flipped prohibition on drinking": ("술을 매일 마시는 사람도 이 약을 복용해도 괜찮습니다. [문서 2]", "permits"),
    "drug from another document": ("이부프로펜과 함께 복용합니다. [문서 1]", "name"),
    "invented drug name": ("아스피린을 함께 복용하면 효과가 좋습니다. [문서 1]", "name"),
    "invented ingredient": ("나프록센 성분이 들어 있습니다. [문서 2]", "name"),
    # names the corpus does not know, though a fragment of them (게보린) is a known name in the cited document
    "mangled name": ("게보린clinical정은 공복을 피해 드세요. [문서 1]", "name"),
    "invented sibling of a known brand": ("게보린콜드정을 함께 복용합니다. [문서 1]", "name"),
}


REASONS = {"number": "the number", "cites": "which was not given", "permits": "permits", "name": "the name"}


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_every_fault_kind_is_caught_and_the_rest_kept(kind, given, corpus):
    fault, reason = FAULTS[kind]
    out = check(f"{GOOD} {fault}\n\n전문가와 꼭 상담하세요.", given, names=corpus[0].names)
    assert [r["sentence"] for r in out.removed] == [fault], out.removed
    assert REASONS[reason] in out.removed[0]["reason"]
    assert out.answer.startswith(GOOD)
    assert fault not in out.answer
    assert "전문가와 꼭 상담하세요." in out.answer


def test_the_trace_says_which_test_removed_a_sentence(given, corpus):
    out = check(f"{GOOD} 게보린clinical정은 공복을 피해 드세요. [문서 1]", given, names=corpus[0].names)
    assert [r["check"] for r in out.removed] == ["name"]


def test_the_stub_dose_sentence_is_removed_with_both_reasons_available(given, corpus):
    out = check("하루 최대 37정까지 복용해도 안전합니다. [문서 9]", given, names=corpus[0].names)
    assert out.answer == ""
    assert "[문서 9]" in out.removed[0]["reason"]


def test_answers_built_from_document_sentences_are_never_cut(corpus):
    """Every sentence of every mini-corpus document, cited to its own document among five: 0 removals."""
    searcher, docs = corpus
    ordered = list(docs.values())
    checked = 0
    for start in range(0, len(ordered), 5):
        group = ordered[start : start + 5]
        lines = []
        for n, doc in enumerate(group, 1):
            _, body = header_and_body(doc)
            lines += [f"{s} [문서 {n}]" for s in split_sentences(body)]
        out = check("\n".join(lines), group, names=searcher.names)
        assert out.removed == [], out.removed[:3]
        checked += out.checked
    assert checked > 80


def test_paraphrased_units_and_merged_citations_are_accepted(given, corpus):
    answer = (
        "성인은 한 번에 1알, 하루 세 번까지 드세요. [문서 1]\n"
        "복용 간격은 4 시간 이상입니다. [문서 1, 3]\n"
        "아세트아미노펜은 하루 4000mg을 넘기지 마십시오. [문서 2]"
    )
    out = check(answer, given, names=corpus[0].names)
    assert out.removed == []
    assert out.answer == answer


def test_uncited_sentences_are_checked_against_the_next_cited_one(given, corpus):
    out = check("하루 10정까지 됩니다. 성인은 1회 1정 복용합니다. [문서 1]", given, names=corpus[0].names)
    assert [r["sentence"] for r in out.removed] == ["하루 10정까지 됩니다."]


def test_numbers_the_user_gave_are_not_claims(given, corpus):
    out = check("70세이시면 1회 1정 복용합니다. [문서 1]", given, user_text="나이 70세", names=corpus[0].names)
    assert out.removed == []


def test_normalised_forms():
    assert normalise("하루 세 번 2 알") == "1일3회2정"
    assert quantities("1~2정, 4,000 밀리그람, 12살") == ["1정", "2정", "4000mg", "12세"]
    assert quantities("1회 1/2~1정") == ["1회", "1/2정", "1정"]


def test_fractions_and_ranges_of_a_document_are_supported():
    from retrievers.documents import Document

    doc = Document(
        "easydrug:1:useMethod", "우루사\n[용법·용량] 이 약은 1회 1/2~1정(50 mg~100 mg)씩, 1일 3회 복용합니다."
    )
    out = check("[용법·용량] 이 약은 1회 1/2~1정(50 mg~100 mg)씩, 1일 3회 복용합니다. [문서 1]", [doc])
    assert out.removed == []
    assert [r["reason"] for r in check("1회 2정씩 복용합니다. [문서 1]", [doc]).removed] == [
        "the number 2정 is not in the cited documents"
    ]


@pytest.fixture(scope="module")
def shipped_leaflets():
    """The shipped corpus's leaflets and its name index (4,700 products: the close-spelling readings have names to
    collide with, which the mini corpus lacks)."""
    from retrievers.corpus import corpus_dir, iter_easydrug
    from retrievers.names import NameIndex

    docs = list(iter_easydrug(corpus_dir() / "easydrug" / "easydrug.jsonl"))
    return docs, NameIndex.from_documents(docs)


@pytest.mark.parametrize(
    "product, section",
    [("에모젠정", "efcy"), ("액티피드정", "intrc")],  # 가래, 오한 ~ 가레오; 구아네티딘 ~ 구아내…
)
def test_leaflet_sentences_are_not_read_as_other_names(shipped_leaflets, product, section):
    """Words of a leaflet a syllable off a product name (가래, 오한 ~ 가레오) are the leaflet's words: the check reads
    names as written, not as a question's misspellings."""
    docs, names = shipped_leaflets
    doc = next(d for d in docs if d.id.endswith(":" + section) and d.metadata.get("item_name", "").startswith(product))
    _, body = header_and_body(doc)
    out = check("\n".join(f"{s} [문서 1]" for s in split_sentences(body)), [doc], names=names)
    assert out.removed == [], out.removed[:2]
