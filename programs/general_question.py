"""A question about medicines in general, not one of them (전문의약품이랑 일반의약품 차이가 뭐예요, 먹다 남은 약
어떻게 버려요, 처방전 없이 살 수 있는 약): the leaflets describe one product each and DUR one ingredient each, so
neither says how medicines are classified, prescribed or thrown away. Such a question is about medicine — never out of
scope — and its answer says the leaflets do not cover it and points to a pharmacist, quoting nothing (another
product's leaflet would read as the answer); its outcome is ``not_in_leaflets`` (programs/outcome.py), with no LM
call.

It is read by the words of the medicine system (reviewed domain vocabulary, `SYSTEM`), in a question that names no
product, ingredient, kind of medicine or symptom of its own (처방약, 약국약, 물약 name none: `ANY_KIND`): 타이레놀
버려도 돼요 asks about 타이레놀. How medicine is bought and sold, carried abroad, paid for, or what the law says of it
(편의점에서 살 수 있어요, 미성년자한테 팔아요, 세관, 비행기에 들고 가도, 처벌, 문 연 약국, 헌혈) is beyond the leaflets
whatever the question names (`TRADE`: none of its words is in any leaflet, checked in a test): a product's leaflet
says how to use it, not who may sell it. So is a pet (`ANIMAL`: 강아지한테 후시딘): the leaflets are for people.

Example:
    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> asks_in_general(QuestionFrame("전문의약품이랑 일반의약품 차이가 뭐에요?"))
    True
    >>> asks_in_general(QuestionFrame("먹다남은 약 어떻게 버려요?")), asks_in_general(QuestionFrame("약 먹고 버스"))
    (True, False)
    >>> asks_in_general(QuestionFrame("타이레놀 남은 거 버려요?", Targets(products=("타이레놀",))))
    False
"""

from __future__ import annotations

import re

from retrievers.form_kinds import question_forms, said_kinds
from retrievers.question_frame import GENERIC, MAY_I

TOLD = GENERIC | {"side_effects"}  # what a symptom told alone reads as: what helps, what it is like

