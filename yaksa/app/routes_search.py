"""``GET /v1/search``: the ranked documents for a query, straight from the search backend (no LM), admitted by the
gate like a question and bounded by the request timeout."""

import asyncio
from typing import Annotated

from fastapi import APIRouter, Query

from programs import citations
from programs.question import fold_whitespace
from yaksa.app.deps import GateDep, HostDep, SettingsDep, enter
from yaksa.app.http_errors import ApiError, responses
from yaksa.app.limits import Gate
from yaksa.app.schemas import SearchResponse
from yaksa.app.service import ProgramHost, in_thread
from yaksa.app.settings import ServeSettings
from yaksa.text_input import TextInputError, clean_text


async def find(q: str, k: int | None, host: ProgramHost, gate: Gate, settings: ServeSettings) -> dict:
    """The `SearchResponse` of query `q`: 400 for invalid text, 429 when the gate is full, 504 after the timeout."""
    try:
        q = clean_text(q, "q")
    except TextInputError as e:
        raise ApiError(400, "bad_text", str(e)) from None
    enter(gate, settings)
    try:
        result = await asyncio.wait_for(
            in_thread(lambda: host.backend.retrieve(fold_whitespace(q), k=k), host.limiter()),
            settings.request_timeout_s,
        )
    except TimeoutError:
        raise ApiError(504, "timeout", f"no result within {settings.request_timeout_s:g} s") from None
    finally:
        gate.leave()
    return {
        "query": result.query,
        "out_of_scope": result.out_of_scope,
        "oos_reason": result.oos_reason,
        "scorer": result.scorer,
        "top_score": float(result.top_score),
        "hits": [
            {
                "id": h.id,
                "title": h.doc.title,
                "score": float(h.score),
                "product": citations.product(h.doc),
                "section": citations.section(h.doc),
                "text": h.doc.text,
            }
            for h in result.hits
        ],
    }


def build_router(max_query_chars: int) -> APIRouter:
    """The route; its query ``q`` is at most `max_query_chars` long (``max_question_chars`` of the settings: checked,
    and stated in the spec)."""
    router = APIRouter()

    @router.get(
        "/v1/search",
        response_model=SearchResponse,
        summary="the ranked documents for a query (no LM)",
        responses=responses(400, 401, 422, 429, 500, 504),
    )
    async def search(
        q: Annotated[str, Query(min_length=1, max_length=max_query_chars, pattern=r"\S", description="the query")],
        host: HostDep,
        gate: GateDep,
        settings: SettingsDep,
        k: Annotated[
            int | None, Query(ge=1, le=20, description="how many documents (default: the retrieval settings' top_k)")
        ] = None,
    ):
        return await find(q, k, host, gate, settings)

    return router
