"""Liveness check, and what the client needs to know about this server's development switches."""

from typing import Any

from fastapi import APIRouter, Request

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    """Answers while the server is up; says whether stacked deals are allowed (development),
    and lists the rooms that should have moved on by themselves and did not."""
    return {"status": "ok",
            "dev_stacked_decks": bool(request.app.state.settings.dev_stacked_decks),
            "stalled_rooms": request.app.state.registry.stalled()}
