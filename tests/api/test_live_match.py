"""Complete stacked-deck matches played by scripted human clients over real websockets, on a real
server with SQLite and with PostgreSQL (tests/api/scenarios.py has the deals and the scores worked
out by hand).

Every message each client received is checked: its own hand is what the deal and its actions
make it, no card hidden from it (another hand, the stock) ever appears, and with two packs it never
sees more copies of a code than are public plus in its own hand. Then the results, the chips, the
admin's match list and export, and `python -m app replay` of the export. Stacked deals are
for free play only, so no chips move; the results carry each hand's payments in points.
"""

from __future__ import annotations

import asyncio
import copy
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.client import Player, WsClient, balance, call, guest, http_client
from tests.api.halls import Hall, hall, replay
from tests.api.scenarios import KALUKI, STANDARD, Scenario, Snapshot, physical, snapshots

CARD = re.compile(r"(?:[A2-9TJQK][CDHS]|JK)(?::[A2-9TJQK][CDHS])?")


@pytest.fixture(scope="module", params=[
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    with hall(tmp_path_factory.mktemp(f"live_{request.param}"), request.param) as running:
        yield running


def card_codes(value: Any) -> Counter[str]:
    """Every card code anywhere in a JSON value (a wild's designation is not a card)."""
    found: Counter[str] = Counter()
    if isinstance(value, str):
        if CARD.fullmatch(value):
            found[physical(value)] += 1
    elif isinstance(value, dict):
        for key, item in value.items():
            found += card_codes(key) + card_codes(item)
    elif isinstance(value, list):
        for item in value:
            found += card_codes(item)
    return found


def _hidden_excess(seen: Counter[str], allowed: Counter[str]) -> dict[str, int]:
    return {card: n for card, n in seen.items() if n > allowed[card]}


class MessageChecker:
    """Checks one client's messages against the independently tracked table."""

    def __init__(self, scenario: Scenario, seat: int) -> None:
        self.seat = seat
        self.snaps = [snapshots(scenario, h) for h in range(len(scenario.deals))]
        self.offsets = [0]
        for h in range(len(scenario.deals)):
            self.offsets.append(self.offsets[-1] + len(scenario.actions(h)))

    def check_all(self, messages: list[dict[str, Any]]) -> None:
        current: Snapshot | None = None
        last_seq = 0
        for i, message in enumerate(messages):
            where = f"seat {self.seat}, message {i}: {message}"
            if message["type"] == "state" and message["view"] is not None:
                assert message["seq"] >= last_seq, f"state seq went back: {where}"
                last_seq = message["seq"]
                current = self.check_state(message, where)
            elif message["type"] in ("state", "ack"):
                assert not card_codes(message), where
            else:
                raise AssertionError(f"unexpected message: {where}")
            if current is not None:
                # Nothing hidden, anywhere in the message (events, results, room...).
                shown = card_codes(_current_parts(message))
                allowed = current.allowed(self.seat)
                assert not [c for c in shown if not allowed[c]], \
                    f"hidden cards {[c for c in shown if not allowed[c]]} leaked: {where}"

    def check_state(self, message: dict[str, Any], where: str) -> Snapshot:
        view = message["view"]
        hand_no = view["hand_no"]
        done = message["seq"] - self.offsets[hand_no]
        assert 0 <= done < len(self.snaps[hand_no]), where
        snap = self.snaps[hand_no][done]
        assert view["seat"] == self.seat, where
        assert sorted(view["hand"]) == sorted(snap.hands[self.seat]), where
        assert view["hand_counts"] == [len(h) for h in snap.hands], where
        assert view["stock_count"] == len(snap.stock), where
        assert view["discard"] == snap.discard, where
        assert [sorted(physical(c) for c in m["cards"]) for m in view["melds"]] == [
            sorted(m) for m in snap.melds], where
        assert view["hand_over"] == snap.over, where
        # Copies: the hand, the pile, the melds and the others' known cards are distinct
        # physical cards, so together they may not exceed what this seat may know of.
        located: Counter[str] = Counter(view["hand"]) + Counter(view["discard"])
        for meld in view["melds"]:
            located.update(physical(c) for c in meld["cards"])
        for other, known in enumerate(view["known"]):
            if other != self.seat:
                located.update(known)
        excess = _hidden_excess(located, snap.allowed(self.seat))
        assert not excess, f"more copies than public + own hand {excess}: {where}"
        return snap


def _current_parts(message: dict[str, Any]) -> dict[str, Any]:
    """The message less the results of earlier hands (public then, dealt again since)."""
    view = message.get("view")
    if not view:
        return message
    trimmed = dict(view, results=view["results"][view["hand_no"]:])
    return dict(message, view=trimmed)


async def _play(client: WsClient, scenario: Scenario) -> None:
    """Play this client's turns of the script, each when the server says it is its turn."""
    for hand_no, turns in enumerate(scenario.scripts):
        for seat, actions in turns:
            if seat != client.seat:
                continue
            await client.wait_turn(hand_no)
            for action in actions:
                await client.ack(action)
    await client.wait_state(lambda view: view["game_over"])


async def _seat_everyone(server: Hall, scenario: Scenario, http: Any) -> tuple[
        dict[str, Any], list[Player]]:
    players = [await guest(http, f"Player {i}") for i in range(scenario.players)]
    room = await call(http, "POST", "/api/rooms", players[0], {
        "game": scenario.game, "options": scenario.options, "seats": scenario.players,
        "deals": scenario.deals})
    assert room["your_seat"] == 0
    for seat, player in enumerate(players[1:], start=1):
        joined = await call(http, "POST", f"/api/rooms/{room['id']}/join", player)
        assert joined["seat"] == seat
    return room, players


@pytest.mark.parametrize("scenario", [STANDARD, KALUKI], ids=["standard", "kaluki"])
async def test_scripted_match_end_to_end(server: Hall, scenario: Scenario,
                                         tmp_path: Path) -> None:
    async with http_client(server.base_url) as http:
        room, players = await _seat_everyone(server, scenario, http)
        clients = [await WsClient.join(server.base_url, room["id"], p) for p in players]
        assert [c.seat for c in clients] == list(range(scenario.players))
        started = await call(http, "POST", f"/api/rooms/{room['id']}/start", players[0])
        match_id = started["match_id"]
        await asyncio.gather(*(_play(c, scenario) for c in clients))

        _check_messages(clients, scenario)
        for player in players:
            assert await balance(http, player) == 1000  # free play
        log = await _check_admin_export(http, server, match_id, scenario, players)
        for c in clients:
            await c.close()
    _check_replay(tmp_path, log, scenario)


def _check_messages(clients: list[WsClient], scenario: Scenario) -> None:
    total = sum(len(scenario.actions(h)) for h in range(len(scenario.deals)))
    all_acks: list[int] = []
    for client in clients:
        assert client.seat is not None
        MessageChecker(scenario, client.seat).check_all(client.messages)
        # One state per applied action (and one per deal), in order, each with its own seq.
        steps = [(m["view"]["hand_no"], m["seq"]) for m in client.states if m["view"]]
        assert steps == sorted(set(steps)), f"states out of order or repeated: {steps}"
        assert {seq for _, seq in steps} == set(range(total + 1))
        seqs = [m["seq"] for m in client.acks]
        assert seqs == sorted(set(seqs)), f"acks not increasing: {seqs}"
        all_acks += seqs
        final = client.latest_state()["view"]
        assert final["game_over"] and final["game_winner"] == scenario.winner
        assert final["totals"] == scenario.totals
        assert [r["scores"] for r in final["results"]] == scenario.hand_scores
        assert client.latest_state()["seq"] == total
    assert sorted(all_acks) == list(range(1, total + 1))  # one ack per action, seq +1 each
    _checker_catches_leaks(clients[0], scenario)


def _checker_catches_leaks(client: WsClient, scenario: Scenario) -> None:
    """The checks above would fail if a hidden card (or a hidden twin) were sent."""
    assert client.seat is not None
    checker = MessageChecker(scenario, client.seat)
    index, message = next((i, m) for i, m in enumerate(client.messages)
                          if m["type"] == "state" and m["view"] and m["seq"] == 1)
    snap = checker.snaps[0][1]
    allowed = snap.allowed(client.seat)
    hidden = next(c for h in snap.hands for c in h if not allowed[c])
    leaky = copy.deepcopy(client.messages)
    leaky[index]["events"].append({"type": "draw", "card": hidden})
    with pytest.raises(AssertionError, match="leaked"):
        checker.check_all(leaky)
    twins = [c for other, h in enumerate(snap.hands) if other != client.seat
             for c in h if allowed[c] == 1]
    if twins:  # two packs: a second copy of a card this seat knows one of
        leaky = copy.deepcopy(client.messages)
        leaky[index]["view"]["known"][1 - client.seat].append(twins[0])
        with pytest.raises(AssertionError, match="more copies"):
            checker.check_all(leaky)


async def _check_admin_export(http: Any, server: Hall, match_id: str, scenario: Scenario,
                              players: list[Player]) -> dict[str, Any]:
    admin = Player("admin", "admin", server.admin_token)
    listed = await call(http, "GET", "/api/admin/matches", admin)
    summary = next(m for m in listed["matches"] if m["id"] == match_id)
    assert summary["status"] == "finished"
    assert summary["totals"] == scenario.totals and summary["winner"] == scenario.winner
    assert [s["player_id"] for s in summary["seats"]] == [p.id for p in players]

    log = await call(http, "GET", f"/api/admin/matches/{match_id}", admin)
    assert (log["game"], log["options"], log["players"]) == (
        scenario.game, scenario.options, scenario.players)
    assert [h["deal"] for h in log["hands"]] == scenario.deals
    for hand_no, hand in enumerate(log["hands"]):
        assert [(a["seat"], a["action"]) for a in hand["actions"]] == scenario.actions(hand_no)
    assert [r["scores"] for r in log["results"]] == scenario.hand_scores
    assert [sorted(tuple(p) for p in r["payments"]) for r in log["results"]] == [
        sorted(p) for p in scenario.payments]
    assert log["transfers"] == []  # free play: no buy-ins, no settlements
    return dict(log)


def _check_replay(workdir: Path, log: dict[str, Any], scenario: Scenario) -> None:
    result = replay(workdir, log)
    assert result["ok"] is True and result["rejected"] is None
    assert [h["scores"] for h in result["hands"]] == scenario.hand_scores
    assert result["totals"] == scenario.totals
    assert result["game_over"] is True and result["game_winner"] == scenario.winner
