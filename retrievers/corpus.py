"""Load the shipped MFDS corpus as `Document`s.

Two sources (see trainsets/corpus/*/SOURCE.txt; data by 식품의약품안전처):

* e약은요 leaflets: one document per non-empty section, id ``easydrug:{itemSeq}:{section}``.
* DUR ingredient rules: one document per CSV row, id ``dur:{code}:{serial}`` where code is the
  file's two-letter type code in lower case (ac..ic) and serial the row's DUR일련번호. Serials are
  unique inside each file today; should a later snapshot repeat one, the repeat gets ``-2``, ``-3``...
  appended so ids stay unique and the first row keeps the plain id.

Example:
    >>> docs = load_corpus()
    >>> docs[0].id
    'easydrug:197900277:efcy'
"""

from __future__ import annotations

import csv
import glob
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

from retrievers.documents import Document

SECTIONS = ("efcy", "useMethod", "atpnWarn", "atpn", "intrc", "se", "depositMethod")
SECTION_LABELS = {
    "efcy": "효능·효과",
    "useMethod": "용법·용량",
    "atpnWarn": "사용 전 경고",
    "atpn": "사용상 주의사항",
    "intrc": "상호작용(함께 먹으면 안 되는 약·음식)",
    "se": "이상반응(부작용)",
    "depositMethod": "보관법",
}
DUR_TYPES = {
    "ac": "병용금기",
    "bc": "특정연령대금기",
    "cc": "임부금기",
    "dc": "용량주의",
    "ec": "투여기간주의",
    "fc": "노인주의",
    "gc": "효능군중복",
    "ic": "첨가제주의",
}
DEFAULT_CORPUS_DIR = Path(__file__).resolve().parent.parent / "trainsets" / "corpus"


class CorpusError(ValueError):
    """The corpus files are missing or malformed."""


def corpus_dir() -> Path:
    """The corpus folder: ``$YAKSA_CORPUS_DIR`` or the copy shipped in trainsets/corpus."""
    return Path(os.environ.get("YAKSA_CORPUS_DIR", DEFAULT_CORPUS_DIR))


def load_corpus(root: str | Path | None = None) -> list[Document]:
    """All leaflet and DUR documents under `root` (default: the shipped corpus), in a stable order."""
    root = Path(root) if root else corpus_dir()
    if not root.exists():
        raise CorpusError(f"corpus folder not found: {root}")
    docs = list(iter_easydrug(root / "easydrug" / "easydrug.jsonl")) if (root / "easydrug").exists() else []
    if (root / "dur").exists():
        docs.extend(iter_dur(root / "dur"))
    if not docs:
        raise CorpusError(f"no documents under {root} (expected easydrug/easydrug.jsonl and/or dur/*.csv)")
    return docs


def clean_product_name(name: str) -> str:
    """Drop export-name and other parentheticals: '게보린정(수출명:돌로린정)' -> '게보린정'."""
    return re.sub(r"\(.*?\)", "", name).strip() or name.strip()


def iter_easydrug(path: Path) -> Iterator[Document]:
    """One document per non-empty leaflet section."""
    if not path.exists():
        raise CorpusError(f"leaflet file not found: {path}")
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise CorpusError(f"{path}:{line_no}: not valid JSON ({e.msg})") from None
            yield from _leaflet_documents(row)


def _leaflet_documents(row: dict) -> Iterator[Document]:
    item_seq = str(row.get("itemSeq", "")).strip()
    if not item_seq:
        return
    name = row.get("itemName", "").strip()
    ingr = row.get("mainIngr", "").strip()
    for section in SECTIONS:
        body = (row.get(f"{section}Qesitm") or "").strip()
        if not body:
            continue
        label = SECTION_LABELS[section]
        text = f"{clean_product_name(name)} ({ingr})\n[{label}] {body}"
        meta = {
            "item_seq": item_seq,
            "item_name": name,
            "entp_name": row.get("entpName", "").strip(),
            "main_ingr": ingr,
            "section": section,
            "section_label": label,
            "updated": row.get("updateDe", ""),
        }
        yield Document(f"easydrug:{item_seq}:{section}", text, meta)


# the DUR files write a number's thousands comma as '|' (2|600밀리그램: 2,600 mg), their comma being the column's
THOUSANDS = re.compile(r"(?<=\d)\|(?=\d{3}(?!\d))")


def _v(value: str) -> str:
    """A DUR cell with '-' / '_' meaning empty, '|' between digits as a thousands comma and elsewhere as a list
    separator.

    >>> _v("아세트아미노펜2|600밀리그램"), _v("연질캡슐제|액상"), _v("-")
    ('아세트아미노펜2,600밀리그램', '연질캡슐제, 액상', '')
    """
    value = (value or "").strip().strip('"').strip()
    return "" if value in {"-", "_"} else THOUSANDS.sub(",", value).replace("|", ", ")


