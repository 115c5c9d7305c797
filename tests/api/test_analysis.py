"""GET /api/matches/{id}/analysis (PROTOCOL.md §10) over a real server and PostgreSQL: for the
match's players and admins, 409 while it runs, 403 for anyone else even for a public match; the
answer's shape, worked out once (in the server's worker process) and served again the same.

The match is the stacked Kaluki match of tests/api/scenarios.py, played by two scripted people.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.client import Player, call, guest, refusal
from tests.api.halls import Hall, hall
from tests.api.scenarios import KALUKI
from tests.api.scripted import play_scripted

pytestmark = pytest.mark.postgres

GRADES = {"best", "good", "inaccuracy", "mistake", "blunder"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("analysis"), "postgresql") as running:
        yield running


async def test_analysis_is_for_players_and_admins_once_over(server: Hall, http: Any) -> None:
    a, b, stranger = [await guest(http, n) for n in ("Graded A", "Graded B", "Onlooker")]
    admin = Player("admin", "admin", server.admin_token)
    match_id, _ = await play_scripted(server.base_url, http, [a, b], KALUKI)

    first = await call(http, "GET", f"/api/matches/{match_id}/analysis", a)
    assert first["match"] == match_id
    assert [(s["seat"], s["player"]) for s in first["seats"]] == [(0, a.id), (1, b.id)]
    for seat in first["seats"]:
        assert 0 <= seat["accuracy"] <= 100 and seat["loss"] >= 0
        assert seat["decisions"] == sum(d["seat"] == seat["seat"] for d in first["decisions"])
    actions = KALUKI.actions(0)
    # docs/analysis.md: luck per hand and seat (one hand here), summed per seat
    assert [(x["hand"], x["seat"]) for x in first["luck"]] == [(0, 0), (0, 1)]
    for seat in first["seats"]:
        assert seat["luck"] == round(sum(x["luck"] for x in first["luck"]
                                         if x["seat"] == seat["seat"]), 2)
    for d in first["decisions"]:
        assert d["grade"] in GRADES and d["loss"] >= 0 and d["hand"] == 0
        seat, action = actions[d["index"]]
        assert (seat, action["type"]) == (d["seat"], d["played"]["type"])
    assert await call(http, "GET", f"/api/matches/{match_id}/analysis", b) == first
    assert await call(http, "GET", f"/api/matches/{match_id}/analysis", admin) == first

    code = await refusal(http, "GET", f"/api/matches/{match_id}/analysis", stranger, None, 403)
    assert code == "not_your_match"
    await refusal(http, "GET", f"/api/matches/{match_id}/analysis", None, None, 401)
    assert await refusal(http, "GET", "/api/matches/nope/analysis", a, None, 404) == "not_found"

    room = await call(http, "POST", "/api/rooms", a, {
        "game": KALUKI.game, "options": KALUKI.options, "seats": 2, "deals": KALUKI.deals})
    await call(http, "POST", f"/api/rooms/{room['id']}/join", b)
    running = (await call(http, "POST", f"/api/rooms/{room['id']}/start", a))["match_id"]
    for viewer in (a, admin):
        code = await refusal(http, "GET", f"/api/matches/{running}/analysis", viewer, None, 409)
        assert code == "match_in_progress"
    code = await refusal(http, "GET", f"/api/matches/{running}/analysis", stranger, None, 403)
    assert code == "not_your_match"
