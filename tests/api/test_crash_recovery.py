"""Crash recovery with real processes: SIGKILL the server mid-hand, start it again on the same
database, and the match goes on from exactly the last acknowledged action (docs/server.md,
PROTOCOL.md §5: "a repeated id is answered as before, never applied twice").

Scripted matches use stacked deals, which are for free play only; the chips of a crash are
checked on fairly shuffled matches with computer players (`check_settlement`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.db.session import make_engine, make_sessionmaker
from tests import pg
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
)
from tests.waits import eventually

BACKENDS = [pytest.param("sqlite", id="sqlite"),
            pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres)]

PACK = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]


def _deal(hand0: str, hand1: str, stock_top: str, upcard: str) -> dict[str, Any]:
    """A two-player deal: the named cards first, the rest of the pack below them in the stock."""
    named = hand0.split() + hand1.split() + stock_top.split() + [upcard]
    assert len(set(named)) == len(named)
    rest = [card for card in PACK if card not in named]
    return {"hands": [hand0.split(), hand1.split()], "stock": stock_top.split() + rest,
            "discard": [upcard]}


# Hand 0 (seat 0 deals, seat 1 plays first): seat 1 holds A-4 of spades, 5-7 of hearts and three
# kings; seat 0 holds nothing that melds, worth 2+4+6+8+2+4+6+9+10+10 = 61.
HAND_0 = _deal("2C 4C 6C 8C 2D 4D 6D 9D QS JH", "AS 2S 3S 4S 5H 6H 7H KD KC KH", "9C 8D TC", "5C")
# Hand 1 (seat 1 deals, seat 0 plays first): seat 0 goes out at once; seat 1 is left with ten
# ten-point cards, so seat 0 scores 100 and wins the game (STD-14: 100 > 61).
HAND_1 = _deal("AS 2S 3S 4H 5H 6H 7H 8C 8D 8H", "TC TD TH TS JC JD JH JS QC QD", "KS", "9S")

DRAW = {"type": "draw", "source": "stock"}
BEFORE_CRASH = [  # (seat, action): six acknowledged actions, the last a draw mid-turn
    (1, DRAW),
    (1, {"type": "meld", "melds": [["KD", "KC", "KH"]]}),
    (1, {"type": "discard", "card": "9C"}),
    (0, DRAW),
    (0, {"type": "discard", "card": "8D"}),
    (1, DRAW),
]
AFTER_CRASH = [
    (1, {"type": "meld", "melds": [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H"]]}),
    (1, {"type": "discard", "card": "TC"}),  # seat 1 goes out: 61 points
]
HAND_1_ACTIONS = [
    (0, DRAW),
    (0, {"type": "meld", "melds": [["AS", "2S", "3S"], ["4H", "5H", "6H", "7H"],
                                   ["8C", "8D", "8H"]]}),
    (0, {"type": "discard", "card": "KS"}),  # seat 0 goes out: 100 points
]


async def _play(seats: list[Seat], script: list[tuple[int, dict[str, Any]]],
                tag: str) -> None:
    """Play `script`; after each ack both seats have seen the state of that `seq`."""
    for i, (seat, action) in enumerate(script):
        ack = await seats[seat].act(f"{tag}-{i}", action)
        for player in seats:
            state = await player.until(lambda m, seq=ack["seq"]: m["seq"] >= seq)
            assert state["seq"] == ack["seq"], "the state skipped past an acknowledged action"


async def _export(http: httpx.AsyncClient, token: str, match_id: str) -> dict[str, Any]:
    response = await http.get(f"/api/admin/matches/{match_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def _check_replay(proc: ServerProcess, export: dict[str, Any], path: Path) -> dict[str, Any]:
    """`python -m app replay` of the admin's export reproduces the recorded results."""
    path.write_text(json.dumps(export))
    done = proc.cli("replay", str(path))
    assert done.returncode == 0, done.stderr.decode()
    replayed = json.loads(done.stdout)
    assert replayed["ok"] is True and replayed["rejected"] is None
    assert replayed["hands"] == [{"ended": True, "winner": r["winner"], "reason": r["reason"],
                                  "scores": r["scores"]} for r in export["results"]]
    assert replayed["totals"] == export["match"]["totals"]
    assert replayed["game_over"] is True
    assert replayed["game_winner"] == export["match"]["winner"]
    return dict(replayed)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_mid_hand_resumes_at_the_last_acknowledged_action(
        backend: str, tmp_path: Path) -> None:
    with fresh_database(backend, tmp_path) as url:
        proc = ServerProcess(tmp_path, url)
        try:
            proc.start()
            await _crash_and_recover(proc, tmp_path)
        finally:
            proc.stop()


