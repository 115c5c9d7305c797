"""Every ``/api/admin`` route of the app refuses anonymous callers (401) and players who are not
admins (403), and answers an admin; the routes are found by walking the app, so a new admin
route is covered the day it is added."""

from __future__ import annotations

import re

import httpx
import pytest

from app.main import create_app
from tests.api.client import Player, guest
from tests.api.halls import Hall, hall_fixture
from tests.api.routes import walk


def admin_routes() -> list[tuple[str, str]]:
    """(method, path) of every route under /api/admin, path parameters filled with dummies."""
    found = []
    for path, route in walk(create_app().routes):
        if path.startswith("/api/admin"):
            found += [(method, re.sub(r"\{[^}]+\}", "dummy", path))
                      for method in sorted(route.methods)]
    assert len(found) == len(set(found))
    return found


ROUTES = admin_routes()

server = hall_fixture("admin_access")


def test_the_admin_routes_are_found() -> None:
    paths = {path for _, path in ROUTES}
    assert {"/api/admin/matches", "/api/admin/matches/dummy", "/api/admin/players",
            "/api/admin/players/dummy/ledger"} <= paths


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_admin_route_refuses_everyone_else(http: httpx.AsyncClient, method: str,
                                                 path: str) -> None:
    anonymous = await http.request(method, path)
    assert anonymous.status_code == 401, anonymous.text

    forged = await http.request(method, path, headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 401, forged.text

    player: Player = await guest(http, "Curious")
    refused = await http.request(method, path, headers=player.headers)
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"]["code"] == "forbidden"


@pytest.mark.parametrize(("method", "path"), [r for r in ROUTES if "dummy" not in r[1]])
async def test_admin_may_list(http: httpx.AsyncClient, server: Hall, method: str,
                              path: str) -> None:
    answer = await http.request(method, path, headers=server.admin_headers)
    assert answer.status_code == 200, answer.text


# A valid body for the admin calls that need one, so that the unknown id is what is refused.
BODIES = {
    ("POST", "/api/admin/reports/dummy"): {"status": "dismissed", "note": "n"},
    ("POST", "/api/admin/players/dummy/sanctions"): {"kind": "chat_mute", "hours": 1,
                                                      "reason": "r"},
    ("POST", "/api/admin/players/dummy/chips"): {"amount": 1, "reason": "r"},
}


async def test_admin_gets_not_found_for_unknown_ids(http: httpx.AsyncClient,
                                                    server: Hall) -> None:
    for method, path in ROUTES:
        if "dummy" in path:
            answer = await http.request(method, path, headers=server.admin_headers,
                                        json=BODIES.get((method, path)))
            assert answer.status_code == 404, (path, answer.text)
            assert answer.json()["detail"]["code"] == "not_found"
