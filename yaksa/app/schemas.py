"""Request and response bodies of the HTTP API (they are the OpenAPI schema at /openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from programs.ablations import ABLATIONS
from programs.profile import MAX_ITEM_CHARS, MAX_ITEMS, MAX_SEX_CHARS, NO_WORDS, YES_WORDS, as_flag
from yaksa.app.settings import MAX_QUESTION_CHARS

PROFILE_NAMES = tuple(ABLATIONS)
MAX_COMMENT_CHARS = 1000


def _whole_number(value):
    """JSON Schema's integer includes 60.0; the strict model takes it as 60 (and still refuses "60" and true)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


FLAG_WORDS = (*YES_WORDS, *NO_WORDS)
# what the API takes for a yes/no field, exactly as its schema says (the CLI also reads " Yes " and "FALSE")
FLAG_SCHEMA = {
    "anyOf": [
        {"type": "boolean"},
        {"type": "null"},
        {"type": "integer", "enum": [0, 1]},
        {"type": "string", "enum": list(FLAG_WORDS)},
    ]
}


def _flag(name: str):
    """A yes/no field's reader, as ``yaksa ask --user`` reads it: "false", "no" and 0 are no; anything its schema
    does not list is refused (422 naming the field)."""

    def read(value):
        if isinstance(value, str) and value not in FLAG_WORDS:
            raise ValueError(
                f"{name} must be true or false (or one of {', '.join(map(repr, FLAG_WORDS))}), not {value!r}"
            )
        return as_flag(value, name)

    return read


def _items(what: str) -> dict:
    """A list of profile items: its limits are in the schema and checked by `programs.profile.UserProfile` (422
    ``bad_user_profile`` naming the limit, as ``yaksa ask --user`` says it)."""
    limits = {"maxItems": MAX_ITEMS, "items": {"type": "string", "maxLength": MAX_ITEM_CHARS}}
    return {
        "default_factory": list,
        "description": f"{what} (at most {MAX_ITEMS}, {MAX_ITEM_CHARS} characters each)",
        "json_schema_extra": limits,
    }


class UserIn(BaseModel):
    """Who is asking (all optional). Pregnancy pulls in 임부금기 rules, age >= 65 노인주의, under 12 특정연령대금기,
    current medicines 병용금기; pregnancy and breastfeeding also the leaflets' own 임부 / 수유부 prohibitions."""

    model_config = ConfigDict(extra="forbid", strict=True)

    age: Annotated[int | None, BeforeValidator(_whole_number)] = Field(
        None, ge=0, le=130, description="age in whole years"
    )
    sex: str = Field(
        "",
        description=f"남 / 여 (or m / f; at most {MAX_SEX_CHARS} characters)",
        json_schema_extra={"maxLength": MAX_SEX_CHARS},
    )
    conditions: list[str] = Field(**_items("conditions, e.g. 고혈압"))
    medicines: list[str] = Field(**_items("medicines taken now"))
    pregnant: Annotated[bool, BeforeValidator(_flag("pregnant")), WithJsonSchema(FLAG_SCHEMA)] = Field(
        False, description='pregnant (true / false; "yes" / "no", 1 / 0 read the same)'
    )
    breastfeeding: Annotated[bool, BeforeValidator(_flag("breastfeeding")), WithJsonSchema(FLAG_SCHEMA)] = Field(
        False, description="nursing a baby: products whose leaflet forbids 수유부 are not offered (true / false)"
    )


class AskRequest(BaseModel):
    """A question, in Korean, about a drug."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"question": "게보린 먹고 속이 쓰려요", "user": {"age": 70}}]},
    )

    question: str = Field(
        ...,
        description=f"the question (at most {MAX_QUESTION_CHARS} characters, not blank)",
        json_schema_extra={"minLength": 1, "maxLength": MAX_QUESTION_CHARS, "pattern": r"\S"},
    )
    user: UserIn | None = Field(None, description="optional user profile")
    profile: str | None = Field(
        None,
        description="strategy / ablation profile (default: the loaded program's)",
        json_schema_extra={"enum": list(PROFILE_NAMES)},
    )


class Citation(BaseModel):
    n: int = Field(..., description="the N of [문서 N] in the answer")
    id: str
    title: str
    product: str
    section: str
    cited: bool = Field(..., description="whether the answer cites it")
    text: str = Field(..., description="the document text exactly as the generator saw it")
    document: str | None = Field(None, description="the whole source document, when the index has it")


class WebRef(BaseModel):
    title: str
    url: str


class AskResponse(BaseModel):
    question: str
    answer: str
    out_of_scope: bool
    mode: str
    method: str
    uses_lm: bool
    notice: str = Field("", description="a message for the reader: out of scope, no LM used")
    citations: list[Citation]
    web_refs: list[WebRef]
    verification: str
    quality: dict[str, Any] | None
    warnings: list[str]
    trace: dict[str, Any]
    trace_id: str | None = Field(
        None, description="the question's MLflow trace (send feedback on it to /v1/feedback); null when not traced"
    )


class SearchHit(BaseModel):
    id: str
    title: str
    score: float
    product: str
    section: str
    text: str


class SearchResponse(BaseModel):
    query: str
    out_of_scope: bool
    oos_reason: str
    scorer: str
    top_score: float
    hits: list[SearchHit]


class Health(BaseModel):
    status: str
    version: str
    program: dict[str, Any]
    lm: dict[str, str | None]
    uses_lm: bool
    in_flight: int
    max_concurrent: int
    auth: bool
    scores: str


class ErrorBody(BaseModel):
    error: str = Field(..., description="a short code, e.g. question_too_long, busy, timeout")
    message: str = Field(..., description="what went wrong, for people")


class FeedbackRequest(BaseModel):
    """A reader's verdict on an answer: thumbs up (true) or down (false), with an optional comment."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"examples": [{"trace_id": "tr-" + "0" * 32, "value": True, "comment": "도움이 됐어요"}]},
    )

    trace_id: str = Field(..., pattern=r"^tr-[0-9a-f]{32}$", description="the answer's trace_id")
    value: bool = Field(..., description="true: the answer helped (👍); false: it did not (👎)")
    comment: str | None = Field(None, max_length=MAX_COMMENT_CHARS, description="why, in the reader's words")


class FeedbackResponse(BaseModel):
    trace_id: str
    assessment_id: str = Field(..., description="the feedback's id on the trace")