async def _crash_and_recover(proc: ServerProcess, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, trust_env=False, timeout=20) as http:
        host, other = await guest(http, "Ada"), await guest(http, "Bo")
        room = await post_ok(http, "/api/rooms", host["token"], {
            "game": "standard", "options": {}, "seats": 2, "deals": [HAND_0, HAND_1]})
        joined = await post_ok(http, f"/api/rooms/{room['id']}/join", other["token"])
        assert joined["seat"] == 1
        seats = [Seat("Ada", host["token"]), Seat("Bo", other["token"])]
        for seat in seats:
            await seat.connect(proc.ws_url(room["id"]))
        started = await post_ok(http, f"/api/rooms/{room['id']}/start", host["token"])
        match_id = started["match_id"]
        for seat in seats:
            await seat.until(lambda m: m["view"] is not None and m["view"]["hand_no"] == 0)

        await _play(seats, BEFORE_CRASH, "a")
        before = [seat.state for seat in seats]
        assert before[0] is not None and before[1] is not None
        assert before[0]["seq"] == before[1]["seq"] == 6
        assert before[1]["view"]["phase"] == "play" and before[1]["view"]["turn"] == 1
        assert before[1]["view"]["melds"] and before[1]["view"]["hand_counts"] == [10, 8]
        last_id, last_ack = "a-5", seats[1].acks["a-5"]

        proc.kill()  # mid-hand, mid-turn: seat 1 has drawn and not yet discarded
        for seat in seats:
            await seat.close()
        proc.start()

        # Both reconnect and receive, at once, exactly the state after the last ack.
        for seat, old in zip(seats, before, strict=True):
            first = await seat.connect(proc.ws_url(room["id"]))
            assert first["seq"] == old["seq"]
            assert _table(first["view"]) == _table(old["view"])
            assert first["view"]["hand"] == old["view"]["hand"]
            assert first["view"]["discard"] == old["view"]["discard"] == ["5C", "9C", "8D"]
            assert first["room"]["status"] == "playing"
            assert first["room"]["match_id"] == match_id

        # The last acknowledged action, sent again with its id: the same ack, nothing applied.
        await seats[1].send(last_id, DRAW)
        assert await seats[1].reply(last_id) == last_ack
        # A repeated id is answered as before even if the action it carries changed.
        await seats[1].send("a-2", {"type": "discard", "card": "AS"})
        assert await seats[1].reply("a-2") == seats[1].acks["a-2"]
        assert seats[1].state is not None and seats[1].state["seq"] == 6

        await _play(seats, AFTER_CRASH, "b")
        assert seats[1].state is not None and seats[1].state["seq"] == 8
        for seat in seats:
            await seat.until(lambda m: m["view"]["hand_no"] == 1 and m["view"]["phase"] == "draw")
        await _play(seats, HAND_1_ACTIONS, "c")
        final = await seats[0].until(lambda m: m["view"]["game_over"])
        assert final["view"]["totals"] == [100, 61]
        assert final["view"]["game_winner"] == 0
        for seat in seats:
            await seat.close()

        await _check_export(proc, http, match_id, seats, tmp_path)
        assert (await http.get(f"/api/rooms/{room['id']}", headers=bearer(host["token"]))
                ).json()["status"] == "closed"
    check_ledger(ledger_report(proc.database_url))


