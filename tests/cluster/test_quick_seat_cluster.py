"""Quick seat among several processes (docs/scaling.md, "Quick seat"): calls at the same moment
on two processes share one lock in Redis, so they fill rooms exactly, and a room whose owner is
the other process is joined, and starts, there; one person's calls with different settings on
two processes leave them one waiting seat (docs/server.md, "Who may sit where"), and two joins
across a block, landing on two processes, never both take a seat."""

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


async def test_one_persons_six_calls_on_two_processes_leave_one_waiting_seat(
        fleet: Fleet) -> None:
    """And the host's cap of waiting rooms (RUMMY_MAX_WAITING_ROOMS_PER_HOST, 5) counts the rooms
    of both processes: with the quick-seat room waiting, 8 rooms asked for at once on the two
    make 4."""
    procs = fleet(2)
    https = [http_client(p.base_url) for p in procs]
    try:
        player = await guest(https[0], "Hurried")
        answers = await asyncio.gather(*(
            https[i % 2].post("/api/quickseat", headers=player.headers, json={
                "game": "standard", "seats": 3, "stake": 0, "turn_seconds": 41 + i})
            for i in range(6)))
        assert all(a.status_code in (200, 201) for a in answers), [a.text for a in answers]
        assert Counter(a.status_code for a in answers) == {201: 1, 200: 5}
        named = {(a.json()["room"]["id"], a.json()["seat"]) for a in answers}
        assert len(named) == 1, named
        [(room_id, seat)] = named
        for http in https:  # either process: one waiting room holds them
            mine = (await call(http, "GET", "/api/me/rooms", player))["rooms"]
            assert [(r["id"], r["your_seat"], r["status"]) for r in mine] == [
                (room_id, seat, "waiting")]

        made = await asyncio.gather(*(
            https[i % 2].post("/api/rooms", headers=player.headers,
                              json={"game": "standard", "seats": 2}) for i in range(8)))
        assert Counter(a.status_code for a in made) == {200: 4, 409: 4}, [a.text for a in made]
        assert {a.json()["detail"]["code"] for a in made if a.status_code == 409} == {
            "too_many_waiting_rooms"}
    finally:
        for http in https:
            await http.aclose()


async def test_two_joins_across_a_block_on_two_processes_seat_only_one(fleet: Fleet) -> None:
    """The room's owner judges both joins under its lock, whichever process each lands on."""
    procs = fleet(2)
    https = [http_client(p.base_url) for p in procs]
    try:
        ann, bob, cat = [await guest(https[0], name) for name in ("Ann", "Bob", "Cat")]
        await call(https[0], "POST", f"/api/players/{bob.id}/block", ann)
        for i in range(4):
            room = await call(https[i % 2], "POST", "/api/rooms", cat,
                              {"game": "standard", "seats": 3})
            answers = await asyncio.gather(*(
                https[j].post(f"/api/rooms/{room['id']}/join", headers=p.headers)
                for j, p in enumerate((ann, bob))))
            assert sorted(a.status_code for a in answers) == [200, 403], \
                [a.text for a in answers]
            refused = next(a for a in answers if a.status_code == 403)
            assert refused.json()["detail"]["code"] == "blocked"
            assert (await call(https[1], "GET", f"/api/rooms/{room['id']}", cat))["taken"] == 2
            await call(https[0], "POST", f"/api/rooms/{room['id']}/leave", cat)
    finally:
        for http in https:
            await http.aclose()