# how medicines are classified and sold (전문의약품, 일반의약품, 의약외품, 안전상비의약품, 처방전 없이), and how
# leftover medicine is thrown away (남은 약 버리는 법, 폐의약품 수거): the system, not a product
SYSTEM = re.compile(
    r"전문\s*의약품|일반\s*의약품|의약\s*외품|상비\s*의약품|약국\s*약이랑|처방\s*약이랑|처방전\s*(?:없이|있어야|이\s*필요|필요)"
    r"|(?:일반|전문)\s*약\s*(?:이랑|과|은|는|이|차이)"
    r"|상비\s*약\s*(?:이랑|과|은|는|이|차이)|폐\s*의약품"
    r"|(?:(?:(?<![가-힣])|(?<=물)|(?<=가루)|(?<=알))약(?![속간혼관점])|영양제)[^?？.!]{0,20}?(?:버려|버리|버림|폐기|수거)"
)
# buying and selling asked (살 수 있어요, 사 올 수, 팔아요, 판매하나요; not 약국에서 파는 인공눈물 or 살 수 있는 약,
# which ask which one), carrying it abroad or bringing it in (세관, 비행기에 들고; not 직구한 멜라토닌, which asks
# about taking it), the law (처벌, 불법; not 음주단속, a breath test a spray's alcohol may fail), its price or
# insurance, which pharmacy is open, giving blood: asked, each is
# beyond what a leaflet says of its product
TRADE = re.compile(
    r"살\s*수\s*(?:있(?!는)|없)|사\s*올\s*수|구할\s*수|(?:구매|구입)\s*(?:가능|할\s*수|하려면|해도)|어디서\s*(?:사|팔|구해|구하)"
    r"|팔아(?:요|도|\s*주|[?？])|파나요|파는지|파는\s*곳|팔\s*수|판매\s*(?:해요|하나요|되나요|가능|금지|하는지|되는지|처)|미성년자"
    r"|(?<!모)세관|통관|반입|비행기에?\s*(?:들고|가지고|갖고)|해외에서\s*(?:사|산|구매|구입|가져|들여)|들여(?:와|올)"
    # carried abroad (중국 출장 가는데 판콜 챙겨가도, 일본에 들고 가면 걸려요): what another country allows
    r"|(?:해외|외국|출국|입국|공항|중국|미국|일본|베트남|태국|유럽|호주|캐나다|필리핀|대만|홍콩|괌|싱가포르|동남아)"
    r"[^?？.!]{0,25}?(?:챙겨|들고|가지고|갖고|가져)\s*(?:가|나가|갈)"
    r"|처벌|불법|압수|잡혀\s*가|(?<!음주)(?<!음주\s)단속|벌금|위법|가격|약\s*값|값이\s*얼마|보험\s*(?:적용|되|안\s*되)"
    # what it costs (얼마 정도 해요, 얼마 주고 샀는데, 박스로 사면 더 싼가요, 몇천 원; not 최대 용량이 얼마에요, a dose)
    r"|얼마\s*(?:정도|쯤)?\s*(?:해요|하나요|하죠|하는지|할까|주고|줬|줘야|받아요|받나요)"
    r"|(?<![가-힣])(?:싼가요|싼지|싸나요|싸요|싸게|싼\s*곳|싼\s*데)|저렴|(?<![가-힣])비싸|비싼|비쌈|최저가|몇\s*천\s*원|\d\s*원(?![가-힣])"
    r"|실비\s*(?:보험|청구|처리|적용|되|돼)|비급여|연말\s*정산|(?:의료비|세액|소득)\s*공제"
    r"|(?:문\s*(?:연|여는|열린)|심야|당번|휴일|24\s*시간?)\s*약국|약국\s*(?:문\s*(?:열|닫)|영업|몇\s*시|어디|찾)|헌혈"
)
# where or how leftover medicine is thrown away (어디다 버려요, 하수구에 버려도, 분리수거, 폐의약품 수거함): no leaflet
# says it whatever the question names (none of these words is in one; a leaflet's 남은 액은 버리십시오 says when, and
# 남은 거 버려야 돼요 goes on to it)
DISPOSAL = re.compile(
    r"어디(?:다|에|에다)?\s*(?:버려|버리|버림)|하수구|변기에?\s*(?:버려|버리|흘려|내려)|분리\s*수거|일반\s*쓰레기"
    r"|쓰레기\s*(?:통|봉투)?\s*(?:에|에다)?\s*(?:버려|버리)|폐\s*의약품|약\s*수거|수거\s*함"
)
# what illness a symptom is, or whether it needs a doctor, asked with no medicine named (두근거려요 무슨 병인가요,
# 어디가 안 좋은 건가요, 병원 가봐야 돼요): a leaflet describes its product, it diagnoses nothing
DIAGNOSIS = re.compile(
    r"무슨\s*(?:병|질환|증상\s*인|문제)|어떤\s*(?:병|질환)|(?:병|질환)\s*(?:인가|일까|이에요|인지|인거|인건|걸린)"
    r"|어디가\s*(?:안\s*좋|아픈\s*거|이상|문제)|병원\s*(?:에\s*)?(?:가\s*봐야|가봐야|가야|안\s*가도|가는\s*게|가야\s*하)"
    r"|무슨\s*과\s*(?:로|에|가)"
    # how serious it is, whether to go to the emergency room or be tested again (응급실 가야 하나요, 심각한 건가요,
    # 재검 받아야 되나요)
    r"|응급실|재검|심각한\s*(?:건|거|상태)|병원\s*(?:에\s*)?(?:갈까|가볼까|가\s*볼까)|진료\s*(?:를\s*)?받아야"
)
DOCTOR_NOTICE = (
    "※ 설명서(e약은요)는 증상이 얼마나 심각한지나 병원에 가야 하는지는 알려 주지 않습니다: 아래는 찾은 설명서의 "
    "내용입니다. 증상이 심하거나 나아지지 않으면 바로 의사의 진료를 받으세요."
)
# which food, fruit or tea is good for an illness, asked with no medicine named (감기에 좋은 음식, 변비에 좋은 과일
# 추천, 목감기엔 무슨 차 마시면 좋아요): the leaflets say what to avoid while taking their product (설사 시 생음식 …
# 먹지 마십시오, a question of what not to eat goes on), never which food helps
FOOD_ADVICE = re.compile(
    r"(?:좋은|좋다는|좋을|도움\s*(?:되는|이\s*되는|될))\s*(?:음식|과일|채소|야채|식품|먹거리|음료|차(?![가-힣]))"
    r"|(?:음식|과일|채소|야채|식품|먹거리)\s*(?:뭐|무엇|추천|좀\s*추천)"
    r"|무슨\s*(?:음식|과일|채소|야채|차(?=\s*(?:마시|먹|가|를|는)))"
    # 물을 하루 2리터씩 마시면 변비가 나아지나요: whether eating or drinking it helps
    # (up to three words between, each ended by a space: a word split any other way backtracks without end)
    r"|(?<![가-힣])(?:물|음식|과일|채소|야채)\s*(?:을|를)?\s*(?:[^\s?？.!]+\s+){0,3}?(?:마시면|먹으면)"
    r"\s*(?:[^\s?？.!]+\s+){0,2}?(?:나아|좋아|도움|효과|낫)"
)
# words the class reader takes for kinds that name no kind of medicine, only how it is sold or its form (처방약,
# 약국약, 상비약, 물약, 영양제): beside a word of `SYSTEM` they are what the question says of medicines in general
ANY_KIND = frozenset({"처방약", "약국약", "상비약", "일반약", "전문약", "물약", "가루약", "알약", "영양제"})
# a pet the medicine would be for (강아지, 고양이, 반려견): the leaflets are for people
ANIMAL = re.compile(r"강아지|고양이|반려\s*(?:견|묘|동물)|애완\s*(?:견|묘|동물)|댕댕이|냥이|멍멍이|강쥐")
ANIMAL_ANSWER = (
    "설명서(e약은요)와 DUR은 사람이 쓰는 약에 대한 자료라, 반려동물에게 써도 되는지나 그 양은 나와 있지 않습니다. "
    "사람 약이 동물에게 해로울 수 있으니 동물병원 수의사에게 물어보세요."
)
NO_TARGET_ANSWER = (
    "질문에서 어떤 약(제품이나 성분, 약의 종류)에 대한 것인지 찾지 못했습니다. 설명서(e약은요)와 DUR은 제품과 성분마다 "
    "정리된 자료라, 약을 정하지 않은 질문에 답할 내용은 나와 있지 않습니다. 약 이름을 함께 적어 다시 묻거나 약사에게 "
    "물어보세요."
)
# going to daycare, school or work with an illness, or catching it from someone (어린이집 며칠 쉬어야, 등원해도,
# 전염되나요, 옮아요): asked of a symptom with no medicine used, no leaflet says it
ATTENDING = re.compile(
    r"어린이집|유치원|등원|등교|학교\s*(?:가|보내|쉬)|출근|격리|전염|옮(?:기|겨|길|을|는|나|아|았|으)"
)
MEDICINE = re.compile(r"약(?!속)|처방|의약")  # a question saying it is about medicine, naming none
# "may I" said of taking, giving, putting on or drinking something (먹어도, 먹여도, 발라도, 마셔도): a use of a medicine
USING = re.compile(
    r"(?:먹|드시|드셔|복용|바르|발라|붙이|붙여|넣|뿌리|뿌려|써|쓰|사용|마시|마셔|삼키|씹|녹여|타서|먹여|먹이|맞)"
    r"\S{0,3}\s*(?:도|면\s*안)\s*(?:돼|되|괜찮|됨|될)"
)
TRADE_ANSWER = (
    "설명서(e약은요)는 제품 하나하나를 어떻게 쓰는지(효능·용법·주의사항)를, DUR은 성분의 사용 규칙을 다룬 자료라, "
    "약을 어디서 누구에게 파는지, 값이나 보험, 연말정산, 해외에서 들여오거나 가지고 나가는 방법, 법적인 처벌, "
    "문 연 약국, 헌혈 같은 내용은 나와 있지 않습니다. 가까운 약국의 약사나 담당 기관에 물어보세요."
)
ANSWER = (
    "설명서(e약은요)는 제품 하나하나의 효능·용법·주의사항을, DUR은 성분의 사용 규칙을 다룬 자료라, 의약품을 어떻게 "
    "나누고 파는지(전문의약품·일반의약품, 처방전), 남은 약을 어떻게 버리는지 같은 의약품 전반의 내용은 나와 있지 "
    "않습니다. 가까운 약국의 약사에게 물어보세요."
)


