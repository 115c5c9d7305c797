"""Play again and the wild-card designations query over a real server on PostgreSQL: only the
host of a finished match opens the rematch, with the same settings and computer players, and
the players are invited over their sockets; bad input is refused and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.client import Player, WsClient, call, guest, refusal
from tests.api.halls import Hall, hall
from tests.api.scenarios import discard, draw, meld, stack

pytestmark = pytest.mark.postgres

# Three seats (host 0, guest 1, a computer player 2), one hand is the match: the guest draws KS,
# melds 3C..9C and goes out by discarding KS.
ONE_HAND = stack(hands=[["AS", "2S", "3H", "4H", "6D", "8D", "TD"],
                        ["3C", "4C", "5C", "6C", "7C", "8C", "9C"],
                        ["AH", "2H", "5S", "7S", "9S", "JS", "QH"]],
                 upcard=["KC"], stock_top=["KS"])
SETTINGS = {"game": "standard", "options": {"each_hand_own_game": True}, "seats": 3,
            "turn_seconds": 90, "grace_seconds": 30, "spectator_chat": True,
            "deals": [ONE_HAND]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("rematch"), "postgresql") as running:
        yield running


async def finished_match(http: httpx.AsyncClient, server: Hall
                         ) -> tuple[dict[str, Any], Player, Player, WsClient, WsClient]:
    host, other = await guest(http, "Host"), await guest(http, "Guest")
    room = await call(http, "POST", "/api/rooms", host, SETTINGS)
    await call(http, "POST", f"/api/rooms/{room['id']}/join", other, {})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
    host_ws = await WsClient.join(server.base_url, room["id"], host)
    guest_ws = await WsClient.join(server.base_url, room["id"], other)
    await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
    await guest_ws.wait_turn()
    for action in (draw(), meld(["3C", "4C", "5C", "6C", "7C", "8C", "9C"]), discard("KS")):
        await guest_ws.ack(action)
    await host_ws.wait_for(lambda m: m["type"] == "state" and m["room"]["status"] == "closed")
    return room, host, other, host_ws, guest_ws


async def test_the_host_offers_a_rematch_and_the_players_are_invited(
        http: httpx.AsyncClient, server: Hall) -> None:
    room, host, other, host_ws, guest_ws = await finished_match(http, server)
    path = f"/api/rooms/{room['id']}/rematch"
    before = (await call(http, "GET", "/api/rooms"))["rooms"]
    assert await refusal(http, "POST", path, other, None, 403) == "not_host"
    assert await refusal(http, "POST", path, None, None, 401) == "not_authenticated"
    assert await refusal(http, "POST", "/api/rooms/nope/rematch", host, None, 404) == \
        "no_such_room"
    assert (await call(http, "GET", "/api/rooms"))["rooms"] == before  # nothing changed
    new = await call(http, "POST", path, host)
    assert new["id"] != room["id"] and new["status"] == "waiting"
    for key in ("game", "options", "seats", "stake", "buy_in", "turn_seconds",
                "grace_seconds", "private", "spectator_chat"):
        assert new[key] == room[key], key
    assert [p["bot"] is not None for p in new["players"] if p] == [False, True]
    assert new["your_seat"] == 0
    for ws in (host_ws, guest_ws):
        offer = await ws.wait_for(lambda m: m["type"] == "rematch")
        assert offer == {"type": "rematch", "from": room["id"], "room": new["id"],
                         "invite_code": new["invite_code"]}
    state = await guest_ws.wait_for(lambda m: m["type"] == "state"
                                    and m["room"]["rematch"] == new["id"])
    assert state["view"]["game_over"]
    again = await call(http, "POST", path, host)  # asked again: the same room
    assert again["id"] == new["id"]
    joined = await call(http, "POST", f"/api/rooms/{new['id']}/join", other,
                        {"invite": offer["invite_code"]})
    assert joined["seat"] == 2
    assert joined["room"]["taken"] == 3
    for ws in (host_ws, guest_ws):
        await ws.close()


async def test_a_blocked_players_chat_is_not_carried_to_the_blocker(
        http: httpx.AsyncClient, server: Hall) -> None:
    """The rematch's room starts with the finished room's chat, each line with its speaker, so
    the seating policy's chat rule holds there too: the host's first state leaves out the lines
    of the player they blocked (PROTOCOL.md §9), judged by the blocks as they stand when the
    lines are carried, so a line said before the block too; everyone else is shown every line."""
    room, host, other, host_ws, guest_ws = await finished_match(http, server)
    await guest_ws.send({"type": "chat", "text": "good game"})
    await host_ws.wait_for(lambda m: m.get("text") == "good game")
    await call(http, "POST", f"/api/players/{other.id}/block", host)
    await guest_ws.send({"type": "chat", "text": "from the blocked"})
    await guest_ws.wait_for(lambda m: m.get("text") == "from the blocked")
    await host_ws.send({"type": "chat", "text": "from the host"})
    for ws in (host_ws, guest_ws):
        await ws.wait_for(lambda m: m.get("text") == "from the host")
    assert not [m for m in host_ws.messages if m.get("text") == "from the blocked"]

    new = await call(http, "POST", f"/api/rooms/{room['id']}/rematch", host)
    first = {p.id: await WsClient.join(server.base_url, new["id"], p) for p in (host, other)}
    try:
        shown = {player: [line["text"] for line in ws.messages[0]["chat"]]
                 for player, ws in first.items()}
        assert shown[host.id] == ["from the host"]
        assert shown[other.id] == ["good game", "from the blocked", "from the host"]
        assert all(line["seat"] is None for line in first[other.id].messages[0]["chat"])
    finally:
        for ws in (*first.values(), host_ws, guest_ws):
            await ws.close()


async def test_a_rematch_waits_for_the_match_to_end(http: httpx.AsyncClient) -> None:
    host = await guest(http, "Eager")
    room = await call(http, "POST", "/api/rooms", host, {"game": "standard", "seats": 2})
    path = f"/api/rooms/{room['id']}/rematch"
    assert await refusal(http, "POST", path, host, None, 409) == "match_not_over"
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
    await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
    assert await refusal(http, "POST", path, host, None, 409) == "match_not_over"
    info = await call(http, "GET", f"/api/rooms/{room['id']}", host)
    assert info["rematch"] is None and info["status"] == "playing"


async def test_designations_query_offers_only_valid_listings(
        http: httpx.AsyncClient, server: Hall) -> None:
    host = await guest(http, "Wild")
    room = await call(http, "POST", "/api/rooms", host, {"game": "kaluki", "seats": 2})
    ws = await WsClient.join(server.base_url, room["id"], host)
    await ws.send({"type": "designations", "id": "q1", "cards": ["KC", "KD", "JK"],
                   "meld": None})
    answer = await ws.wait_for(lambda m: m.get("id") == "q1")
    assert answer == {"type": "designations", "id": "q1", "cards": ["KC", "KD", "JK"],
                      "meld": None, "wilds": [2],
                      "options": [["KC", "KD", "JK:KH"], ["KC", "KD", "JK:KS"]], "valid": True}
    await ws.send({"type": "designations", "id": "q3", "cards": ["AC", "TC", "2D"],
                   "meld": None})
    answer = await ws.wait_for(lambda m: m.get("id") == "q3")
    assert (answer["options"], answer["valid"]) == ([], False)  # no meld in any order (GEN-3)
    for bad, code in (({"cards": ["KC", "ZZ", "JK"]}, "bad_card"),
                      ({"cards": []}, "bad_message"),
                      ({"cards": "KC KD JK"}, "bad_message"),
                      ({"cards": ["JK"], "meld": -1}, "bad_message"),
                      ({"cards": ["JK"], "meld": 0}, "no_such_meld")):
        error = await ws.refused({"type": "designations", "id": "q2", **bad}, "q2")
        assert error["code"] == code, bad
    assert ws.latest_state()["room"]["status"] == "waiting"  # nothing changed
    await ws.close()


async def test_me_shows_the_chips_at_tables_beside_the_wallet(http: httpx.AsyncClient) -> None:
    player = await guest(http, "Stacked")
    room = await call(http, "POST", "/api/rooms", player,
                      {"game": "standard", "seats": 2, "stake": 1, "buy_in": 200})
    me = await call(http, "GET", "/api/me", player)
    assert (me["balance"], me["escrow"], me["tables"]) == (800, 200, {room["id"]: 200})
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", player)
    me = await call(http, "GET", "/api/me", player)
    assert (me["balance"], me["escrow"], me["tables"]) == (1000, 0, {})
