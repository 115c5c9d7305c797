"""One account per client address (issue 24, docs/security.md): a room with a stake refuses a
person's seat from the address of a person seated there (403 ``same_address``, nothing changed:
seats, wallet), a free room does not, and the host chooses otherwise either way. The tests'
clients connect from 127.0.0.1, or bind 127.0.0.2 to be another address (Linux routes all of
127/8 to the loopback); the server has no trusted proxy, so it takes the socket's peer."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.client import Player, balance, call, guest, refusal
from tests.api.halls import hall_fixture
from tests.api.procs import ledger_report

server = hall_fixture("one_per_address")

FREE = {"game": "standard", "seats": 3}
STAKED = {**FREE, "stake": 1, "buy_in": 100}
QUICK = {"game": "standard", "seats": 3, "stake": 1, "buy_in": 100, "turn_seconds": 60}


@pytest.fixture
async def elsewhere(http: httpx.AsyncClient) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the same server from another address, 127.0.0.2."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=str(http.base_url), transport=transport,
                                 trust_env=False, timeout=30.0) as client:
        yield client


async def _join(http: httpx.AsyncClient, room: dict[str, Any], player: Player,
                status: int = 200) -> Any:
    return await call(http, "POST", f"/api/rooms/{room['id']}/join", player, None, status)


async def test_a_staked_room_refuses_a_second_account_from_a_seated_address(
        server: Any, http: httpx.AsyncClient, elsewhere: httpx.AsyncClient) -> None:
    host, twin, other = [await guest(http, n) for n in ("Host", "Twin", "Other")]
    room = await call(http, "POST", "/api/rooms", host, STAKED)
    assert room["one_per_address"] is True  # on by default: the room has a stake
    wallet = await balance(http, twin)
    transfers = ledger_report(server.database_url)

    answer = await _join(http, room, twin, 403)
    assert answer["detail"]["code"] == "same_address"
    after = await call(http, "GET", f"/api/rooms/{room['id']}", twin)
    assert (after["taken"], after["players"]) == (1, room["players"])  # nothing changed
    assert await balance(http, twin) == wallet  # no buy-in taken
    assert ledger_report(server.database_url) == transfers

    joined = await _join(elsewhere, room, other)  # another address sits
    assert joined["seat"] == 1
    assert await refusal(http, "POST", f"/api/rooms/{room['id']}/join", twin, None, 403) \
        == "same_address"  # the host's address is still seated
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", other)
    await call(elsewhere, "POST", f"/api/rooms/{room['id']}/join", twin)  # from elsewhere: yes


async def test_a_free_room_seats_accounts_from_one_address(http: httpx.AsyncClient) -> None:
    host, twin = await guest(http, "Host"), await guest(http, "Twin")
    room = await call(http, "POST", "/api/rooms", host, FREE)
    assert room["one_per_address"] is False
    assert (await _join(http, room, twin))["seat"] == 1


async def test_the_host_chooses_either_way(http: httpx.AsyncClient) -> None:
    host, twin = await guest(http, "Host"), await guest(http, "Twin")
    off = await call(http, "POST", "/api/rooms", host, {**STAKED, "one_per_address": False})
    assert off["one_per_address"] is False
    assert (await _join(http, off, twin))["seat"] == 1

    on = await call(http, "POST", "/api/rooms", host, {**FREE, "one_per_address": True})
    assert await refusal(http, "POST", f"/api/rooms/{on['id']}/join", twin, None, 403) \
        == "same_address"
    await call(http, "POST", "/api/rooms", host, {**FREE, "one_per_address": 1}, 422)


async def test_quick_seat_passes_over_a_room_seating_the_callers_address(
        http: httpx.AsyncClient) -> None:
    first, second = await guest(http, "First"), await guest(http, "Second")
    opened = await call(http, "POST", "/api/quickseat", first, QUICK, 201)
    again = await call(http, "POST", "/api/quickseat", second, QUICK, 201)  # a room of its own
    assert again["room"]["id"] != opened["room"]["id"]