FOOD_ANSWER = (
    "설명서(e약은요)와 DUR은 약 하나하나를 어떻게 쓰는지를 다룬 자료라, 어떤 음식이나 음료가 병이나 증상에 좋은지는 "
    "나와 있지 않습니다. 먹는 것은 의사나 약사와 상의하세요. 어떤 약을 써도 되는지 궁금하면 약 이름이나 증상을 "
    "함께 적어 물어보세요."
)
DIAGNOSIS_ANSWER = (
    "설명서(e약은요)와 DUR은 약 하나하나를 어떻게 쓰는지를 다룬 자료라, 증상이 어떤 병 때문인지나 병원에 가야 하는지는 "
    "알려 주지 않습니다. 증상이 계속되거나 심해지면 의사의 진료를 받으세요. 어떤 약을 써도 되는지 궁금하면 약 이름을 "
    "함께 적어 물어보세요."
)


def asks_in_general(frame) -> bool:
    """Whether the question (its `QuestionFrame`) asks about medicines in general: a word of `TRADE` or `ANIMAL`
    (of a medicine), or one of `SYSTEM` and no target of its own (product, ingredient, kind of medicine, symptom).

    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> asks_in_general(QuestionFrame("중학생인데 편의점에서 타이레놀 살 수 있어요?", Targets(products=("타이레놀",))))
    True
    >>> asks_in_general(QuestionFrame("약국에서 파는 인공눈물 하루 몇 번 넣어요?", Targets(classes=("인공눈물",))))
    False
    >>> asks_in_general(QuestionFrame("비트코인 가격 얼마예요?"))
    False

    Carrying it abroad, and where leftover medicine goes (`DISPOSAL`), whatever is named:

    >>> cold = Targets(products=("판콜에이",), classes=("감기약",))
    >>> asks_in_general(QuestionFrame("중국 출장가는데 판콜에이 챙겨가도 되나요? 들고가면 잡혀간다고", cold))
    True
    >>> asks_in_general(QuestionFrame("먹다남은 감기약 어디다 버려요? 하수구에 버려도 되나", cold))
    True
    >>> asks_in_general(QuestionFrame("일회용 인공눈물 남은거 버려야 돼요?", Targets(classes=("인공눈물",))))
    False

    A diagnosis asked of a symptom, no medicine named (`DIAGNOSIS`), is beyond the leaflets too:

    >>> asks_in_general(QuestionFrame("누워있어도 심장이 두근두근 뛰어요 무슨 병인가요?", Targets(symptoms=("두근",))))
    True
    >>> asks_in_general(QuestionFrame("두통약 먹어도 계속 아파요 병원 가봐야 하나요?", Targets(classes=("두통약",))))
    False

    So is which food helps an illness (`FOOD_ADVICE`), not what to avoid while taking a medicine:

    >>> asks_in_general(QuestionFrame("감기 걸렸을때 좋은 음식 뭐 있어요", Targets(symptoms=("감기",))))
    True
    >>> asks_in_general(QuestionFrame("감기약 먹을 때 좋은 음식", Targets(classes=("감기약",))))
    False
    """
    targets = frame.targets
    if TRADE.search(frame.question) or ANIMAL.search(frame.question) or DISPOSAL.search(frame.question):
        # of a medicine: 비트코인 가격 is not
        return bool(targets.products or targets.ingredients or targets.classes or targets.symptoms) or bool(
            MEDICINE.search(frame.question)
        )
    medicine = targets.products or targets.ingredients or set(targets.classes) - ANY_KIND
    if not medicine and DIAGNOSIS.search(frame.question) and not MEDICINE.search(frame.question):
        return True  # 가만히 있어도 심장이 두근거려요 무슨 병인가요: a diagnosis, whatever symptom it names
    if not medicine and FOOD_ADVICE.search(frame.question) and not MEDICINE.search(frame.question):
        return True  # 감기에 좋은 음식: which food helps, whatever symptom it names
    if medicine or targets.symptoms:
        return False
    return bool(SYSTEM.search(frame.question))


