"""Sit-and-go knockout tournaments over a real server and PostgreSQL (PROTOCOL.md §8): entries
into the pot and back, the refusals, and whole tournaments played with nobody connected, one of
them through a SIGKILL mid-round.

The games are short (Standard Rummy to 1 point: the first hand decides a match) and the server's
own moves fast (tests/api/procs.py `FAST_TIMERS`); with nobody connected each table waits the
shortest `arrival_seconds` (10) before its first deal, so a tournament of two rounds ends in
about half a minute. Players who come to their tables: tests/api/test_tournament_arrival.py."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db.models import TournamentTable
from app.db.session import make_engine, make_sessionmaker
from tests import pg
from tests.api.procs import (
    ServerProcess,
    admin_token,
    balance,
    bearer,
    check_ledger,
    guest,
    ledger_report,
    post_ok,
)
from tests.waits import eventually

pytestmark = pytest.mark.postgres

START = 1000  # RUMMY_STARTING_CHIPS's default
FOUR = {"name": "Friday knockout", "game": "standard", "options": {"target_score": 1},
        "players": 4, "table_seats": 2, "entry": 100, "prizes": [70, 30], "turn_seconds": 30,
        "arrival_seconds": 10}


async def _players(http: httpx.AsyncClient, count: int) -> list[dict[str, Any]]:
    return [await guest(http, f"Player {n}") for n in range(count)]


async def _tournament(http: httpx.AsyncClient, tid: str, token: str) -> dict[str, Any]:
    answer = await http.get(f"/api/tournaments/{tid}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def _finished(http: httpx.AsyncClient, tid: str, token: str) -> dict[str, Any]:
    async def done() -> dict[str, Any] | None:
        t = await _tournament(http, tid, token)
        return t if t["status"] == "finished" else None
    return await eventually(done, f"tournament {tid} finished", timeout=180)


def _check_result(t: dict[str, Any], people: list[dict[str, Any]]) -> None:
    """Four players, tables of two: two rounds, every place given, 280 and 120 paid."""
    ids = {p["player"]["id"] for p in people}
    assert [len(r["tables"]) for r in t["rounds"]] == [2, 1]
    first_round = {p for table in t["rounds"][0]["tables"] for p in table["players"]}
    assert first_round == ids
    final = t["rounds"][1]["tables"][0]
    assert set(final["players"]) == {table["winner"] for table in t["rounds"][0]["tables"]}
    assert [s["place"] for s in t["standings"]] == [1, 2, 3, 4]
    assert {s["player"] for s in t["standings"]} == ids
    assert t["standings"][0]["player"] == final["winner"]
    assert {s["player"] for s in t["standings"][:2]} == set(final["players"])
    assert [s["prize"] for s in t["standings"]] == [280, 120, 0, 0]
    assert t["prize_pool"] == 400 and t["prizes"] == [280, 120]


async def test_four_players_play_to_the_end_with_nobody_connected(
        proc: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        creator, *people = await _players(http, 5)
        t = await post_ok(http, "/api/tournaments", creator["token"], FOUR)
        assert (t["status"], t["registered"], t["prizes"]) == ("registering", [], [0, 0])
        for p in people:
            t = await post_ok(http, f"/api/tournaments/{t['id']}/register", p["token"])
        assert t["status"] == "running" and t["prize_pool"] == 400
        assert [r["id"] for r in t["registered"]] == [p["player"]["id"] for p in people]
        t = await _finished(http, t["id"], creator["token"])
        _check_result(t, people)
        for standing in t["standings"]:
            p = next(p for p in people if p["player"]["id"] == standing["player"])
            assert await balance(http, p["token"]) == START - 100 + standing["prize"]
        assert await balance(http, creator["token"]) == START
        table = t["rounds"][0]["tables"][0]
        room = table["room"]
        lobby = (await http.get("/api/rooms")).json()["rooms"]
        assert room not in {r["id"] for r in lobby}  # a table is private
        host = next(p for p in people if p["player"]["id"] == table["players"][0])
        again = await http.post(f"/api/rooms/{room}/rematch", headers=bearer(host["token"]))
        assert (again.status_code, again.json()["detail"]["code"]) == (409, "tournament_table")
    check_ledger(ledger_report(proc.database_url))


def _winners(database_url: str, tid: str) -> list[str | None]:
    """The stored winner of each table of the tournament (None: still playing)."""
    async def read() -> list[str | None]:
        engine = make_engine(database_url)
        try:
            async with make_sessionmaker(engine)() as s:
                return list((await s.scalars(select(TournamentTable.winner).where(
                    TournamentTable.tournament_id == tid))).all())
        finally:
            await engine.dispose()
    return list(pg.run_sync(read))


async def test_a_sigkill_mid_round_resumes_and_pays(proc: ServerProcess) -> None:
    slow = {**FOUR, "options": {"target_score": 50}}  # a few hands: killed while they play
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        creator, *people = await _players(http, 5)
        t = await post_ok(http, "/api/tournaments", creator["token"], slow)
        for p in people:
            await post_ok(http, f"/api/tournaments/{t['id']}/register", p["token"])

        async def playing() -> bool:
            rounds = (await _tournament(http, t["id"], creator["token"]))["rounds"]
            return bool(rounds) and len(rounds[0]["tables"]) == 2
        await eventually(playing, "the first round seated")
    proc.kill()
    assert None in _winners(proc.database_url, t["id"]), "killed after the round, not in it"
    proc.start()
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        done = await _finished(http, t["id"], creator["token"])
        _check_result(done, people)
        for standing in done["standings"]:
            p = next(p for p in people if p["player"]["id"] == standing["player"])
            assert await balance(http, p["token"]) == START - 100 + standing["prize"]
    check_ledger(ledger_report(proc.database_url))


async def test_entries_come_back_and_refusals(proc: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        creator, ann, bob, cat = await _players(http, 4)
        pair = {**FOUR, "players": 2, "prizes": [100]}
        t = await post_ok(http, "/api/tournaments", creator["token"], pair)
        path = f"/api/tournaments/{t['id']}"
        await post_ok(http, f"{path}/register", ann["token"])
        assert await balance(http, ann["token"]) == START - 100
        again = await http.post(f"{path}/register", headers=bearer(ann["token"]))
        assert (again.status_code, again.json()["detail"]["code"]) == (409, "already_registered")
        t = await post_ok(http, f"{path}/unregister", ann["token"])
        assert t["registered"] == [] and t["prize_pool"] == 0
        assert await balance(http, ann["token"]) == START
        await post_ok(http, f"{path}/register", ann["token"])
        await post_ok(http, f"{path}/register", bob["token"])
        full = await http.post(f"{path}/register", headers=bearer(cat["token"]))
        assert (full.status_code, full.json()["detail"]["code"]) == (409, "tournament_started")
        late = await http.post(f"{path}/unregister", headers=bearer(ann["token"]))
        assert (late.status_code, late.json()["detail"]["code"]) == (409, "tournament_started")

        rich = {**FOUR, "entry": 5000}
        t = await post_ok(http, "/api/tournaments", creator["token"], rich)
        poor = await http.post(f"/api/tournaments/{t['id']}/register",
                               headers=bearer(cat["token"]))
        assert (poor.status_code, poor.json()["detail"]["code"]) == (409, "insufficient_chips")

        dan = await guest(http, "Dan")  # everything into one entry: no top-up meanwhile
        t = await post_ok(http, "/api/tournaments", creator["token"], {**FOUR, "entry": START})
        path = f"/api/tournaments/{t['id']}"
        await post_ok(http, f"{path}/register", dan["token"])
        assert await balance(http, dan["token"]) == 0
        status = (await http.get("/api/me/topup", headers=bearer(dan["token"]))).json()
        assert (status["chips"], status["available"]) == (START, False)
        claim = await http.post("/api/me/topup", headers=bearer(dan["token"]))
        assert (claim.status_code, claim.json()["detail"]["code"]) == (409, "topup_has_chips")
        await post_ok(http, f"{path}/unregister", dan["token"])
        assert await balance(http, dan["token"]) == START

        t = await post_ok(http, "/api/tournaments", creator["token"], FOUR)
        path = f"/api/tournaments/{t['id']}"
        await post_ok(http, f"{path}/register", cat["token"])
        mine = await http.post(f"{path}/cancel", headers=bearer(cat["token"]))
        assert (mine.status_code, mine.json()["detail"]["code"]) == (403, "not_creator")
        t = await post_ok(http, f"{path}/cancel", await admin_token(proc, http))
        assert t["status"] == "cancelled" and t["registered"] == []
        assert await balance(http, cat["token"]) == START
        listed = (await http.get("/api/tournaments", headers=bearer(cat["token"]))).json()
        assert {x["status"] for x in listed["tournaments"]} >= {"cancelled", "registering"}
    check_ledger(ledger_report(proc.database_url))


BAD = [
    ({"prizes": [70, 20]}, "bad_prizes"),
    ({"prizes": [50, 50, 0]}, "bad_prizes"),
    ({"players": 2, "prizes": [50, 30, 20]}, "bad_prizes"),
    ({"players": 1, "prizes": [100]}, "bad_players"),
    ({"entry": -1}, "bad_entry"),
    ({"table_seats": 7}, "bad_table_seats"),
    ({"game": "nowrang", "options": {}, "table_seats": 3}, "bad_players"),  # for two only
    ({"turn_seconds": 0}, "bad_turn_seconds"),
    ({"arrival_seconds": 9}, "bad_arrival_seconds"),
    ({"arrival_seconds": 301}, "bad_arrival_seconds"),
    ({"options": {"no_such_option": True}}, "unknown_option"),
]


async def test_bad_tournaments_are_refused(proc: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        creator = await guest(http, "Creator")
        for change, code in BAD:
            answer = await http.post("/api/tournaments", json={**FOUR, **change},
                                     headers=bearer(creator["token"]))
            assert answer.status_code == 400, (change, answer.text)
            assert answer.json()["detail"]["code"] == code, (change, answer.text)
        missing = await http.get("/api/tournaments/nope", headers=bearer(creator["token"]))
        assert missing.status_code == 404
        unsaid = {k: v for k, v in FOUR.items() if k != "arrival_seconds"}
        made = await post_ok(http, "/api/tournaments", creator["token"], unsaid)
        assert (made["arrival_seconds"], made["my_table"]) == (60, None)  # the default


async def test_mine_lists_the_callers_tournaments_that_register_or_run(
        proc: ServerProcess) -> None:
    """`GET /api/tournaments?mine=1` (the lobby's "Your games", docs/server.md): the ones the
    caller created or registered in, while they register or run; `creator` names the creator."""
    async with httpx.AsyncClient(base_url=proc.base_url, timeout=30, trust_env=False) as http:
        creator, ann, bob = await _players(http, 3)
        pair = {**FOUR, "players": 2, "prizes": [100]}
        made = await post_ok(http, "/api/tournaments", creator["token"], pair)
        other = await post_ok(http, "/api/tournaments", bob["token"], pair)
        assert made["creator"] == creator["player"]["id"]
        await post_ok(http, f"/api/tournaments/{made['id']}/register", ann["token"])

        async def mine(who: dict[str, Any]) -> list[str]:
            answer = await http.get("/api/tournaments", params={"mine": 1},
                                    headers=bearer(who["token"]))
            assert answer.status_code == 200, answer.text
            return [x["id"] for x in answer.json()["tournaments"]]
        assert await mine(creator) == [made["id"]]
        assert await mine(ann) == [made["id"]]
        assert await mine(bob) == [other["id"]]
        await post_ok(http, f"/api/tournaments/{other['id']}/cancel", bob["token"])
        assert await mine(bob) == []  # cancelled: no longer one of "Your games"
        everyone = (await http.get("/api/tournaments", headers=bearer(bob["token"]))).json()
        assert {x["id"] for x in everyone["tournaments"]} == {made["id"], other["id"]}
