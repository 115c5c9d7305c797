"""The app's API routes with their full paths, for the tests that scan them all."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute


def walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, APIRoute]]:
    """Every API route with its full path, through included routers (FastAPI keeps those as
    their own route objects, holding the original router and the include's prefix)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from walk(included.routes, prefix + route.include_context.prefix)
        elif isinstance(route, APIRoute):
            yield prefix + route.path, route