def dur_sentence(code: str, r: dict) -> str:
    """A readable Korean sentence for one DUR row."""
    if code not in DUR_TYPES:
        raise CorpusError(f"unknown DUR type code: {code}")
    name = f"{_v(r['DUR성분명'])}({_v(r['DUR성분명영문'])})"
    reason = _v(r["금기내용"])
    why = f" 사유: {reason}." if reason else ""
    form = f" 대상 제형: {_v(r['제형'])}." if _v(r["제형"]) else ""
    if code == "ac":
        partner = f"{_v(r['병용금기DUR성분명'])}({_v(r['병용금기DUR성분영문명'])})"
        return f"[병용금기] {name}와(과) {partner}은(는) 함께 복용(병용)하면 안 됩니다.{why}"
    if code == "bc":
        return f"[특정연령대금기] {name}은(는) {_v(r['연령기준'])} 환자에게 사용하면 안 됩니다.{why}{form}"
    if code == "cc":
        grade = _v(r["등급"])
        return f"[임부금기] {name}은(는) 임부(임신부)에게 사용하면 안 되는 성분입니다({grade}).{why}{form}"
    if code == "dc":
        dose = _v(r["1일최대용량"])
        return f"[용량주의] {name}의 1일 최대 투여량은 {dose}입니다. 이를 넘지 않도록 주의합니다.{why}{form}"
    if code == "ec":
        return f"[투여기간주의] {name}의 최대 투여기간은 {_v(r['최대투여기간'])}입니다.{why}{form}"
    if code == "fc":
        return f"[노인주의] {name}은(는) 노인(고령자)에게 사용할 때 주의가 필요합니다.{why}{form}"
    if code == "gc":
        group = _v(r["효능군"]) or _v(r["계열명"])
        return (
            f"[효능군중복] {name}은(는) {group} 효능군입니다. 같은 효능군의 약을 중복해서 함께 먹지 않도록 주의합니다."
        )
    if code == "ic":
        return f"[첨가제주의] 첨가제 {name}을(를) 함유한 약은 주의가 필요합니다.{why} {_v(r['비고'])}".strip()
    raise CorpusError(f"unknown DUR type code: {code}")


def combination_partners(row: dict) -> str:
    """The other ingredients of the combination a 복합 row binds (its 복합제 cell, each ingredient's Korean name),
    comma-separated; "" for a row about the ingredient alone (단일).

    >>> row = {"단일복합구분코드": "복합", "DUR성분명": "탄산칼슘",
    ...        "복합제": "[D1]CinnamonOil(시나몬유)/[D2]Hydrotalcite(히드로탈시트)/[D3]Calcium(탄산칼슘)"}
    >>> combination_partners(row), combination_partners({**row, "단일복합구분코드": "단일"})
    ('시나몬유, 히드로탈시트', '')
    >>> combination_partners({**row, "복합제": "[D1]Pulvis(CinnamonBarkPowder)(육계가루)/[D2]Mg(규산알루민산마그"})
    '육계가루, 규산알루민산마그'
    """
    if _v(row.get("단일복합구분코드", "")) != "복합":
        return ""
    own = "".join(_v(row.get("DUR성분명", "")).split())
    out = []
    for part in (row.get("복합제") or "").split("/"):
        korean = [g for g in re.findall(r"\(([^()]*)\)?", part) if re.search(r"[가-힣]", g)]
        name = "".join(korean[-1].split()) if korean else ""
        if name and name != own and name not in out:
            out.append(name)
    return ", ".join(out)


def iter_dur(folder: Path) -> Iterator[Document]:
    """One document per DUR row, files in type-code order."""
    files = sorted(glob.glob(str(folder / "OpenData_PotOpenDurIngr_*.csv")))
    for path in files:
        match = re.search(r"OpenData_PotOpenDurIngr_([A-Z]{2})\d+\.csv$", path)
        if not match:
            continue
        code = match.group(1).lower()
        if code not in DUR_TYPES:
            continue
        seen: dict[str, int] = {}
        with open(path, encoding="utf-8-sig", newline="") as f:
            reader = csv.reader(f, quoting=csv.QUOTE_NONE)
            header = next(reader, None)
            if not header or header[0] != "DUR일련번호":
                raise CorpusError(f"{path}: unexpected header (is this an MFDS DUR ingredient file?)")
            for line_no, cells in enumerate(reader, 2):
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) < len(header) - 1:
                    raise CorpusError(f"{path}:{line_no}: {len(cells)} columns, expected {len(header)}")
                row = dict(zip(header, cells, strict=False))
                serial = row["DUR일련번호"].strip()
                seen[serial] = seen.get(serial, 0) + 1
                doc_id = f"dur:{code}:{serial}" + (f"-{seen[serial]}" if seen[serial] > 1 else "")
                meta = {
                    "dur_type": DUR_TYPES[code],
                    "dur_code": code,
                    "ingredient": _v(row["DUR성분명"]),
                    "ingredient_en": _v(row["DUR성분명영문"]),
                    "ingredient_code": _v(row["DUR성분코드"]),
                    "partner": _v(row.get("병용금기DUR성분명", "")),
                    "partner_en": _v(row.get("병용금기DUR성분영문명", "")),
                    "related": _v(row.get("관계성분", "")),
                    "combination": combination_partners(row),
                    "notice_date": _v(row.get("고시일자", "")),
                    "status": _v(row.get("상태", "")),
                }
                yield Document(doc_id, dur_sentence(code, row), meta)


EMBED_CHARS = 64


def embedding_text(doc: Document) -> str:
    """The text the dense embedder sees: the section (label + body) without the product name.

    Product names are matched exactly by the name dictionary and BM25; leaving them out lets the many
    leaflets that share a section's wording share one vector (27k sections, about 10k distinct texts),
    and cutting at EMBED_CHARS (the opening of a section, where leaflets state what the section is about) keeps
    a full embedding of the corpus within reach of two cores; e5-small is also at its best on short passages.
    """
    if doc.source == "easydrug":
        body = doc.text.split("\n", 1)[-1]
        return body[:EMBED_CHARS]
    return doc.text[:EMBED_CHARS]
