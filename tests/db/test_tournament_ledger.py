"""Tournaments' chips, as a Hypothesis state machine over the service's transactions: random
registrations, unregistrations, cancellations and whole tournaments played to their end (each
table's result drawn at random) keep the ledger sound (no balance below zero, minted = held),
each wallet at what it started with less its entries plus its prizes, and each pot at its
entries while the tournament runs and empty after."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import Base
from app.db.models import Player
from app.db.session import make_engine, make_sessionmaker
from app.refusals import Refusal
from app.services import ledger, tournaments
from app.services.tournaments import TournamentSettings
from tests.db.ledger_helpers import bare_player, check_invariants

T = TypeVar("T")
START = 500
PLAYERS = 5
PRIZES = [[100], [70, 30], [50, 30, 20]]


class TournamentLedger(RuleBasedStateMachine):
    """Set `loop` and `sessions` on a subclass before running it."""

    loop: asyncio.AbstractEventLoop
    sessions: async_sessionmaker[AsyncSession]

    def run(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        async def transaction() -> T:
            async with self.sessions() as session, session.begin():
                return await work(session)
        return self.loop.run_until_complete(transaction())

    @initialize()
    def start(self) -> None:
        async def reset(session: AsyncSession) -> list[str]:
            for table in reversed(Base.metadata.sorted_tables):
                await session.execute(delete(table))
            ids = []
            for n in range(PLAYERS):
                player = await bare_player(session, f"p{n}")
                await ledger.grant(session, player, START)
                ids.append(player)
            return ids

        self.players = self.run(reset)
        self.wallets = dict.fromkeys(self.players, START)  # the model
        self.entered: dict[str, list[str]] = {}  # tournament -> its registered players
        self.entry: dict[str, int] = {}
        self.status: dict[str, str] = {}

    def _player(self, session: AsyncSession, player_id: str) -> Awaitable[Player | None]:
        return session.get(Player, player_id)

    @rule(size=st.integers(2, 4), entry=st.sampled_from([0, 1, 99, 250, 600]),
          prizes=st.sampled_from(PRIZES))
    def create(self, size: int, entry: int, prizes: list[int]) -> None:
        prizes = prizes[:size] if len(prizes) <= size else [100]

        async def work(s: AsyncSession) -> str:
            creator = await self._player(s, self.players[0])
            assert creator is not None
            made = await tournaments.create(s, creator, TournamentSettings(
                game="standard", players=size, table_seats=2, entry=entry, prizes=prizes,
                turn_seconds=30))
            return made.id

        tid = self.run(work)
        self.entered[tid], self.entry[tid], self.status[tid] = [], entry, "registering"

    @precondition(lambda self: bool(self.entered))
    @rule(data=st.data())
    def register(self, data: st.DataObject) -> None:
        tid = data.draw(st.sampled_from(list(self.entered)))
        pid = data.draw(st.sampled_from(self.players))

        async def work(s: AsyncSession) -> str:
            player = await self._player(s, pid)
            assert player is not None
            return (await tournaments.register(s, tid, player)).status

        try:
            status = self.run(work)
        except Refusal as exc:
            event(f"register: {exc.code}")
            assert (self.status[tid] != "registering" or pid in self.entered[tid]
                    or self.wallets[pid] < self.entry[tid]), exc.code
            return
        assert self.status[tid] == "registering" and pid not in self.entered[tid]
        self.entered[tid].append(pid)
        self.wallets[pid] -= self.entry[tid]
        self.status[tid] = status

    @precondition(lambda self: bool(self.entered))
    @rule(data=st.data())
    def unregister(self, data: st.DataObject) -> None:
        tid = data.draw(st.sampled_from(list(self.entered)))
        pid = data.draw(st.sampled_from(self.players))
        try:
            self.run(lambda s: tournaments.unregister(s, tid, pid))
        except Refusal as exc:
            event(f"unregister: {exc.code}")
            assert self.status[tid] != "registering" or pid not in self.entered[tid]
            return
        self.entered[tid].remove(pid)
        self.wallets[pid] += self.entry[tid]

    @precondition(lambda self: bool(self.entered))
    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        tid = data.draw(st.sampled_from(list(self.entered)))

        async def work(s: AsyncSession) -> Any:
            creator = await self._player(s, self.players[0])
            assert creator is not None
            return await tournaments.cancel(s, tid, creator)

        try:
            self.run(work)
        except Refusal as exc:
            event(f"cancel: {exc.code}")
            assert self.status[tid] != "registering"
            return
        for pid in self.entered[tid]:
            self.wallets[pid] += self.entry[tid]
        self.entered[tid], self.status[tid] = [], "cancelled"

    @precondition(lambda self: "running" in self.status.values())
    @rule(data=st.data())
    def play_to_the_end(self, data: st.DataObject) -> None:
        """Every table's match ends with a random result, round after round."""
        tid = data.draw(st.sampled_from([t for t, s in self.status.items()
                                               if s == "running"]))
        while tables := self.run(lambda s: tournaments.tables_to_open(s, tid)):
            for table in tables:
                seats = len(table.players)
                totals = data.draw(st.lists(st.integers(0, 3), min_size=seats, max_size=seats))
                winner = data.draw(st.none() | st.integers(0, seats - 1))
                self.run(lambda s, table=table, totals=totals, winner=winner:
                         tournaments.table_finished(s, table.room_id, "m", winner, totals))

        async def read(s: AsyncSession) -> dict[str, Any]:
            return await tournaments.shown(s, await tournaments.find(s, tid))

        shown = self.run(read)
        assert shown["status"] == "finished"
        assert sorted(x["player"] for x in shown["standings"]) == sorted(self.entered[tid])
        for standing in shown["standings"]:
            self.wallets[standing["player"]] += standing["prize"]
        assert sum(x["prize"] for x in shown["standings"]) == shown["prize_pool"]
        self.status[tid] = "finished"
        event("a tournament finished")

    @invariant()
    def sound(self) -> None:
        if not hasattr(self, "players"):
            return

        async def read(s: AsyncSession) -> tuple[dict[int, int], dict[str, int], dict[str, int]]:
            balances = await check_invariants(s)
            wallets = {p: (await ledger.wallet_of(s, p)).balance for p in self.players}
            pots = {t: (await ledger.pot_of(s, t)).balance for t in self.entered}
            return balances, wallets, pots

        _, wallets, pots = self.run(read)
        assert wallets == self.wallets
        for tid, pot in pots.items():
            held = len(self.entered[tid]) * self.entry[tid]
            assert pot == (held if self.status[tid] in ("registering", "running") else 0)


def test_tournament_ledger_state_machine(migrated_url: str) -> None:
    loop = asyncio.new_event_loop()
    engine = make_engine(migrated_url)
    machine = type("Machine", (TournamentLedger,), {
        "loop": loop, "sessions": make_sessionmaker(engine)})
    try:
        run_state_machine_as_test(machine, settings=settings(
            max_examples=25, stateful_step_count=25, deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
    finally:
        loop.run_until_complete(engine.dispose())
        loop.close()
