"""The chip ledger on SQLite and PostgreSQL: unit cases, then a stateful model test.

The state machine drives the ledger against a dict model. After every step: chips are
conserved (balances sum to what the bank minted), no balance is negative, each balance equals
its incoming minus outgoing transfers, and every balance equals the model's. Keys are sometimes
reused: a repeated key must apply nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest
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
from sqlalchemy import delete, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.base import Base
from app.db.models import Transfer
from app.db.session import make_engine, make_sessionmaker
from app.services import ledger
from app.services.ledger import InsufficientChips
from tests.db.ledger_helpers import bare_player, check_invariants

Sessions = async_sessionmaker[AsyncSession]


async def test_mint_raises_bank_balance_and_minted_together(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        made = await ledger.mint(session, "m1", 500)
        bank = await ledger.ensure_bank(session)

    assert (made.from_account, made.to_account, made.amount) == (None, bank.id, 500)
    async with sessions() as session:
        assert await ledger.totals(session) == (500, 500)
        assert await ledger.balance(session, bank.id) == 500
        await check_invariants(session)


async def test_transfer_moves_chips_and_records_history(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await ledger.mint(session, "m1", 100)
        bank = await ledger.ensure_bank(session)
        wallet = await ledger.wallet_of(session, await bare_player(session))
        moved = await ledger.transfer(session, "t1", bank.id, wallet.id, 30, "grant")

    async with sessions() as session:
        assert await ledger.balance(session, bank.id) == 70
        assert await ledger.balance(session, wallet.id) == 30
        history = await ledger.account_history(session, wallet.id)
        assert [t.id for t in history] == [moved.id]
        assert [t.idempotency_key for t in await ledger.account_history(session, bank.id)] == [
            "m1", "t1"]
        await check_invariants(session)


async def test_accounts_are_created_once(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        player = await bare_player(session)
        assert (await ledger.wallet_of(session, player)).id == (
            await ledger.wallet_of(session, player)).id
        assert (await ledger.escrow_for(session, "room", 1)).id == (
            await ledger.escrow_for(session, "room", 1)).id
        assert (await ledger.escrow_for(session, "room", 0)).id != (
            await ledger.escrow_for(session, "room", 1)).id
        assert (await ledger.ensure_bank(session)).id == (await ledger.ensure_bank(session)).id


async def test_insufficient_chips_changes_nothing(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await ledger.mint(session, "m1", 10)
        bank = await ledger.ensure_bank(session)
        escrow = await ledger.escrow_for(session, "room", 0)

    with pytest.raises(InsufficientChips) as raised:
        async with sessions() as session, session.begin():
            await ledger.transfer(session, "t1", bank.id, escrow.id, 11, "buy_in")
    assert (raised.value.code, raised.value.balance, raised.value.amount) == (
        "insufficient_chips", 10, 11)

    async with sessions() as session:
        assert await ledger.balance(session, bank.id) == 10
        assert await ledger.find_transfer(session, "t1") is None
        await check_invariants(session)


async def test_repeated_key_applies_once(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await ledger.mint(session, "m1", 100)
        await ledger.mint(session, "m1", 100)  # the same mint again: nothing
        bank = await ledger.ensure_bank(session)
        escrow = await ledger.escrow_for(session, "room", 0)
        first = await ledger.transfer(session, "t1", bank.id, escrow.id, 40, "buy_in")
    async with sessions() as session, session.begin():
        again = await ledger.transfer(session, "t1", bank.id, escrow.id, 40, "buy_in")
        other = await ledger.transfer(session, "t1", escrow.id, bank.id, 5, "cash_out")

    assert again.id == first.id == other.id
    async with sessions() as session:
        assert await ledger.balance(session, escrow.id) == 40
        assert await ledger.totals(session) == (100, 100)
        await check_invariants(session)


async def test_bad_amounts_and_self_transfers_are_refused(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        await ledger.mint(session, "m1", 100)
        bank = await ledger.ensure_bank(session)
        escrow = await ledger.escrow_for(session, "room", 0)
        for amount in (0, -5, True, 1.5):
            with pytest.raises(ValueError, match="positive integer"):
                await ledger.transfer(session, f"bad{amount}", bank.id, escrow.id, amount, "x")
        with pytest.raises(ValueError, match="to itself"):
            await ledger.transfer(session, "self", bank.id, bank.id, 1, "x")
        with pytest.raises(ledger.UnknownAccount):
            await ledger.transfer(session, "ghost", bank.id, 10**9, 1, "x")


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE accounts SET balance = -1",
        "INSERT INTO transfers (idempotency_key, from_account, to_account, amount, reason)"
        " VALUES ('raw', NULL, :bank, 0, 'raw')",
        "INSERT INTO transfers (idempotency_key, from_account, to_account, amount, reason)"
        " VALUES ('raw', :bank, :bank, 5, 'raw')",
        "INSERT INTO transfers (idempotency_key, from_account, to_account, amount, reason)"
        " VALUES ('m1', NULL, :bank, 5, 'raw')",
        "INSERT INTO accounts (kind, balance, minted) VALUES ('bank', 0, 0)",
        "INSERT INTO accounts (kind, balance) VALUES ('wallet', 0)",
        "INSERT INTO accounts (kind, balance, minted, room_id, seat)"
        " VALUES ('escrow', 0, 5, 'r', 0)",
        "UPDATE accounts SET balance = minted + 1 WHERE kind = 'bank'",
        "UPDATE accounts SET kind = 'vault'",
    ],
    ids=["negative-balance", "zero-amount", "self-transfer", "duplicate-key", "second-bank",
         "ownerless-wallet", "minting-escrow", "bank-above-minted", "unknown-kind"],
)
async def test_constraints_refuse_raw_sql(sessions: Sessions, statement: str) -> None:
    async with sessions() as session, session.begin():
        await ledger.mint(session, "m1", 100)
        bank = await ledger.ensure_bank(session)

    with pytest.raises(IntegrityError):
        async with sessions() as session, session.begin():
            params = {"bank": bank.id} if ":bank" in statement else {}
            await session.execute(text(statement), params)

    async with sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Transfer)) == 1
        await check_invariants(session)


async def test_settle_hand_pays_capped_by_escrow_and_once(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        escrows = {seat: (await ledger.escrow_for(session, "room", seat)).id for seat in range(3)}
        for seat, chips in {0: 50, 1: 500, 2: 0}.items():
            if chips:
                await ledger.buy_in(session, f"buy:{seat}", "room", seat, chips)
        # Seat 0 owes 30 points at stake 2 (60 chips) but holds 50; seat 1 owes 10 (20 chips).
        payments = [(0, 2, 30), (1, 2, 10)]
        moved = await ledger.settle_hand(session, "match", 3, payments, 2, escrows)

    assert [(t.idempotency_key, t.amount) for t in moved] == [
        ("hand:match:3:0:2", 50), ("hand:match:3:1:2", 20)]
    assert all((t.match_id, t.hand_no, t.reason) == ("match", 3, "hand") for t in moved)
    async with sessions() as session, session.begin():
        again = await ledger.settle_hand(session, "match", 3, payments, 2, escrows)
        assert [t.id for t in again] == [t.id for t in moved]
        balances = await check_invariants(session)
    assert [balances[escrows[seat]] for seat in range(3)] == [0, 480, 70]


async def test_settle_hand_with_stake_zero_moves_nothing(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        escrows = {seat: (await ledger.escrow_for(session, "room", seat)).id for seat in range(2)}
        assert await ledger.settle_hand(session, "match", 0, [(0, 1, 25)], 0, escrows) == []


async def test_buy_in_and_cash_out(sessions: Sessions) -> None:
    async with sessions() as session, session.begin():
        player = await bare_player(session)
        await ledger.grant(session, player, 100)
        wallet = await ledger.wallet_of(session, player)
        await ledger.buy_in(session, "in:p", "room", 0, 80, player_id=player)
        await ledger.buy_in(session, "in:bot", "room", 1, 80)  # a bot: from the bank
        with pytest.raises(InsufficientChips):
            await ledger.buy_in(session, "in:p2", "room", 2, 21, player_id=player)
        escrows = {s: (await ledger.escrow_for(session, "room", s)).id for s in (0, 1)}
        await ledger.settle_hand(session, "m", 0, [(1, 0, 5)], 3, escrows)

    async with sessions() as session, session.begin():
        out = await ledger.cash_out(session, "out:p", "room", 0, player_id=player)
        bot_out = await ledger.cash_out(session, "out:bot", "room", 1)
        assert await ledger.cash_out(session, "out:empty", "room", 0, player_id=player) is None
        assert (await ledger.cash_out(session, "out:p", "room", 0, player_id=player)) == out

    assert out is not None and bot_out is not None
    assert (out.amount, bot_out.amount) == (95, 65)
    async with sessions() as session:
        assert await ledger.balance(session, wallet.id) == 115
        balances = await check_invariants(session)
        assert balances[escrows[0]] == balances[escrows[1]] == 0


async def test_top_up_only_when_broke_and_once_per_period(sessions: Sessions) -> None:
    """A player at zero is paid from the bank (minting what it lacks), with key topup:{id}:{n};
    a second claim within the period is refused with the time of the next, and so is a claim by
    a player whose chips sit in a seat's escrow."""
    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    hour = timedelta(hours=1)
    async with sessions() as session, session.begin():
        player = await bare_player(session)
        first = await ledger.top_up(session, player, 50, hour, start)
    assert (first.idempotency_key, first.amount, first.reason) == (f"topup:{player}:0", 50,
                                                                   "topup")
    async with sessions() as session, session.begin():
        wallet = await ledger.wallet_of(session, player)
        escrow = await ledger.escrow_for(session, "room", 0)
        await ledger.transfer(session, "sit", wallet.id, escrow.id, 50, "buy_in")
    with pytest.raises(ledger.StillHasChips):
        async with sessions() as session, session.begin():
            await ledger.top_up(session, player, 50, hour, start + 2 * hour, [escrow.id])
    async with sessions() as session, session.begin():
        await ledger.transfer(session, "lose", escrow.id, (await ledger.ensure_bank(session)).id,
                              50, "hand")
    with pytest.raises(ledger.TopUpTooSoon) as refused:
        async with sessions() as session, session.begin():
            await ledger.top_up(session, player, 50, hour, start + hour / 2, [escrow.id])
    assert refused.value.next_at == start + hour
    async with sessions() as session, session.begin():
        second = await ledger.top_up(session, player, 50, hour, start + hour, [escrow.id])
    assert second.idempotency_key == f"topup:{player}:1" and second.created_at == start + hour
    async with sessions() as session:
        assert await ledger.balance(session, wallet.id) == 50
        await check_invariants(session)


