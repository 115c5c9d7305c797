"""Ratings count only a person's own play (docs/server.md, "Ratings"), over a real server on
PostgreSQL: a player who leaves at once is not rated, a room whose players never connect is
not played on for nobody and rates nobody, a seat whose turns the server played is not rated,
and a match with fewer than two rated people changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.client import Player, WsClient, call, guest, take_turn
from tests.api.halls import Hall, hall

pytestmark = pytest.mark.postgres

ABANDON = 3.0
ENV = {"RUMMY_ABANDON_SECONDS": str(ABANDON), "RUMMY_LEADERBOARD_MIN_MATCHES": "1"}
ONE_GAME = {"each_hand_own_game": True}  # the first hand decides the match


def _stock(hands: list[list[str]], discard: list[str], top: list[str]) -> list[str]:
    rest = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    for card in [c for h in hands for c in h] + discard + top:
        rest.remove(card)
    return top + rest


# Seat 1 plays first; its hand is three melds, so whoever plays it goes out at once.
OUT_AT_ONCE = [["AS", "2S", "3H", "4H", "6D", "8D", "TD", "QS", "JH", "5S"],
               ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "7H", "7D", "7S"]]
DEAL = {"hands": OUT_AT_ONCE, "discard": ["KC"], "stock": _stock(OUT_AT_ONCE, ["KC"], ["KS"])}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("fairness"), "postgresql", ENV) as running:
        yield running


async def _rated_room(http: Any, host: Player, other: Player, **body: Any) -> dict[str, Any]:
    room = await call(http, "POST", "/api/rooms", host,
                      {"game": "standard", "seats": 2, "rated": True, **body})
    await call(http, "POST", f"/api/rooms/{room['id']}/join", other)
    return dict(room)


async def _closed(http: Any, room_id: str, player: Player) -> dict[str, Any]:
    """The room once it is closed (polling with a generous deadline)."""
    for _ in range(600):
        room = await call(http, "GET", f"/api/rooms/{room_id}", player)
        if room["status"] == "closed":
            return dict(room)
        await asyncio.sleep(0.1)
    raise AssertionError(f"room {room_id} never closed: {room['status']}")


async def _unrated(http: Any, match_id: str, *players: Player) -> None:
    """No rating of these players moved, and the match lists no rating change."""
    for player in players:
        mine = await call(http, "GET", "/api/me/matches", player)
        entry = next(m for m in mine["matches"] if m["id"] == match_id)
        assert entry["rating"] is None, (player.name, entry)
        profile = await call(http, "GET", f"/api/players/{player.id}")
        assert all(g["rating"] is None for g in profile["games"]), profile["games"]


async def test_a_player_who_leaves_at_once_is_not_rated_when_the_stand_in_wins(
        server: Hall, http: Any) -> None:
    ann, ben = await guest(http, "Fair Ann"), await guest(http, "Fair Ben")
    room = await _rated_room(http, ann, ben, options=ONE_GAME, deals=[DEAL])
    client = await WsClient.join(server.base_url, room["id"], ann)
    match_id = (await call(http, "POST", f"/api/rooms/{room['id']}/start", ann))["match_id"]
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", ben)  # before any turn of his
    final = await client.wait_state(lambda v: v["game_over"], timeout=30)
    await client.close()

    assert final["view"]["game_winner"] == 1, "the stand-in went out with Ben's melds"
    assert final["view"]["rating_changes"] == []
    seat = final["room"]["players"][1]
    assert (seat["player_id"], seat["bot"]) == (ben.id, "sensible")  # resigned: a stand-in's
    played = [e for m in client.states for e in m["events"]
              if e["type"] == "action" and e["seat"] == 1]
    assert played and all(e["played_for"] == "stand_in" for e in played)
    await _closed(http, room["id"], ann)
    await _unrated(http, match_id, ann, ben)


async def test_a_room_whose_players_never_connect_is_not_played_on_and_rates_nobody(
        server: Hall, http: Any) -> None:
    ann, ben = await guest(http, "Absent Ann"), await guest(http, "Absent Ben")
    room = await _rated_room(http, ann, ben, grace_seconds=0, turn_seconds=1)
    match_id = (await call(http, "POST", f"/api/rooms/{room['id']}/start", ann))["match_id"]
    lobby = await call(http, "GET", "/api/rooms")
    assert room["id"] not in [r["id"] for r in lobby["rooms"]], "listed with nobody there"
    closed = await _closed(http, room["id"], ann)

    assert closed["status"] == "closed"
    export = await call(http, "GET", f"/api/admin/matches/{match_id}",
                        Player("admin", "admin", server.admin_token))
    assert export["match"]["status"] == "abandoned"
    moves = [a for h in export["hands"] for a in h["actions"]]
    assert moves == [], "stand-ins played a table nobody was at"
    await _unrated(http, match_id, ann, ben)


# Three seats, Ben's first (seat 1): a run of seven, which the stand-in lays down and goes out
# with on his second turn (the timer's second move makes him away).
THREE = [["AS", "2S", "4H", "6D", "8D", "TD", "QS"],
         ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
         ["AH", "3H", "5S", "7S", "9H", "JH", "KD"]]
THREE_DEAL = {"hands": THREE, "discard": ["KC"], "stock": _stock(THREE, ["KC"], [])}
TURN_SECONDS = 5


async def test_a_seat_the_server_played_for_is_not_rated_and_the_others_are(
        server: Hall, http: Any) -> None:
    """Ben is connected but never moves: the timer plays his first turn, and his second until
    he is away, when a stand-in finishes it (all of his turns, over the 20 % share), so he is
    not rated; Ann and Cy, who played every turn of theirs, are."""
    ann, ben, cy = (await guest(http, "Share Ann"), await guest(http, "Share Ben"),
                    await guest(http, "Share Cy"))
    room = await _rated_room(http, ann, ben, seats=3, options=ONE_GAME, deals=[THREE_DEAL],
                             turn_seconds=TURN_SECONDS)
    await call(http, "POST", f"/api/rooms/{room['id']}/join", cy)
    a, b, c = [await WsClient.join(server.base_url, room["id"], p) for p in (ann, ben, cy)]
    match_id = (await call(http, "POST", f"/api/rooms/{room['id']}/start", ann))["match_id"]
    for client in (c, a):  # each plays a turn of their own: draw, discard the card drawn
        await take_turn(client, await client.wait_turn())
    final = await b.wait_state(lambda v: v["game_over"], timeout=60)
    events = [e for m in b.states for e in m["events"] if e["type"] == "action"]
    for client in (a, b, c):
        await client.close()

    by_seat = {seat: [e.get("played_for") for e in events if e["seat"] == seat]
               for seat in range(3)}
    assert by_seat[0] == by_seat[2] == [None, None], by_seat
    assert by_seat[1] == ["timeout"] * 3 + ["stand_in"] * 2, by_seat[1]
    assert final["view"]["game_winner"] == 1
    changes = final["view"]["rating_changes"]
    assert [(x["seat"], x["player_id"]) for x in changes] == [(0, ann.id), (2, cy.id)]
    await _unrated(http, match_id, ben)
    board = await call(http, "GET", "/api/leaderboards/standard")
    assert {ann.id, cy.id} <= {p["player_id"] for p in board["players"]}


async def test_a_resignation_after_two_own_turns_is_rated_as_a_loss(
        server: Hall, http: Any) -> None:
    """Ben plays two turns of his own and resigns; the stand-in goes out with his melds, but
    the resignation is a loss: Ann is rated first, Ben last."""
    ann, ben = await guest(http, "Loss Ann"), await guest(http, "Loss Ben")
    room = await _rated_room(http, ann, ben, options=ONE_GAME, deals=[DEAL])
    a = await WsClient.join(server.base_url, room["id"], ann)
    b = await WsClient.join(server.base_url, room["id"], ben)
    await call(http, "POST", f"/api/rooms/{room['id']}/start", ann)
    for client in (b, a, b, a):  # draw, discard the card drawn: Ben keeps his melds in hand
        await take_turn(client, await client.wait_turn())
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", ben)
    final = await a.wait_state(lambda v: v["game_over"], timeout=30)
    for client in (a, b):
        await client.close()

    assert final["view"]["game_winner"] == 1, "the stand-in went out with Ben's melds"
    changes = {x["seat"]: x for x in final["view"]["rating_changes"]}
    assert [(s, changes[s]["player_id"], changes[s]["rank"]) for s in sorted(changes)] == [
        (0, ann.id, 0), (1, ben.id, 1)]
    assert changes[0]["delta"] > 0 > changes[1]["delta"]
