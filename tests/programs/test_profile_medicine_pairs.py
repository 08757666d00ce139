"""A profile medicine written as a product (아스피린장용정100mg) is its ingredient to the 병용금기 rows
(programs/user_rules.py `pairs_an_offer`): a row pairing it with a drug the answer does not hold is not quoted as the
user's, as with the medicine written as the ingredient; ingredient names compared by the real index's canonical
keys, as the program does."""

from programs.answer_context import same_ingredient
from programs.forbidden import Asker, Product
from programs.user_rules import pairs_an_offer
from retrievers.documents import Document

ROW = Document(
    "dur:ac:73",
    "[병용금기] 아스피린(Aspirin)와(과) 메토트렉세이트(Methotrexate)은(는) 함께 복용(병용)하면 안 됩니다.",
    {"dur_type": "병용금기", "ingredient": "아스피린", "partner": "메토트렉세이트"},
)
ASPIRIN = Product("1", "경보아스피린장용정", ("아스피린",))
MTX = Product("2", "엠티엑스정", ("메토트렉세이트",))


def test_a_row_with_a_third_drug_is_not_the_users_whichever_way_the_medicine_is_written(searcher):
    same = same_ingredient(searcher)
    for medicine in ("아스피린", "아스피린장용정100mg", "아스피린 장용정 100mg"):
        user = Asker(medicines=(medicine,))
        assert not pairs_an_offer(ROW, user, [ASPIRIN], same), medicine
        assert pairs_an_offer(ROW, user, [ASPIRIN, MTX], same), medicine
