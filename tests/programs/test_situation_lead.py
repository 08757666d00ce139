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


def test_of_smoking_a_list_forbidding_it_to_non_smokers_does_not_lead():
    """니코틴패치 붙이고 담배: "비흡연자 및 일시적 흡연자는 … 사용하지 마십시오" names smokers in a list of whom it is
    not for; the warning on smoking while using it answers."""
    name = "니코틴엘TTS10"

    def doc(section: str, text: str) -> Document:
        meta = {"item_seq": "199600001", "item_name": name, "section": section}
        return Document(f"easydrug:199600001:{section}", f"{name}\n{text}", meta)

    warning = "이 약 사용 중에 담배를 계속 피우면 심혈관 부작용이 나타날 수 있으므로 완전히 금연한 환자만 사용하십시오."
    docs = [
        doc("atpn", "이 약에 과민증 환자, 임부 및 수유부, 비흡연자 및 일시적 흡연자는 이 약을 사용하지 마십시오."),
        doc("atpnWarn", warning),
    ]
    quotes = choose("니코틴엘 패치 붙이고 담배 한두대 피는건 괜찮죠?", docs, names=["니코틴엘"])
    assert quotes[0].text.startswith("이 약 사용 중에 담배를 계속 피우면")


def test_a_class_asked_of_a_situation_the_cautions_hold_leads_with_the_line_speaking_of_it():
    """파스 붙이고 … 햇볕: of a class as of a named product, the member's line on the sun leads over another's."""

    def doc(seq: str, name: str, section: str, text: str) -> Document:
        meta = {"item_seq": seq, "item_name": name, "section": section}
        return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", meta)

    sun = "이 약을 사용 중이거나 사용 후 2주까지는 옥외활동을 피하고 자외선에 노출되지 않도록 합니다."
    docs = [
        doc(
            "1",
            "하니동전파스플라스타",
            "atpn",
            "5~6일간 사용하여도 증상의 개선이 없을 경우 의사 또는 약사와 상의하십시오.",
        ),
        doc("2", "케토톱플라스타", "atpn", sun),
    ]
    quotes = choose("울아빠 매일 파스 붙이시는데 낚시 갈때 붙이고 가도 되나요 햇볕 쨍쨍한데", docs)
    assert quotes[0].text.startswith("이 약을 사용 중이거나 사용 후 2주까지는")
