"""GET /api/me/accuracy (an extension of PROTOCOL.md §10, docs/server.md) over a real server and
PostgreSQL: a player's accuracy in each analysed match, the seat's own figure from the stored
analysis; a match counts once analysed, never before, and only for its own players.

The match is the stacked Kaluki match of tests/api/scenarios.py, played by two scripted people.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.client import call, guest, refusal
from tests.api.halls import Hall, hall
from tests.api.scenarios import KALUKI
from tests.api.scripted import play_scripted

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("accuracy"), "postgresql") as running:
        yield running


async def test_accuracy_lists_each_analysed_match_with_the_players_own_seat(
        server: Hall, http: Any) -> None:
    a, b, stranger = [await guest(http, n) for n in ("Steady A", "Steady B", "Onlooker")]
    match_id, _ = await play_scripted(server.base_url, http, [a, b], KALUKI)
    assert await call(http, "GET", "/api/me/accuracy", a) == {"matches": []}  # not analysed

    seats = (await call(http, "GET", f"/api/matches/{match_id}/analysis", a))["seats"]
    for player, seat in ((a, seats[0]), (b, seats[1])):
        [point] = (await call(http, "GET", "/api/me/accuracy", player))["matches"]
        assert point["match"] == match_id and point["game"] == "kaluki"
        assert point["finished_at"] is not None
        assert (point["accuracy"], point["decisions"]) == (seat["accuracy"], seat["decisions"])

    second, _ = await play_scripted(server.base_url, http, [b, a], KALUKI)
    await call(http, "GET", f"/api/matches/{second}/analysis", b)
    listed = (await call(http, "GET", "/api/me/accuracy", a))["matches"]
    assert [p["match"] for p in listed] == [match_id, second]  # oldest first
    assert [p["match"] for p in (await call(
        http, "GET", "/api/me/accuracy?limit=1", a))["matches"]] == [second]
    assert await call(http, "GET", "/api/me/accuracy", stranger) == {"matches": []}
    await refusal(http, "GET", "/api/me/accuracy", None, None, 401)
    await call(http, "GET", "/api/me/accuracy?limit=0", a, None, 422)
