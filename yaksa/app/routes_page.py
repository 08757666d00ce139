"""``GET /``: the one-page Korean UI (``static/index.html``, read when the app is built), outside the OpenAPI spec."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

router = APIRouter()


@router.get("/", include_in_schema=False)
async def index(request: Request):
    return HTMLResponse(request.app.state.page)
