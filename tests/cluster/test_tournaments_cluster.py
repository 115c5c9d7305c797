"""Tournaments among several processes (docs/scaling.md, "Tournaments"): registrations on any
process, one driver under a lease opening every round's tables, results of tables owned by
another process reaching it, a survivor that takes a SIGKILLed driver's tournament over
and finishes it with the right prizes and the ledger intact, and players sent to their next
table (`next_table`, `my_table`) whichever process their sockets and calls reach."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import redis

from tests.api.entrants import (
    KNOCKOUT,
    Entrant,
    Table,
    entrants,
    no_played_for,
    opened_table,
    play_out,
    played_for,
    tournament,
)
from tests.api.procs import ServerProcess, balance, check_ledger, ledger_report, post_ok
from tests.api.test_tournaments import (
    FOUR,
    START,
    _check_result,
    _finished,
    _players,
    _tournament,
    _winners,
)
from tests.cluster.conftest import REDIS_URL, Fleet
from tests.waits import eventually

pytestmark = pytest.mark.postgres


def _client(proc: ServerProcess) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False)


async def _register_across(https: list[httpx.AsyncClient], t: dict[str, object],
                           people: list[dict[str, object]]) -> None:
    """Each player registers at the process after the last one's: the last entry, which
    starts the tournament, arrives at the process that did not create it."""
    for n, p in enumerate(people):
        await post_ok(https[n % 2], f"/api/tournaments/{t['id']}/register",
                      str(p["token"]))


async def _paid(http: httpx.AsyncClient, done: dict[str, object],
                people: list[dict[str, object]]) -> None:
    for standing in done["standings"]:  # type: ignore[attr-defined]
        p = next(p for p in people if p["player"]["id"] == standing["player"])  # type: ignore[index]
        assert await balance(http, str(p["token"])) == START - 100 + standing["prize"]


async def test_a_tournament_over_two_processes_runs_to_the_end(fleet: Fleet) -> None:
    procs = fleet(2)
    https = [_client(p) for p in procs]
    try:
        creator, *people = await _players(https[0], 5)
        t = await post_ok(https[0], "/api/tournaments", creator["token"], FOUR)
        await _register_across(https, t, people)
        done = await _finished(https[1], t["id"], creator["token"])
        _check_result(done, people)
        await _paid(https[0], done, people)
        assert done == await _tournament(https[0], t["id"], creator["token"])
    finally:
        for http in https:
            await http.aclose()
    check_ledger(ledger_report(procs[0].database_url))


async def test_the_driver_killed_mid_round_is_taken_over(fleet: Fleet,
                                                         redis_prefix: str) -> None:
    """Three processes: once the driver is killed, its tables are taken over by either
    survivor and the tournament by one of them, so a table's result may be written at the
    process that does not drive it (and reach the driver through Redis, or its sweep)."""
    procs = fleet(3)
    slow = {**FOUR, "options": {"target_score": 50}}  # a few hands: killed while they play
    https = [_client(p) for p in procs]
    try:
        creator, *people = await _players(https[0], 5)
        t = await post_ok(https[0], "/api/tournaments", creator["token"], slow)
        await _register_across(https, t, people)

        async def playing() -> bool:
            rounds = (await _tournament(https[0], t["id"], creator["token"]))["rounds"]
            return bool(rounds) and len(rounds[0]["tables"]) == 2
        await eventually(playing, "the first round seated")
        lease = redis.Redis.from_url(REDIS_URL).get(f"{redis_prefix}:tournament:lease:{t['id']}")
        assert lease is not None, "nobody drives the tournament"
        ids = [(await http.get("/api/health")).json()["cluster"]["process"] for http in https]
        driver = ids.index(lease.decode().split(" ")[0])
    finally:
        for http in https:
            await http.aclose()
    procs[driver].kill()
    assert None in _winners(procs[0].database_url, t["id"]), "killed after the round, not in it"
    async with _client(procs[(driver + 1) % 3]) as http:
        done = await _finished(http, t["id"], creator["token"])
        _check_result(done, people)
        await _paid(http, done, people)
    check_ledger(ledger_report(procs[0].database_url))


async def test_a_driver_that_loses_its_lease_hands_on_to_tables_elsewhere(
        fleet: Fleet, redis_prefix: str) -> None:
    """The tournament's lease vanishes (a Redis blip) until the other process takes it: its new
    driver seats the tables of the round in play at their owner, the first process (a room
    call through Redis), hears of their results from there, and finishes the tournament."""
    procs = fleet(2)
    slow = {**FOUR, "options": {"target_score": 50}}
    https = [_client(p) for p in procs]
    client = redis.Redis.from_url(REDIS_URL)
    try:
        creator, *people = await _players(https[0], 5)
        t = await post_ok(https[0], "/api/tournaments", creator["token"], slow)
        await _register_across(https, t, people)  # the last entry, at process 1, starts it
        ids = [(await http.get("/api/health")).json()["cluster"]["process"] for http in https]
        key = f"{redis_prefix}:tournament:lease:{t['id']}"

        def driven_by_process_0() -> bool:
            value = client.get(key)
            if value is not None and value.decode().split(" ")[0] == ids[1]:
                client.delete(key)  # taken from process 1 until process 0 has it
                return False
            return value is not None
        await eventually(driven_by_process_0, "the tournament driven by process 0")
        done = await _finished(https[0], t["id"], creator["token"])
        _check_result(done, people)
        await _paid(https[1], done, people)
    finally:
        client.close()
        for http in https:
            await http.aclose()
    check_ledger(ledger_report(procs[0].database_url))


async def test_next_table_reaches_sockets_at_either_process(fleet: Fleet) -> None:
    """Each player follows their round-1 table through one process and has a second socket on
    it through the other (one of the two is relayed to the table's owner): once the final
    opens, both of a winner's sockets are sent `next_table`; `my_table` says the same at either
    process; the winners play the final themselves, reached through the other process."""
    procs = fleet(2)
    https = [_client(p) for p in procs]
    try:
        people = await entrants(https[0], 4)
        t = await post_ok(https[0], "/api/tournaments", people[0].token, KNOCKOUT)
        await _register_across(https, t, [{"token": w.token} for w in people])
        tid = str(t["id"])
        tables: dict[str, tuple[Table, Table]] = {}

        async def come(n: int, who: Entrant) -> None:
            mine = await opened_table(https[n % 2], tid, who, 1)
            both = (Table(who), Table(who))
            tables[who.id] = both
            for k, table in enumerate(both):
                await table.connect(procs[(n + k) % 2].ws_url(mine["room"]))
            await play_out(both[0], f"r1-{n}")

        await asyncio.gather(*(come(n, who) for n, who in enumerate(people)))
        first = await tournament(https[0], tid, people[0])
        rooms = [x["room"] for x in first["rounds"][0]["tables"]]
        winners = {x["winner"] for x in first["rounds"][0]["tables"]}
        finalists = [w for w in people if w.id in winners]
        told = [await table.next_table() for w in finalists for table in tables[w.id]]
        final = (await tournament(https[1], tid, people[0]))["rounds"][1]["tables"][0]["room"]
        assert told == [{"type": "next_table", "tournament": tid, "room": final}] * 4
        for who in people:
            for http in https:
                mine = (await tournament(http, tid, who))["my_table"]
                assert mine == (final if who in finalists else None), who
        for pair in tables.values():
            for table in pair:
                assert no_played_for(table.events)
                await table.close()

        async def final_at(n: int, who: Entrant) -> Table:
            table = Table(who)
            await table.connect(procs[(n + 1) % 2].ws_url(final))
            await play_out(table, f"f-{n}")
            return table

        finals = await asyncio.gather(*(final_at(n, w) for n, w in enumerate(finalists)))
        for table in finals:
            assert no_played_for(table.events)
            await table.close()
        done = await _finished(https[0], tid, people[0].token)
        assert done["standings"][0]["player"] in {w.id for w in finalists}
    finally:
        for http in https:
            await http.aclose()
    logs = played_for(procs[0].database_url, [*rooms, final])
    assert {why for moves in logs.values() for _, why in moves} == {None}, logs
