"""Quick seat among several processes (docs/scaling.md, "Quick seat"): calls at the same moment
on two processes share one lock in Redis, so they fill rooms exactly, and a room whose owner is
the other process is joined, and starts, there."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from tests.api.client import WsClient, call, guest, http_client
from tests.cluster.conftest import Fleet

pytestmark = pytest.mark.postgres


async def test_eight_callers_on_two_processes_fill_four_rooms(fleet: Fleet) -> None:
    procs = fleet(2)
    https = [http_client(p.base_url) for p in procs]
    try:
        players = [await guest(https[i % 2], f"Stranger {i}") for i in range(8)]
        body = {"game": "standard", "seats": 2, "stake": 0}
        answers = await asyncio.gather(*(
            https[i % 2].post("/api/quickseat", json=body, headers=p.headers)
            for i, p in enumerate(players)))
        assert all(a.status_code in (200, 201) for a in answers), [a.text for a in answers]
        assert Counter(a.status_code for a in answers) == {200: 4, 201: 4}
        rooms: dict[str, list[int]] = {}
        for answer in answers:
            rooms.setdefault(answer.json()["room"]["id"], []).append(answer.json()["seat"])
        assert len(rooms) == 4 and all(sorted(s) == [0, 1] for s in rooms.values()), rooms
        for i, room_id in enumerate(rooms):  # read through either process: started, full
            room = await call(https[i % 2], "GET", f"/api/rooms/{room_id}", players[0])
            assert (room["status"], room["taken"], room["quick_seat"]) == ("playing", 2, True)

        room_id = answers[0].json()["room"]["id"]
        for proc in procs:  # the first state shows the deal, wherever the socket lands
            client = await WsClient.join(proc.base_url, room_id, players[0])
            try:
                view = client.messages[0]["view"]
                assert view["seat"] == answers[0].json()["seat"] and view["hand"], view
            finally:
                await client.close()
    finally:
        for http in https:
            await http.aclose()
