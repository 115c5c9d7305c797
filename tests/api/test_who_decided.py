"""Who decided (PROTOCOL.md §4 `played_for`, §10 "Who decided"), over a real server on
PostgreSQL: the moves the server made for a person's seat (their turn timer, a stand-in) are
marked in the admin's export, its step replay and the player's replay, and `python -m app
replay` takes the export; the analysis lists them with their mark but counts only each seat's
own decisions, and so does the player's accuracy over time; a profile counts a match's win or
loss by the ratings' own-play rule (a seat mostly played for, a resignation before two own
turns: not counted; a resignation after: a loss), and the history says a seat was played out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.client import Player, WsClient, call, guest, take_turn
from tests.api.halls import Hall, hall, replay
from tests.api.test_rating_fairness import DEAL, ONE_GAME

pytestmark = pytest.mark.postgres

TURN_SECONDS = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("decided"), "postgresql") as running:
        yield running


async def _room(http: Any, ann: Player, ben: Player, **body: Any) -> str:
    """A two-seat Standard room of one hand on the stacked deal in which whoever plays Ben's
    seat (1, the first to play) can go out at once: Ann hosts, Ben joins."""
    room = await call(http, "POST", "/api/rooms", ann, {
        "game": "standard", "seats": 2, "options": ONE_GAME, "deals": [DEAL], **body})
    await call(http, "POST", f"/api/rooms/{room['id']}/join", ben)
    return str(room["id"])


def _moves(client: WsClient) -> list[tuple[int, str | None]]:
    """Every action the client was shown, as (seat, played_for), in order."""
    return [(e["seat"], e.get("played_for")) for m in client.states for e in m["events"]
            if e["type"] == "action"]


async def _analysis(http: Any, match_id: str, player: Player) -> dict[str, Any]:
    return dict(await call(http, "GET", f"/api/matches/{match_id}/analysis", player))


def _standard(profile: dict[str, Any]) -> tuple[int, int, int, float | None]:
    [game] = [g for g in profile["games"] if g["game"] == "standard"]
    return game["matches"], game["wins"], game["losses"], game["win_rate"]


async def _entry(http: Any, player: Player, match_id: str) -> dict[str, Any]:
    mine = await call(http, "GET", "/api/me/matches", player)
    return dict(next(m for m in mine["matches"] if m["id"] == match_id))


async def test_the_servers_moves_are_marked_everywhere_and_count_for_nobody(
        server: Hall, http: Any) -> None:
    """Ben is connected but never moves: his timer plays his first turn and the first move of
    his second, which makes him away; a stand-in then goes out for him. Ann plays her turn."""
    ann, ben = await guest(http, "Own Ann"), await guest(http, "Idle Ben")
    admin = Player("admin", "admin", server.admin_token)
    room_id = await _room(http, ann, ben, turn_seconds=TURN_SECONDS)
    a, b = [await WsClient.join(server.base_url, room_id, p) for p in (ann, ben)]
    match_id = (await call(http, "POST", f"/api/rooms/{room_id}/start", ann))["match_id"]
    await take_turn(a, await a.wait_turn())
    final = await a.wait_state(lambda v: v["game_over"], timeout=60)
    await b.wait_state(lambda v: v["game_over"], timeout=60)
    for client in (a, b):
        await client.close()
    moves = _moves(a)
    assert final["view"]["game_winner"] == 1, "the stand-in went out for Ben"
    assert {why for seat, why in moves if seat == 1} == {"timeout", "stand_in"}, moves
    assert {why for seat, why in moves if seat == 0} == {None}, moves

    # The admin's export, its step replay, the player's replay: each move with its mark.
    export = await call(http, "GET", f"/api/admin/matches/{match_id}", admin)
    [hand] = export["hands"]
    assert [(x["seat"], x.get("played_for")) for x in hand["actions"]] == moves
    marks = {i: why for i, (_, why) in enumerate(moves) if why}
    states = await call(http, "GET", f"/api/admin/matches/{match_id}/states", admin)
    mine = await call(http, "GET", f"/api/matches/{match_id}/replay", ben)
    for steps in (states["steps"], mine["steps"]):
        assert {s["index"]: s["played_for"] for s in steps if "played_for" in s} == marks
    replayed = replay(server.workdir, export, "decided.json")
    assert (replayed["ok"], replayed["totals"]) == (True, export["match"]["totals"])

    # The analysis lists the server's moves with their mark; Ben decided nothing himself.
    found = await _analysis(http, match_id, ann)
    assert all(d.get("played_for") == marks.get(d["index"]) for d in found["decisions"])
    assert any(d["seat"] == 1 for d in found["decisions"]), "the server's moves are listed"
    seats = {s["seat"]: s for s in found["seats"]}
    assert (seats[1]["decisions"], seats[1]["accuracy"], seats[1]["loss"]) == (0, None, 0.0)
    own = [d for d in found["decisions"] if d["seat"] == 0]
    assert own and not any("played_for" in d for d in own)
    assert seats[0]["decisions"] == len(own) and seats[0]["accuracy"] is not None

    # Accuracy over time: Ben's match has no decision of his; Ann's has hers.
    assert await call(http, "GET", "/api/me/accuracy", ben) == {"matches": []}
    [point] = (await call(http, "GET", "/api/me/accuracy", ann))["matches"]
    assert (point["decisions"], point["accuracy"]) == (len(own), seats[0]["accuracy"])

    # The profile: the stand-in's win is no win of Ben's (every turn of his played for him);
    # Ann, who played her own, lost.
    assert _standard(await call(http, "GET", f"/api/players/{ben.id}")) == (1, 0, 0, None)
    assert _standard(await call(http, "GET", f"/api/players/{ann.id}")) == (1, 0, 1, 0.0)
    entry = await _entry(http, ben, match_id)
    assert (entry["result"], entry["played_out"]) == ("won", False)


async def _resigned(server: Hall, http: Any, own_turns: int, name: str
                    ) -> tuple[Player, Player, str, list[tuple[int, str | None]]]:
    """Ben plays `own_turns` turns of his own (drawing and throwing the card drawn, keeping
    his melds) and resigns; the stand-in that takes his seat goes out with his melds."""
    ann, ben = await guest(http, f"Stayer {name}"), await guest(http, f"Leaver {name}")
    room_id = await _room(http, ann, ben)
    a, b = [await WsClient.join(server.base_url, room_id, p) for p in (ann, ben)]
    match_id = (await call(http, "POST", f"/api/rooms/{room_id}/start", ann))["match_id"]
    for _ in range(own_turns):
        for client in (b, a):
            await take_turn(client, await client.wait_turn())
    await call(http, "POST", f"/api/rooms/{room_id}/leave", ben)
    final = await a.wait_state(lambda v: v["game_over"], timeout=60)
    for client in (a, b):
        await client.close()
    assert final["view"]["game_winner"] == 1, "the stand-in went out with Ben's melds"
    return ann, ben, match_id, _moves(a)


async def test_a_resignation_before_two_own_turns_counts_for_nothing(
        server: Hall, http: Any) -> None:
    ann, ben, match_id, moves = await _resigned(server, http, 0, "At Once")
    assert {why for seat, why in moves if seat == 1} == {"stand_in"}, moves
    assert _standard(await call(http, "GET", f"/api/players/{ben.id}")) == (1, 0, 0, None)
    entry = await _entry(http, ben, match_id)
    assert (entry["result"], entry["played_out"]) == ("won", True)
    assert (await _entry(http, ann, match_id))["played_out"] is False


async def test_a_resignation_after_two_own_turns_is_a_loss_and_his_own_play_is_graded(
        server: Hall, http: Any) -> None:
    ann, ben, match_id, moves = await _resigned(server, http, 2, "Later")
    assert [why for seat, why in moves if seat == 1] == [None] * 4 + ["stand_in"] * (
        sum(1 for seat, why in moves if seat == 1) - 4), moves
    assert _standard(await call(http, "GET", f"/api/players/{ben.id}")) == (1, 0, 1, 0.0)
    assert _standard(await call(http, "GET", f"/api/players/{ann.id}")) == (1, 0, 1, 0.0)
    profile = await call(http, "GET", f"/api/players/{ben.id}")
    assert [(m["id"], m["played_out"]) for m in profile["recent"]] == [(match_id, True)]

    found = await _analysis(http, match_id, ben)
    his = [d for d in found["decisions"] if d["seat"] == 1]
    stand_in = [d for d in his if d.get("played_for") == "stand_in"]
    assert stand_in and all(moves[d["index"]] == (1, "stand_in") for d in stand_in)
    own = [d for d in his if "played_for" not in d]
    assert own and all(moves[d["index"]] == (1, None) for d in own)
    seat = found["seats"][1]
    assert (seat["decisions"], seat["loss"]) == (len(own), round(sum(d["loss"] for d in own), 2))
    [point] = (await call(http, "GET", "/api/me/accuracy", ben))["matches"]
    assert (point["decisions"], point["accuracy"]) == (len(own), seat["accuracy"])
