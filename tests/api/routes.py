"""The app's API routes with their full paths, for the tests that scan them all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute

from app.api.edge import walk_routes


def walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, APIRoute]]:
    """Every API route with its full path (`app.api.edge.walk_routes`, FastAPI's own left out)."""
    for path, route in walk_routes(routes, prefix):
        if isinstance(route, APIRoute):
            yield path, route
