"""Which product a question names (programs/name_mentions.py): for a child's question, the brand's product whose
용법·용량 doses the child is the named one, so the answer quotes its dose, not the adults' tablet withheld."""

from programs import offer_guard
from programs.name_mentions import named_products
from retrievers.documents import Document


def _doc(seq: str, name: str, section: str, text: str) -> Document:
    return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", {"item_seq": seq, "item_name": name})


DOCS = [
    _doc("1", "타이레놀정500밀리그람", "useMethod", "만 12세 이상 소아 및 성인은 1회 1~2정씩 복용합니다."),
    _doc("2", "어린이타이레놀현탁액", "useMethod", "만 12세 이하의 소아는 1회 권장용량을 4-6시간마다 복용합니다."),
]


def test_a_childs_question_names_the_brands_product_dosing_the_child():
    assert named_products(DOCS, ["타이레놀"], "5살 아이 타이레놀 몇 미리 먹여요") == {"2"}


def test_a_childs_question_writing_the_strength_or_a_grown_ups_product_names_that_product():
    """타이레놀500 반알 쪼개서, 어른 타이레놀: the adults' tablet is what the parent has, so its own leaflet (its age
    limit) answers, not the children's suspension."""
    assert named_products(DOCS, ["타이레놀"], "초3 딸 열나는데 타이레놀500밖에 없어요 반알 먹여도 되나요") == {"1"}
    assert named_products(DOCS, ["타이레놀"], "5살 아이 어른 타이레놀 쪼개서 먹여도 되나요") == {"1"}
    assert named_products(DOCS, ["타이레놀"], "5살 아이 타이레놀 먹여도 되나요") == {"2"}


def test_otherwise_the_product_the_name_is_the_whole_of():
    assert named_products(DOCS, ["타이레놀"], "타이레놀 하루 몇 알 먹어요") == {"1"}
    assert named_products(DOCS[1:2] + DOCS[:1], ["타이레놀"], "타이레놀 하루 몇 알") == {"1"}  # not the first found


def test_the_product_the_name_is_the_whole_of_stays_when_it_doses_the_child():
    """콜대원콜드 8살: 콜대원콜드시럽 doses an 8-year-old itself; another syrup of the brand found first does not
    replace it."""
    docs = [
        _doc("3", "콜대원콜드큐시럽", "useMethod", "만 7세 이상~만 11세 미만 1/2포를 복용합니다."),
        _doc("4", "콜대원콜드시럽", "useMethod", "만 7세 이상~만 11세 미만은 1회 1/2포를 복용합니다."),
    ]
    assert named_products(docs, ["콜대원콜드"], "콜대원콜드 8살 아이 한번에 얼마나 먹여요") == {"4"}


def test_a_products_dose_not_among_the_documents_is_read_by_get():
    """Retrieval found the 사용상 주의사항 sections only (5살 아이 타이레놀 먹여도 돼요?): the brand's 용법·용량 are
    read by id, so the children's suspension is still the one named."""
    cautions = [Document(d.id.replace("useMethod", "atpn"), d.text, d.metadata) for d in DOCS]
    uses = {d.id: d for d in DOCS}
    assert named_products(cautions, ["타이레놀"], "5살 아이 타이레놀 먹여도 돼요?") == {"1"}  # nothing to read
    assert named_products(cautions, ["타이레놀"], "5살 아이 타이레놀 먹여도 돼요?", uses.get) == {"2"}


def test_a_sibling_the_users_rules_allow_is_named_when_the_brands_first_product_is_withheld():
    """4살 … 베나치오 얼만큼: the 세립 (its 탄산칼슘 rule binds the granules) is withheld from a 4-year-old; the
    brand's 액, which the rules allow and which doses the child, is the one asked about. Writing the form keeps the
    one asked."""
    granules = _doc("1", "베나치오세립", "useMethod", "만 3세 이상~만 5세 미만은 1/4포씩 1일 3회 식후에 복용합니다.")
    granules.metadata[offer_guard.NOT_FOR_USER] = ["dur:bc:1"]
    liquid = _doc("2", "베나치오액", "useMethod", "만 3세 이상~만 5세 미만은 1회 1/4병, 1일 3회 식후에 복용합니다.")
    assert named_products([granules, liquid], ["베나치오"], "4살 아이가 체했는데 베나치오 얼만큼 먹여요?") == {"2"}
    assert named_products([granules, liquid], ["베나치오"], "4살 아이 베나치오 세립 얼만큼 먹여요?") == {"1"}
    adults = _doc("2", "베나치오액", "useMethod", "만 15세 이상 및 성인은 1회 1병 복용합니다.")
    assert named_products([granules, adults], ["베나치오"], "4살 아이가 체했는데 베나치오 얼만큼 먹여요?") == {"1"}


