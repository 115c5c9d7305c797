"""Admins and matches in progress (docs/security.md): an admin seated in a match in progress
cannot open its hidden state (403 ``seated_in_match``, nothing recorded); every other admin
view of a match in progress is recorded (who, which match, when, which route) and listed at
``GET /api/admin/views``, newest first; finished matches are open to every admin, unrecorded."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx

from tests.api.client import Player, call
from tests.api.halls import Hall, add_admin, hall_fixture
from tests.waits import eventually

HIDDEN = ["/api/admin/matches/{id}", "/api/admin/matches/{id}/states"]

server = hall_fixture("admin_views")


async def _views(http: httpx.AsyncClient, admin: Player, **query: int) -> list[dict[str, Any]]:
    answer = await http.get("/api/admin/views", headers=admin.headers, params=query)
    assert answer.status_code == 200, answer.text
    return list(answer.json()["views"])


async def test_seated_admins_are_refused_and_other_views_are_recorded(
        server: Hall, http: httpx.AsyncClient) -> None:
    player = add_admin(server, "dealer_admin", "admin who plays")
    me = await call(http, "GET", "/api/me", Player("", "", player))
    seated = Player(me["id"], me["name"], player)
    auditor = Player("auditor", "auditor", server.admin_token)

    room = await call(http, "POST", "/api/rooms", seated, {
        "game": "standard", "seats": 2, "options": {"each_hand_own_game": True}})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", seated, {"count": 1})
    match_id = (await call(http, "POST", f"/api/rooms/{room['id']}/start", seated))["match_id"]
    before = await _views(http, auditor)

    for route in HIDDEN:
        answer = await http.get(route.format(id=match_id), headers=seated.headers)
        assert answer.status_code == 403, answer.text
        assert answer.json()["detail"]["code"] == "seated_in_match"
        assert "in progress" in answer.json()["detail"]["message"]
    assert await _views(http, auditor) == before  # a refusal shows nothing, records nothing

    for route in HIDDEN:
        await call(http, "GET", route.format(id=match_id), auditor)
    recorded = (await _views(http, auditor))[:2]
    assert [(v["route"], v["match_id"], v["admin_name"]) for v in recorded] == [
        (f"GET {HIDDEN[1]}", match_id, "hall_admin"), (f"GET {HIDDEN[0]}", match_id, "hall_admin")]
    first, second = (datetime.fromisoformat(v["at"]) for v in recorded)
    assert first >= second and recorded[0]["admin_id"] == recorded[1]["admin_id"] != me["id"]
    assert await _views(http, auditor, limit=1, offset=1) == recorded[1:]
    assert await _views(http, seated) == await _views(http, auditor)  # any admin reads them

    # The seated admin leaves; a computer player finishes the match, which opens to everyone.
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", seated)
    async def closed() -> bool:
        return bool((await call(http, "GET", f"/api/rooms/{room['id']}", seated))["status"]
                    == "closed")

    await eventually(closed, "the computer player finished the match")
    count = len(await _views(http, auditor, limit=500))
    for route in HIDDEN:
        await call(http, "GET", route.format(id=match_id), seated)
        await call(http, "GET", route.format(id=match_id), auditor)
    assert len(await _views(http, auditor, limit=500)) == count  # finished: nothing recorded
