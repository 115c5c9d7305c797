"""One account per address among several processes (docs/security.md): a join that reaches a
process which does not own the room carries the caller's address to the owner, which refuses
a second account from a seated person's address there (403 ``same_address``)."""

from __future__ import annotations

import httpx

from tests.api.client import call, guest, http_client, refusal
from tests.cluster.conftest import Fleet

STAKED = {"game": "standard", "options": {}, "seats": 3, "stake": 1, "buy_in": 100}


async def test_the_owner_checks_the_address_a_join_at_another_process_carries(
        fleet: Fleet) -> None:
    here, there = fleet(2)
    elsewhere = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with http_client(here.base_url) as http, http_client(there.base_url) as far, \
            httpx.AsyncClient(base_url=there.base_url, transport=elsewhere, trust_env=False,
                              timeout=30.0) as far_away:
        host, twin, other = [await guest(http, n) for n in ("Host", "Twin", "Other")]
        room = await call(http, "POST", "/api/rooms", host, STAKED)  # owned by process A
        join = f"/api/rooms/{room['id']}/join"
        assert await refusal(far, "POST", join, twin, None, 403) == "same_address"
        assert (await call(far_away, "POST", join, other))["seat"] == 1
        seen = await call(http, "GET", f"/api/rooms/{room['id']}", host)
        assert [p and p["player_id"] for p in seen["players"]] == [host.id, other.id, None]
