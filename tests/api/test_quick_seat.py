"""Quick seat (PROTOCOL.md §8, docs/server.md "Quick seat") over a real server on PostgreSQL:
callers fill rooms exactly, the fullest first, each room starts by itself when its last seat is
taken, asking again is answered the same seat, leaving while it waits returns the buy-in, bad
settings get the errors of `POST /api/rooms`, computer players are refused, calls at the same
time never open a room too many, and a room outlives a SIGKILL.

The tests of the shared hall use settings of their own (a turn timer each), so that no test
finds another's rooms."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db.base import utcnow
from app.db.models import Room, RoomSeat
from app.db.session import make_engine, make_sessionmaker
from tests import pg
from tests.api.client import Player, WsClient, balance, call, guest, http_client, refusal
from tests.api.halls import Hall, hall
from tests.api.procs import ServerProcess, fresh_database

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("quick_seat"), "postgresql") as running:
        yield running


def _table(turn_seconds: int, **settings: Any) -> dict[str, Any]:
    """Quick-seat settings: two seats of Standard Rummy, this test's own turn timer."""
    return {"game": "standard", "seats": 2, "stake": 0, "turn_seconds": turn_seconds,
            **settings}


async def _seat(http: httpx.AsyncClient, player: Player, body: dict[str, Any],
                status: int) -> dict[str, Any]:
    answer: dict[str, Any] = await call(http, "POST", "/api/quickseat", player, body, status)
    return answer


async def _seat_all(http: httpx.AsyncClient, players: list[Player], body: dict[str, Any]
                    ) -> list[httpx.Response]:
    """Everyone asks at the same moment."""
    return list(await asyncio.gather(*(
        http.post("/api/quickseat", json=body, headers=p.headers) for p in players)))


def _rooms_of(answers: list[httpx.Response]) -> dict[str, list[int]]:
    """Each room the answers seated someone in, with the seats they were given."""
    rooms: dict[str, list[int]] = {}
    for answer in answers:
        assert answer.status_code in (200, 201), answer.text
        rooms.setdefault(answer.json()["room"]["id"], []).append(answer.json()["seat"])
    return rooms


async def test_callers_fill_two_seat_rooms_exactly_and_each_starts_by_itself(
        server: Hall, http: httpx.AsyncClient) -> None:
    players = [await guest(http, f"Stranger {i}") for i in range(6)]
    body = _table(31)
    first = await _seat(http, players[0], body, 201)
    assert (first["seat"], first["room"]["status"], first["room"]["quick_seat"]) == (
        0, "waiting", True)
    assert first["room"]["your_seat"] == 0 and first["room"]["taken"] == 1
    again = await _seat(http, players[0], body, 200)  # asking again: the same seat
    assert (again["room"]["id"], again["seat"]) == (first["room"]["id"], 0)
    second = await _seat(http, players[1], {**body, "options": {}}, 200)
    assert (second["room"]["id"], second["seat"]) == (first["room"]["id"], 1)
    assert second["room"]["status"] == "playing"  # started by the join that filled it

    answers = [(await http.post("/api/quickseat", json=body, headers=p.headers))
               for p in players[2:]]
    assert [a.status_code for a in answers] == [201, 200, 201, 200]
    rooms = _rooms_of(answers)
    assert len(rooms) == 2 and all(sorted(s) == [0, 1] for s in rooms.values())
    for room_id in [first["room"]["id"], *rooms]:
        room = await call(http, "GET", f"/api/rooms/{room_id}", players[0])
        assert (room["status"], room["taken"]) == ("playing", 2) and room["match_id"]

    client = await WsClient.join(server.base_url, first["room"]["id"], players[1])
    try:
        state = client.messages[0]  # the first state shows the deal: nobody pressed start
        assert state["room"]["status"] == "playing"
        assert state["view"]["seat"] == 1 and state["view"]["hand"]
        assert state["view"]["hand_no"] == 0 and state["view"]["stock_count"] > 0
    finally:
        await client.close()


async def test_the_same_settings_spelled_out_are_the_same_table(http: httpx.AsyncClient) -> None:
    players = [await guest(http, f"Speller {i}") for i in range(2)]
    games = (await call(http, "GET", "/api/games"))["games"]
    defaults = next(g for g in games if g["key"] == "standard")["options_defaults"]
    first = await _seat(http, players[0], _table(32), 201)
    second = await _seat(http, players[1], _table(32, options=defaults), 200)
    assert second["room"]["id"] == first["room"]["id"]
    other = await _seat(http, await guest(http, "Other"), _table(32, rated=True), 201)
    assert other["room"]["id"] != first["room"]["id"] and other["room"]["rated"]


