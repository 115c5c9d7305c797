"""Many simultaneous ledger transactions on PostgreSQL, each in its own session and connection.

Transfers run in opposite directions between the same accounts (a deadlock without ordered row
locks), the same idempotency key is used by several transactions at once, and a hand is settled
by several at once. Afterwards the ledger's invariants hold and every key applied exactly once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Account, Transfer
from app.db.session import Pool, make_engine, make_sessionmaker
from app.services import accounts, ledger
from tests.db.ledger_helpers import bare_player, check_invariants

pytestmark = pytest.mark.postgres

Sessions = async_sessionmaker[AsyncSession]
Work = Callable[[AsyncSession], Awaitable[Any]]
TASKS = 60


@pytest.fixture
async def pg_sessions(pg_url: str) -> AsyncIterator[Sessions]:
    engine = make_engine(pg_url, Pool(size=TASKS, overflow=10))
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


async def _all_at_once(sessions: Sessions, works: list[Work]) -> list[Any]:
    """Run each work in its own transaction; all start together once every connection is open."""
    ready = asyncio.Barrier(len(works))

    async def one(work: Work) -> Any:
        async with sessions() as session, session.begin():
            await session.execute(select(1))  # hold a connection before the start
            await ready.wait()
            return await work(session)

    return await asyncio.gather(*(one(work) for work in works), return_exceptions=True)


def _unexpected(results: list[Any]) -> list[BaseException]:
    return [
        r for r in results
        if isinstance(r, BaseException) and not isinstance(r, ledger.InsufficientChips)
    ]


async def _transfer_count(sessions: Sessions, key: str) -> int:
    async with sessions() as session:
        query = select(func.count()).select_from(Transfer).where(Transfer.idempotency_key == key)
        return int(await session.scalar(query) or 0)


async def test_simultaneous_transfers_settlements_and_repeats(pg_sessions: Sessions) -> None:
    async with pg_sessions() as session, session.begin():
        await ledger.mint(session, "mint", 5000)
        bank = (await ledger.ensure_bank(session)).id
        wallets = [(await ledger.wallet_of(session, await bare_player(session))).id
                   for _ in range(2)]
        escrows = {seat: (await ledger.escrow_for(session, "room", seat)).id for seat in range(3)}
        for seat in range(3):
            await ledger.buy_in(session, f"buy:{seat}", "room", seat, 300)
        for n, wallet in enumerate(wallets):
            await ledger.transfer(session, f"fund:{n}", bank, wallet, 500, "grant")

    rng = random.Random(7)  # noqa: S311 - test data
    a, b = wallets
    works: list[Work] = []
    for n in range(36):  # opposite directions between the same two wallets, and the bank
        source, target = [(a, b), (b, a), (bank, a), (b, bank)][n % 4]
        amount = rng.randint(1, 120)
        works.append(lambda s, k=f"t:{n}", f=source, t=target, m=amount: ledger.transfer(
            s, k, f, t, m, "test"))
    for _ in range(8):  # one key, many transactions
        works.append(lambda s: ledger.transfer(s, "dup", a, bank, 77, "test"))
    payments = [(0, 2, 40), (1, 2, 10), (1, 0, 5)]
    for _ in range(8):  # one hand settled by many transactions
        works.append(lambda s: ledger.settle_hand(s, "match", 1, payments, 3, escrows))
    for _ in range(8):  # one mint, many transactions
        works.append(lambda s: ledger.mint(s, "mint:more", 250))
    rng.shuffle(works)

    results = await _all_at_once(pg_sessions, works)

    assert _unexpected(results) == []
    for key in ["dup", "mint:more", "hand:match:1:0:2", "hand:match:1:1:2", "hand:match:1:1:0"]:
        assert await _transfer_count(pg_sessions, key) == 1, key
    dup_ids = {r.id for r in results if isinstance(r, Transfer) and r.idempotency_key == "dup"}
    assert len(dup_ids) == 1
    settled = [r for r in results if isinstance(r, list)]
    assert len({tuple(t.id for t in r) for r in settled}) == 1  # all saw the same transfers
    assert [t.amount for t in settled[0]] == [120, 30, 15]
    async with pg_sessions() as session:
        balances = await check_invariants(session)
        assert sum(balances.values()) == 5250
        assert [balances[escrows[s]] for s in range(3)] == [300 - 120 + 15, 300 - 45, 450]


async def test_racing_account_creation_makes_one_account(pg_sessions: Sessions) -> None:
    async with pg_sessions() as session, session.begin():
        player = await bare_player(session)

    works: list[Work] = []
    for n in range(TASKS // 3):
        works.append(ledger.ensure_bank)
        works.append(lambda s: ledger.wallet_of(s, player))
        works.append(lambda s, seat=n % 2: ledger.escrow_for(s, "room", seat))
    results = await _all_at_once(pg_sessions, works)

    assert _unexpected(results) == []
    assert len({r.id for r in results}) == 4  # bank, wallet, two escrows
    async with pg_sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Account)) == 4


async def test_racing_registrations_of_one_username(pg_sessions: Sessions) -> None:
    async def register(session: AsyncSession) -> Any:
        return await accounts.register(session, "alice", "correct horse", starting_chips=100)

    results = await _all_at_once(pg_sessions, [register] * 10)

    players = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, accounts.UsernameTaken)]
    assert len(players) == 1 and len(refused) == 9, results
    async with pg_sessions() as session:
        balances = await check_invariants(session)
        assert sum(balances.values()) == 100