async def _check_export(proc: ServerProcess, http: httpx.AsyncClient, match_id: str,
                        seats: list[Seat], tmp_path: Path) -> None:
    """The admin's export holds every acknowledged action once, in order, and replays."""
    export = await _export(http, await admin_token(proc, http), match_id)
    assert export["match"]["status"] == "finished"
    logged = [(a["seat"], a["action"], a.get("client_id"))
              for hand in export["hands"] for a in hand["actions"]]
    script = BEFORE_CRASH + AFTER_CRASH + HAND_1_ACTIONS
    ids = [f"a-{i}" for i in range(len(BEFORE_CRASH))] + [
        f"b-{i}" for i in range(len(AFTER_CRASH))] + [f"c-{i}" for i in range(len(HAND_1_ACTIONS))]
    assert logged == [(seat, action, cid) for (seat, action), cid in zip(script, ids,
                                                                           strict=True)]
    acked = {cid for seat in seats for cid in seat.acks}
    assert acked == set(ids)
    assert [len(h["actions"]) for h in export["hands"]] == [8, 3]
    assert export["hands"][0]["deal"] == HAND_0 and export["hands"][1]["deal"] == HAND_1
    assert [r["scores"] for r in export["results"]] == [[0, 61], [100, 0]]
    replayed = _check_replay(proc, export, tmp_path / "export.json")
    assert replayed["totals"] == [100, 61]
    assert [tuple(p) for r in export["results"] for p in r["payments"]] == [(0, 1, 61),
                                                                            (1, 0, 100)]
    assert export["transfers"] == []  # free play


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_while_a_computer_player_is_to_move(backend: str, tmp_path: Path) -> None:
    with fresh_database(backend, tmp_path) as url:
        # Slow computer players at first, so that the kill lands before the bot moves.
        proc = ServerProcess(tmp_path, url, env={"RUMMY_BOT_DELAY_SECONDS": "1.5"})
        try:
            proc.start()
            await _bot_crash(proc, tmp_path)
        finally:
            proc.stop()


async def _bot_crash(proc: ServerProcess, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, trust_env=False, timeout=20) as http:
        human = await guest(http, "Cy")
        room = await post_ok(http, "/api/rooms", human["token"], {
            "game": "standard", "options": {"each_hand_own_game": True}, "seats": 2,
            "stake": 2, "buy_in": 100})
        await post_ok(http, f"/api/rooms/{room['id']}/bots", human["token"], {"count": 1})
        seat = Seat("Cy", human["token"])
        await seat.connect(proc.ws_url(room["id"]))
        started = await post_ok(http, f"/api/rooms/{room['id']}/start", human["token"])
        match_id = started["match_id"]

        # The bot plays its first turn; the human draws and discards; the bot is to move.
        await seat.until(lambda m: m["view"] is not None and m["view"]["turn"] == 0)
        await seat.act("h-0", DRAW)
        await seat.act("h-1", {"type": "discard", "card": seat.view["hand"][0]})
        before = seat.state
        assert before is not None and before["view"]["turn"] == 1
        assert before["room"]["players"][1]["bot"] is not None
        proc.kill()
        await seat.close()

        # First restart: still slow bots; the state is the one before the kill.
        proc.start()
        first = await seat.connect(proc.ws_url(room["id"]))
        assert first["seq"] == before["seq"] and _table(first["view"]) == _table(before["view"])
        # The hand in play keeps its commitment; the next one is committed afresh, since the
        # seeds sent for the old one were lost with the process.
        assert first["view"]["deal_commitment"] == before["view"]["deal_commitment"]
        assert first["view"]["next_deal_commitment"] not in (
            None, before["view"]["next_deal_commitment"])
        # Killed again before the computer player's (re-armed) move.
        proc.kill()
        await seat.close()

        proc.start(RUMMY_BOT_DELAY_SECONDS="0.01")
        first = await seat.connect(proc.ws_url(room["id"]))
        assert first["seq"] >= before["seq"]
        final = await play_until_over(seat, "h2")
        assert final["view"]["game_over"] is True
        assert final["seq"] > before["seq"], "the computer player never moved after the restart"
        await seat.close()

        export = await _export(http, await admin_token(proc, http), match_id)
        assert export["match"]["status"] == "finished"
        human_ids = [a.get("client_id") for h in export["hands"] for a in h["actions"]
                     if a["seat"] == 0]
        assert human_ids == ["h-0", "h-1"] + [cid for cid, _ in seat.sent[2:]]
        assert sum(len(h["actions"]) for h in export["hands"]) == final["seq"]
        _check_replay(proc, export, tmp_path / "export.json")
        assert (await http.get(f"/api/rooms/{room['id']}", headers=bearer(human["token"]))
                ).json()["status"] == "closed"
        end_balance = await balance(http, human["token"])
    check_settlement(export, 2, 100)
    report = ledger_report(proc.database_url)
    check_ledger(report)
    assert all(a["balance"] == 0 for a in report["accounts"] if a["room_id"] == room["id"])
    wallet = next(a for a in report["accounts"] if a["player_id"] == human["player"]["id"])
    assert wallet["balance"] == end_balance
    won = sum(t["amount"] for t in export["transfers"] if t["reason"] == "hand"
              and t["to"]["seat"] == 0)
    lost = sum(t["amount"] for t in export["transfers"] if t["reason"] == "hand"
               and t["from"]["seat"] == 0)
    assert end_balance == 1000 + won - lost