async def test_leaving_while_it_waits_returns_the_buy_in(http: httpx.AsyncClient) -> None:
    ann, bo = await guest(http, "Buyer"), await guest(http, "Broke")
    body = _table(33, stake=1, buy_in=600)
    seated = await _seat(http, ann, body, 201)
    room_id = seated["room"]["id"]
    assert await balance(http, ann) == 400
    # Bo spends 600 at a table of their own, and cannot pay this one's buy-in any more.
    await call(http, "POST", "/api/rooms", bo, {"game": "knock", "seats": 2, "stake": 1,
                                                "buy_in": 600})
    assert await refusal(http, "POST", "/api/quickseat", bo, body, 409) == "insufficient_chips"
    assert await balance(http, bo) == 400
    room = await call(http, "GET", f"/api/rooms/{room_id}", ann)
    assert (room["status"], room["taken"]) == ("waiting", 1)
    assert await refusal(http, "POST", "/api/quickseat", await guest(http, "Poor"),
                         {**body, "buy_in": 5000}, 409) == "insufficient_chips"

    assert await call(http, "POST", f"/api/rooms/{room_id}/leave", ann) == {"left": True}
    assert await balance(http, ann) == 1000
    lobby = (await call(http, "GET", "/api/rooms"))["rooms"]
    assert room_id not in [r["id"] for r in lobby]  # nobody left: closed
    again = await _seat(http, ann, body, 201)
    assert again["room"]["id"] != room_id and await balance(http, ann) == 400


async def test_bad_settings_get_the_errors_of_a_new_room(http: httpx.AsyncClient) -> None:
    player = await guest(http, "Typo")
    for body in ({"game": "nope", "seats": 2}, {"game": "nowrang", "seats": 3},
                 {"game": "standard", "seats": 2, "stake": 5},
                 {"game": "standard", "seats": 2, "options": {"nope": True}},
                 {"game": "standard", "seats": 2, "options": {"complete_rummy": True,
                                                              "call_rummy": True}},
                 {"game": "standard", "seats": 2, "turn_seconds": 601},
                 {"game": "standard", "seats": 2, "stake": -1}):
        room = await http.post("/api/rooms", json=body, headers=player.headers)
        quick = await http.post("/api/quickseat", json=body, headers=player.headers)
        assert room.status_code >= 400 and room.status_code != 422, (body, room.text)
        assert (quick.status_code, quick.json()) == (room.status_code, room.json()), body
    assert (await call(http, "GET", "/api/me", player))["balance"] == 1000
    unauthenticated = await http.post("/api/quickseat", json=_table(34))
    assert unauthenticated.status_code == 401


async def test_a_quick_seat_room_takes_no_computer_players(http: httpx.AsyncClient) -> None:
    player = await guest(http, "Lonely")
    room = (await _seat(http, player, _table(35, seats=3), 201))["room"]
    assert await refusal(http, "POST", f"/api/rooms/{room['id']}/bots", player,
                         {"count": 2}, 409) == "quick_seat_humans_only"
    assert await refusal(http, "POST", f"/api/rooms/{room['id']}/start", player, None,
                         409) == "seats_empty"
    after = await call(http, "GET", f"/api/rooms/{room['id']}", player)
    assert (after["taken"], after["status"]) == (1, "waiting")


async def test_the_lobby_shows_who_waits_and_filters(http: httpx.AsyncClient) -> None:
    players = [await guest(http, f"Lobbyist {i}") for i in range(3)]
    quick = (await _seat(http, players[0], _table(36, game="knock", seats=3), 201))["room"]
    await _seat(http, players[1], _table(36, game="knock", seats=3), 200)
    hosted = await call(http, "POST", "/api/rooms", players[2],
                        {"game": "knock", "seats": 3, "turn_seconds": 36})

    async def lobby(**query: Any) -> list[dict[str, Any]]:
        rooms = (await call(http, "GET", "/api/rooms?" + "&".join(
            f"{k}={v}" for k, v in query.items())))["rooms"]
        return [r for r in rooms if r["id"] in (quick["id"], hosted["id"])]

    listed = {r["id"]: r for r in await lobby()}
    assert (listed[quick["id"]]["quick_seat"], listed[quick["id"]]["taken"],
            listed[quick["id"]]["seats"]) == (True, 2, 3)
    assert listed[hosted["id"]]["quick_seat"] is False
    assert len(await lobby(game="knock", seats=3, turn_seconds=36, stake=0)) == 2
    assert await lobby(game="standard") == []
    assert await lobby(seats=2) == []
    assert await lobby(turn_seconds=37) == []
    assert await lobby(stake=1) == []
    assert all(r["game"] == "knock" for r in (await call(
        http, "GET", "/api/rooms?game=knock"))["rooms"])
    assert await refusal(http, "GET", "/api/rooms?game=nope", None, None, 404) == "unknown_game"
    for bad in ("seats=0", "seats=two", "stake=-1", "turn_seconds=601", "colour=red"):
        assert (await http.get(f"/api/rooms?{bad}")).status_code == 422, bad


