"""A DUR rule retrieval found by a number or a word ("16개월" → the 16세미만 rules of other drugs) is not the user's
rule: the answer about the product asked does not quote it first (programs/user_rules.py `stray_rules`)."""

from programs.crag import CRAG
from retrievers.documents import Document, Hit
from yaksa.testing.fake_backend import FakeBackend, default_documents

STRAY = Document(
    "dur:bc:9001",
    "[특정연령대금기] 텔비부딘(Telbivudine)은(는) 16세미만 환자에게 사용하면 안 됩니다. 대상 제형: 정제.",
    {"dur_type": "특정연령대금기", "dur_code": "bc", "ingredient": "텔비부딘"},
)
OWN = Document(
    "dur:bc:9002",
    "[특정연령대금기] 이소프로필안티피린은(는) 16세미만 환자에게 사용하면 안 됩니다.",
    {"dur_type": "특정연령대금기", "dur_code": "bc", "ingredient": "이소프로필안티피린"},
)


class RuleFindingBackend(FakeBackend):
    """The fake backend, with a DUR row found beside the leaflets (as the real index finds one by "16")."""

    def __init__(self, rule: Document):
        super().__init__(docs=[*default_documents(), rule])
        self.rule = rule

    def retrieve(self, query, k=5, extra_terms=None, avoid_terms=None):
        result = super().retrieve(query, k, extra_terms, avoid_terms)
        result.hits.insert(1, Hit(self.rule, result.hits[0].score, {"fused": result.hits[0].score}))
        return result


def _answer(question: str, rule: Document) -> tuple[str, list[dict]]:
    pred = CRAG(backend=RuleFindingBackend(rule))(question=question)
    return pred.answer, pred.trace["steps"]


def test_a_rule_about_another_drug_is_not_quoted_as_the_users_rule():
    answer, steps = _answer("16개월 아기 게보린 먹여도 되나요", STRAY)
    assert "텔비부딘" not in answer
    assert any(s["step"] == "stray_rules" and s["dropped"] == ["dur:bc:9001"] for s in steps)


def test_a_rule_about_the_products_ingredient_or_one_the_question_names_is_kept():
    answer, _ = _answer("16개월 아기 게보린 먹여도 되나요", OWN)
    assert "이소프로필안티피린" in answer
    named, steps = _answer("텔비부딘 16세미만 환자 먹어도 되나요", STRAY)
    assert not any(s["step"] == "stray_rules" for s in steps)


COMBINATION_LIMIT = Document(
    "dur:dc:9003",
    "[용량주의] 아세트아미노펜(Acetaminophen)의 1일 최대 투여량은 1,500밀리그램입니다. 이를 넘지 않도록 주의합니다. "
    "사유: 1일최대용량:아세트아미노펜1,500mg/슈도에페드린180mg. 대상 제형: 정제.",
    {"dur_type": "용량주의", "dur_code": "dc", "ingredient": "아세트아미노펜"},
)


def test_a_combinations_daily_limit_is_not_quoted_for_a_single_ingredient_tablet():
    """The 1,500 mg limit is for 아세트아미노펜 with 슈도에페드린: 타이레놀정500 holds no 슈도에페드린, so the row is
    not about it, whoever asks."""
    answer, steps = _answer("타이레놀 하루 최대 몇 알까지 먹어도 되나요", COMBINATION_LIMIT)
    assert "1,500밀리그램" not in answer
    assert any(s["step"] == "stray_rules" and "dur:dc:9003" in s["dropped"] for s in steps)


def test_a_siblings_ingredient_rule_is_not_quoted_for_the_product_the_question_names():
    """타이레놀 임산부: the 임부금기 rule of 슈도에페드린 is 타이레놀콜드-에스정's (a sibling the brand word also
    reaches), not 타이레놀정500's; the answer does not lead with it as the user's rule."""
    sibling = Document(
        "easydrug:7:atpn",
        "타이레놀콜드-에스정 (아세트아미노펜,슈도에페드린염산염)\n[사용상 주의사항] 임부는 의사와 상의하십시오.",
        {
            "item_seq": "7",
            "item_name": "타이레놀콜드-에스정",
            "main_ingr": "아세트아미노펜,슈도에페드린염산염",
            "section": "atpn",
            "section_label": "사용상 주의사항",
        },
    )
    rule = Document(
        "dur:cc:9004",
        "[임부금기] 슈도에페드린염산염은(는) 임부(임신부)에게 사용하면 안 되는 성분입니다(2등급).",
        {"dur_type": "임부금기", "dur_code": "cc", "ingredient": "슈도에페드린염산염"},
    )
    backend = FakeBackend(docs=[*default_documents(), sibling, rule])
    answer = CRAG(backend=backend)(question="타이레놀 임산부 먹어도 되나요").answer
    assert "[임부금기] 슈도에페드린" not in answer
    own = CRAG(backend=backend)(question="타이레놀콜드 임산부 먹어도 되나요").answer
    assert "슈도에페드린" in own
