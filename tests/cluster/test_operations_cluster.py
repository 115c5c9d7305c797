"""Operations with several processes (PROTOCOL.md §11, docs/operations.md): each process serves
its own metrics, with its leases and the relay's traffic; a process whose Redis is gone says it
is not ready (and is ready again once Redis is back)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.client import WsClient, call, guest, http_client, take_turn
from tests.api.test_operations import scrape, value
from tests.cluster.conftest import Fleet, PrivateRedis
from tests.waits import eventually


async def test_each_process_reports_its_leases_and_relayed_messages(fleet: Fleet) -> None:
    owner, other = fleet(2)
    async with http_client(owner.base_url) as at_owner, http_client(other.base_url) as at_other:
        host, friend = await guest(at_owner, "Host"), await guest(at_owner, "Friend")
        room = await call(at_owner, "POST", "/api/rooms", host, {"game": "standard", "seats": 2})
        await call(at_owner, "POST", f"/api/rooms/{room['id']}/join", friend)
        # The friend's socket is at the other process: its actions are relayed to the owner.
        seats = [await WsClient.join(owner.base_url, room["id"], host),
                 await WsClient.join(other.base_url, room["id"], friend)]
        await call(at_owner, "POST", f"/api/rooms/{room['id']}/start", host)
        relayed_before = value(await scrape(at_other), "rummy_relayed_messages_total",
                               direction="sent")
        await take_turn(seats[1])  # seat 1 plays first
        owner_samples, other_samples = await scrape(at_owner), await scrape(at_other)
        for seat in seats:
            await seat.close()

    assert value(owner_samples, "rummy_leases_held") >= 1
    assert value(owner_samples, "rummy_rooms", status="playing") == 1
    assert value(other_samples, "rummy_rooms", status="playing") == 0
    assert value(other_samples, "rummy_leases_held") == 0
    assert value(other_samples, "rummy_relayed_messages_total", direction="sent") \
        >= relayed_before + 2  # the two actions, at least
    assert value(owner_samples, "rummy_actions_total", game="standard", result="applied") == 2
    assert value(owner_samples, "rummy_lease_renewals_total", result="renewed") >= 1
    assert value(owner_samples, "rummy_redis_seconds_count") >= 1
    assert value(owner_samples, "rummy_ready") == 1


async def test_a_process_whose_redis_is_gone_is_not_ready(
        fleet: Fleet, private_redis: PrivateRedis) -> None:
    procs = fleet(2, RUMMY_REDIS_URL=private_redis.url)
    async with http_client(procs[0].base_url) as first, \
            http_client(procs[1].base_url) as second:
        for http in (first, second):
            assert (await http.get("/api/ready")).status_code == 200
        private_redis.stop()
        for http in (first, second):
            detail = await eventually(lambda http=http: _not_ready(http),
                                      "/api/ready says 503 without Redis")
            assert detail["code"] == "not_ready"
            assert any("redis unreachable" in reason for reason in detail["reasons"])
            assert (await http.get("/api/health")).status_code == 200
        private_redis.start()
        for http in (first, second):
            await eventually(lambda http=http: _ready(http), "/api/ready says 200 again")


async def _not_ready(http: httpx.AsyncClient) -> dict[str, Any] | None:
    answer = await http.get("/api/ready")
    return answer.json()["detail"] if answer.status_code == 503 else None


async def _ready(http: httpx.AsyncClient) -> bool:
    return (await http.get("/api/ready")).status_code == 200