async def test_eight_callers_at_once_fill_four_rooms(http: httpx.AsyncClient) -> None:
    players = [await guest(http, f"Rusher {i}") for i in range(8)]
    answers = await _seat_all(http, players, _table(38))
    rooms = _rooms_of(answers)
    assert len(rooms) == 4 and all(sorted(s) == [0, 1] for s in rooms.values()), rooms
    assert Counter(a.status_code for a in answers) == {200: 4, 201: 4}
    for room_id in rooms:
        room = await call(http, "GET", f"/api/rooms/{room_id}", players[0])
        assert (room["status"], room["taken"]) == ("playing", 2)


# --- one waiting quick-seat seat per person (PROTOCOL.md §8; "Who may sit where") -----------------


async def _waiting_rooms(http: httpx.AsyncClient, player: Player) -> list[dict[str, Any]]:
    """The quick-seat rooms waiting for players where ``player`` holds a seat."""
    rooms = (await call(http, "GET", "/api/me/rooms", player))["rooms"]
    quick = {r["id"] for r in (await call(http, "GET", "/api/rooms"))["rooms"]
             if r["quick_seat"]}
    return [r for r in rooms if r["status"] == "waiting" and r["id"] in quick]


async def test_one_persons_calls_at_once_with_six_settings_leave_one_waiting_seat(
        http: httpx.AsyncClient) -> None:
    """Six calls by one person at the same moment, each with other settings (each its own
    table, so no lock of a table holds them up): one seat in one waiting room, and every answer
    names it."""
    player = await guest(http, "Hurried")
    bodies = [_table(41 + i, seats=3) for i in range(6)]
    answers = await asyncio.gather(*(
        http.post("/api/quickseat", json=body, headers=player.headers) for body in bodies))
    assert all(a.status_code in (200, 201) for a in answers), [a.text for a in answers]
    assert Counter(a.status_code for a in answers) == {201: 1, 200: 5}
    named = {(a.json()["room"]["id"], a.json()["seat"]) for a in answers}
    assert len(named) == 1, named
    [(room_id, seat)] = named
    assert [(r["id"], r["your_seat"]) for r in await _waiting_rooms(http, player)] == [
        (room_id, seat)]
    assert await call(http, "POST", f"/api/rooms/{room_id}/leave", player) == {"left": True}
    assert await _waiting_rooms(http, player) == []


async def test_a_join_by_id_obeys_the_one_waiting_seat(http: httpx.AsyncClient) -> None:
    ann, bob = await guest(http, "Waiting Ann"), await guest(http, "Opener Bob")
    mine = await _seat(http, ann, _table(47, seats=3), 201)
    other = await _seat(http, bob, _table(48, seats=3), 201)
    path = f"/api/rooms/{other['room']['id']}/join"
    refused = await call(http, "POST", path, ann, None, 409)
    assert refused["detail"]["code"] == "already_waiting"
    assert (refused["detail"]["room"], refused["detail"]["seat"]) == (mine["room"]["id"], 0)
    assert (await call(http, "GET", f"/api/rooms/{other['room']['id']}", bob))["taken"] == 1
    hosted = await call(http, "POST", "/api/rooms", bob, {"game": "standard", "seats": 3})
    await call(http, "POST", f"/api/rooms/{hosted['id']}/join", ann)  # a host's room: yes
    await call(http, "POST", f"/api/rooms/{mine['room']['id']}/leave", ann)
    assert (await call(http, "POST", path, ann))["seat"] == 1  # no longer waiting elsewhere


