"""Liveness check, and what the client needs to know about this server's development switches."""


from fastapi import Request

from .schemas import HealthOut, api_router

router = api_router("/api", "health")


@router.get("/health")
async def health(request: Request) -> HealthOut:
    """Answers while the server is up; says whether stacked deals are allowed (development),
    lists the rooms that should have moved on by themselves and did not, and how long the
    rebuild of the live rooms took at start-up; one of several processes also says which it
    is, how many rooms it holds and how many writes it was refused for rooms it no longer held
    (docs/scaling.md)."""
    state = request.app.state
    out = {"status": "ok", "dev_stacked_decks": bool(state.settings.dev_stacked_decks),
           "stalled_rooms": state.registry.stalled(), "restore_seconds": state.restore_seconds}
    return HealthOut.model_validate({**out, **state.gateway.health()})
