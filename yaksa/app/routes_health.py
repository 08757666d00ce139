"""``GET /healthz``: liveness, the loaded program and its LMs, questions in flight, and whether a token is required
(never guarded by it)."""

from fastapi import APIRouter

from yaksa import __version__
from yaksa.app.deps import GateDep, HostDep, SettingsDep
from yaksa.app.schemas import Health

router = APIRouter()


@router.get("/healthz", response_model=Health, summary="liveness, the loaded program and its LMs")
async def healthz(host: HostDep, gate: GateDep, settings: SettingsDep):
    roles = host.lm_roles()
    return {
        "status": "ok",
        "version": __version__,
        "program": host.describe(),
        "lm": roles,
        "uses_lm": any(roles.values()),
        "in_flight": gate.in_flight,
        "max_concurrent": settings.max_concurrent,
        "auth": bool(settings.api_token),
        "scores": host.scores_mode,
    }
