"""A question naming an ingredient alone reads the other single-ingredient products' leaflets on an asked situation
the pool's leaflets leave out (`graph.ingredient_sections`, `class_aspect.ingredient_documents`), and a near-duplicate
sentence is said to be from the product whose leaflet writes it (`extractive._source`). Leaflet sentences are the
corpus's own."""

from programs import class_aspect, extractive, graph
from programs.state import QuestionState
from retrievers.documents import Document, Hit
from retrievers.lexicon import Lexicon
from retrievers.names import NameIndex
from retrievers.question_frame import read_frame
from retrievers.result import RetrievalResult

SAMIK = "다른 비스테로이드성 소염진통제, 저용량 아스피린, 고용량의 메토트렉세이트와 함께 복용하지 마십시오."
BRUFEN = "다른 비스테로이드성 소염진통제, 저용량 아스피린, 고용량의 메토트렉세이트, 알코올과 함께 복용하지 마십시오."
PLASTER = "이 약을 사용하는 동안 음주하지 마십시오."


def _doc(seq: str, name: str, section: str, body: str, ingredient: str = "이부프로펜") -> Document:
    meta = {"item_seq": seq, "item_name": name, "main_ingr": ingredient, "section": section}
    return Document(f"easydrug:{seq}:{section}", f"{name}\n{body}", meta)


DOCS = [
    _doc("1", "삼익이부프로펜정", "efcy", "이 약은 두통, 치통, 생리통에 사용합니다."),
    _doc("1", "삼익이부프로펜정", "intrc", SAMIK),
    _doc("2", "부루펜정400밀리그램", "efcy", "이 약은 두통, 치통, 생리통에 사용합니다."),
    _doc("2", "부루펜정400밀리그램", "intrc", BRUFEN),
    _doc("2", "부루펜정400밀리그램", "useMethod", "성인은 1회 1정씩, 1일 3~4회 복용합니다."),
    _doc("3", "이부쿨플라스타", "efcy", "이 약은 근육통에 사용합니다."),
    _doc("3", "이부쿨플라스타", "atpn", PLASTER),
    _doc("4", "이부콤비정", "efcy", "이 약은 두통에 사용합니다.", "이부프로펜, 카페인무수물"),
    _doc("4", "이부콤비정", "intrc", "술과 함께 복용하지 마십시오."),
]
BY_ID = {d.id: d for d in DOCS}
NAMES = NameIndex.from_documents(DOCS)


def _state(question: str, pool: list[Document]) -> QuestionState:
    st = QuestionState(question=question)
    found = NAMES.match(question)
    frame = read_frame(question, NAMES, Lexicon.load(), found=found)
    st.result = RetrievalResult(question, [Hit(d, 1.0) for d in pool], names=list(found.keys), frame=frame)
    return st


def test_an_ingredients_other_single_products_speak_of_the_situation_asked():
    question = "이부프로펜 먹고 저녁에 맥주 한두잔 괜찮나요"
    pool = [BY_ID["easydrug:1:efcy"], BY_ID["easydrug:1:intrc"]]
    added = graph.ingredient_sections(_state(question, pool), pool, BY_ID.get, NAMES)
    # the tablet's 알코올 line; not the plaster's (a medicine swallowed), nor the combination's
    assert [d.id for d in added] == ["easydrug:2:intrc"]
    assert added[0].metadata[class_aspect.SAME_INGREDIENT]
    quotes = extractive.choose(question, pool + added, names=("이부프로펜",))
    lead = next(q for q in quotes if "알코올" in q.text)
    assert extractive._source(lead, pool + added).metadata["item_name"] == "부루펜정400밀리그램"


def test_nothing_is_added_when_the_pool_speaks_of_it_or_no_situation_is_asked():
    pool = [BY_ID["easydrug:2:efcy"], BY_ID["easydrug:2:intrc"]]
    assert graph.ingredient_sections(_state("이부프로펜 먹고 맥주 마셔도", pool), pool, BY_ID.get, NAMES) == []
    pool = [BY_ID["easydrug:1:efcy"], BY_ID["easydrug:1:intrc"]]
    assert graph.ingredient_sections(_state("이부프로펜 효능이 뭐예요", pool), pool, BY_ID.get, NAMES) == []
    # a dose is the product's own (strengths differ): another product's 용법 is no answer for this one
    assert graph.ingredient_sections(_state("이부프로펜 하루에 몇 알", pool), pool, BY_ID.get, NAMES) == []


def test_a_merged_near_duplicate_is_the_product_whose_leaflet_writes_it():
    docs = [BY_ID["easydrug:1:intrc"], BY_ID["easydrug:2:intrc"]]
    quote = extractive.Quote(BRUFEN, 1.0, [1, 2])
    assert extractive._source(quote, docs).metadata["item_name"] == "부루펜정400밀리그램"
    assert extractive._source(extractive.Quote(SAMIK, 1.0, [1, 2]), docs).metadata["item_name"] == "삼익이부프로펜정"
