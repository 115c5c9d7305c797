"""The fair-play review over a real server on PostgreSQL (PROTOCOL.md §9, docs/fairplay.md).

Staked two-player Standard matches are played by websocket clients that choose their moves
with the computer players' code (each turn from their own seat's view of the match's state,
read from the match log once a hand and followed from the socket's actions): every player
first plays three matches against a computer player of level normal (their results against the
field), then four against their partner. The dumper loses on purpose against the partner only
(bench/fairplay.py's `DumperBot`); each connects from its own address (the server believes the
test's X-Forwarded-For: RUMMY_TRUSTED_PROXIES). The dumping pair is flagged with its reasons and
evidence; an honest pair of equal players and an honest pair of unequal ones (hard against
easy) are not; quick seat then keeps the flagged pair apart.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.bots import make_bot
from app.bots.base import Bot
from app.engine.errors import RuleError
from app.engine.game import apply
from app.engine.matchlog import MatchLog, final_state
from app.engine.state import State
from app.engine.views import seat_view_of
from bench.fairplay import DumperBot
from tests.api.client import Player, WsClient, call, guest, post_from
from tests.api.halls import Hall, hall
from tests.waits import eventually

pytestmark = pytest.mark.postgres

# A match to 25 points is two or three hands: the review counts hands, the test's time too.
ROOM = {"game": "standard", "seats": 2, "stake": 1, "buy_in": 5000,
        "options": {"target_score": 25}}
# Its players answer every state at once, 30 matches side by side: the socket limit of a person
# (20 messages a second) is not what is tested here.
ENV = {"RUMMY_TRUSTED_PROXIES": "127.0.0.1", "RUMMY_STARTING_CHIPS": "100000",
       "RUMMY_SOCKET_MESSAGES_PER_SECOND": "1000", "RUMMY_SOCKET_BURST": "1000"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp("fairplay"), "postgresql", ENV) as running:
        yield running


async def _play(http: httpx.AsyncClient, server: Hall, client: WsClient, match_id: str,
                bot: Bot) -> None:
    """Play the client's seat with ``bot`` to the match's end, choosing each move from the
    seat's view of the match's whole state. That state is read from the match log (the admin's,
    which holds the deal) when a hand is dealt, and otherwise followed from the actions each
    state message shows (`_followed`): a move costs its own round trip, not a read of the whole
    log and its replay as well (which, 30 matches over, made the test slow and, on a busy
    machine, too slow)."""
    seat = client.seat
    assert seat is not None
    st: State | None = None
    acted = -1  # the seq of the state this seat last moved in
    index = 0
    while True:
        index, message = await client.wait_index(_shows_the_match, index)
        index += 1
        if st is None or _newer(message, st):
            st = _followed(st, message, seat) or await _read(http, server, match_id, message)
        if st.game_over:
            return
        if st.turn == seat and not st.hand_over and st.seq != acted:
            acted = st.seq
            await client.ack(bot.choose(seat_view_of(st, seat), st.rules).to_json())


def _shows_the_match(message: dict[str, Any]) -> bool:
    return message["type"] == "state" and message.get("view") is not None


def _newer(message: dict[str, Any], st: State) -> bool:
    """Whether the message shows more than ``st`` holds: a later action, or a new hand."""
    return message["seq"] > st.seq or message["view"]["hand_no"] > st.hand_no


async def _read(http: httpx.AsyncClient, server: Hall, match_id: str,
                message: dict[str, Any]) -> State:
    """The match as its log folds to now, once that holds what the message shows (the log is
    durable before a socket is shown it: at once, but that is the server's business)."""
    async def caught_up() -> tuple[State] | None:
        answer = await http.get(f"/api/admin/matches/{match_id}", headers=server.admin_headers)
        assert answer.status_code == 200, answer.text
        st = final_state(MatchLog.parse(answer.json()))
        return None if _newer(message, st) else (st,)

    return (await eventually(caught_up, f"match {match_id}'s log up to seq {message['seq']}"))[0]


def _followed(st: State | None, message: dict[str, Any], seat: int) -> State | None:
    """``st`` moved on by the actions the message's events show (each applied by the engine,
    the stock known), if that leads to what the message shows the seat; None where it cannot
    be followed (a deal, or a message in between that was read from the log already)."""
    if st is None:
        return None
    for event in message["events"]:
        if event["type"] == "deal":
            return None
        if event["type"] == "action":
            try:
                st, _ = apply(st, event["seat"], event["action"])
            except RuleError:
                return None
    view = message["view"]
    shown = (message["seq"], view["hand_no"], view["turn"], view["hand_over"], view["game_over"],
             view["hand"], view["discard"], view["stock_count"])
    mine = (st.seq, st.hand_no, st.turn, st.hand_over, st.game_over, st.hands[seat],
            st.discard, len(st.stock))
    return st if shown == mine else None


async def _match(http: httpx.AsyncClient, server: Hall,
                 seats: list[tuple[Player, str, Bot]]) -> str:
    """One staked match: ``seats`` (player, address, strategy), a computer player of level
    normal filling a seat left over; its id."""
    host, address, _ = seats[0]
    room = await post_from(http, address, "/api/rooms", host, ROOM)
    for player, address, _ in seats[1:]:
        await post_from(http, address, f"/api/rooms/{room['id']}/join", player,
                        {"invite": room.get("invite_code")})
    if len(seats) == 1:
        await call(http, "POST", f"/api/rooms/{room['id']}/bots", host, {"count": 1})
    clients = [await WsClient.join(server.base_url, room["id"], p, a) for p, a, _ in seats]
    try:
        started = await call(http, "POST", f"/api/rooms/{room['id']}/start", host)
        await asyncio.gather(*(_play(http, server, c, started["match_id"], bot)
                               for c, (_, _, bot) in zip(clients, seats, strict=True)))
    finally:
        for client in clients:
            await client.close()
    return str(started["match_id"])


def _bot(kind: str, seed: int) -> Bot:
    return DumperBot(random.Random(seed)) if kind == "dumper" else make_bot(kind, seed)


async def _history(http: httpx.AsyncClient, server: Hall, pair: list[Player],
                   kinds: tuple[str, str], together: str, n: int) -> list[str]:
    """Each of the pair plays three matches against the field at their level, then ``n``
    matches together (the first as ``together``); the ids of those."""
    addresses = {p.id: f"203.0.113.{n * 10 + i}" for i, p in enumerate(pair)}
    field = [_match(http, server, [(p, addresses[p.id], _bot(k, s))])
             for s in range(3) for p, k in zip(pair, kinds, strict=True)]
    await asyncio.gather(*field)
    return [await _match(http, server, [(pair[0], addresses[pair[0].id], _bot(together, s)),
                                        (pair[1], addresses[pair[1].id], _bot(kinds[1], s))])
            for s in range(4)]


async def test_a_dumping_pair_is_flagged_and_honest_pairs_are_not(
        server: Hall, http: httpx.AsyncClient) -> None:
    dumper, friend, ann, bob, hard, easy = [
        await guest(http, name) for name in ("Dumper", "Friend", "Ann", "Bob", "Hard", "Easy")]
    dumped, equal, unequal = await asyncio.gather(
        _history(http, server, [dumper, friend], ("sensible", "sensible"), "dumper", 1),
        _history(http, server, [ann, bob], ("sensible", "sensible"), "sensible", 2),
        _history(http, server, [hard, easy], ("hard", "easy"), "hard", 3))

    review = await call(http, "GET", "/api/admin/fairplay",
                        Player("", "admin", server.admin_token))
    pairs = {frozenset(p["players"]): p for p in review["pairs"]}
    assert [p["score"] for p in review["pairs"]] == sorted(
        (p["score"] for p in review["pairs"]), reverse=True)
    flagged = pairs[frozenset((dumper.id, friend.id))]
    assert flagged["flagged"] and flagged["matches"] == 4, flagged
    assert "chip_flow" in flagged["reasons"] and "shared_address" not in flagged["reasons"]
    assert flagged["evidence"] and set(flagged["evidence"]) <= set(dumped)
    for honest, ids in ((frozenset((ann.id, bob.id)), equal),
                        (frozenset((hard.id, easy.id)), unequal)):
        assert not pairs[honest]["flagged"], pairs[honest]
        assert pairs[honest]["matches"] == len(ids) and pairs[honest]["reasons"] == []
    assert [p for p in review["pairs"] if p["flagged"]] == [flagged]

    # Quick seat keeps the flagged pair apart (an honest pair sits together).
    quick = {"game": "standard", "seats": 3, "stake": 0, "turn_seconds": 60}
    first = await call(http, "POST", "/api/quickseat", dumper, quick, 201)
    assert (await call(http, "POST", "/api/quickseat", friend, quick, 201))["room"]["id"] \
        != first["room"]["id"]
    assert (await call(http, "POST", "/api/quickseat", ann, quick))["room"]["id"] \
        in (first["room"]["id"],)


async def test_min_matches_is_checked(server: Hall, http: httpx.AsyncClient) -> None:
    admin = Player("", "admin", server.admin_token)
    for bad in ("0", "-1", "x", "10001"):
        answer = await call(http, "GET", f"/api/admin/fairplay?min_matches={bad}", admin,
                            status=422)
        assert "min_matches" in str(answer), answer
    answer = await call(http, "GET", "/api/admin/fairplay?min_matches=5", admin)
    assert all(p["matches"] >= 5 for p in answer["pairs"])
