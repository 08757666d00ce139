"""Words of a condition, as the 효능 sections use them: `python -m retrievers.condition_words` mines them.

A question that names no medicine and matches no symptom rule can still be about a condition the leaflets treat:
입술이 부르텄어요, 발뒤꿈치가 갈라졌어요, 코피가 자주 나요. Such a question keeps to the words the leaflets use for
it, and one of them is a noun the 효능 sections use for what a product is for (입술, 각질, 코피). The nouns mined
here are those in at least `MIN_DF` efficacy sections and in at most `MAX_SHARE` of them: a noun most efficacy
sections write (사용, 효과, 증상) says nothing of a particular condition. A verb or adjective counts by the noun
leaflets make of it (가렵다 → 가려움, 따갑다 → 따가움). No word is listed by hand.

The out-of-scope guard (`retrievers.oos_guard`) keeps such a question in scope when every noun it writes is one the
leaflets use (or says who it is about: 아기, 고딩): 머리 염색 코스 추천 writes nouns no leaflet uses and stays out,
as do 엑셀 함수 (a word in Latin letters) and chit-chat with no condition noun (안녕 뭐해).

Example:
    >>> from types import SimpleNamespace as T
    >>> tokens = [T(form="입술", tag="NNG"), T(form="이", tag="JKS"), T(form="부르트", tag="VV")]
    >>> named_conditions(tokens, conditions={"입술"}, known={"입술"}, people=set())
    ['입술']
    >>> tokens = [T(form="엑셀", tag="NNG"), T(form="함수", tag="NNG")]
    >>> named_conditions(tokens, conditions={"함수"}, known={"함수"}, people=set())
    []
"""

from __future__ import annotations

import argparse
import functools
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from retrievers.stem_nouns import nominal

CONDITIONS_PATH = Path(__file__).parent / "data" / "condition_words.json"
MIN_DF = 2  # a noun of at least two efficacy sections: one product's own wording is no condition people name
MAX_SHARE = 0.1  # a noun in more than a tenth of them (사용, 효과, 증상) says nothing of a particular condition
NOUNS = ("NNG", "NNP")
PREDICATES = ("VA", "VV", "XR")
FOREIGN = "SL"  # a word in Latin letters: a product the corpus lacks, or something else (vlookup)


def mine_conditions(efficacy_tokens: Iterable[Iterable], min_df: int = MIN_DF, max_share: float = MAX_SHARE):
    """The common nouns (two syllables or more) of the efficacy sections, each with its section count, kept when
    in at least `min_df` sections and at most `max_share` of them.

    >>> from types import SimpleNamespace as T
    >>> sections = [[T(form="입술", tag="NNG"), T(form="사용", tag="NNG")]] * 3 + [[T(form="사용", tag="NNG")]] * 27
    >>> mine_conditions(sections)
    {'입술': 3}
    """
    df: Counter = Counter()
    n = 0
    for tokens in efficacy_tokens:
        n += 1
        df.update({t.form for t in tokens if t.tag == "NNG" and len(t.form) > 1})
    return {w: c for w, c in sorted(df.items()) if c >= min_df and c <= max_share * n}


CAUTION_SECTIONS = ("atpn", "atpnWarn")
# written before 환자 yet no condition of their own (과민반응 경험 환자, 투여 중인 환자, 복용 전후, 65세 이상 노인):
# reviewed from the mined list
GENERAL_BEFORE_PATIENT = frozenset(
    "여성 경험 증상 미만 장애 질환 투여 이상 체질 상태 곤란 치료 노인 손상 주사 전후 발생 발현 성인 보인 "
    "주전 감염 결핍 부전 폐색 폐쇄 항문".split()
)
BEFORE_PATIENT = re.compile(r"([가-힣]{2,})\s*(?:\([^()]*\))?\s*환자")  # 수두 환자, 고혈압 환자, 녹내장(…) 환자


def mine_caution_conditions(bodies: Iterable[str], is_noun, min_df: int = MIN_DF) -> dict[str, int]:
    """The conditions the 주의사항 sections name their patients by (수두 환자는 … 상의하십시오, 천식 환자): each word
    written right before 환자 that Kiwi reads as one noun (`is_noun`; not 복용하는 or 중인) and is no general word
    (`GENERAL_BEFORE_PATIENT`), with its section count, kept when in at least `min_df` sections.

    >>> bodies = ["수두 환자는 상의하십시오.", "수두 환자, 복용하는 환자는 상의하십시오.", "고혈압 환자"]
    >>> mine_caution_conditions(bodies, is_noun=lambda w: w != "복용하는")
    {'수두': 2}
    """
    df: Counter = Counter()
    for body in bodies:
        df.update({w for w in BEFORE_PATIENT.findall(body) if w not in GENERAL_BEFORE_PATIENT and is_noun(w)})
    return {w: c for w, c in sorted(df.items()) if c >= min_df}


