"""The rooms API over a real server (SQLite): options checked before a room exists, stacked deals
only in development and never with a stake, private rooms, host-only calls, the lobby, buy-ins,
and a newcomer playing a whole game against computer players."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.api.client import (
    Player,
    WsClient,
    balance,
    call,
    guest,
    http_client,
    refusal,
)
from tests.api.halls import Hall, hall
from tests.api.scenarios import STANDARD


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("rooms_api")) as running:
        yield running


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    """A server without RUMMY_DEV_STACKED_DECKS."""
    with hall(tmp_path_factory.mktemp("rooms_prod"),
              env={"RUMMY_DEV_STACKED_DECKS": "0"}) as running:
        yield running


@pytest.fixture
async def http(server: Hall) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(server.base_url) as client:
        yield client


def room_body(**changes: Any) -> dict[str, Any]:
    """A room's body; several of this module's guests (all at 127.0.0.1) sit at one staked
    table, so one account per address is off (tests/api/test_one_per_address.py tests it)."""
    return {"game": "standard", "options": {}, "seats": 2, "one_per_address": False, **changes}


async def lobby_ids(http: httpx.AsyncClient) -> set[str]:
    return {r["id"] for r in (await call(http, "GET", "/api/rooms"))["rooms"]}


@pytest.mark.parametrize(("body", "code"), [
    (room_body(options={"no_such_option": True}), "unknown_option"),
    (room_body(game="kaluki", options={"around_the_corner": True}), "option_not_allowed"),
    (room_body(options={"target_score": "high"}), "bad_option_value"),
    (room_body(options={"each_hand_own_game": True, "target_score": 50}),
     "conflicting_options"),
    (room_body(seats=7), "bad_players"),
    (room_body(seats=1), "bad_players"),
    (room_body(game="kaluki", seats=5), "bad_players"),
    (room_body(game="canasta"), "unknown_game"),
    (room_body(stake=-1), "bad_stake"),
    (room_body(turn_seconds=100_000), "bad_turn_seconds"),
    (room_body(deals=[{"hands": [["AS"]], "stock": []}]), "bad_deal"),
])
async def test_bad_room_settings_are_refused_before_a_room_exists(
        http: httpx.AsyncClient, body: dict[str, Any], code: str) -> None:
    host = await guest(http, "Fussy")
    before = await lobby_ids(http)
    status = 404 if code == "unknown_game" else 400  # no such game: as the leaderboard says
    assert await refusal(http, "POST", "/api/rooms", host, body, status) == code
    assert await lobby_ids(http) == before
    assert await balance(http, host) == 1000


async def test_health_says_whether_stacked_deals_are_allowed(
        http: httpx.AsyncClient, production: Hall) -> None:
    health = await call(http, "GET", "/api/health")
    assert health.pop("restore_seconds") >= 0
    assert health == {"status": "ok", "dev_stacked_decks": True, "stalled_rooms": []}
    async with http_client(production.base_url) as prod:
        health = await call(prod, "GET", "/api/health")
        assert health.pop("restore_seconds") >= 0
        assert health == {"status": "ok", "dev_stacked_decks": False, "stalled_rooms": []}


async def test_stacked_deals_need_the_development_setting(production: Hall) -> None:
    async with http_client(production.base_url) as http:
        host = await guest(http, "Cheater")
        body = room_body(seats=3, deals=STANDARD.deals)
        assert await refusal(http, "POST", "/api/rooms", host, body,
                             400) == "deals_not_allowed"
        assert (await call(http, "GET", "/api/rooms"))["rooms"] == []
        del body["deals"]
        assert (await call(http, "POST", "/api/rooms", host, body))["your_seat"] == 0


@pytest.mark.parametrize("money", [{"stake": 1}, {"buy_in": 10}, {"stake": 2, "buy_in": 200}])
async def test_stacked_deals_are_refused_with_a_stake_in_every_environment(
        http: httpx.AsyncClient, production: Hall, money: dict[str, int]) -> None:
    """Chips are never played for on a deal the host chose (docs/security.md)."""
    body = room_body(seats=3, deals=STANDARD.deals, **money)
    async with http_client(production.base_url) as prod:
        for client in (prod, http):
            host = await guest(client, "Shark")
            answer = await call(client, "POST", "/api/rooms", host, body, 400)
            assert answer["detail"]["code"] == "deals_not_allowed"
            assert await balance(client, host) == 1000
            assert host.id not in str(await call(client, "GET", "/api/rooms"))
    assert "free play only" in answer["detail"]["message"]  # where deals are allowed at all


async def test_private_room_needs_its_invite_code(http: httpx.AsyncClient) -> None:
    host, friend, stranger = [await guest(http, n) for n in ("Host", "Friend", "Stranger")]
    room = await call(http, "POST", "/api/rooms", host, room_body(seats=3, private=True))
    code = room["invite_code"]
    assert code and room["id"] not in await lobby_ids(http)

    # Without the code a private room answers like a room that does not exist.
    path = f"/api/rooms/{room['id']}/join"
    for body in (None, {"invite": "guess"}):
        assert await refusal(http, "POST", path, stranger, body, 404) == "no_such_room"
    for call_path in (f"/api/rooms/{room['id']}", f"/api/rooms/{room['id']}?invite=guess"):
        assert await refusal(http, "GET", call_path, stranger, None, 404) == "no_such_room"
    for action, body in (("leave", None), ("bots", {"count": 1}), ("start", None)):
        assert await refusal(http, "POST", f"/api/rooms/{room['id']}/{action}", stranger, body,
                             404) == "no_such_room"
    seen = await call(http, "GET", f"/api/rooms/{room['id']}?invite={code}", stranger)
    assert seen["taken"] == 1 and seen["your_seat"] is None

    assert (await call(http, "GET", f"/api/invites/{code}", friend))["id"] == room["id"]
    joined = await call(http, "POST", path, friend, {"invite": code})
    assert joined["seat"] == 1 and joined["room"]["invite_code"] == code
    assert (await call(http, "POST", path, friend))["seat"] == 1  # a member needs no code
    assert await refusal(http, "GET", "/api/invites/nope", friend, None, 404) == "no_such_room"


async def test_only_the_host_adds_bots_and_starts(http: httpx.AsyncClient) -> None:
    host, other, late = [await guest(http, n) for n in ("Host", "Other", "Late")]
    room = await call(http, "POST", "/api/rooms", host, room_body(seats=3))
    base = f"/api/rooms/{room['id']}"
    await call(http, "POST", f"{base}/join", other)
    assert await refusal(http, "POST", f"{base}/bots", other, {"count": 1}, 403) == "not_host"
    assert await refusal(http, "POST", f"{base}/start", other, None, 403) == "not_host"
    assert await refusal(http, "POST", f"{base}/start", host, None, 409) == "seats_empty"
    assert await refusal(http, "POST", f"{base}/bots", host, {"count": 2}, 400) == "bad_count"
    assert await refusal(http, "POST", f"{base}/bots", None, {"count": 1}, 401) == \
        "not_authenticated"

    added = await call(http, "POST", f"{base}/bots", host, {"count": 1})
    assert added["seats"] == [2] and added["room"]["players"][2]["bot"]
    assert await refusal(http, "POST", f"{base}/join", late, None, 409) == "room_full"
    started = await call(http, "POST", f"{base}/start", host)
    assert started["status"] == "playing" and started["match_id"]
    assert await refusal(http, "POST", f"{base}/start", host, None, 409) == "room_started"
    assert await refusal(http, "POST", "/api/rooms/nope/join", late, None, 404) == \
        "no_such_room"
    await call(http, "POST", f"{base}/leave", other)  # a bot plays on for the leaver


async def test_lobby_lists_open_public_rooms_newest_first(http: httpx.AsyncClient) -> None:
    host = await guest(http, "Lister")
    first = await call(http, "POST", "/api/rooms", host, room_body(game="kaluki", seats=3))
    second = await call(http, "POST", "/api/rooms", host, room_body(stake=1, buy_in=10))
    hidden = await call(http, "POST", "/api/rooms", host, room_body(private=True))
    rooms = (await call(http, "GET", "/api/rooms"))["rooms"]
    ids = [r["id"] for r in rooms]
    assert ids.index(second["id"]) < ids.index(first["id"])
    assert hidden["id"] not in ids
    listed = next(r for r in rooms if r["id"] == first["id"])
    assert (listed["game"], listed["seats"], listed["taken"], listed["status"]) == (
        "kaluki", 3, 1, "waiting")
    assert "invite_code" not in listed


async def test_a_buy_in_needs_the_chips(http: httpx.AsyncClient) -> None:
    rich, poor = await guest(http, "Rich"), await guest(http, "Poor")
    before = await lobby_ids(http)
    body = room_body(stake=1, buy_in=1001)
    assert await refusal(http, "POST", "/api/rooms", rich, body, 409) == "insufficient_chips"
    assert await lobby_ids(http) == before  # no room left behind without its host
    assert await balance(http, rich) == 1000

    room = await call(http, "POST", "/api/rooms", rich, room_body(stake=1, buy_in=900))
    await call(http, "POST", "/api/rooms", poor, room_body(stake=1, buy_in=900))
    assert [await balance(http, p) for p in (rich, poor)] == [100, 100]
    path = f"/api/rooms/{room['id']}/join"
    assert await refusal(http, "POST", path, poor, None, 409) == "insufficient_chips"
    after = await call(http, "GET", f"/api/rooms/{room['id']}", poor)
    assert after["taken"] == 1 and after["your_seat"] is None
    assert await balance(http, poor) == 100
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", rich)  # the buy-in comes back
    assert await balance(http, rich) == 1000


async def _play_draw_and_discard(client: WsClient) -> dict[str, Any]:
    """A newcomer's plain play: draw from the stock, throw the card drawn; until game over."""
    assert client.seat is not None
    while True:
        index, message = await client.wait_index(
            lambda m: m["type"] == "state" and m["view"] is not None and (
                m["view"]["game_over"] or (m["view"]["turn"] == client.seat
                                           and not m["view"]["hand_over"])),
            client.cursor, timeout=60)
        client.cursor = index + 1
        view = message["view"]
        if view["game_over"]:
            return dict(view)
        assert "draw" in view["legal"], view
        reply = await client.act({"type": "draw", "source": "stock"})
        if reply["type"] == "error":  # GEN-13: no stock and a single discard: take it
            assert reply["code"] == "stock_empty", reply
            taken = view["discard"][-1]
            await client.ack({"type": "draw", "source": "discard"})
            await client.ack({"type": "discard",
                              "card": next(c for c in view["hand"] if c != taken)})
            continue
        # The state the draw made, looked for after this turn's start (not among older ones).
        after = await client.wait_for(lambda m, s=reply["seq"]: m["type"] == "state"
                                      and m["seq"] == s, start=index)
        if after["view"]["hand_over"]:  # the stock ran out once too often (MAX_RESTOCKS)
            assert after["view"]["results"][-1]["reason"] == "exhausted", after["view"]
            continue
        drawn = list(after["view"]["hand"])
        for card in view["hand"]:
            drawn.remove(card)
        assert len(drawn) == 1, (reply, view["hand"], after["view"])
        await client.ack({"type": "discard", "card": drawn[0]})


