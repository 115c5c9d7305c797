"""Verifiable deals in live play (PROTOCOL.md §5, §7), over real websockets on a real server.

A seated player reads the next hand's commitment, sends its seed, plays the hand out against a
computer player and then checks, with the independent code of tests/engine/fair_reference.py,
that the revealed server seed hashes to that commitment, that its own seed was used and that
the seeds give the cards it was dealt. The admin's export carries each hand's seeds beside its
deal, and replaying it with the seeds in place of the deals gives the same results.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.client import Message, Player, WsClient, call, drawn_card, guest
from tests.api.halls import Hall, hall, replay
from tests.api.scenarios import NO_MELDS
from tests.engine import fair_reference as ref

HEX64 = 64
EARLY, LATE = "early-seed_1", "late-seed_2"
ENV = {"RUMMY_SOCKET_MESSAGES_PER_SECOND": "1000", "RUMMY_SOCKET_BURST": "1000"}


@pytest.fixture(scope="module", params=[
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp(f"fair_{request.param}"), request.param, env=ENV) as running:
        yield running


def _dealt(hand_no: int) -> Any:
    """The state that shows hand ``hand_no`` just dealt (its deal event)."""
    return lambda m: m["type"] == "state" and any(
        e["type"] == "deal" and e["hand_no"] == hand_no for e in m["events"])


def _is_hex(text: object) -> bool:
    return isinstance(text, str) and len(text) == HEX64 and all(
        c in "0123456789abcdef" for c in text)


async def _seed(client: WsClient, value: Any) -> Message:
    start = len(client.messages)
    await client.send({"type": "seed", "value": value})
    return await client.wait_for(lambda m: m["type"] in ("seed", "error"), start)


async def _play_out(client: WsClient, hand_no: int) -> Message:
    """Draw from the stock and discard the card drawn until the hand is over; its last state."""
    cursor = 0
    while True:
        index, state = await client.wait_index(
            lambda m: m["type"] == "state" and m["view"] is not None
            and m["view"]["hand_no"] == hand_no
            and (m["view"]["hand_over"] or m["view"]["turn"] == client.seat), cursor)
        cursor = index + 1
        view = state["view"]
        if view["hand_over"]:
            return state
        if "draw" not in view["legal"]:
            continue  # a stale view of this turn: its draw is already done
        drew = await client.act({"type": "draw", "source": "stock"})
        if drew["type"] != "ack":
            continue
        after = await client.wait_for(lambda m, s=drew["seq"]: m["type"] == "state"
                                      and m["seq"] >= s, cursor)
        if after["view"]["hand_over"]:
            return after
        card = drawn_card(view["hand"], after["view"]["hand"])
        await client.ack({"type": "discard", "card": card})


def _derive(seeds: dict[str, Any], dealer: int, sizes: list[int]) -> dict[str, list[str]]:
    """Standard rummy: one pack, no jokers, an upcard."""
    return ref.derive(seeds["server_seed"], seeds["client_seeds"], 1, 0, dealer, sizes, True)


async def test_a_player_verifies_its_deal_and_the_export_replays_by_seeds(
        server: Hall, http: httpx.AsyncClient) -> None:
    ann = await guest(http, "Ann")
    watcher = await guest(http, "Watcher")
    room = await call(http, "POST", "/api/rooms", ann,
                      {"game": "standard", "seats": 2, "stake": 0, "turn_seconds": 0})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", ann, {"count": 1})
    me = await WsClient.join(server.base_url, room["id"], ann)
    spectator = await WsClient.join(server.base_url, room["id"], watcher)
    try:
        waiting = me.messages[0]
        assert waiting["view"] is None
        first = waiting["next_deal_commitment"]
        assert _is_hex(first)

        # Bad seeds are refused, naming the problem, and change nothing.
        for bad in ("has space", "", "x" * 65, "é", 7, None, ["a"]):
            refused = await _seed(me, bad)
            assert refused["type"] == "error" and refused["code"] == "bad_seed", (bad, refused)
            assert "A-Z a-z 0-9 _ -" in refused["message"]
        missing = await me.refused({"type": "seed"})
        assert missing["code"] == "bad_message"
        assert (await _seed(spectator, "onlooker"))["code"] == "not_seated"

        assert await _seed(me, "first-choice") == {
            "type": "seed", "value": "first-choice", "next_deal_commitment": first}
        assert await _seed(me, EARLY) == {
            "type": "seed", "value": EARLY, "next_deal_commitment": first}  # the last one counts

        await call(http, "POST", f"/api/rooms/{room['id']}/start", ann)
        dealt = (await me.wait_for(_dealt(0)))["view"]
        assert dealt["deal_commitment"] == first and dealt["stacked_deal"] is False
        assert dealt["last_deal"] is None
        second = dealt["next_deal_commitment"]
        assert _is_hex(second) and second != first
        my_hand, upcard = sorted(dealt["hand"]), dealt["discard"]
        sizes, dealer = list(dealt["hand_counts"]), dealt["dealer"]
        assert len(upcard) == 1

        # Sent after the deal: counts for the next hand, against the next commitment.
        assert await _seed(me, LATE) == {
            "type": "seed", "value": LATE, "next_deal_commitment": second}
        assert (await _seed(me, "bad seed"))["code"] == "bad_seed"

        over = (await _play_out(me, 0))["view"]
        last = over["last_deal"]
        assert set(last) == {"hand_no", "dealer", "server_seed", "commitment", "client_seeds"}
        assert last["hand_no"] == 0 and last["dealer"] == dealer
        assert last["commitment"] == first
        assert hashlib.sha256(bytes.fromhex(last["server_seed"])).hexdigest() == first
        assert last["client_seeds"][me.seat] == EARLY
        assert last["client_seeds"][1 - me.seat] == ""  # the computer player sent none
        derived = _derive(last, dealer, sizes)
        assert sorted(derived["hands"][me.seat]) == my_hand
        assert derived["discard"] == upcard
        assert over["next_deal_commitment"] == second  # shown until that hand is dealt
        watched = await spectator.wait_state(lambda v: v["hand_over"] and v["hand_no"] == 0)
        assert watched["view"]["last_deal"] == last  # the reveal is public

        nxt = (await me.wait_for(_dealt(1)))["view"]
        assert nxt["deal_commitment"] == second and nxt["last_deal"] is None
        assert nxt["next_deal_commitment"] not in (first, second)

        answer = await http.get(f"/api/admin/matches/{_match(me)}",
                                headers=server.admin_headers)
        assert answer.status_code == 200, answer.text
        export = answer.json()
    finally:
        await me.close()
        await spectator.close()

    hands = export["hands"]
    assert hands[0]["server_seed"] == last["server_seed"]
    assert hands[0]["client_seeds"] == last["client_seeds"]
    assert hands[0]["deal"] == _derive(hands[0], dealer, sizes)
    assert hands[1]["client_seeds"][me.seat] == LATE  # the seed sent after the first deal
    assert hashlib.sha256(bytes.fromhex(hands[1]["server_seed"])).hexdigest() == second
    assert hands[1]["deal"] == _derive(hands[1], hands[1]["dealer"], sizes)

    by_deals = replay(server.workdir, export, "by_deals.json")
    by_seeds = copy.deepcopy(export)
    for hand in by_seeds["hands"]:
        del hand["deal"]
    assert replay(server.workdir, by_seeds, "by_seeds.json") == by_deals
    assert by_deals["ok"] is True and by_deals["rejected"] is None
    recorded = export["results"][0]
    assert by_deals["hands"][0] == {"ended": True, "winner": recorded["winner"],
                                    "reason": recorded["reason"], "scores": recorded["scores"]}


def _match(client: WsClient) -> str:
    return str(client.latest_state()["room"]["match_id"])


async def test_stacked_deals_carry_no_commitment(server: Hall, http: httpx.AsyncClient) -> None:
    bea: Player = await guest(http, "Bea")
    room = await call(http, "POST", "/api/rooms", bea, {
        "game": "standard", "seats": 2, "stake": 0, "turn_seconds": 0, "deals": [NO_MELDS]})
    await call(http, "POST", f"/api/rooms/{room['id']}/bots", bea, {"count": 1})
    me = await WsClient.join(server.base_url, room["id"], bea)
    try:
        assert me.messages[0]["next_deal_commitment"] is None  # the first hand is stacked
        refused = await _seed(me, "anything")
        assert refused["type"] == "error" and refused["code"] == "no_next_deal"
        await call(http, "POST", f"/api/rooms/{room['id']}/start", bea)
        view = (await me.wait_for(_dealt(0)))["view"]
        assert view["deal_commitment"] is None and view["stacked_deal"] is True
        assert _is_hex(view["next_deal_commitment"])  # the second hand is dealt from seeds
        assert (await _seed(me, "for-hand-two"))["type"] == "seed"
    finally:
        await me.close()
