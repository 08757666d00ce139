"""The words names are made of and questions use around them: dosage forms, salts, brand variants, house prefixes,
ordinary words that are never names, and the verbs of taking or applying a medicine.

Example:
    >>> QUESTION_FORMS["안약"], DOSAGE_FORMS.index("연질캡슐") < DOSAGE_FORMS.index("캡슐")
    ('점안액', True)
"""

# Longest first, so 연질캡슐 is removed before 캡슐 and 내복액 before 액.
DOSAGE_FORMS = sorted(
    """연질캡슐 경질캡슐 캡슐 츄어블정 츄정 필름코팅정 서방정 장용정 발포정 나정 구강붕해정 정 시럽 건조시럽 내복액
    현탁액 액제 외용액 액 과립 세립 산 환 크림 연고 겔 젤 로션 패취 패치 플라스타 카타플라스마 스프레이 점안액 점비액
    좌제 질정 질좌제 트로키 네일라카 가글 구강용해필름 필름 츄잉껌 껌 캔디 파스
    에어로솔 에어로졸 폼 샴푸 엑스 엑스과립 주""".split(),
    key=len,
    reverse=True,
)
# Forms people name in questions ("판콜 시럽", "클리어틴 크림"): the unambiguous two-syllable-plus dosage forms, and
# everyday words for some of them (안약 -> 점안액), each mapped to the word a product name carries.
QUESTION_FORMS = {
    **{f: f for f in DOSAGE_FORMS if len(f) >= 2 and f not in {"나정", "엑스", "엑스과립", "액제"}},
    "좌약": "좌제",
    "안약": "점안액",
    "패치": "패취",  # the leaflets' spelling
    "츄어블": "츄어블",
    "이알": "이알",  # 타이레놀 이알: the 8시간이알서방정 of the brand (ER, extended release)
    "서방": "서방",
    # 니코틴엘 사탕 / 캔디: the brand's lozenge, as its name writes the form (로젠즈 … 트로키), not its gum
    "사탕": "트로키",
    "캔디": "트로키",
}
# Everyday words that say a medicine's form without naming one (붙이는 멀미약, 가루 변비약, 짜먹는 위장약) -> the
# form_kinds kinds they mean; the first word found decides.
SAID_FORMS = (
    (("붙이", "붙여", "붙인", "붙였", "붙히", "붙혀"), ("patch", "skin")),
    (("뿌리는", "뿌려", "뿌린", "뿌렸"), ("spray", "skin", "mouth", "nasal")),
    # 구내염약 발라도: put on, not swallowed (a name ending in 액 may be either, so oral_liquid stays)
    (("바르는", "바르고", "바르면", "발라", "발랐", "바른"), ("skin", "mouth", "nasal", "vaginal", "oral_liquid")),
    (("가루", "분말"), ("granule",)),
    (("물약", "짜먹", "짜서 먹", "마시는"), ("oral_liquid",)),
    # 알약, and 알 counted (한알, 두 알, 2알): a tablet or capsule
    (
        (
            *("알약", "한알", "두알", "세알", "반알", "몇알", "1알", "2알", "3알"),
            *("한 알", "두 알", "세 알", "반 알", "몇 알"),
        ),
        ("tablet", "capsule", "sr"),
    ),
    (("귀에 넣", "귀에넣", "귀약", "점이약", "점이액"), ("ear",)),  # 귀에 넣는 약: ear drops
)
# Nouns people use for a medicine by how it looks or is kept, not a product or a class (알약 반으로 쪼개도 돼요, 상비약
# 뭐 사둬요, 캡슐 까서 가루만 먹어도): like 약 itself, they say the question is about medicine. Forms only medicines
# come in; not 크림, 로션, 샴푸, 캔디, 패치, which are as often cosmetics, sweets or software.
MEDICINE_NOUNS = frozenset(
    """약 알약 물약 가루약 좌약 안약 상비약 비상약 먹는약 캡슐 연질캡슐 경질캡슐 시럽 연고 좌제 질정 트로키 현탁액
    내복액 점안액 점비액 과립 파스""".split()
)
# Words for swallowing a medicine, words for using it otherwise, and the dosage forms that are not swallowed.
ORAL_VERBS = ("먹", "복용", "삼키", "삼켜", "씹어")
EXTERNAL_VERBS = ("바르", "발라", "발랐", "붙이", "붙여", "붙였", "뿌리", "뿌려", "넣", "가글")
EXTERNAL_FORMS = tuple(
    """크림 연고 겔 젤 로션 패취 패치 플라스타 카타플라스마 첩부제 스프레이 스프레이액 스프레이제 점안액 점비액
    좌제 좌약 질정 질좌제 세정액 외용액 가글 네일라카 에어로솔 폼 샴푸 파스""".split()
)
# Ingredient names end in a form or concentration the corpus writes and people drop: 폴리크레줄렌액50%, 은행엽엑스.
INGREDIENT_FORMS = sorted("액 엑스 건조엑스 연조엑스 유동엑스 농축액 틴크 열매".split(), key=len, reverse=True)
SALT_SUFFIXES = sorted(
    """염산염수화물 염산염일수화물 염산염 염산 말레산염 브롬화수소산염수화물 브롬화수소산염 수화물 일수화물 이수화물
    무수물 나트륨 칼슘 칼륨 마그네슘 질산염 타르타르산염 숙신산염 황산염 베실산염 메실산염 시트르산염 푸마르산염
    아세테이트 인산염 인산나트륨 말산염 글루콘산염 브롬화물 염화물 착염 2배산 10배산 100배산 1000배산 배산
    아세토니드 발레레이트 탄닌산염 펜디조산염 리시네이트 아세트산염 오로트산염 석시네이트 숙시네이트""".split(),
    key=len,
    reverse=True,
)
# Salts the corpus names acid first, older style (염산세티리진, 말레인산페니라민, 글루콘산클로르헥시딘, 초산토코페롤,
# L-아스파르트산-L-오르니틴): the part after the acid is the medicine people name.
COUNTER_ION_PREFIXES = ("아스파르트산", "말레인산", "글루콘산", "오로트산", "초산", "염산")
# ... unless what follows is a mineral or a hydrate: there the acid is the medicine (글루콘산칼슘, 글루콘산제일철).
MINERAL_BASES = ("칼슘", "칼륨", "나트륨", "마그네슘", "아연", "제일철", "제이철", "철", "수화물", "일수화물")
# Inorganic anions: a metal after one is no salt of a medicine but half of the medicine itself (탄산칼슘 and
# 탄산마그네슘 are two antacids, 산화마그네슘 and 염화나트륨 no 산화 or 염화), so it is not cut from the name.
INORGANIC_ANIONS = frozenset(
    "탄산 탄산수소 인산 인산수소 황산 질산 구연산 산화 수산화 염화 규산 붕산 요오드화 브롬화".split()
)
METALS = ("나트륨", "칼슘", "칼륨", "마그네슘")
VARIANT_SUFFIXES = (
    "에이",
    "에스",
    "플러스",
    "골드",
    "포르테",
    "키즈",
    "콜드",
    "이알",
    "8시간이알",
    "맥스",
    "큐",
    "씨",
    "듀오",
)
HOUSE_PREFIXES = (
    "솔표",
    "그린",
    "대웅",
    "동화",
    "광동",
    "유한",
    "일양",
    "한미",
    "종근당",
    "동아",
    "녹십자",
    "삼진",
    "영진",
)
# Keys that are ordinary words in questions, never taken as names on their own.
STOP_KEYS = {
    "감기",
    "소화",
    "두통",
    "비타민",
    "종합",
    "어린이",
    "키즈",
    "위장",
    "변비",
    "파스",
    "연고",
    "크림",
    "시럽",
    "가스",
    "그린",
    "메모",
    "명랑",
    "로얄",
    "기가",
    "메가",
    "리치",
    "라라",
    "나나",
    "모나",
    "디오",
    "마스",
    "노원",
    "리노",
    "마그",
    "액티브",
    # everyday words that are also short product names
    "코드",
    "하루",
    "아침",
    "저녁",
    "오늘",
    "내일",
    "운동",
    "여행",
    "사랑",
    "행복",
    "건강",
    "청춘",
    "미인",
    "엄마",
    "아빠",
    "아이",  # a child (아이가 토해요), and the start of eye products' names (아이골드정, 아이미루)
}
# How people spell some of the corpus's (MFDS) ingredient spellings: 하이드로퀴논 for 히드로퀴논, 은행잎 for 은행엽.
SPELLING_VARIANTS = (
    ("히드로", "하이드로"),
    ("히드록시", "하이드록시"),
    ("클로르", "클로"),
    ("메토르판", "메토판"),
    ("은행엽", "은행잎"),
    ("시슬", "씨슬"),  # 밀크씨슬
)
# 2: salts written acid first and two spellings of one ingredient join their medicine's key
