"""The ASGI application."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app import __version__
from app.api import games, health
from app.settings import get_settings

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"


def create_app() -> FastAPI:
    """Build the app: API routers first, then the browser client at `/`."""
    get_settings()  # fail at start-up, not on the first request, if settings are invalid
    app = FastAPI(title="Rummy Hall", version=__version__)
    app.include_router(health.router)
    app.include_router(games.router)
    app.mount("/", StaticFiles(directory=STATIC_DIR, html=True), name="static")
    return app
