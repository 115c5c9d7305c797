"""Liveness check, and what the client needs to know about this server's development switches."""

from typing import Any

from fastapi import APIRouter, Request

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    """Answers while the server is up; says whether stacked deals are allowed (development),
    and lists the rooms that should have moved on by themselves and did not; one of several
    processes also says which it is, how many rooms it holds and how many writes it was
    refused for rooms it no longer held (docs/scaling.md)."""
    out = {"status": "ok",
           "dev_stacked_decks": bool(request.app.state.settings.dev_stacked_decks),
           "stalled_rooms": request.app.state.registry.stalled()}
    if request.app.state.relay is not None:
        out["cluster"] = request.app.state.relay.cluster.health()
    return out
