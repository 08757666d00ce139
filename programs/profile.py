"""The optional user profile (age, sex, conditions, current medicines, pregnant, breastfeeding), its slots, and the DUR
rule types that apply (breastfeeding has none: it binds the leaflets' own 수유부 prohibitions,
programs/leaflet_group_limit.py).

A pregnant user pulls in 임부금기 rules, a user aged 65 or more 노인주의 rules, a child under 12 특정연령대금기 rules,
and anyone who lists current medicines 병용금기 rules. Type names are the Korean names the corpus uses in
``metadata["dur_type"]`` (see retrievers/corpus.py DUR_TYPES).

Example:
    >>> p = UserProfile.from_dict({"age": 70, "sex": "여", "conditions": ["고혈압"], "medicines": ["암로디핀"]})
    >>> p.summary()
    '70세 여성, 질환: 고혈압, 복용 중: 암로디핀'
    >>> p.dur_types()
    ['노인주의', '병용금기']
"""

from __future__ import annotations

from dataclasses import dataclass, field

ELDERLY_AGE = 65
CHILD_AGE = 12
_PREGNANT_WORDS = ("임신", "임부", "pregnan")
_NURSING_WORDS = ("수유", "모유", "breastfeed", "nursing")
YES_WORDS = ("true", "yes", "y", "1", "예", "네")
NO_WORDS = ("false", "no", "n", "0", "", "아니오", "아니요")
WOMAN = "여성"  # a profile's sex as it is kept, whichever way it was written (f, female, 여)
_SEX = {
    **dict.fromkeys(("m", "male", "남", "남성", "man"), "남성"),
    **dict.fromkeys(("f", "female", "여", "여성", "woman"), WOMAN),
}


# Every profile item reaches LM prompts (the summary and the slots), so each is bounded as the question is: the
# longest product name in the corpus has 150 characters (케논에스플라스타 with its export names).
MAX_ITEMS = 10  # conditions, medicines
MAX_ITEM_CHARS = 200  # each condition or medicine
MAX_SEX_CHARS = 10


FIELDS = ("age", "sex", "conditions", "medicines", "pregnant", "breastfeeding")


class ProfileError(ValueError):
    """The profile JSON has the wrong shape or is over a limit."""


def _as_list(value, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split(",")
    elif not (isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)):
        raise ProfileError(f"{name} must be a list of strings")
    # the limits apply to what was sent, blanks and spaces included (as the API's schema states them)
    if len(value) > MAX_ITEMS:
        raise ProfileError(f"{name} has {len(value)} items; at most {MAX_ITEMS}")
    for n, item in enumerate(value, 1):
        if len(item) > MAX_ITEM_CHARS:
            raise ProfileError(f"{name} item {n} has {len(item)} characters; at most {MAX_ITEM_CHARS}")
    return [v.strip() for v in value if v.strip()]


def as_flag(value, name: str) -> bool:
    """A yes/no field: true/false, 1/0 and their words ("false", "no", "0" are no); anything else is an error.

    >>> as_flag("false", "pregnant"), as_flag(0, "pregnant"), as_flag("yes", "pregnant"), as_flag(None, "pregnant")
    (False, False, True, False)
    >>> as_flag("maybe", "pregnant")
    Traceback (most recent call last):
    ...
    programs.profile.ProfileError: pregnant must be true or false (or yes/no, 1/0), not 'maybe'
    """
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in YES_WORDS + NO_WORDS:
        return value.strip().lower() in YES_WORDS
    raise ProfileError(f"{name} must be true or false (or yes/no, 1/0), not {value!r}")


