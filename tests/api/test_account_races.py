"""Account edges a hostile player tried, over a real server on PostgreSQL (issue 18, items 11
and 12): upgrades and renames racing for one name, one guest's upgrades racing each other,
guests taking an account's display name, private matches on public profiles, and the cap on a
host's open waiting rooms.

Races are fired truly at once: every request of a race is built first and sent together
(`asyncio.gather` over one `httpx.AsyncClient` with a connection each), so the server's
transactions overlap. Exactly one may win; every other must be a clean 409, never a 500.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.client import Player, call, guest, refusal
from tests.api.halls import Hall, hall
from tests.api.scenarios import KALUKI
from tests.api.scripted import play_scripted

pytestmark = pytest.mark.postgres

HOST_CAP = 3
ENV = {"RUMMY_MAX_WAITING_ROOMS_PER_HOST": str(HOST_CAP)}
PASSWORD = "a long enough secret 9"  # noqa: S105 - the test accounts'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("account_races"), "postgresql", ENV) as running:
        yield running


def _racer(server: Hall) -> httpx.AsyncClient:
    """A client with room for every request of a race on a connection of its own."""
    return httpx.AsyncClient(base_url=server.base_url, trust_env=False, timeout=60,
                             limits=httpx.Limits(max_connections=50))


async def _race(http: httpx.AsyncClient, method: str, calls: list[tuple[Player, Any]],
                path: str) -> list[httpx.Response]:
    return list(await asyncio.gather(*(
        http.request(method, path, headers=player.headers, json=body)
        for player, body in calls)))


def _outcome(answers: list[httpx.Response]) -> Counter[int]:
    for answer in answers:
        assert answer.status_code in (200, 409), answer.text
        if answer.status_code == 409:
            assert answer.json()["detail"]["code"] in ("username_taken", "name_taken",
                                                       "not_a_guest"), answer.text
    return Counter(a.status_code for a in answers)


async def test_guests_racing_to_one_username_one_wins(server: Hall) -> None:
    async with _racer(server) as http:
        guests = [await guest(http, f"Racer {n}") for n in range(6)]
        bodies = [{"username": "Same_x" if n % 2 else "same_x", "password": PASSWORD}
                  for n in range(6)]
        answers = await _race(http, "POST", list(zip(guests, bodies, strict=True)),
                              "/api/auth/upgrade")
        assert _outcome(answers) == {200: 1, 409: 5}
        [winner] = [g for g, a in zip(guests, answers, strict=True) if a.status_code == 200]
        for racer, answer in zip(guests, answers, strict=True):
            me = await call(http, "GET", "/api/me", racer)
            assert me["is_guest"] is (racer != winner), (me, answer.text)
        assert (await call(http, "GET", "/api/me", winner))["username"].lower() == "same_x"


async def test_renames_racing_to_one_name_one_wins(server: Hall) -> None:
    async with _racer(server) as http:
        accounts = []
        for n in range(5):
            made = await call(http, "POST", "/api/auth/register", None,
                              {"username": f"renamer_{n}", "password": PASSWORD})
            accounts.append(Player(made["player"]["id"], made["player"]["name"], made["token"]))
        answers = await _race(http, "PATCH", [(a, {"name": "Crowned" if n % 2 else "CROWNED"})
                                              for n, a in enumerate(accounts)], "/api/me")
        assert _outcome(answers) == {200: 1, 409: 4}
        names = [(await call(http, "GET", "/api/me", a))["name"] for a in accounts]
        assert sorted(n.lower() for n in names).count("crowned") == 1


async def test_one_guests_racing_upgrades_one_wins(server: Hall) -> None:
    async with _racer(server) as http:
        visitor = await guest(http, "Eager")
        answers = await _race(http, "POST", [(visitor, {"username": f"eager_{n}",
                                                        "password": PASSWORD})
                                             for n in range(8)], "/api/auth/upgrade")
        assert _outcome(answers) == {200: 1, 409: 7}
        assert {a.json()["detail"]["code"] for a in answers if a.status_code == 409} \
            == {"not_a_guest"}
        [won] = [n for n, a in enumerate(answers) if a.status_code == 200]
        me = await call(http, "GET", "/api/me", visitor)
        assert (me["is_guest"], me["username"]) == (False, f"eager_{won}")
        again = await call(http, "POST", "/api/auth/login", None,
                           {"username": f"eager_{won}", "password": PASSWORD})
        assert again["player"]["id"] == visitor.id


async def test_a_guest_cannot_take_an_accounts_name(server: Hall, http: Any) -> None:
    await call(http, "POST", "/api/auth/register", None,
               {"username": "real_one", "password": PASSWORD, "name": "The Real One"})
    answer = await http.post("/api/auth/guest", json={"name": "the REAL one"})
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "name_taken"
    visitor = await guest(http, "Someone Else")
    assert await refusal(http, "PATCH", "/api/me", visitor, {"name": " THE real ONE "},
                         409) == "name_taken"
    assert (await call(http, "GET", "/api/me", visitor))["name"] == "Someone Else"
    # Guests still share names among themselves.
    twin = await guest(http, "Someone Else")
    assert twin.name == "Someone Else"


async def test_public_profiles_leave_private_matches_out(server: Hall, http: Any) -> None:
    shown, other = await guest(http, "Profiled"), await guest(http, "Profile Rival")
    public_id, _ = await play_scripted(server.base_url, http, [shown, other], KALUKI)
    private_id, _ = await play_scripted(server.base_url, http, [shown, other], KALUKI,
                                        private=True)
    profile = await call(http, "GET", f"/api/players/{shown.id}")
    assert [m["id"] for m in profile["recent"]] == [public_id]
    [kaluki] = profile["games"]
    assert (kaluki["game"], kaluki["matches"]) == ("kaluki", 1)
    assert private_id not in str(profile)
    mine = await call(http, "GET", "/api/me/matches", shown)  # the player's own list has both
    assert [m["id"] for m in mine["matches"]] == [private_id, public_id]


async def test_a_host_has_at_most_the_cap_of_waiting_rooms(server: Hall, http: Any) -> None:
    host = await guest(http, "Busy Host")
    room = {"game": "standard", "seats": 2}
    made = [await call(http, "POST", "/api/rooms", host, room) for _ in range(HOST_CAP)]
    answer = await http.post("/api/rooms", headers=host.headers, json=room)
    assert answer.status_code == 409, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == "too_many_waiting_rooms" and str(HOST_CAP) in detail["message"]
    lobby = await call(http, "GET", "/api/rooms")
    assert sum(r["host_id"] == host.id for r in lobby["rooms"]) == HOST_CAP
    # Another host is not affected, and a room that closes makes room for a new one.
    await call(http, "POST", "/api/rooms", await guest(http, "Other Host"), room)
    await call(http, "POST", f"/api/rooms/{made[0]['id']}/leave", host)
    await call(http, "POST", "/api/rooms", host, room)


async def test_a_hosts_rooms_made_at_once_stop_at_the_cap(server: Hall) -> None:
    async with _racer(server) as http:
        host = await guest(http, "Hasty Host")
        room = {"game": "standard", "seats": 2}
        answers = await _race(http, "POST", [(host, room)] * (HOST_CAP + 5), "/api/rooms")
        assert Counter(a.status_code for a in answers) == {200: HOST_CAP, 409: 5}, \
            [a.text for a in answers]
        assert {a.json()["detail"]["code"] for a in answers if a.status_code == 409} \
            == {"too_many_waiting_rooms"}