async def test_two_top_up_claims_at_once_pay_once(sessions: Sessions) -> None:
    """Both claims lock the same rows in one order: the second waits, then sees the chips."""
    now = datetime(2026, 3, 1, tzinfo=UTC)
    async with sessions() as session, session.begin():
        player = await bare_player(session)
        await ledger.ensure_bank(session)
        await ledger.wallet_of(session, player)

    async def claim() -> str:
        try:
            async with sessions() as session, session.begin():
                await ledger.top_up(session, player, 40, timedelta(days=1), now)
            return "paid"
        except ledger.StillHasChips:
            return "refused"

    assert sorted(await asyncio.gather(claim(), claim())) == ["paid", "refused"]
    async with sessions() as session:
        assert await ledger.balance(session, (await ledger.wallet_of(session, player)).id) == 40
        await check_invariants(session)


# --- the state machine ----------------------------------------------------------------------

T = TypeVar("T")
ROOM = "room"
TOP_UP_PERIOD = timedelta(hours=1)
SEATS = 4

MACHINE_SETTINGS = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


class LedgerMachine(RuleBasedStateMachine):
    """Set `loop` and `sessions` on a subclass before running it."""

    loop: asyncio.AbstractEventLoop
    sessions: async_sessionmaker[AsyncSession]

    def __init__(self) -> None:
        super().__init__()
        self.balances: dict[int, int] = {}  # the model
        self.minted = 0
        self.applied: dict[str, int] = {}  # idempotency key -> transfer id (-1: a settlement)
        self.amounts: dict[str, int] = {}  # settlement key -> chips moved
        self.mint_keys: list[str] = []
        self.transfer_keys: list[str] = []
        self.hands: list[tuple[int, list[tuple[int, int, int]], int]] = []
        self.escrows: dict[int, int] = {}
        self.counter = 0
        self.wallets: dict[int, str] = {}  # wallet id -> its player
        self.last_top_up: dict[int, datetime] = {}  # wallet id -> time of its latest top-up
        self.clock = datetime(2026, 1, 1, tzinfo=UTC)  # the machine's own time, only forward

    def run(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        async def transaction() -> T:
            async with self.sessions() as session, session.begin():
                return await work(session)

        return self.loop.run_until_complete(transaction())

    def fresh_key(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    @initialize()
    def start(self) -> None:
        async def reset(session: AsyncSession) -> int:
            for table in reversed(Base.metadata.sorted_tables):
                await session.execute(delete(table))
            bank = await ledger.ensure_bank(session)
            return bank.id

        self.bank = self.run(reset)
        self.balances[self.bank] = 0

    @rule(seat=st.integers(0, SEATS - 1))
    def open_escrow(self, seat: int) -> None:
        account = self.run(lambda s: ledger.escrow_for(s, ROOM, seat))
        self.escrows[seat] = account.id
        self.balances.setdefault(account.id, 0)

    @rule()
    def open_wallet(self) -> None:
        async def work(session: AsyncSession) -> tuple[int, str]:
            player = await bare_player(session)
            return (await ledger.wallet_of(session, player)).id, player

        wallet, player = self.run(work)
        self.balances[wallet] = 0
        self.wallets[wallet] = player

    @precondition(lambda self: bool(self.wallets))
    @rule(data=st.data(), amount=st.integers(1, 300), wait=st.sampled_from([0, 3599, 3600, 9000]))
    def top_up(self, data: st.DataObject, amount: int, wait: int) -> None:
        """A claim `wait` seconds after the previous step, with a period of an hour; the
        player's escrow counts as theirs (one seat's escrow, when there is one)."""
        wallet = data.draw(st.sampled_from(sorted(self.wallets)))
        escrow = [self.escrows[min(self.escrows)]] if self.escrows else []
        self.clock += timedelta(seconds=wait)
        now = self.clock
        try:
            made = self.run(lambda s: ledger.top_up(s, self.wallets[wallet], amount, TOP_UP_PERIOD,
                                                    now, escrow))
        except ledger.StillHasChips:
            event("top-up: has chips")
            assert any(self.balances[a] > 0 for a in [wallet, *escrow])
            return
        except ledger.TopUpTooSoon as exc:
            event("top-up: too soon")
            assert exc.next_at == self.last_top_up[wallet] + TOP_UP_PERIOD > now
            return
        assert all(self.balances[a] == 0 for a in [wallet, *escrow])
        assert wallet not in self.last_top_up or self.last_top_up[wallet] + TOP_UP_PERIOD <= now
        assert (made.amount, made.to_account, made.created_at) == (amount, wallet, now)
        event("top-up: paid")
        self.applied[made.idempotency_key] = made.id
        self.last_top_up[wallet] = now
        shortfall = max(0, amount - self.balances[self.bank])
        self.minted += shortfall
        self.balances[self.bank] += shortfall - amount
        self.balances[wallet] += amount

    @precondition(lambda self: bool(self.wallets))
    @rule(data=st.data(), amount=st.integers(-400, 400).filter(bool))
    def correct(self, data: st.DataObject, amount: int) -> None:
        """An admin's correction (PROTOCOL.md §9): a compensating transfer between the bank
        and a wallet, the bank minting what it lacks; never below zero."""
        wallet = data.draw(st.sampled_from(sorted(self.wallets)))
        key = self.fresh_key("correction")
        try:
            made = self.run(lambda s: ledger.correct(s, key, self.wallets[wallet], amount))
        except ledger.InsufficientChips:
            event("correction: refused")
            assert amount < 0 and self.balances[wallet] < -amount
            return
        event("correction: made")
        assert made.reason == "correction" and made.amount == abs(amount)
        self.applied[key] = made.id
        if amount > 0:
            shortfall = max(0, amount - self.balances[self.bank])
            self.minted += shortfall
            self.balances[self.bank] += shortfall - amount
        else:
            self.balances[self.bank] -= amount
        self.balances[wallet] += amount

    @rule(amount=st.integers(1, 500), reuse=st.booleans())
    def mint(self, amount: int, reuse: bool) -> None:
        key = self.mint_keys[-1] if reuse and self.mint_keys else self.fresh_key("mint")
        made = self.run(lambda s: ledger.mint(s, key, amount))
        if key in self.applied:
            assert made.id == self.applied[key]
            return
        self.applied[key] = made.id
        self.mint_keys.append(key)
        self.minted += amount
        self.balances[self.bank] += amount

    @precondition(lambda self: len(self.balances) >= 2)
    @rule(data=st.data(), amount=st.integers(1, 400), reuse=st.booleans())
    def transfer(self, data: st.DataObject, amount: int, reuse: bool) -> None:
        ids = sorted(self.balances)
        source, target = data.draw(st.permutations(ids))[:2]
        key = (
            data.draw(st.sampled_from(self.transfer_keys))
            if reuse and self.transfer_keys
            else self.fresh_key("t")
        )
        try:
            made = self.run(lambda s: ledger.transfer(s, key, source, target, amount, "test"))
        except ledger.InsufficientChips:
            assert key not in self.applied and self.balances[source] < amount
            return
        if key in self.applied:
            assert made.id == self.applied[key]
            return
        assert self.balances[source] >= amount
        self.applied[key] = made.id
        self.transfer_keys.append(key)
        self.balances[source] -= amount
        self.balances[target] += amount

    @precondition(lambda self: len(self.escrows) >= 2)
    @rule(
        data=st.data(),
        stake=st.integers(0, 5),
        count=st.integers(0, 4),
        again=st.booleans(),
    )
    def settle(self, data: st.DataObject, stake: int, count: int, again: bool) -> None:
        if again and self.hands:
            hand_no, payments, stake = data.draw(st.sampled_from(self.hands))
        else:
            seats = sorted(self.escrows)
            payment = st.tuples(st.sampled_from(seats), st.sampled_from(seats), st.integers(0, 50))
            payments = data.draw(st.lists(payment, max_size=count))
            hand_no = len(self.hands)
            self.hands.append((hand_no, payments, stake))
        escrows = dict(self.escrows)
        made = self.run(
            lambda s: ledger.settle_hand(s, "match", hand_no, payments, stake, escrows)
        )
        expected = self.model_settle(hand_no, payments, stake)
        assert [(t.idempotency_key, t.amount) for t in made] == expected

    def model_settle(
        self, hand_no: int, payments: list[tuple[int, int, int]], stake: int
    ) -> list[tuple[str, int]]:
        owed: dict[tuple[int, int], int] = {}
        for payer, payee, points in payments:
            if points > 0 and payer != payee:
                owed[(payer, payee)] = owed.get((payer, payee), 0) + points
        if stake == 0:
            return []
        moved: list[tuple[str, int]] = []
        for (payer, payee), points in owed.items():
            key = ledger.hand_key("match", hand_no, payer, payee)
            if key in self.applied:
                moved.append((key, self.amounts[key]))
                continue
            source, target = self.escrows[payer], self.escrows[payee]
            amount = min(points * stake, self.balances[source])
            if amount > 0:
                self.applied[key] = -1
                self.amounts[key] = amount
                self.balances[source] -= amount
                self.balances[target] += amount
                moved.append((key, amount))
        return moved

    @invariant()
    def ledger_is_sound(self) -> None:
        if not hasattr(self, "bank"):
            return
        balances = self.run(check_invariants)
        assert balances == self.balances
        assert sum(balances.values()) == self.minted
        assert self.run(ledger.totals) == (self.minted, self.minted)


def test_ledger_state_machine(migrated_url: str) -> None:
    loop = asyncio.new_event_loop()
    engine = make_engine(migrated_url)
    attributes: dict[str, Any] = {"loop": loop, "sessions": make_sessionmaker(engine)}
    machine = type("BoundLedgerMachine", (LedgerMachine,), attributes)
    try:
        run_state_machine_as_test(machine, settings=MACHINE_SETTINGS)
    finally:
        loop.run_until_complete(engine.dispose())
        loop.close()