async def test_newcomer_plays_a_whole_game_against_computer_players(
        http: httpx.AsyncClient, server: Hall) -> None:
    newcomer = await guest(http, "Newcomer")
    room = await call(http, "POST", "/api/rooms", newcomer, room_body(
        seats=3, options={"target_score": 50}, stake=1, buy_in=100))
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", newcomer, {"count": 2})
    client = await WsClient.join(server.base_url, room["id"], newcomer)
    client.pace = 0.06  # the bots are fast here; the newcomer keeps under 20 messages a second
    started = await call(http, "POST", f"/api/rooms/{room['id']}/start", newcomer)
    final = await _play_draw_and_discard(client)
    await client.close()

    assert final["game_over"] and max(final["totals"]) >= 50
    assert final["totals"] == [sum(r["scores"][s] for r in final["results"])
                               for s in range(3)]
    for message in client.states:  # the newcomer's view stays consistent throughout
        view = message["view"]
        if view is not None:
            assert view["hand_counts"][0] == len(view["hand"])
            assert view["seat"] == 0
    acks = [m["seq"] for m in client.acks]
    assert acks == sorted(set(acks))

    admin = Player("admin", "admin", server.admin_token)
    log = await call(http, "GET", f"/api/admin/matches/{started['match_id']}", admin)
    assert log["match"]["status"] == "finished"
    assert log["match"]["totals"] == final["totals"]
    net = 0
    for t in log["transfers"]:
        if t["to"] and t["to"]["player_id"] == newcomer.id:
            net += t["amount"]
        if t["from"] and t["from"]["player_id"] == newcomer.id:
            net -= t["amount"]
    assert await balance(http, newcomer) == 1000 + net
    lost = sum(p[2] for r in log["results"] for p in r["payments"] if p[0] == 0)
    assert await balance(http, newcomer) == 1000 - min(lost, 100)  # the newcomer never wins


async def test_a_waiting_room_without_humans_closes_and_hosting_passes_on(
        http: httpx.AsyncClient) -> None:
    """The host leaves: the next human hosts; the last human leaves: the bots stand up, their
    buy-ins go back to the bank and the room leaves the lobby."""
    host, other = await guest(http, "Leaver"), await guest(http, "Stayer")
    room = await call(http, "POST", "/api/rooms", host, room_body(seats=3, stake=1, buy_in=50))
    await call(http, "POST", f"/api/rooms/{room['id']}/join", other)
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", host)
    after = await call(http, "GET", f"/api/rooms/{room['id']}", other)
    assert after["host_id"] == other.id and after["taken"] == 2
    assert room["id"] in await lobby_ids(http)
    await call(http, "POST", f"/api/rooms/{room['id']}/leave", other)
    closed = await call(http, "GET", f"/api/rooms/{room['id']}", other)
    assert closed["status"] == "closed" and closed["taken"] == 0
    assert room["id"] not in await lobby_ids(http)
    assert [await balance(http, p) for p in (host, other)] == [1000, 1000]
