"""Redis faults an operator meets (issue 36, docs/scaling.md): a restarted Redis."""

from __future__ import annotations

import asyncio

import httpx

from tests.api.client import http_client
from tests.cluster.conftest import Fleet, PrivateRedis
from tests.waits import eventually


async def test_once_a_restarted_redis_is_ready_calls_succeed(
        fleet: Fleet, private_redis: PrivateRedis) -> None:
    (proc,) = fleet(1, RUMMY_REDIS_URL=private_redis.url)
    async with http_client(proc.base_url) as http:
        # Every pooled connection in use once, so that the pool holds many when Redis goes.
        answers = await asyncio.gather(*(_guest_and_room(http, i) for i in range(30)))
        assert all(a == 200 for pair in answers for a in pair), answers
        private_redis.stop()
        await eventually(lambda: _ready_is(http, 503), "/api/ready says 503 without Redis")
        private_redis.start()
        await eventually(lambda: _ready_is(http, 200), "/api/ready says 200 again")
        answers = await asyncio.gather(*(_guest_and_room(http, i) for i in range(30)))
    failed = [pair for pair in answers if pair != (200, 200)]
    assert len(failed) <= 1, answers


async def _ready_is(http: httpx.AsyncClient, status: int) -> bool:
    return (await http.get("/api/ready")).status_code == status


async def _guest_and_room(http: httpx.AsyncClient, i: int) -> tuple[int, int]:
    made = await http.post("/api/auth/guest", json={"name": f"Player{i}"})
    if made.status_code != 200:
        return made.status_code, 0
    token = made.json()["token"]
    room = await http.post("/api/rooms", json={"game": "standard", "seats": 2},
                           headers={"Authorization": f"Bearer {token}"})
    return 200, room.status_code
