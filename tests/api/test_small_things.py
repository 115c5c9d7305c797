"""Issue 18's small things over a real server on PostgreSQL: a rematch room carries the old
room's chat and the host is not shown gone from the old room once they offered it; a refusal
of clashing options names them; ``GET /api/me/rooms`` answers the caller's own rooms only,
private ones included, and (issue 35) says which seats the caller resigned."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.api.client import Player, WsClient, call, guest, refusal
from tests.api.halls import Hall, hall
from tests.api.test_rematch import finished_match

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("small"), "postgresql") as running:
        yield running


async def test_the_rematch_room_carries_the_chat_and_the_host_stays_present(
        http: httpx.AsyncClient, server: Hall) -> None:
    room, host, other, host_ws, guest_ws = await finished_match(http, server)
    for ws, text in ((guest_ws, "good game"), (host_ws, "again?")):
        await ws.send({"type": "chat", "text": text})
        await guest_ws.wait_for(lambda m, text=text: m["type"] == "chat" and m["text"] == text)
    new = await call(http, "POST", f"/api/rooms/{room['id']}/rematch", host)
    at, _ = await guest_ws.wait_index(lambda m: m["type"] == "state"
                                      and m["room"]["rematch"] == new["id"])
    await host_ws.close()  # the host's browser goes on to the new room
    _, after = await guest_ws.wait_index(lambda m: m["type"] == "state", at + 1)
    assert after["view"]["presence"][0] == "connected", after["view"]["presence"]

    host_new = await WsClient.join(server.base_url, new["id"], host)
    chat = [(line["name"], line["text"]) for line in host_new.messages[0]["chat"]]
    assert chat == [("Guest", "good game"), ("Host", "again?")]
    await call(http, "POST", f"/api/rooms/{new['id']}/join", other,
               {"invite": new["invite_code"]})
    guest_new = await WsClient.join(server.base_url, new["id"], other)
    await call(http, "POST", f"/api/rooms/{new['id']}/start", host)
    dealt = await guest_new.wait_state(lambda v: v["hand_no"] == 0)
    assert dealt["view"]["presence"] == ["connected"] * 3  # the host, a computer player, the guest
    for ws in (guest_ws, host_new, guest_new):
        await ws.close()


@pytest.mark.parametrize(("options", "named"), [
    ({"complete_rummy": True, "call_rummy": True, "going_rummy": True},
     ["complete_rummy", "call_rummy", "going_rummy"]),
    ({"each_hand_own_game": True, "target_score": 50}, ["each_hand_own_game", "target_score"]),
])
async def test_clashing_options_are_named_and_nothing_is_made(
        http: httpx.AsyncClient, options: dict[str, object], named: list[str]) -> None:
    host = await guest(http, "Clash")
    body = {"game": "standard", "seats": 2, "options": options}
    answer = await call(http, "POST", "/api/rooms", host, body, 400)
    assert answer["detail"]["code"] == "conflicting_options"
    assert answer["detail"]["options"] == named
    assert all(name in answer["detail"]["message"] for name in named)
    assert (await call(http, "GET", "/api/me/rooms", host))["rooms"] == []


async def test_my_rooms_are_the_callers_own_private_ones_included(
        http: httpx.AsyncClient) -> None:
    ann, bob, cat = (await guest(http, "Ann"), await guest(http, "Bob"),
                     await guest(http, "Cat"))
    hidden = await call(http, "POST", "/api/rooms", ann,
                        {"game": "knock", "seats": 2, "private": True})
    public = await call(http, "POST", "/api/rooms", bob, {"game": "standard", "seats": 3})
    assert hidden["id"] not in [r["id"] for r in (await call(http, "GET", "/api/rooms"))["rooms"]]

    mine = (await call(http, "GET", "/api/me/rooms", ann))["rooms"]
    assert [(r["id"], r["private"], r["your_seat"], r["invite_code"], r["status"])
            for r in mine] == [(hidden["id"], True, 0, hidden["invite_code"], "waiting")]
    assert [r["id"] for r in (await call(http, "GET", "/api/me/rooms", bob))["rooms"]] == \
        [public["id"]]
    assert (await call(http, "GET", "/api/me/rooms", cat))["rooms"] == []
    assert await refusal(http, "GET", "/api/me/rooms", None, None, 401) == "not_authenticated"

    await call(http, "POST", f"/api/rooms/{public['id']}/join", ann, {})
    mine = (await call(http, "GET", "/api/me/rooms", ann))["rooms"]
    assert [(r["id"], r["your_seat"], r["taken"]) for r in mine] == \
        [(public["id"], 1, 2), (hidden["id"], 0, 1)]  # newest first
    await call(http, "POST", f"/api/rooms/{hidden['id']}/bots", ann, {"count": 1})
    await call(http, "POST", f"/api/rooms/{hidden['id']}/start", ann)
    await call(http, "POST", f"/api/rooms/{public['id']}/leave", ann)
    mine = (await call(http, "GET", "/api/me/rooms", ann))["rooms"]
    assert [(r["id"], r["status"]) for r in mine] == [(hidden["id"], "playing")]
    assert [r["id"] for r in (await call(http, "GET", "/api/me/rooms", bob))["rooms"]] == \
        [public["id"]]


async def test_a_resigned_seat_is_listed_to_watch_until_the_match_ends(
        http: httpx.AsyncClient, server: Hall) -> None:
    """Issue 35: after resigning, "Your games" still lists the room (the seat's record and
    escrow are the player's until the match ends) but says so (`resigned`), so the lobby offers
    to watch it; the player, now a spectator, may watch even a private room. A seat the player
    plays, or a waiting room's seat, is not resigned; a waiting room's seat left is gone."""
    ann, ben = await guest(http, "Ann"), await guest(http, "Ben")
    room = await call(http, "POST", "/api/rooms", ann,
                      {"game": "standard", "seats": 3, "private": True})
    await call(http, "POST", f"/api/rooms/{room['id']}/join", ben, {"invite": room["invite_code"]})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", ann, {"count": 1})
    spare = await call(http, "POST", "/api/rooms", ben, {"game": "knock", "seats": 2})

    async def listed(player: Player) -> list[tuple[str, str, int, bool]]:
        rooms = (await call(http, "GET", "/api/me/rooms", player))["rooms"]
        return [(r["id"], r["status"], r["your_seat"], r["resigned"]) for r in rooms]

    assert await listed(ben) == [(spare["id"], "waiting", 0, False),
                                 (room["id"], "waiting", 1, False)]
    await call(http, "POST", f"/api/rooms/{spare['id']}/leave", ben)  # waiting: the seat is freed
    await call(http, "POST", f"/api/rooms/{room['id']}/start", ann)
    assert await listed(ben) == [(room["id"], "playing", 1, False)]

    ann_ws = await WsClient.join(server.base_url, room["id"], ann)  # a person stays at the table
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", ben)  # during the match: resigning
    assert await listed(ben) == [(room["id"], "playing", 1, True)]
    assert await listed(ann) == [(room["id"], "playing", 0, False)]

    watching = await WsClient.join(server.base_url, room["id"], ben)  # no invite code needed
    first = watching.messages[0]
    assert first["view"]["seat"] is None  # a spectator's view
    seat = first["room"]["players"][1]
    assert (seat["player_id"], seat["bot"] is not None, seat["stand_in"]) == (ben.id, True, "left")
    for client in (watching, ann_ws):
        await client.close()
