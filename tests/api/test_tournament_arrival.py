"""Tournaments wait for their players (PROTOCOL.md §8 "Arrival" and "Where to be", issue 35):
real websockets against a real server on PostgreSQL.

- Players who come 3 s after their table opens find nothing played for them: no deal before the
  last one is there, no ``played_for`` in the log; the round's winners are sent
  ``next_table`` at the table they won, and play their final themselves.
- A player who never comes is played for only once ``arrival_seconds`` have passed.
- A restart between rounds keeps ``my_table`` and the final's arrival deadline.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from tests.api.entrants import (
    ARRIVAL,
    KNOCKOUT,
    Entrant,
    Table,
    entrants,
    epoch,
    no_played_for,
    opened_table,
    play_out,
    played_for,
    table_of,
    tournament,
)
from tests.api.procs import ServerProcess, post_ok
from tests.waits import DEADLINE, eventually

pytestmark = pytest.mark.postgres

LATE = 3.0  # seconds after its table opens that each player connects


async def _started(http: httpx.AsyncClient, people: list[Entrant],
                   body: dict[str, Any]) -> str:
    """The tournament, created by the first of ``people`` and entered by all."""
    t = await post_ok(http, "/api/tournaments", people[0].token, body)
    for who in people:
        t = await post_ok(http, f"/api/tournaments/{t['id']}/register", who.token)
    assert t["status"] == "running" and t["arrival_seconds"] == body["arrival_seconds"]
    return str(t["id"])


async def _arrive(proc: ServerProcess, table: Table, room: str, at: float) -> dict[str, Any]:
    """Connect at ``at`` (epoch seconds): the state the table sends at once."""
    await asyncio.sleep(max(0.0, at - time.time()))
    return await table.connect(proc.ws_url(room))


def _undealt(first: dict[str, Any], deal_by: float) -> None:
    """A table's first state before its first deal: nothing dealt, nothing played, the wait
    shown (``deal_at``, docs/server.md "Tournament arrival")."""
    assert first["view"]["hand_no"] == -1 and first["view"]["hand"] == [], first
    assert first["view"]["turn"] is None and first["view"]["turn_deadline"] is None
    assert not any(e["type"] == "action" for e in first["events"]), first["events"]
    assert first["room"]["deal_at"] == pytest.approx(deal_by, abs=0.01)
    assert set(first["view"]["stand_ins"]) == {None}  # nobody is played for before the deal


async def _round(proc: ServerProcess, http: httpx.AsyncClient, tid: str,
                 people: list[Entrant], round_no: int, late: float) -> dict[str, Table]:
    """Each of ``people`` comes to their table of ``round_no`` ``late`` seconds after it opened
    and plays it out promptly: their sockets, still open at the finished tables."""
    tables = {who.id: Table(who) for who in people}

    async def come(who: Entrant) -> None:
        mine = await opened_table(http, tid, who, round_no)
        opened = epoch(mine["opened_at"])
        first = await _arrive(proc, tables[who.id], mine["room"], opened + late)
        _undealt(first, opened + ARRIVAL)
        await play_out(tables[who.id], f"{who.id[:6]}-{round_no}")

    await asyncio.gather(*(come(who) for who in people))
    return tables


async def test_players_who_come_late_are_waited_for_and_play_their_final(
        proc: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        people = await entrants(http, 4)
        tid = await _started(http, people, KNOCKOUT)
        first_round = await _round(proc, http, tid, people, 1, LATE)
        t = await tournament(http, tid, people[0])
        rooms = [table["room"] for table in t["rounds"][0]["tables"]]
        winners = [table["winner"] for table in t["rounds"][0]["tables"]]
        for who, table in first_round.items():
            assert no_played_for(table.events), (who, table.events)
            assert table.dealt_at is not None
        finalists = [w for w in people if w.id in winners]
        # The winners, still at the tables they won, are sent the final; the others are out.
        told = [await first_round[w.id].next_table() for w in finalists]
        final = (await tournament(http, tid, people[0]))["rounds"][1]["tables"][0]["room"]
        assert told == [{"type": "next_table", "tournament": tid, "room": final}] * 2
        for who in people:
            mine = (await tournament(http, tid, who))["my_table"]
            assert mine == (final if who in finalists else None), who
        for table in first_round.values():
            await table.close()

        finals = await _round(proc, http, tid, finalists, 2, 0.0)
        done = await eventually(lambda: _over(http, tid, people[0]), "the tournament over")
        assert table_of(done, final)["winner"] in winners
        for table in finals.values():
            assert no_played_for(table.events)
            await table.close()
    logs = played_for(proc.database_url, [*rooms, final])
    assert all(len(moves) >= 2 for moves in logs.values()), logs
    assert {why for moves in logs.values() for _, why in moves} == {None}, logs


async def _over(http: httpx.AsyncClient, tid: str, who: Entrant) -> dict[str, Any] | None:
    t = await tournament(http, tid, who)
    return t if t["status"] == "finished" else None


async def test_the_bracket_shows_who_is_connected(proc: ServerProcess) -> None:
    """`connected` per playing table (docs/server.md "Tournament arrival"): who of its players
    has a socket open on it, before and after the deal."""
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        people = await entrants(http, 4)
        tid = await _started(http, people, KNOCKOUT)
        mine = await opened_table(http, tid, people[0], 1)
        assert table_of(await tournament(http, tid, people[1]), mine["room"])["connected"] == []
        table = Table(people[0])
        await table.connect(proc.ws_url(mine["room"]))

        async def shown() -> list[str] | None:
            return table_of(await tournament(http, tid, people[1]), mine["room"])["connected"]
        assert await eventually(shown, "the arrival shown") == [people[0].id]
        listed = (await http.get("/api/tournaments", headers={
            "Authorization": f"Bearer {people[0].token}"})).json()["tournaments"]
        assert [x["my_table"] for x in listed if x["id"] == tid] == [mine["room"]]
        await table.close()
        assert await eventually(lambda: _none_shown(http, tid, people[1], mine["room"]),
                                "the departure shown")


async def _none_shown(http: httpx.AsyncClient, tid: str, who: Entrant, room: str) -> bool:
    return table_of(await tournament(http, tid, who), room)["connected"] == []


async def test_a_player_who_never_comes_is_played_for_after_arrival_seconds(
        proc: ServerProcess) -> None:
    pair = {**KNOCKOUT, "players": 2, "arrival_seconds": 10}
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        ann, bob = await entrants(http, 2)
        tid = await _started(http, [ann, bob], pair)
        mine = await opened_table(http, tid, ann, 1)
        deal_by = epoch(mine["opened_at"]) + 10
        table = Table(ann)
        _undealt(await table.connect(proc.ws_url(mine["room"])), deal_by)
        await play_out(table, "ann", knock=False)  # Bob's stand-in ends the hand
        assert table.dealt_at is not None and table.dealt_at >= deal_by - 0.05
        assert table.dealt_at < deal_by + DEADLINE  # ~10 s after opening, on a busy machine
        bobs = 1 - table.own_seat()
        moves = [e for e in table.events if e["type"] == "action"]
        assert {e.get("played_for") for e in moves if e["seat"] == bobs} == {"stand_in"}
        assert {e.get("played_for") for e in moves if e["seat"] != bobs} <= {None}
        await table.close()
    log = played_for(proc.database_url, [mine["room"]])[mine["room"]]
    assert {why for seat, why in log if seat == bobs} == {"stand_in"}, log
    assert {why for seat, why in log if seat != bobs} <= {None}, log


async def test_a_restart_between_rounds_keeps_my_table_and_the_deadline(
        proc: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        people = await entrants(http, 4)
        tid = await _started(http, people, KNOCKOUT)
        first_round = await _round(proc, http, tid, people, 1, 0.0)
        for table in first_round.values():
            await table.close()
        t = await tournament(http, tid, people[0])
        finalists = [w for w in people if w.id in {x["winner"] for x in t["rounds"][0]["tables"]}]
        final = await opened_table(http, tid, finalists[0], 2)
    proc.kill()  # between the rounds: the final is open, nobody at it yet
    proc.start()
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        for who in people:
            mine = (await tournament(http, tid, who))["my_table"]
            assert mine == (final["room"] if who in finalists else None), who
        # The deadline is the one the final's first opening set, not one from the restart.
        deal_by = epoch(final["opened_at"]) + ARRIVAL
        first, second = (Table(w) for w in finalists)
        _undealt(await first.connect(proc.ws_url(final["room"])), deal_by)
        _undealt(await second.connect(proc.ws_url(final["room"])), deal_by)
        await asyncio.gather(play_out(first, "f1"), play_out(second, "f2"))
        assert first.dealt_at is not None and first.dealt_at < deal_by  # dealt as both came
        assert no_played_for(first.events) and no_played_for(second.events)
        await first.close()
        await second.close()
        done = await eventually(lambda: _over(http, tid, people[0]), "the tournament over")
        assert table_of(done, final["room"])["winner"] in {w.id for w in finalists}
