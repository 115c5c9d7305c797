"""The catalogue of games with their options' JSON schema and defaults."""

from typing import Any

from fastapi import APIRouter

from app.engine.games import game_catalog

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
async def games() -> dict[str, list[dict[str, Any]]]:
    """Every game: key, name, description, seats, options schema and defaults."""
    return {"games": game_catalog()}