@functools.lru_cache(maxsize=1)
def load_caution_conditions() -> frozenset[str]:
    """The shipped conditions the cautions name their patients by (``data/condition_words.json``, ``cautions``)."""
    return frozenset(json.loads(CONDITIONS_PATH.read_text(encoding="utf-8")).get("cautions", {}))


@functools.lru_cache(maxsize=1)
def load_conditions() -> frozenset[str]:
    """The shipped condition nouns (``data/condition_words.json``)."""
    return frozenset(json.loads(CONDITIONS_PATH.read_text(encoding="utf-8"))["words"])


def named_conditions(tokens: Iterable, conditions, known, people) -> list[str]:
    """The condition words (`conditions`) a question's Kiwi `tokens` name, a predicate read as its noun (가렵 →
    가려움); [] when the question also writes a noun no leaflet uses (`known`: the leaflets' words) that is not
    about who it is for (`people`), or a word in Latin letters: it is about something else.

    >>> from types import SimpleNamespace as T
    >>> itchy = [T(form="귀", tag="NNG"), T(form="가렵", tag="VA")]
    >>> named_conditions(itchy, conditions={"가려움"}, known={"귀"}, people=set())
    ['가려움']
    >>> hair = [T(form="머리", tag="NNG"), T(form="염색", tag="NNG")]
    >>> named_conditions(hair, conditions={"머리"}, known={"머리"}, people=set())
    []
    """
    found: list[str] = []
    for t in tokens:
        if t.tag == FOREIGN:
            return []
        if t.tag in NOUNS and len(t.form) > 1:
            if t.form in conditions:
                found.append(t.form)
            elif t.form not in known and t.form not in people:
                return []
        elif t.tag in PREDICATES and (noun := nominal(t.form)) and noun != t.form and noun in conditions:
            found.append(noun)
    return list(dict.fromkeys(found))


def about_elsewhere(tokens: Iterable, known, people) -> bool:
    """Every noun (two syllables or more) the question writes is one no leaflet uses (`known`) and none is about who
    it is for (`people`): 파스타 면 삶는 시간, 강아지 배변훈련 speak of something else. False with no such noun.

    >>> from types import SimpleNamespace as T
    >>> about_elsewhere([T(form="파스타", tag="NNG"), T(form="시간", tag="NNG")], known={"시간"}, people=set())
    False
    >>> about_elsewhere([T(form="강아지", tag="NNG"), T(form="훈련", tag="NNG")], known={"시간"}, people=set())
    True
    """
    nouns = [t.form for t in tokens if t.tag in NOUNS and len(t.form) > 1]
    return bool(nouns) and all(n not in known and n not in people for n in nouns)


def main(argv: list[str] | None = None) -> None:
    from retrievers.corpus import load_corpus
    from retrievers.tokenizer import KiwiTokenizer

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    tokenizer = KiwiTokenizer()
    docs = load_corpus()
    bodies = list(dict.fromkeys(d.text.partition("\n")[2] for d in docs if d.metadata.get("section") == "efcy"))
    words = mine_conditions(tokenizer.tagged(b) for b in bodies)
    cautions = list(
        dict.fromkeys(d.text.partition("\n")[2] for d in docs if d.metadata.get("section") in CAUTION_SECTIONS)
    )

    def is_noun(word: str) -> bool:
        tagged = tokenizer.tagged(word)
        return len(tagged) == 1 and tagged[0].tag in NOUNS

    patients = mine_caution_conditions(cautions, is_noun)
    out = {
        "version": 1,
        "sections": len(bodies),
        "min_df": MIN_DF,
        "max_share": MAX_SHARE,
        "words": words,
        "caution_sections": len(cautions),
        "cautions": patients,
    }
    CONDITIONS_PATH.write_text(json.dumps(out, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(
        f"{len(words)} condition nouns from {len(bodies)} efficacy sections, {len(patients)} conditions the "
        f"cautions name patients by from {len(cautions)} caution sections -> {CONDITIONS_PATH}"
    )


if __name__ == "__main__":
    main()