def asks_a_doctors_call(question: str) -> bool:
    """Whether the question asks what only a doctor can judge (`DIAGNOSIS`: what illness it is, how serious, whether
    to go to hospital or the emergency room) beside the medicine it names: the answer then opens with
    `DOCTOR_NOTICE` before what the leaflets say of the medicine.

    >>> asks_a_doctors_call("4살 딸 열이 39.5도인데 해열제 먹인지 두시간 지나도 안떨어져요 지금 응급실 가야하나요")
    True
    >>> asks_a_doctors_call("해열제 먹인지 두시간 지났는데 또 먹여도 돼요?")
    False
    """
    return bool(DIAGNOSIS.search(question))


def names_nothing(frame) -> bool:
    """The question (its `QuestionFrame`) asks something particular (when, with what, how: not only what helps or
    what it is like, which a symptom told in words the frame does not read asks, 이가 아파요, 입술이 부르텄어요),
    names no product, ingredient, kind of medicine (beyond how it is sold or its form, `ANY_KIND`) or symptom, and
    does not speak of a medicine (약, 처방: 이 약 어떻게 먹어요 goes on to the corrective loop): no leaflet can be told
    to be the one it asks about.

    >>> from retrievers.question_frame import QuestionFrame, Targets
    >>> names_nothing(QuestionFrame("충치 치료하고 마취가 안 풀렸는데 밥 먹어도 되나요?", aspects=("timing_food",)))
    True
    >>> names_nothing(QuestionFrame("두통약 밥 먹고 먹어요?", Targets(classes=("두통약",)), aspects=("timing_food",)))
    False
    >>> names_nothing(QuestionFrame("이가 아파요", aspects=("efficacy",)))
    False
    >>> names_nothing(QuestionFrame("입술이 부르텄어요", aspects=("efficacy", "side_effects")))
    False
    >>> names_nothing(QuestionFrame("이 약 어떻게 먹어요?", aspects=("how_to_take",)))
    False

    A symptom named, it asks whether one may do something that is no use of a medicine (보내도, 가도: nothing to
    take, put on or drink):

    >>> flu = Targets(symptoms=("독감", "발열"))
    >>> names_nothing(QuestionFrame("5살 딸 독감인데 열 내리면 어린이집 보내도 돼요?", flu, aspects=("child_use",)))
    True
    >>> names_nothing(QuestionFrame("독감인데 열 내리는 거 먹여도 돼요?", flu, aspects=("child_use",)))
    False

    So does one asking when a child may go back to daycare, or whether it is catching (no use of a medicine said):

    >>> mouth = Targets(symptoms=("구내염",))
    >>> names_nothing(QuestionFrame("아이 구내염이면 어린이집 며칠 쉬어야 하나요", mouth, aspects=("duration",)))
    True
    >>> names_nothing(QuestionFrame("구내염 연고 바르면 어린이집 보내도 되나요", mouth, aspects=("cautions",)))
    False
    """
    targets = frame.targets
    medicine = targets.products or targets.ingredients or set(targets.classes) - ANY_KIND
    # 이 약 어떻게 먹어요: a medicine is spoken of, which the corrective loop (and a query LM) may still find; so is
    # one named by its form alone (트로키 씹어 삼켜도, 시럽 냉장 보관)
    if medicine or MEDICINE.search(frame.question) or question_forms(frame.question):
        return False
    if targets.symptoms:  # 독감인데 열 내리면 어린이집 보내도 돼요: a symptom, and may one do what no medicine is
        return (
            bool(MAY_I.search(frame.question) or ATTENDING.search(frame.question))
            and not USING.search(frame.question)
            and not said_kinds(frame.question)  # 여드름 약 바른 얼굴로: the symptom's medicine, by how it is used
        )
    return not set(frame.aspects) <= TOLD


def general_answer(question: str) -> str:
    """The answer to a question about medicines in general: what the leaflets do not say of a pet
    (`ANIMAL_ANSWER`), of trade and law (`TRADE_ANSWER`), of what illness a symptom is (`DIAGNOSIS_ANSWER`), of how
    medicines are classified and thrown away
    (`ANSWER`), or, naming no medicine at all, that no leaflet can be told to be the one asked about
    (`NO_TARGET_ANSWER`)."""
    if ANIMAL.search(question):
        return ANIMAL_ANSWER
    if TRADE.search(question):
        return TRADE_ANSWER
    if DISPOSAL.search(question):
        return ANSWER
    if DIAGNOSIS.search(question) and not SYSTEM.search(question):
        return DIAGNOSIS_ANSWER
    if FOOD_ADVICE.search(question) and not SYSTEM.search(question):
        return FOOD_ANSWER
    return ANSWER if SYSTEM.search(question) else NO_TARGET_ANSWER