async def test_a_join_by_id_and_a_quick_seat_at_once_leave_one_waiting_seat(
        http: httpx.AsyncClient) -> None:
    """The join goes round the person's quick-seat lock: the database's one row per person
    decides, and quick seat answers the seat the join took if the join came first."""
    for i in range(4):
        ann, bob = await guest(http, f"Racing Ann {i}"), await guest(http, f"Host Bob {i}")
        other = (await _seat(http, bob, _table(51 + i, seats=3), 201))["room"]
        joined, quick = await asyncio.gather(
            http.post(f"/api/rooms/{other['id']}/join", headers=ann.headers),
            http.post("/api/quickseat", json=_table(55 + i, seats=3), headers=ann.headers))
        assert quick.status_code in (200, 201), quick.text
        waiting = await _waiting_rooms(http, ann)
        assert len(waiting) == 1, waiting
        assert quick.json()["room"]["id"] == waiting[0]["id"]
        if joined.status_code == 200:  # the join first: quick seat answered its room
            assert quick.status_code == 200 and waiting[0]["id"] == other["id"]
        else:
            assert joined.json()["detail"]["code"] == "already_waiting", joined.text
        await call(http, "POST", f"/api/rooms/{waiting[0]['id']}/leave", ann)


# --- rooms read from the database: a restart, and the order of choice ----------------------------


async def test_after_a_sigkill_the_next_caller_joins_the_half_full_room(tmp_path: Path) -> None:
    with fresh_database("postgresql", tmp_path) as url:
        proc = ServerProcess(tmp_path, url)
        proc.start()
        try:
            async with http_client(proc.base_url) as http:
                ann, bo = await guest(http, "Before"), await guest(http, "After")
                waiting = await _seat(http, ann, _table(0, stake=1, buy_in=100), 201)
            proc.kill()
            proc.start()
            async with http_client(proc.base_url) as http:
                joined = await _seat(http, bo, _table(0, stake=1, buy_in=100), 200)
                assert (joined["room"]["id"], joined["seat"]) == (waiting["room"]["id"], 1)
                assert joined["room"]["status"] == "playing"
                assert await balance(http, ann) == await balance(http, bo) == 900
        finally:
            proc.stop()


def _copy_room(url: str, like: str, players: list[Player], age: timedelta) -> str:
    """A waiting quick-seat room with the settings of room `like`, these players seated, made
    `age` before now, written straight to the database while the server is stopped: through
    the API, quick seat never leaves two rooms of one table waiting with free seats."""

    async def write() -> str:
        engine = make_engine(url)
        try:
            async with make_sessionmaker(engine)() as s, s.begin():
                model = (await s.scalars(select(Room).where(Room.id == like))).one()
                room_id = secrets.token_hex(8)
                s.add(Room(id=room_id, host_id=players[0].id, game=model.game,
                           options=model.options, seats=model.seats, stake=0, buy_in=0,
                           turn_seconds=model.turn_seconds, grace_seconds=model.grace_seconds,
                           invite_code=secrets.token_urlsafe(9), status="waiting",
                           quick_seat=model.quick_seat, created_at=utcnow() - age))
                await s.flush()
                for seat, player in enumerate(players):
                    s.add(RoomSeat(room_id=room_id, seat=seat, player_id=player.id,
                                   name=player.name))
                return room_id
        finally:
            await engine.dispose()

    return pg.run_sync(write)


async def test_the_fullest_room_first_then_the_oldest(tmp_path: Path) -> None:
    with fresh_database("postgresql", tmp_path) as url:
        proc = ServerProcess(tmp_path, url)
        proc.start()
        try:
            async with http_client(proc.base_url) as http:
                people = [await guest(http, f"Person {i}") for i in range(7)]
                body = _table(0, seats=3)
                newest = (await _seat(http, people[0], body, 201))["room"]["id"]
            proc.stop()
            oldest = _copy_room(url, newest, people[1:2], timedelta(minutes=2))
            fullest = _copy_room(url, newest, people[2:4], timedelta(minutes=1))
            proc.start()
            async with http_client(proc.base_url) as http:
                order = [(await _seat(http, p, body, 200))["room"] for p in people[4:]]
        finally:
            proc.stop()
    # 2 of 3 first (it fills and starts), then of two rooms with one player the older, which
    # is then the fullest.
    assert [(r["id"], r["taken"], r["status"]) for r in order] == [
        (fullest, 3, "playing"), (oldest, 2, "waiting"), (oldest, 3, "playing")]
