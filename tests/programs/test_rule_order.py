"""A user's DUR rule leads the no-LM answer only when it is about what the answer offers: one that binds only a product
the answer leaves out (a 서방정's 12세미만 rule beside a child's syrup) follows the quotes (programs/extractive.py
`about_the_answer`)."""

from programs import extractive
from retrievers.documents import Document

SR_RULE = Document(
    "dur:bc:1",
    "[특정연령대금기] 아세트아미노펜(Acetaminophen)은(는) 12세미만 환자에게 사용하면 안 됩니다. 대상 제형: 서방정.",
    {"dur_type": "특정연령대금기", "ingredient": "아세트아미노펜", "partner": ""},
)


def leaflet(seq: str, name: str, text: str) -> Document:
    meta = {"item_seq": seq, "item_name": name, "main_ingr": "아세트아미노펜", "section": "useMethod"}
    meta["section_label"] = "용법·용량"
    return Document(f"easydrug:{seq}:useMethod", f"{name} (아세트아미노펜)\n[용법·용량] {text}", meta)


SYRUP = leaflet("1", "세토펜현탁액", "만 12세 이하의 소아는 1회 권장용량을 4~6시간 마다 필요시 복용합니다.")
TABLET = leaflet("2", "타이레놀8시간이알서방정", "만 12세 이상은 1회 2정씩 8시간 마다 필요시 복용합니다.")


def body_lines(answer: str) -> list[str]:
    return [line for line in answer.splitlines() if "[문서" in line]


def test_a_rule_binding_only_a_product_left_out_follows_the_quotes():
    answer = extractive.extractive_answer("애기 해열제 몇 시간마다 먹여요", [SR_RULE, SYRUP])
    lines = body_lines(answer)
    assert "4~6시간 마다" in lines[0] and lines[-1].startswith("[특정연령대금기]")
    assert "먼저 적었습니다" not in answer  # the opening no longer says a rule comes first


def test_a_rule_binding_a_quoted_product_still_leads():
    answer = extractive.extractive_answer("타이레놀8시간이알서방정 몇 시간마다 먹어요? 아이가 10살", [SR_RULE, TABLET])
    lines = body_lines(answer)
    assert lines[0].startswith("[특정연령대금기]") and "먼저 적었습니다" in answer
