"""The catalogue of games with their options' JSON schema and defaults."""


from app.engine.games import game_catalog

from .schemas import GamesOut, api_router

router = api_router("/api", "games")


@router.get("/games")
async def games() -> GamesOut:
    """Every game: key, name, description, seats, options schema and defaults."""
    return GamesOut.model_validate({"games": game_catalog()})
