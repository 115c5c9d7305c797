"""Tournament entrants who come to their tables themselves (PROTOCOL.md §8 "Arrival", "Where to
be"), as scripted websocket clients against a real server.

- `KNOCKOUT`: four players at tables of two, Knock Rummy to 1 point (a player draws and knocks
  at once, so a hand, and with it a match, is over in a few moves), a generous turn timer.
- `Entrant`: a guest who registers; `Table` is their socket at one table, which keeps every
  event and every `next_table` message it was sent, and plays promptly (`play_out`).
- `opened_table`: the caller's `my_table` once the tournament says it has opened.
- `played_for`: each action's `played_for` in the match logs of some rooms, read from the
  database (where an admin's export reads them).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
from sqlalchemy import select

from app.db.models import Match, MatchAction
from app.db.session import make_engine, make_sessionmaker
from tests import pg
from tests.api.procs import PACE, Seat, bearer, guest
from tests.waits import DEADLINE, eventually

ARRIVAL = 60  # seconds: far beyond the few the tests' players take to come
KNOCKOUT: dict[str, Any] = {
    "name": "Arrival knockout", "game": "knock", "options": {"target_score": 1}, "players": 4,
    "table_seats": 2, "entry": 0, "prizes": [100], "turn_seconds": 120,
    "arrival_seconds": ARRIVAL}


@dataclass
class Entrant:
    name: str
    token: str
    id: str


async def entrants(http: httpx.AsyncClient, count: int) -> list[Entrant]:
    made = [await guest(http, f"Entrant {n}") for n in range(count)]
    return [Entrant(g["player"]["name"], g["token"], g["player"]["id"]) for g in made]


async def tournament(http: httpx.AsyncClient, tid: str, who: Entrant) -> dict[str, Any]:
    answer = await http.get(f"/api/tournaments/{tid}", headers=bearer(who.token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def table_of(t: dict[str, Any], room: str) -> dict[str, Any]:
    """The bracket's table of ``room``, with its round number."""
    return next({**table, "round": r["round"]} for r in t["rounds"] for table in r["tables"]
                if table["room"] == room)


async def opened_table(http: httpx.AsyncClient, tid: str, who: Entrant,
                       round_no: int) -> dict[str, Any]:
    """The table of round ``round_no`` the tournament sends ``who`` to (`my_table`), once open:
    the bracket's entry for it (``room``, ``players``, ``opened_at``)."""
    async def mine() -> dict[str, Any] | None:
        t = await tournament(http, tid, who)
        if t["my_table"] is None:
            return None
        table = table_of(t, t["my_table"])
        return table if table["round"] == round_no else None
    return await eventually(mine, f"{who.name}'s table of round {round_no} open")


def epoch(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


class Table(Seat):
    """One entrant's socket at one table: every event seen there, every ``next_table``."""

    def __init__(self, who: Entrant) -> None:
        super().__init__(who.name, who.token)
        self.who = who
        self.events: list[dict[str, Any]] = []
        self.told: list[dict[str, Any]] = []
        self.dealt_at: float | None = None  # when the first state with a hand dealt came

    async def recv(self) -> dict[str, Any]:
        message = await super().recv()
        if message["type"] == "state":
            self.events.extend(message.get("events") or [])
            view = message["view"]
            if self.dealt_at is None and view is not None and view["hand_no"] >= 0:
                self.dealt_at = time.time()
        elif message["type"] == "next_table":
            self.told.append(message)
        return message

    async def next_table(self, timeout: float = DEADLINE) -> dict[str, Any]:
        """The first ``next_table`` message (read on until one comes)."""
        async with asyncio.timeout(timeout):
            while not self.told:
                await self.recv()
        return self.told[0]

    def own_seat(self) -> int:
        assert self.first is not None and self.first["view"] is not None
        return int(self.first["view"]["seat"])


def _choose(view: dict[str, Any], knock: bool) -> dict[str, Any] | None:
    """A prompt player's move: draw from the stock, then (with ``knock``) knock (KNOCK-4) with
    the first card the engine takes for it, else discard."""
    legal = view["legal"]
    if "draw" in legal and (view.get("draws") or {}).get("from_stock"):
        return {"type": "draw", "source": "stock"}
    throws = view.get("throws") or {}
    if knock and "knock" in legal and throws.get("knock"):
        return {"type": "knock", "discard": throws["knock"][0]}
    if "discard" in legal and throws.get("discard"):
        return {"type": "discard", "card": throws["discard"][0]}
    return None


async def play_out(table: Table, prefix: str, knock: bool = True) -> dict[str, Any]:
    """Act at once whenever it is this seat's turn, until the match is over; the last state.
    Without ``knock`` the player never ends a hand: the others (or their stand-ins) do."""
    count, acted_at = 0, -1
    while True:
        state = table.state if table.state is not None else await table.recv()
        view = state["view"]
        if view is not None and view["game_over"]:
            return state
        if (view is not None and view["hand_no"] >= 0 and not view["hand_over"]
                and view["turn"] == view["seat"] and state["seq"] != acted_at):
            action = _choose(view, knock)
            if action is not None:
                acted_at = state["seq"]
                count += 1
                await asyncio.sleep(PACE)  # within the socket's rate
                await table.act(f"{prefix}-{count}", action)
                continue
        await table.recv()


def no_played_for(events: list[dict[str, Any]]) -> bool:
    return not any("played_for" in e for e in events)


def played_for(database_url: str, rooms: list[str]) -> dict[str, list[tuple[int, str | None]]]:
    """Per room, (seat, played_for) of every action of its match log, in order."""
    async def read() -> dict[str, list[tuple[int, str | None]]]:
        engine = make_engine(database_url)
        try:
            async with make_sessionmaker(engine)() as s:
                rows = (await s.execute(
                    select(Match.room_id, MatchAction.seat, MatchAction.played_for)
                    .join(Match, Match.id == MatchAction.match_id)
                    .where(Match.room_id.in_(rooms), MatchAction.seat.is_not(None))
                    .order_by(MatchAction.hand_no, MatchAction.seq))).all()
        finally:
            await engine.dispose()
        out: dict[str, list[tuple[int, str | None]]] = {room: [] for room in rooms}
        for room, seat, why in rows:
            out[room].append((int(seat), why))
        return out
    return pg.run_sync(read)