# --- crashes between two of the room's transactions ------------------------------------------
# A kill cannot be timed into the few milliseconds between two commits, so these tests bring the
# database to exactly what such a kill leaves behind (by undoing the later commit) and start the
# server on it.


def _rewind(database_url: str, statements: list[tuple[str, dict[str, Any]]]) -> None:
    async def run() -> None:
        engine = make_engine(database_url)
        try:
            async with make_sessionmaker(engine)() as s, s.begin():
                for sql, params in statements:
                    await s.execute(text(sql), params)
        finally:
            await engine.dispose()

    pg.run_sync(run)


async def _two_guests_room(http: httpx.AsyncClient, options: dict[str, Any]
                           ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    host, other = await guest(http, "Di"), await guest(http, "Ed")
    room = await post_ok(http, "/api/rooms", host["token"], {
        "game": "standard", "options": options, "seats": 2, "deals": [HAND_0, HAND_1]})
    await post_ok(http, f"/api/rooms/{room['id']}/join", other["token"])
    return [host, other], room


async def _room_status(http: httpx.AsyncClient, token: str, room_id: str,
                       wanted: str) -> str:
    """The room's status once it is `wanted` (the test fails if it never is)."""
    async def reached() -> str | None:
        response = await http.get(f"/api/rooms/{room_id}", headers=bearer(token))
        status = str(response.json()["status"])
        return status if status == wanted else None

    return await eventually(reached, f"room {room_id} is {wanted}")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_kill_after_the_last_hand_was_recorded_but_before_the_match_finished(
        backend: str, tmp_path: Path) -> None:
    """`record_hand` and `finish_match` are separate transactions: a kill between them leaves
    the hand's result and settlement stored, the match active and the escrows full. The
    restarted room must finish the match and cash the escrows out, once."""
    with fresh_database(backend, tmp_path) as url:
        proc = ServerProcess(tmp_path, url)
        try:
            proc.start()
            async with httpx.AsyncClient(base_url=proc.base_url, trust_env=False,
                                         timeout=20) as http:
                # The admin first: a grant after the match would spend the computer player's
                # cash-out from the bank, which the rewind below takes back.
                admin = await admin_token(proc, http)
                host = await guest(http, "Di")
                room = await post_ok(http, "/api/rooms", host["token"], {
                    "game": "standard", "options": {"each_hand_own_game": True}, "seats": 2,
                    "stake": 1, "buy_in": 100})
                await post_ok(http, f"/api/rooms/{room['id']}/bots", host["token"], {"count": 1})
                match_id = (await post_ok(http, f"/api/rooms/{room['id']}/start",
                                          host["token"]))["match_id"]
                # A computer player takes the host's seat: two of them play the hand out.
                await post_ok(http, f"/api/rooms/{room['id']}/leave", host["token"])
                assert await _room_status(http, host["token"], room["id"],
                                          "closed") == "closed"
                end = await balance(http, host["token"])
                finished = await _export(http, admin, match_id)
                proc.kill()
                _rewind(url, [
                    ("UPDATE accounts SET balance = balance + t.amount FROM transfers t"
                     " WHERE t.idempotency_key LIKE :key AND accounts.id = t.from_account",
                     {"key": f"cashout:{match_id}:%"}),
                    ("UPDATE accounts SET balance = balance - t.amount FROM transfers t"
                     " WHERE t.idempotency_key LIKE :key AND accounts.id = t.to_account",
                     {"key": f"cashout:{match_id}:%"}),
                    ("DELETE FROM transfers WHERE idempotency_key LIKE :key",
                     {"key": f"cashout:{match_id}:%"}),
                    ("UPDATE matches SET status = 'active', winner = NULL, totals = NULL,"
                     " finished_at = NULL WHERE id = :id", {"id": match_id}),
                    ("UPDATE rooms SET status = 'playing' WHERE id = :id", {"id": room["id"]}),
                ])
                assert await _wallet(url, host["player"]["id"]) == 900  # the buy-in in escrow
                proc.start()
                assert await _room_status(http, host["token"], room["id"],
                                          "closed") == "closed"
                assert await balance(http, host["token"]) == end
                export = await _export(http, admin, match_id)
                assert export["match"]["status"] == "finished"
                assert export["match"]["winner"] == finished["match"]["winner"]
                assert _moves(export) == _moves(finished)  # cashed out again, the same
                check_settlement(export, 1, 100)
            check_ledger(ledger_report(url))
        finally:
            proc.stop()


def _moves(export: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(t["key"], t["amount"], t["reason"]) for t in export["transfers"]]


async def _wallet(database_url: str, player_id: str) -> int:
    report = ledger_report(database_url)
    return int(next(a["balance"] for a in report["accounts"] if a["player_id"] == player_id))


@pytest.mark.parametrize("backend", BACKENDS)
async def test_kill_after_the_match_started_but_before_the_first_deal_was_stored(
        backend: str, tmp_path: Path) -> None:
    """`start_match` and `record_deal` are separate transactions: a kill between them leaves a
    playing room whose match has no hand. The restarted room must deal it and play on."""
    with fresh_database(backend, tmp_path) as url:
        proc = ServerProcess(tmp_path, url)
        try:
            proc.start()
            async with httpx.AsyncClient(base_url=proc.base_url, trust_env=False,
                                         timeout=20) as http:
                players, room = await _two_guests_room(http, {"each_hand_own_game": True})
                match_id = (await post_ok(http, f"/api/rooms/{room['id']}/start",
                                          players[0]["token"]))["match_id"]
                proc.kill()
                _rewind(url, [("DELETE FROM match_hands WHERE match_id = :id",
                               {"id": match_id})])
                proc.start()
                seats = [Seat(p["player"]["name"], p["token"]) for p in players]
                for seat in seats:
                    await seat.connect(proc.ws_url(room["id"]))
                    await seat.until(lambda m: m["view"] is not None
                                     and m["view"]["hand_no"] == 0)
                assert seats[1].view["hand"] == HAND_0["hands"][1]
                await _play(seats, BEFORE_CRASH + AFTER_CRASH, "a")
                final = await seats[0].until(lambda m: m["view"]["game_over"])
                assert final["view"]["game_winner"] == 1
                assert await _room_status(http, players[0]["token"], room["id"],
                                          "closed") == "closed"
                for seat in seats:
                    await seat.close()
        finally:
            proc.stop()


def _table(view: dict[str, Any]) -> dict[str, Any]:
    """The view without who is connected and the countdowns to their stand-ins (the other
    player may not be back yet) and without the next hand's commitment (a restart draws that
    hand a fresh server seed)."""
    return {k: v for k, v in view.items()
            if k not in ("presence", "stand_in_at", "next_deal_commitment")}
