"""Operations with several processes (PROTOCOL.md §11, docs/operations.md): each process serves
its own metrics, with its leases (a closed room's too) and the relay's traffic; a process whose
Redis is gone says it is not ready (and is ready again once Redis is back); what is relayed to a
room's owner is logged there with the id of the request it came with."""

from __future__ import annotations

import json
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
        # A room its host leaves before it begins closes, and is still held with its lease.
        deserted = await call(at_owner, "POST", "/api/rooms", friend,
                              {"game": "standard", "seats": 2})
        await call(at_owner, "POST", f"/api/rooms/{deserted['id']}/leave", friend)
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

    assert value(owner_samples, "rummy_rooms", status="playing") == 1
    assert value(owner_samples, "rummy_rooms", status="closed") == 1
    assert value(owner_samples, "rummy_leases_held") == sum(
        value(owner_samples, "rummy_rooms", status=s) for s in ("waiting", "playing", "closed"))
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


async def test_the_owner_logs_what_it_is_relayed_with_the_requests_id(fleet: Fleet) -> None:
    """A room made at one process, called and played from the other: the owner's lines for the
    relayed call and the relayed socket's action carry the ids the requests came with, and the
    room's first line the id of the request that made it."""
    owner, other = fleet(2, RUMMY_LOG_FORMAT="json", RUMMY_LOG_LEVEL="debug")
    async with http_client(owner.base_url) as at_owner, http_client(other.base_url) as at_other:
        host, friend = await guest(at_owner, "Host"), await guest(at_owner, "Friend")
        made = await at_owner.post("/api/rooms", json={"game": "standard", "seats": 2},
                                   headers={**host.headers, "X-Request-ID": "make-1"})
        assert made.status_code == 200, made.text
        room_id = made.json()["id"]
        joined = await at_other.post(f"/api/rooms/{room_id}/join",
                                     headers={**friend.headers, "X-Request-ID": "join-2"})
        assert joined.status_code == 200, joined.text
        seats = [await WsClient.join(owner.base_url, room_id, host),
                 await WsClient.join(other.base_url, room_id, friend,
                                     headers={"X-Request-ID": "socket-3"})]
        await call(at_owner, "POST", f"/api/rooms/{room_id}/start", host)
        try:
            await take_turn(seats[1])  # seat 1 plays first, from the other process
        finally:
            for seat in seats:
                await seat.close()

    def owner_line(request_id: str, text: str) -> dict[str, Any] | None:
        return next((line for line in _json_lines(owner.log_text())
                     if line.get("request_id") == request_id and text in line["message"]),
                    None)

    opened = await eventually(lambda: owner_line("make-1", f"room {room_id}: opened"),
                              "the owner's line for the new room")
    assert (opened["room"], opened["player"], opened["level"]) == (room_id, host.id, "info")
    relayed = await eventually(lambda: owner_line("join-2", f"room {room_id}: join relayed"),
                               "the owner's line for the relayed call")
    assert relayed["logger"] == "app.cluster.relay"
    action = await eventually(lambda: owner_line("socket-3", "'s action 'draw': applied"),
                              "the owner's line for the relayed socket's action")
    assert (action["room"], action["player"]) == (room_id, friend.id)
    assert not any(line.get("request_id") in ("join-2", "socket-3")
                   for line in _json_lines(other.log_text()) if "room" in line)


def _json_lines(text: str) -> list[dict[str, Any]]:
    """A server's JSON lines (its log also holds the test's `===== start` markers)."""
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]
