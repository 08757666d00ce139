"""Asked first of a named product in a situation no section holds (술, 운전), the line saying not to leads over one
sending the asker to a pharmacist (real 타이레놀정500밀리그람 sentences)."""

from programs.extractive import choose
from retrievers.documents import Document

NAME = "타이레놀정500밀리그람(아세트아미노펜)"


def _doc(section: str, text: str) -> Document:
    meta = {"item_seq": "202106092", "item_name": NAME, "section": section}
    return Document(f"easydrug:202106092:{section}", f"{NAME}\n{text}", meta)


def test_a_line_saying_not_to_drink_leads_over_one_saying_to_consult():
    docs = [
        _doc(
            "intrc",
            "바르비탈계 약물, 삼환계 항우울제 및 알코올을 투여한 환자는 의사 또는 약사와 상의하십시오.",
        ),
        _doc("atpn", "복용 중에 음주하지 마십시오."),
    ]
    quotes = choose("회식인데 타이레놀 한알 먹고 가서 술 마셔도 되나여?", docs, names=["타이레놀"])
    assert quotes[0].text.startswith("복용 중에 음주하지 마십시오")