@dataclass(frozen=True)
class UserProfile:
    """Who is asking. Every field is optional."""

    age: int | None = None
    sex: str = ""
    conditions: list[str] = field(default_factory=list)
    medicines: list[str] = field(default_factory=list)
    pregnant: bool = False
    breastfeeding: bool = False

    @classmethod
    def from_dict(cls, data: dict | None) -> UserProfile:
        """Build a profile from JSON-like data; raise `ProfileError` on a bad shape or an item over its limit
        (`MAX_ITEMS` conditions or medicines of `MAX_ITEM_CHARS` characters each, a sex of `MAX_SEX_CHARS`)."""
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise ProfileError("the user profile must be a JSON object")
        unknown = set(data) - set(FIELDS)
        if unknown:
            hint = " (an older user: give the age, 65 or more)" if "elderly" in unknown else ""
            raise ProfileError(
                f"unknown profile fields: {', '.join(sorted(unknown))}; the fields are {', '.join(FIELDS)}{hint}"
            )
        age = data.get("age")
        if age is not None:
            if isinstance(age, bool) or not isinstance(age, int | float | str) or not str(age).strip().isdigit():
                raise ProfileError("age must be a whole number of years")
            age = int(age)
            if not 0 <= age <= 130:
                raise ProfileError("age must be between 0 and 130")
        sex = str(data.get("sex") or "")
        if len(sex) > MAX_SEX_CHARS:
            raise ProfileError(f"sex has {len(sex)} characters; at most {MAX_SEX_CHARS}")
        sex = sex.strip()
        sex = _SEX.get(sex.lower(), sex)
        conditions = _as_list(data.get("conditions"), "conditions")
        pregnant = as_flag(data.get("pregnant"), "pregnant") or any(
            w in c.lower() for c in conditions for w in _PREGNANT_WORDS
        )
        breastfeeding = as_flag(data.get("breastfeeding"), "breastfeeding") or any(
            w in c.lower() for c in conditions for w in _NURSING_WORDS
        )
        return cls(age, sex, conditions, _as_list(data.get("medicines"), "medicines"), pregnant, breastfeeding)

    @property
    def empty(self) -> bool:
        return self.age is None and not (
            self.sex or self.conditions or self.medicines or self.pregnant or self.breastfeeding
        )

    @property
    def elderly(self) -> bool:
        return self.age is not None and self.age >= ELDERLY_AGE

    def summary(self, medicines: bool = True, conditions: bool = True) -> str:
        """One line for prompts: '70세 여성, 질환: 고혈압, 복용 중: 암로디핀' ('' when empty); without `medicines`
        and `conditions`, the line a search query gets: a medicine taken chooses DUR rows and a disease the leaflet
        limits that forbid it (programs/leaflet_condition_limit.py); neither is what the question asks (천식 in a
        query about 인데놀 finds products for asthma). Pregnancy and nursing stay: they are who asks."""
        who = " ".join(p for p in (f"{self.age}세" if self.age is not None else "", self.sex) if p)
        conditions = list(self.conditions) if conditions else []
        if self.pregnant and not any(w in c for c in conditions for w in _PREGNANT_WORDS):
            conditions.append("임신 중")
        if self.breastfeeding and not any(w in c for c in conditions for w in _NURSING_WORDS):
            conditions.append("수유 중")
        parts = [who] if who else []
        if conditions:
            parts.append("질환: " + ", ".join(conditions))
        if self.medicines and medicines:
            parts.append("복용 중: " + ", ".join(self.medicines))
        return ", ".join(parts)

    def slots(self) -> dict[str, str]:
        """The seed's slots: 나이, 성별, 질환, 약물 (only those known)."""
        slots = {"나이": str(self.age) if self.age is not None else "", "성별": self.sex}
        said = (["임신"] if self.pregnant else []) + (["수유 중"] if self.breastfeeding else [])
        slots["질환"] = ", ".join(self.conditions + (said if not self.conditions else []))
        slots["약물"] = ", ".join(self.medicines)
        return {k: v for k, v in slots.items() if v}

    def slots_text(self) -> str:
        return "\n".join(f"- {k}: {v}" for k, v in self.slots().items())

    def dur_types(self) -> list[str]:
        """DUR rule types that apply to this user, in corpus order."""
        types = []
        if self.age is not None and self.age < CHILD_AGE:
            types.append("특정연령대금기")
        if self.pregnant:
            types.append("임부금기")
        if self.elderly:
            types.append("노인주의")
        if self.medicines:
            types.append("병용금기")
        return types

    def to_dict(self) -> dict:
        return {
            "age": self.age,
            "sex": self.sex,
            "conditions": self.conditions,
            "medicines": self.medicines,
            "pregnant": self.pregnant,
            "breastfeeding": self.breastfeeding,
        }


def with_asker_age(question: str, profile: UserProfile | None) -> str:
    """The question as the extractive answer reads who it is for: a young asker's age from the profile written after
    it ("(8세)") when the question itself states no age and names no one (코미시럽 얼마나 먹어요 from an 8-year-old
    gets the 6~12세 band, not the adult's 10 mL). A grown-up's age changes no dose line; a question about someone
    else (우리 엄마, 아기) is theirs.

    >>> with_asker_age("코미시럽 얼마나 먹어요?", UserProfile(age=8))
    '코미시럽 얼마나 먹어요? (8세)'
    >>> with_asker_age("7살 아들 코미시럽", UserProfile(age=8)), with_asker_age("코미시럽 몇 번", UserProfile(age=40))
    ('7살 아들 코미시럽', '코미시럽 몇 번')
    >>> with_asker_age("엄마가 코미시럽 먹어도", UserProfile(age=8))
    '엄마가 코미시럽 먹어도'
    """
    from retrievers.population import ADULT_AGE, names_a_grown_up, read_population, stated_ages

    if profile is None or profile.age is None or profile.age >= ADULT_AGE:
        return question
    if stated_ages(question) is not None or read_population(question).group or names_a_grown_up(question):
        return question
    return f"{question} ({profile.age}세)"