def test_a_lozenge_called_a_sweet_is_the_brands_lozenge():
    """니코틴엘 사탕: the brand's 로젠즈 … 트로키, not its gum found first."""
    docs = [
        _doc("1", "니코틴엘껌2밀리그램", "useMethod", "하루 총 사용량이 15개를 넘지 않도록 합니다."),
        _doc("2", "니코틴엘로젠즈민트향트로키1밀리그램", "useMethod", "1일 최대 25정 이상을 넘지 않도록 합니다."),
    ]
    assert named_products(docs, ["니코틴엘"], "니코틴엘 사탕 하루에 몇개까지 먹어도 돼요") == {"2"}
    assert named_products(docs, ["니코틴엘"], "니코틴엘 하루에 몇개까지 먹어도 돼요") == {"1"}


def test_a_sweet_or_a_candy_is_the_form_a_lozenges_name_writes():
    """사탕 and 캔디 read as 트로키, the form the lozenges' names write, so retrieval prefers them by form."""
    from retrievers.form_kinds import question_forms

    assert question_forms("니코틴엘 사탕 하루 몇개") == question_forms("니코틴엘 캔디 하루 몇개") == ["트로키"]


def test_a_brand_asked_of_a_symptom_names_the_sibling_whose_efficacy_names_it():
    """이지엔6 has no product of that name alone: asked 생리통 심할때 이지엔6 빈속에, the sibling whose 효능 names
    생리통 is the one asked about, not the night-pain one retrieval put first; with no symptom, retrieval's first."""
    from programs.name_mentions import named_products

    def leaflet(seq, name, section, text):
        return Document(f"easydrug:{seq}:{section}", f"{name}\n{text}", {"item_name": name, "section": section})

    night = leaflet("1", "가상펜나이트연질캡슐", "useMethod", "1일 1회 취침 전 복용합니다.")
    eve = leaflet("2", "가상펜이브연질캡슐", "useMethod", "공복을 피하여 복용합니다.")
    efficacy = {
        "easydrug:1:efcy": leaflet("1", "가상펜나이트연질캡슐", "efcy", "급성 야간 통증에 사용합니다."),
        "easydrug:2:efcy": leaflet("2", "가상펜이브연질캡슐", "efcy", "두통, 치통, 생리통의 진통에 사용합니다."),
    }
    docs = [night, eve]
    assert named_products(docs, ["가상펜"], "생리통 심할때 가상펜 빈속에 먹어도 되나요", efficacy.get) == {"2"}
    assert named_products(docs, ["가상펜"], "가상펜 빈속에 먹어도 되나요", efficacy.get) == {"1"}


def test_a_form_said_of_a_brand_picks_the_product_whose_form_may_be_it():
    """탄툼 가글: the spray retrieval put first is no gargle; 삼아탄툼액, a liquid, may be one (its leaflet forbids it
    to children of 12 and under, which the spray's does not)."""
    docs = [
        _doc("1", "탄툼베르데네뷸라이저(벤지다민염산염)", "useMethod", "1회 4~8번 분무합니다."),
        _doc("2", "삼아탄툼액(벤지다민염산염)", "useMethod", "1회 15 mL를 양치질합니다."),
    ]
    assert named_products(docs, ["탄툼"], "10살 아들 목이 부었는데 탄툼 가글 시켜도 되나요?") == {"2"}
    assert named_products(docs, ["탄툼"], "탄툼 하루 몇 번 써요") == {"1"}


def test_with_no_age_stated_the_product_named_whole_stays_unless_it_doses_only_older_people():
    """챔프 빨강 먹여도 (a child, no age): 챔프시럽 gives a per-weight dose and no ages, so the brand's cold syrup whose
    table doses children is no better a reading of it; 타이레놀 for a child still means the children's suspension."""
    docs = [
        _doc("3", "챔프콜드시럽", "useMethod", "만 4세 이상~만 7세 미만은 1회 6 mL, 1일 3회 복용합니다."),
        _doc(
            "4",
            "챔프시럽(아세트아미노펜)",
            "useMethod",
            "1회 권장용량을 4~6시간 마다 필요시 복용합니다. 1일 5회(75 mg/kg)를 초과하여 복용하지 않습니다.",
        ),
    ]
    assert named_products(docs, ["챔프"], "맥시부펜 먹인지 2시간 됐는데 챔프 빨강 지금 먹여도 되나요?") == {"4"}
    assert named_products(DOCS, ["타이레놀"], "아기 열나는데 타이레놀 먹여도 돼요") == {"2"}
