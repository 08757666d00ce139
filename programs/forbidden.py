"""Whether a product is forbidden for this user: the one decision every answer that offers or names a product asks.

Who asks (`Asker`) comes from the profile and from the population the question states: pregnant → 임부금기, an age
or a child / infant / adolescent → 특정연령대금기 (the rule's age compared), elderly → 노인주의, medicines taken →
병용금기 (the pair's other side in the product). A rule forbids a product when it applies to the asker, names one of
the product's ingredients and binds the product's dosage form (retrievers/form_kinds.py: a rule for 서방정 does not
forbid a syrup). When in doubt — an age not stated, a form not read — the rule forbids.

Example:
    >>> from retrievers.documents import Document
    >>> rule = Document("dur:bc:456", "[특정연령대금기] 아세트아미노펜(Acetaminophen)은(는) 12세미만 환자에게 사용하면 "
    ...                 "안 됩니다. 대상 제형: 서방정.", {"dur_type": "특정연령대금기", "ingredient": "아세트아미노펜"})
    >>> child = asker(None, "5살 아이 열나요")
    >>> child.ages, child.dur_types()
    (((5, 6),), ['특정연령대금기'])
    >>> syrup = Product("1", "어린이타이레놀현탁액", ("아세트아미노펜",))
    >>> tablet = Product("2", "타이레놀8시간이알서방정", ("아세트아미노펜",))
    >>> forbidding_rules(syrup, [rule], child), [r.id for r in forbidding_rules(tablet, [rule], child)]
    ([], ['dur:bc:456'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from programs import dur_rule
from programs.answer_requirements import question_dur_types
from programs.asker_condition import stated_conditions
from programs.profile import WOMAN
from retrievers.dur_binding import binds_product, same_name
from retrievers.population import CHILD_AGE, ELDERLY_AGE, a_nursed_baby, names_a_woman, read_population, stated_ages

OLDEST = 130.0
GROUP_AGES = {"infant": (0.0, 2.0), "child": (0.0, 12.0), "adolescent": (12.0, 19.0), "elderly": (65.0, OLDEST)}
SLOT_AGES = {"특정연령대금기": (0.0, 12.0), "노인주의": (65.0, OLDEST)}  # 아이, 어르신 … in the question's words


@dataclass(frozen=True)
class Asker:
    """Who the answer is for, as far as DUR rules and the leaflets' own prohibitions go: pregnant, the ages they may
    be ([low, high) in years), the medicines they take, nursing a baby (no DUR type: the leaflets' 수유부 lines)."""

    pregnant: bool = False
    ages: tuple[tuple[float, float], ...] = ()
    medicines: tuple[str, ...] = ()
    nursing: bool = False
    kinds: tuple[str, ...] = ()  # the kinds of the medicines taken (해열진통제 …; programs/leaflet_pair_limit.py)
    conditions: tuple[str, ...] = ()  # the profile's conditions (programs/leaflet_condition_limit.py)
    woman: bool = False  # the profile's sex or a woman the question names (여성 환자 … 사용하지 마십시오)

    @property
    def elderly(self) -> bool:
        return any(low >= ELDERLY_AGE for low, _ in self.ages)

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups a leaflet may forbid a product to (programs/leaflet_group_limit.py): pregnant, nursing, women."""
        flags = (("pregnant", self.pregnant), ("nursing", self.nursing), ("women", self.woman))
        return tuple(group for group, on in flags if on)

    def dur_types(self) -> list[str]:
        """The DUR rule types that can forbid a product to this asker."""
        types = ["특정연령대금기"] if self.ages else []
        types += ["임부금기"] if self.pregnant else []
        types += ["노인주의"] if self.elderly else []
        return types + (["병용금기"] if self.medicines else [])


@dataclass(frozen=True)
class Product:
    """A leaflet's product: its item_seq, its name (which says its form) and its main ingredients."""

    item_seq: str
    name: str
    ingredients: tuple[str, ...]

    @classmethod
    def of(cls, doc) -> Product:
        meta = doc.metadata
        ingredients = tuple(i.strip() for i in str(meta.get("main_ingr", "")).split(",") if i.strip())
        return cls(str(meta.get("item_seq", "")), str(meta.get("item_name", "")), ingredients)


def asker(profile, question: str = "", names=()) -> Asker:
    """The asker of the profile (or None) and of the population the question states (`names`: recognised product
    names, so 아이엔점안액 is no child).

    >>> asker(None, "임신 중인데 감기약 뭐 먹어요").pregnant, asker(None, "80대 아버지 변비약").ages
    (True, ((80, 90),))
    >>> asker(None, "모유 수유 중인데 변비약 먹어도 돼요").groups
    ('nursing', 'women')
    >>> asker(None, "30대 여자인데 탈모약 발라도 돼요").groups, asker(None, "탈모약 발라도 돼요").groups
    (('women',), ())

    A profile's age outside the group the question names is the asker's own, and the group is read too:

    >>> from programs.profile import UserProfile
    >>> asker(UserProfile.from_dict({"age": 34}), "우리 아기 눈이 충혈됐어요").ages
    ((34.0, 35.0), (0.0, 2.0))
    >>> asker(UserProfile.from_dict({"age": 1}), "우리 아기 눈이 충혈됐어요").ages
    ((1.0, 2.0),)
    >>> asker(UserProfile.from_dict({"age": 4}), "애기 장염이라 스멕타 먹이는데").ages
    ((4.0, 5.0),)
    """
    pregnant = bool(profile and profile.pregnant)
    ages = [(float(profile.age), profile.age + 1.0)] if profile and profile.age is not None else []
    population = read_population(question, names) if question else None
    if population and population.group == "pregnant":
        pregnant = True
    stated = stated_ages(question) if question else None
    if stated and stated[0] < CHILD_AGE and a_nursed_baby(question):
        stated = None  # 백일 아기 모유 먹이는 중인데: the nursed baby's age, not the mother's
    if stated:
        ages.append(stated)
    elif (
        population
        and (group := GROUP_AGES.get(population.group))
        and not any(_within(a, group) for a in ages)
        and not (ages and all(high <= CHILD_AGE for _, high in ages))
    ):
        # 먹이면 implies a child: a profile's age in the group says which; one outside it is the asker's own (a
        # parent's), and the child's group is read as well, unless the profile is a child's (a 4-year-old's
        # profile asking of 애기 is that child, called as people call any small child: no parent of a baby)
        ages.append(group)
    slots = question_dur_types(question) if question else []
    pregnant = pregnant or "임부금기" in slots
    for slot, span in SLOT_AGES.items():
        if slot in slots and not any(_within(a, span) for a in ages):
            ages.append(span)
    medicines = tuple(profile.medicines) if profile else ()
    nursing = bool(profile and profile.breastfeeding) or bool(population and population.group == "breastfeeding")
    # the profile's conditions, and those the question says the one taking it has (녹내장이 있는데 멀미약)
    own = tuple(profile.conditions) if profile else ()
    conditions = tuple(dict.fromkeys([*own, *(stated_conditions(question) if question else ())]))
    woman = bool(profile and profile.sex == WOMAN) or pregnant or nursing or bool(question and names_a_woman(question))
    return Asker(pregnant, tuple(dict.fromkeys(ages)), medicines, nursing, conditions=conditions, woman=woman)


def _within(ages: tuple[float, float], span: tuple[float, float]) -> bool:
    return span[0] <= ages[0] and ages[1] <= span[1]


def applies(rule, who: Asker, medicine: Callable[[str, str], bool] = same_name) -> bool:
    """The rule is one of the asker's: of a type the asker has, its age theirs, its pair partner a medicine taken."""
    kind = rule.metadata.get("dur_type", "")
    if kind not in who.dur_types():
        return False
    if kind == "특정연령대금기":
        return dur_rule.age_binds(dur_rule.age_limit(rule.text), who.ages)
    if kind == "병용금기":
        return any(medicine(side, m) for side in rule_sides(rule) for m in who.medicines)
    return True


def forbidding_rules(product: Product, rules, who: Asker, same: Callable[[str, str], bool] = same_name) -> list:
    """The rules among `rules` that forbid `product` to `who`: applicable, about one of its ingredients (for a pair,
    one side in the product and the other a medicine taken), binding its dosage form."""
    out = []
    for rule in rules:
        if not applies(rule, who) or not binds_product(rule, product.name, product.ingredients, same):
            continue
        ingredient, partner = rule_sides(rule)
        held = [side for side in (ingredient, partner) if side and any(same(side, i) for i in product.ingredients)]
        if rule.metadata.get("dur_type") == "병용금기":
            other = {ingredient: partner, partner: ingredient}
            held = [s for s in held if any(same_name(other[s], m) for m in who.medicines)]
        if held:
            out.append(rule)
    return out


def rule_sides(rule) -> tuple[str, str]:
    """A DUR rule's ingredient and its pair partner ("" for a rule of one ingredient)."""
    meta = rule.metadata
    return str(meta.get("ingredient", "")), str(meta.get("partner", ""))
