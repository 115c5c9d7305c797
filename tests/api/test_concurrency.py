"""Many things at once against one real server on PostgreSQL: concurrent joins with buy-ins,
concurrent starts and leaves, racing duplicate actions, and several bot matches with stakes
played to the end at the same time; afterwards the chip ledger is checked row by row."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.procs import (
    Seat,
    ServerProcess,
    admin_token,
    balance,
    bearer,
    check_ledger,
    check_settlement,
    fresh_database,
    guest,
    ledger_report,
    play_until_over,
    post_ok,
    server,
)

pytestmark = pytest.mark.postgres

BUY_IN = 100
MATCH_TIMEOUT = 240.0


@pytest.fixture
def proc(tmp_path: Path) -> Any:
    with fresh_database("postgresql", tmp_path) as url, server(tmp_path, url) as running:
        yield running


def _client(proc: ServerProcess) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=proc.base_url, trust_env=False, timeout=60,
                             limits=httpx.Limits(max_connections=200))


async def _join(http: httpx.AsyncClient, room_id: str, token: str) -> tuple[int, Any]:
    response = await http.post(f"/api/rooms/{room_id}/join", headers=bearer(token))
    body = response.json()
    return response.status_code, body["seat"] if response.status_code == 200 else body["detail"]


async def _room(http: httpx.AsyncClient, room_id: str, token: str) -> dict[str, Any]:
    response = await http.get(f"/api/rooms/{room_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_thirty_guests_race_for_nine_seats(proc: ServerProcess) -> None:
    async with _client(proc) as http:
        everyone = await asyncio.gather(*(guest(http, f"G{i}") for i in range(33)))
        hosts, joiners = everyone[:3], everyone[3:]
        rooms = [await post_ok(http, "/api/rooms", h["token"], {
            "game": "standard", "seats": 4, "stake": 1, "buy_in": BUY_IN,
            "one_per_address": False}) for h in hosts]  # every guest is at 127.0.0.1
        # 30 joiners, ten per room, plus a second, simultaneous request from five of them.
        requests = [(i, rooms[i % 3]["id"]) for i in range(30)] + [
            (i, rooms[i % 3]["id"]) for i in range(5)]
        answers = await asyncio.gather(*(_join(http, room_id, joiners[i]["token"])
                                         for i, room_id in requests))

        outcome: dict[int, set[Any]] = {}
        for (i, _), (status, value) in zip(requests, answers, strict=True):
            assert status in (200, 409), (status, value)
            if status == 409:
                assert value["code"] == "room_full"
            outcome.setdefault(i, set()).add(value if status == 200 else "full")
        assert all(len(v) == 1 for v in outcome.values()), f"a repeated join differed: {outcome}"
        seated = {i: next(iter(v)) for i, v in outcome.items() if "full" not in v}
        assert len(seated) == 9
        for r, room in enumerate(rooms):
            assert sorted(s for i, s in seated.items() if i % 3 == r) == [1, 2, 3]
            info = await _room(http, room["id"], hosts[r]["token"])
            assert info["taken"] == 4
            assert {p["player_id"] for p in info["players"]} == {
                hosts[r]["player"]["id"]} | {joiners[i]["player"]["id"] for i in seated
                                             if i % 3 == r}
        balances = await asyncio.gather(*(balance(http, p["token"]) for p in joiners))
        assert balances == [
            1000 - BUY_IN if i in seated else 1000 for i in range(30)]

        # The seated leave while the refused try again, all at once.
        leavers = [joiners[i] for i in seated]
        others = [(i, joiners[i]) for i in range(30) if i not in seated]
        results = await asyncio.gather(
            *(http.post(f"/api/rooms/{rooms[i % 3]['id']}/leave", headers=bearer(p["token"]))
              for i, p in ((i, joiners[i]) for i in seated)),
            *(_join(http, rooms[i % 3]["id"], p["token"]) for i, p in others))
        assert all(r.status_code == 200 for r in results[:len(leavers)])
        for r, room in enumerate(rooms):
            info = await _room(http, room["id"], hosts[r]["token"])
            members = {p["player_id"] for p in info["players"] if p is not None}
            assert info["taken"] == len(members) <= 4
            for i, joiner in enumerate(joiners):
                if i % 3 != r:
                    continue
                held = await balance(http, joiner["token"])
                assert held == (1000 - BUY_IN if joiner["player"]["id"] in members else 1000)

    report = ledger_report(proc.database_url)
    check_ledger(report)
    escrows = [a for a in report["accounts"] if a["kind"] == "escrow"]
    taken = 0
    for r, room in enumerate(rooms):
        async with _client(proc) as http:
            taken += (await _room(http, room["id"], hosts[r]["token"]))["taken"]
    assert sum(a["balance"] for a in escrows) == taken * BUY_IN


# (game, options, seats, stake, the host plays over the websocket rather than leaving)
BOT_ROOMS = [
    ("standard", {"target_score": 60}, 2, 1, True),
    ("standard", {"target_score": 60}, 3, 2, True),
    ("standard", {"target_score": 60, "call_rummy": True}, 4, 3, True),
    ("standard", {"target_score": 40}, 3, 2, False),
    ("double_rum", {"target_score": 60}, 2, 5, False),
    ("standard", {"call_rummy": True, "target_score": 60}, 4, 1, False),
]


async def _race_the_same_action(proc: ServerProcess, host: dict[str, Any], room_id: str,
                                seat: Seat) -> None:
    """Four sockets of one player send the same draw with one client id at the same moment:
    one is applied, all four get the same ack."""
    await seat.until(lambda m: m["view"] is not None and m["view"]["turn"] == 0
                     and "draw" in m["view"]["legal"])
    before = seat.state
    assert before is not None
    extra = [Seat("extra", host["token"]) for _ in range(3)]
    for other in extra:
        first = await other.connect(proc.ws_url(room_id))
        assert first["seq"] == before["seq"]
    sockets = [seat, *extra]
    draw = {"type": "draw", "source": "stock"}
    await asyncio.gather(*(s.send("race", draw) for s in sockets))
    replies = await asyncio.gather(*(s.reply("race") for s in sockets))
    assert replies == [{"type": "ack", "id": "race", "seq": before["seq"] + 1}] * 4
    seat.acks["race"] = replies[0]
    seat.sent.append(("race", draw))
    for other in extra:
        await other.close()
    after = await seat.until(lambda m: m["seq"] >= before["seq"] + 1)
    assert after["seq"] == before["seq"] + 1
    assert after["view"]["hand_counts"][0] == before["view"]["hand_counts"][0] + 1


async def _start_bot_room(http: httpx.AsyncClient, host: dict[str, Any],
                          spec: tuple[str, dict[str, Any], int, int, bool]) -> dict[str, Any]:
    game, options, seats, stake, _ = spec
    room = await post_ok(http, "/api/rooms", host["token"], {
        "game": game, "options": options, "seats": seats, "stake": stake, "buy_in": BUY_IN})
    await post_ok(http, f"/api/rooms/{room['id']}/bots", host["token"], {"count": seats - 1})
    return room


async def _wait_closed(http: httpx.AsyncClient, room_id: str, token: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MATCH_TIMEOUT
    while (await _room(http, room_id, token))["status"] != "closed":
        assert loop.time() < deadline, f"room {room_id} did not finish"
        await asyncio.sleep(0.2)


async def test_bot_matches_with_stakes_run_to_the_end_at_once(proc: ServerProcess,
                                                               tmp_path: Path) -> None:
    async with _client(proc) as http:
        hosts = await asyncio.gather(*(guest(http, f"Host{i}") for i in range(len(BOT_ROOMS))))
        rooms = await asyncio.gather(*(_start_bot_room(http, h, spec)
                                       for h, spec in zip(hosts, BOT_ROOMS, strict=True)))
        players = [Seat(h["player"]["name"], h["token"]) for h in hosts]
        for seat, room, spec in zip(players, rooms, BOT_ROOMS, strict=True):
            if spec[4]:
                await seat.connect(proc.ws_url(room["id"]))

        # Every room started three times at once: one start each, the others refused.
        starts = await asyncio.gather(*(
            http.post(f"/api/rooms/{room['id']}/start", headers=bearer(h["token"]))
            for h, room in zip(hosts, rooms, strict=True) for _ in range(3)))
        codes = Counter(r.status_code for r in starts)
        assert codes == {200: len(rooms), 409: 2 * len(rooms)}
        assert {r.json()["detail"]["code"] for r in starts if r.status_code == 409} == {
            "room_started"}

        async def run(index: int) -> None:
            host, room, seat, spec = hosts[index], rooms[index], players[index], BOT_ROOMS[index]
            if not spec[4]:  # the host leaves: a computer player takes the seat to the end
                await post_ok(http, f"/api/rooms/{room['id']}/leave", host["token"])
            else:
                if index == 0:
                    await _race_the_same_action(proc, host, room["id"], seat)
                final = await play_until_over(seat, f"p{index}")
                assert final["view"]["game_over"]
                await seat.close()
            await _wait_closed(http, room["id"], host["token"])

        await asyncio.wait_for(asyncio.gather(*(run(i) for i in range(len(rooms)))),
                               MATCH_TIMEOUT)

        token = await admin_token(proc, http)
        for index, room in enumerate(rooms):
            info = await _room(http, room["id"], hosts[index]["token"])
            response = await http.get(f"/api/admin/matches/{info['match_id']}",
                                      headers=bearer(token))
            export = response.json()
            assert export["match"]["status"] == "finished"
            _check_export(proc, export, players[index], BOT_ROOMS[index][4], tmp_path / f"{index}")
            check_settlement(export, BOT_ROOMS[index][3], BUY_IN)
        balances = await asyncio.gather(*(balance(http, h["token"]) for h in hosts))

    report = ledger_report(proc.database_url)
    check_ledger(report)
    room_ids = {room["id"] for room in rooms}
    for account in report["accounts"]:
        if account["room_id"] in room_ids:
            assert account["balance"] == 0
    hand_moves = [t for t in report["transfers"] if t["reason"] == "hand"]
    assert hand_moves, "no hand moved any chips"
    for host, held in zip(hosts, balances, strict=True):
        wallet = next(a for a in report["accounts"] if a["player_id"] == host["player"]["id"])
        assert wallet["balance"] == held


def _check_export(proc: ServerProcess, export: dict[str, Any], seat: Seat, played: bool,
                  path: Path) -> None:
    """Each of the host's acknowledged actions is logged once; the log replays to the result."""
    logged = [a.get("client_id") for h in export["hands"] for a in h["actions"]
              if a.get("client_id") is not None]
    assert len(logged) == len(set(logged)), "an action was stored twice"
    if played:
        assert logged == [cid for cid, _ in seat.sent]
    path.write_text(json.dumps(export))
    done = proc.cli("replay", str(path))
    assert done.returncode == 0, done.stderr.decode()
    replayed = json.loads(done.stdout)
    assert replayed["rejected"] is None
    assert replayed["game_over"] is True
    assert replayed["totals"] == export["match"]["totals"]
    assert replayed["hands"] == [{"ended": True, "winner": r["winner"], "reason": r["reason"],
                                  "scores": r["scores"]} for r in export["results"]]


@pytest.mark.parametrize("game", ["knock", "boat_house"])
async def test_a_player_keeps_receiving_states_after_a_scored_hand(proc: ServerProcess,
                                                                   game: str) -> None:
    """Knock Rummy and Boat House results carry per-seat deadwood arrangements; every state
    message after the first hand holds them, and must still reach the player (PROTOCOL §5)."""
    async with _client(proc) as http:
        host = await guest(http, "Kay")
        room = await _start_bot_room(http, host, (game, {"target_score": 30}, 2, 1, True))
        seat = Seat("Kay", host["token"])
        await seat.connect(proc.ws_url(room["id"]))
        await post_ok(http, f"/api/rooms/{room['id']}/start", host["token"])
        final = await asyncio.wait_for(play_until_over(seat, "k"), MATCH_TIMEOUT)
        assert final["view"]["results"], "no hand result reached the player"
        await seat.close()
        await _wait_closed(http, room["id"], host["token"])
    check_ledger(ledger_report(proc.database_url))
